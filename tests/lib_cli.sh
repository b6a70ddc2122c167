# SPDX-License-Identifier: MIT
# lib_cli.sh: what the command-line tests share, sourced after setting CMD (the subcommand under
# test) and NAME (a label for the temporary directory). Defines T, D, fail, pass, skip, skip_rest,
# run, runb, unprivileged, privileged, no_temps, expect_usage, expect_failure (for commands that
# take --budget) and finish. Not a test itself (CTest runs tests/cli_*.sh only).

T=${1:?usage: bash $0 /path/to/tickscope}
[ -x "$T" ] || { echo "FAIL: '$T' is not an executable"; exit 1; }
command -v python3 >/dev/null || { echo "SKIP: python3 is needed to check the JSON (Debian package python3)"; exit 77; }

D=$(mktemp -d "${TMPDIR:-/tmp}/tks_$NAME.XXXXXX") || exit 1
trap 'chmod -R u+w "$D" 2>/dev/null; rm -rf "$D"' EXIT
FAILED=0
SKIPPED=0
RUN_AS=()
# The calibration cache of the tests stays in the temporary directory, never in the user's home.
export TICKSCOPE_CACHE_DIR="$D/cache"
# The method `tickscope methods` marks as the default on this CPU (lfence, or lfence_rdtsc where
# there is no RDTSCP, isb on arm64): what tests that measure name with --method.
default_method() { "$T" methods 2>/dev/null | awk '/yes \(the default\) *$/ {print $1; exit}'; }
# cpu_truth KEY: what the CPU itself says (tests/cpu_truth.h: CPUID read by tks_cpu_truth, never
# the library under test): default_method (the method the policy must pick here), fenced_both
# (1 when that method is fenced at both ends), rdtscp, lfence_serialising. A skip for want of
# hardware is decided from these, and truth_default_method holds the code's default to them.
cpu_truth() { "$(dirname "$T")/tests/tks_cpu_truth" 2>/dev/null | awk -v k="$1" '$1 == k {print $2; exit}'; }
# truth_default_method: sets M to the CPU's default method (cpu_truth) after checking that
# `tickscope methods` marks the same one as the default: a failure, never a skip, when it does not
# (M is then empty). Not in $(...): fail must count in this shell.
truth_default_method() {
    local got
    M=$(cpu_truth default_method)
    got=$(default_method)
    if [ -z "$M" ]; then
        fail "tks_cpu_truth (in tests/ beside $T) did not run: this CPU's default method is unknown"
    elif [ "$got" != "$M" ]; then
        fail "tickscope methods marks '$got' as the default; this CPU's features (CPUID) say '$M'"
        M=
    fi
}
# emulated_target: 0 (true) when this build's programs run under an emulator (a target of another
# architecture than the machine's: the portability matrix's arm64 under QEMU user mode); i386 on
# x86-64 runs natively.
emulated_target() {
    local t=${TKS_TARGET_ARCH:-$(uname -m)} h
    h=$(uname -m)
    case "$t" in x86_64 | AMD64 | amd64 | i?86) t=x86 ;; esac
    case "$h" in x86_64 | i?86) h=x86 ;; esac
    [ "$t" != "$h" ]
}
# coarse_clock_ok: 0 (true) on a target other than x86, whose counter may read 0 ticks for a short
# window (qemu-aarch64's does): a check of such a window's figure is skipped there, not failed. On
# x86 the TSC always moves across a window: a 0 is a defect. TKS_TARGET_ARCH is the build's target.
coarse_clock_ok() {
    case "${TKS_TARGET_ARCH:-$(uname -m)}" in x86_64 | AMD64 | amd64 | i?86) return 1 ;; esac
}
# i386_target: 0 (true) on a build for 32-bit x86, whose latency windows hold the compiler's
# spills of a carried register (docs/benchmarks.md): forty adds read 38 there.
i386_target() {
    case "${TKS_TARGET_ARCH:-$(uname -m)}" in i?86) return 0 ;; esac
    return 1
}
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
pass() { echo "ok: $*"; }
# skip REASON: a part of the test cannot run here. The rest goes on; finish then reports the test
# as skipped (exit 77, which TKS_CI=1 fails), never as a pass for the part that did not run.
skip() { echo "SKIP: $*"; SKIPPED=$((SKIPPED + 1)); }
# skip_rest REASON: nothing after this point can run here: the checks so far decide (a failure
# fails the test), else the test is skipped.
skip_rest() { skip "$@"; finish; }

# run_with EXE NAME ARGS...: runs EXE with stdout and stderr in $D/NAME.out and $D/NAME.err;
# sets RC. run NAME ARGS... does so for tickscope, runb NAME ARGS... for the benchmark program
# $B (which the test sets).
run_with() {
    local exe=$1 name=$2
    shift 2
    ${RUN_AS[@]+"${RUN_AS[@]}"} "$exe" "$@" >"$D/$name.out" 2>"$D/$name.err"
    RC=$?
}
run() { run_with "$T" "$@"; }
runb() { run_with "$B" "$@"; }

# unprivileged: from here on, run and runb run their program as a user who may not write where the
# file system says so: this user, or nobody (65534, through setpriv) when the test runs as root
# (root writes anywhere, so a read-only directory refuses only other users). U is a directory that
# user may write (its calibration cache goes there). Returns 1 when no such user can run the
# program: the part is skipped (a failure under TKS_CI=1, where CI runs as root and must run it).
# privileged goes back to running as the test's own user.
unprivileged() {
    U="$D/unprivileged"
    mkdir -p "$U"
    [ "$(id -u)" -eq 0 ] || return 0
    local why=""
    if ! command -v setpriv >/dev/null; then
        why="setpriv is not installed (Debian package util-linux)"
    else
        chmod o+x "$D" && chown 65534:65534 "$U"
        RUN_AS=(setpriv --reuid=65534 --regid=65534 --clear-groups env TICKSCOPE_CACHE_DIR="$U/cache")
        if ! "${RUN_AS[@]}" "$T" version >/dev/null 2>&1; then
            why="user nobody cannot run $T (every directory on its path must be searchable by others: namei -m $T)"
            RUN_AS=()
        fi
    fi
    [ -z "$why" ] && return 0
    if [ "${TKS_CI:-0}" = 1 ]; then
        fail "TKS_CI=1: the unprivileged checks must run as root through nobody, but $why"
    else
        skip "the unprivileged checks: $why"
    fi
    return 1
}
privileged() { RUN_AS=(); }

# No temporary left behind by the atomic writer, whatever happened.
no_temps() {
    local left
    left=$(find "$D" -name '.*.tmp.*' 2>/dev/null)
    [ -z "$left" ] || fail "$1: temporary files left behind: $left"
}

# expect_usage NAME WORD ARGS...: `tickscope $CMD ARGS` exits 2 with an error on stderr naming
# WORD, prints nothing on stdout and creates no file.
expect_usage() {
    local name=$1 word=$2
    shift 2
    rm -f "$D/u.json"
    run "$name" "$CMD" --out "$D/u.json" "$@"
    if [ "$RC" -ne 2 ]; then
        fail "$name: exit $RC, expected 2 (usage error) for: $CMD $*"
    elif ! grep -q '^tickscope: error: ' "$D/$name.err"; then
        fail "$name: no 'tickscope: error:' line on stderr: $(cat "$D/$name.err")"
    elif ! grep -qF -- "$word" "$D/$name.err"; then
        fail "$name: the error does not name the problem ('$word'): $(cat "$D/$name.err")"
    elif [ -s "$D/$name.out" ]; then
        fail "$name: a usage error printed on stdout"
    elif [ -e "$D/u.json" ]; then
        fail "$name: a usage error created the --out file"
    else
        pass "$name: exit 2, '$(head -n1 "$D/$name.err")'"
    fi
    no_temps "$name"
}

# expect_failure NAME WORD ARGS...: `tickscope $CMD --budget 0.05 ARGS` exits 1 with one error
# line naming WORD (a regular expression), nothing on stdout and no --out file.
expect_failure() {
    local name=$1 word=$2
    shift 2
    rm -f "$D/f.json"
    run "$name" "$CMD" --budget 0.05 --out "$D/f.json" "$@"
    if [ "$RC" -ne 1 ]; then
        fail "$name: exit $RC, expected 1: $(cat "$D/$name.err")"
    elif [ "$(wc -l <"$D/$name.err")" -ne 1 ] || ! grep -q "^tickscope: error: .*$word" "$D/$name.err"; then
        fail "$name: expected one error line naming '$word': $(cat "$D/$name.err")"
    elif [ -s "$D/$name.out" ] || [ -e "$D/f.json" ]; then
        fail "$name: output written for a failed run"
    else
        pass "$name: $(cat "$D/$name.err")"
    fi
    no_temps "$name"
}

# The verdict: exit 1 if any check failed, else 77 if a part was skipped, else 0.
finish() {
    if [ "$FAILED" -ne 0 ]; then
        echo "$FAILED check(s) failed"
        exit 1
    fi
    if [ "$SKIPPED" -ne 0 ]; then
        echo "the checks that ran passed; $SKIPPED part(s) skipped (SKIP lines above)"
        exit 77
    fi
    echo "all checks passed"
}
