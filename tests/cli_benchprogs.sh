# SPDX-License-Identifier: MIT
# cli_benchprogs.sh: the programs of bench/ as a user meets them: each answers --help with its
# usage (not by taking --help for a path), refuses an unknown option with exit 2, and starts
# through bench_start, which line-buffers stdout so that `make bench | tee` shows each figure as it
# is measured instead of everything at the exit. Usage: bash cli_benchprogs.sh /path/to/tickscope
set -u
T=${1:?usage: bash $0 /path/to/tickscope}
SRC="$(cd "$(dirname "$0")/.." && pwd)"
BENCH="$(dirname "$T")/bench"
FAILED=0
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
pass() { echo "ok: $*"; }
D=$(mktemp -d "${TMPDIR:-/tmp}/tks_benchprogs.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
if [ ! -d "$BENCH" ]; then
    echo "SKIP: no bench/ in this build (configured with -DTKS_BUILD_BENCH=OFF)"
    exit 77
fi
n=0
for src in "$SRC"/bench/bench_*.c; do
    name=$(basename "$src" .c)
    grep -q 'bench_start(' "$src" || fail "$name.c does not start through bench_start"
    [ -x "$BENCH/$name" ] || { fail "$name was not built"; continue; }
    n=$((n + 1))
    "$BENCH/$name" --help >"$D/help.out" 2>"$D/help.err"
    rc=$?
    if [ "$rc" -eq 0 ] && head -n1 "$D/help.out" | grep -q "^usage: $name" && [ ! -s "$D/help.err" ]; then
        pass "$name --help: $(head -n1 "$D/help.out")"
    else
        fail "$name --help: exit $rc, $(head -n2 "$D/help.out" "$D/help.err")"
    fi
    "$BENCH/$name" --no-such-option >"$D/bad.out" 2>"$D/bad.err"
    rc=$?
    [ "$rc" -eq 2 ] && grep -q "unknown option '--no-such-option'" "$D/bad.err" && [ ! -s "$D/bad.out" ] &&
        pass "$name --no-such-option: exit 2" || fail "$name --no-such-option: exit $rc, $(cat "$D/bad.err")"
done
[ "$n" -ge 7 ] && pass "$n bench programs checked" || fail "only $n bench programs found in $BENCH"
if [ "$FAILED" -ne 0 ]; then
    echo "$FAILED check(s) failed"
    exit 1
fi
echo "all checks passed"
