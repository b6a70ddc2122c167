#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# man_options.sh: runs man_options.py on the real pages, then on copies with one defect each (a
# page for a command that does not exist, an option dropped, an option invented), which it must
# reject: the check itself is checked.
T=${1:?usage: man_options.sh TICKSCOPE BENCH_PROG SOURCE_DIR}
B=${2:?}
S=${3:?}
command -v python3 >/dev/null || { echo "SKIP: python3 is needed (apt-get install python3)"; exit 77; }
CHECK="$S/tests/install/man_options.py"
D=$(mktemp -d "${TMPDIR:-/tmp}/tks_man.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
FAILED=0

python3 "$CHECK" "$T" "$B" "$S/man" || FAILED=1

# broken NAME EDIT: a copy of the pages with EDIT applied must be rejected naming the defect.
broken() {
    local name=$1 want=$2 edit=$3
    rm -rf "$D/man" && cp -r "$S/man" "$D/man"
    (cd "$D/man" && eval "$edit")
    if python3 "$CHECK" "$T" "$B" "$D/man" >"$D/out" 2>&1; then
        echo "FAIL: $name: accepted"; FAILED=1
    elif ! grep -q -- "$want" "$D/out"; then
        echo "FAIL: $name: rejected without naming '$want':"; cat "$D/out"; FAILED=1
    else
        echo "ok: $name rejected"
    fi
}
broken "page without a command" "documents 'nosuch'" \
    "printf 'tickscope-nosuch(1)\n\n# NAME\n\nx - y\n' > tickscope-nosuch.1.scd"
broken "command without a page" "command 'resolution' has no man page" "rm tickscope-resolution.1.scd"
broken "option missing from a page" "--no-chain is in --help" \
    "sed -i 's/^\*--no-chain\*/no-chain/' tickscope-validate.1.scd"
broken "option only in a page" "--frobnicate is in OPTIONS" \
    "sed -i 's/^# OPTIONS\$/# OPTIONS\\n\\n*--frobnicate*\\n\\tx\\n/' tickscope-info.1.scd"
broken "tks_main option missing" "--benchmark_list_tests is in --help" \
    "sed -i 's/^\*--benchmark_list_tests\*/x/' tickscope-bench.3.scd"
broken "page not in tickscope.1's SEE ALSO" "SEE ALSO does not name tickscope-region.3" \
    "sed -i 's/, \\*tickscope-region\\*(3)//' tickscope.1.scd"
broken "command not in tickscope.1" "does not list command 'methods'" \
    "sed -i 's/^\*methods\*$/methods/' tickscope.1.scd"
exit $FAILED
