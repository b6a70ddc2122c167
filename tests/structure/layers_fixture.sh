#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# layers_fixture.sh SOURCE_DIR: tests/structure/layers.py passes on a two-layer tree that keeps
# the rules (tests/structure/fixtures/layers) and fails, naming the file, on each way of breaking
# one: a lower public header including a higher one, a lower source including a higher folder's
# header or a higher public header, a lower source calling a higher layer's function, a folder
# the table does not list.
set -u
root=${1:?usage: layers_fixture.sh SOURCE_DIR}
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tks_layers.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
fresh() { rm -rf "$tmp/t"; cp -r "$root/tests/structure/fixtures/layers" "$tmp/t"; }
expect() { # expect pass|fail WHAT [GREP]
    local want=$1 what=$2 pattern=${3:-}
    python3 "$root/tests/structure/layers.py" "$tmp/t" >"$tmp/out" 2>&1
    local rc=$?
    if [ "$want" = pass ] && [ $rc -eq 0 ]; then
        echo "ok: $what"
    elif [ "$want" = fail ] && [ $rc -ne 0 ] && grep -q -- "$pattern" "$tmp/out"; then
        echo "ok: $what: $(grep -m1 FAIL "$tmp/out")"
    else
        echo "FAIL: $what (exit $rc): $(cat "$tmp/out")"
        fails=$((fails + 1))
    fi
}
fresh
expect pass "the fixture as it is"
fresh
sed -i 's|#include "common.h"|#include "common.h"\n#include "high.h"|' "$tmp/t/include/tickscope/low.h"
expect fail "a lower public header includes a higher one" "tickscope/low.h (layer src/low) includes high.h"
fresh
printf '#include "high/high_internal.h"\n' >>"$tmp/t/src/low/low.c"
printf '/* high_internal.h */\n' >"$tmp/t/src/high/high_internal.h"
expect fail "a lower source includes a higher folder's header" 'src/low/low.c:.*includes "high/high_internal.h"'
fresh
printf '#include "tickscope/high.h"\n' >>"$tmp/t/src/low/low.c"
expect fail "a lower source includes a higher public header" "src/low/low.c:.*includes tickscope/high.h"
fresh
printf 'int tks_low2(void)\n{\n    return tks_high(1);\n}\n' >>"$tmp/t/src/low/low.c"
expect fail "a lower source calls a higher function" "src/low/low.c: .*calls tks_high"
fresh
mkdir "$tmp/t/src/other"
expect fail "a folder the table does not list" "src/other/ is not in"
[ $fails -eq 0 ] && echo "all layer rules fail when broken" || exit 1
