# SPDX-License-Identifier: MIT
# cli_main.sh: the tickscope command's dispatch: help, version, methods, unknown commands.
# (The tour, `tickscope` with no arguments, measures for seconds: cli_tour.sh runs it.)
# Usage: bash cli_main.sh /path/to/tickscope
set -u

T=${1:?usage: cli_main.sh /path/to/tickscope}
[ -x "$T" ] || { echo "FAIL: '$T' is not an executable"; exit 1; }
D=$(mktemp -d "${TMPDIR:-/tmp}/tks_cli_main.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
FAILED=0
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
pass() { echo "ok: $*"; }
run() {
    "$T" "$@" >"$D/out" 2>"$D/err"
    RC=$?
}

for args in "--help" "help" "-h"; do
    run $args
    if [ "$RC" -ne 0 ] || ! grep -q '^usage: tickscope' "$D/out" || [ -s "$D/err" ]; then
        fail "'tickscope $args': exit $RC, or no usage on stdout, or something on stderr"
    else
        grep -q 'validate' "$D/out" && grep -q 'resolution' "$D/out" && grep -q 'methods' "$D/out" ||
            fail "'tickscope $args': the help does not list validate, resolution and methods"
        pass "'tickscope $args': exit 0"
    fi
done

for args in "version" "--version"; do
    run $args
    if [ "$RC" -ne 0 ] || ! grep -Eq '^tickscope [0-9]+\.[0-9]+\.[0-9]+$' "$D/out"; then
        fail "'tickscope $args': exit $RC, output '$(cat "$D/out")'"
    else
        pass "'tickscope $args': $(cat "$D/out")"
    fi
done

run frobnicate
if [ "$RC" -ne 2 ] || ! grep -q "^tickscope: error: unknown command 'frobnicate'" "$D/err" || [ -s "$D/out" ]; then
    fail "unknown command: exit $RC (expected 2), stderr '$(head -n1 "$D/err")'"
else
    pass "unknown command: exit 2"
fi

run methods
if [ "$RC" -ne 0 ]; then
    fail "methods: exit $RC"
else
    # TKS_TARGET_ARCH: the machine the binary is for (CMake sets it; a cross build runs it under
    # an emulator, where uname -m names the host).
    case "${TKS_TARGET_ARCH:-$(uname -m)}" in
    x86_64 | i?86)
        for m in cpuid rdtscp lfence mfence serialize rdtsc cr0; do
            grep -q "^$m " "$D/out" || fail "methods: no row for $m"
        done
        grep -Eq '^lfence +LFENCE; RDTSC; LFENCE +RDTSCP; LFENCE .* (yes|no) *$' "$D/out" ||
            fail "methods: the lfence row does not show its sequences and yes/no"
        grep -Eq '^cr0 .* kernel only *$' "$D/out" || fail "methods: cr0 is not marked 'kernel only'"
        grep -Eq '^(isb|cntvct) ' "$D/out" && fail "methods: arm64 methods listed on x86"
        ;;
    aarch64 | arm64)
        grep -q '^isb ' "$D/out" || fail "methods: no row for isb"
        ;;
    esac
    pass "methods: exit 0, $(grep -c . "$D/out") lines"
fi

run methods extra
[ "$RC" -eq 2 ] && grep -q '^tickscope: error: ' "$D/err" || fail "'methods extra': exit $RC, expected 2"
run methods --help
[ "$RC" -eq 0 ] && grep -q '^usage: tickscope methods' "$D/out" || fail "'methods --help': exit $RC"
run tour --bogus
[ "$RC" -eq 2 ] && grep -q '^tickscope: error: ' "$D/err" || fail "'tour --bogus': exit $RC, expected 2"

if [ "$FAILED" -ne 0 ]; then
    echo "$FAILED check(s) failed"
    exit 1
fi
echo "all checks passed"
