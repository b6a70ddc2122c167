#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# sizes.sh SOURCE_DIR: no source file of the library, the command, the module, the public headers,
# the benchmarks, the examples or the tests is over 500 lines: past that a file holds more than
# one purpose.
set -u
root=${1:?usage: sizes.sh SOURCE_DIR}
limit=500
status=0
n=0
while IFS= read -r f; do
    n=$((n + 1))
    lines=$(wc -l <"$f")
    if [ "$lines" -gt "$limit" ]; then
        echo "FAIL: ${f#"$root"/} has $lines lines (at most $limit)"
        status=1
    fi
done < <(find "$root/src" "$root/include" "$root/kmod" "$root/bench" "$root/examples" "$root/tests" \
              -name '*.[ch]' -o -name '*.cc')
echo "$n files checked"
exit $status
