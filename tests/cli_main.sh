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
        grep -Eq '^lfence +LFENCE; RDTSC; LFENCE +RDTSCP; LFENCE ' "$D/out" ||
            fail "methods: the lfence row does not show its sequences"
        grep -Eq '^cr0 .* kernel only *$' "$D/out" || fail "methods: cr0 is not marked 'kernel only'"
        grep -Eq '^(isb|cntvct) ' "$D/out" && fail "methods: arm64 methods listed on x86"
        ;;
    aarch64 | arm64)
        grep -q '^isb ' "$D/out" || fail "methods: no row for isb"
        ;;
    esac
    pass "methods: exit 0, $(grep -c . "$D/out") lines"
fi

# Which methods this CPU runs and which is the default, held to the CPU's flags (/proc/cpuinfo)
# and to the features the test gives it (TKS_CPU_FEATURES, docs/testing.md), never to the code:
# RDTSCP for rdtscp, lfence, mfence and serialize, SERIALIZE for serialize too; the default is
# the first by preference (lfence, then lfence_rdtsc and serialize, mfence, rdtscp, cpuid, rdtsc)
# among those that run, leaving out the LFENCE methods where LFENCE is not dispatch-serialising
# (no flag says so: each run below sets it). Each feature-dependent path runs on every host.
case "${TKS_TARGET_ARCH:-$(uname -m)}" in
x86_64 | i?86)
    flags=" $(awk -F: '/^flags/ {print $2; exit}' /proc/cpuinfo 2>/dev/null) "
    has() { [[ $flags == *" $1 "* ]]; }
    # expected RDTSCP SERIALIZE LFENCE_SERIALISING: "method here" per line, as the table has it.
    expected() {
        local m runs def="" best=99 pref lf
        declare -A p=([lfence]=1 [lfence_rdtsc]=2 [serialize]=2 [mfence]=3 [rdtscp]=4 [cpuid]=5 [rdtsc]=6)
        for m in cpuid rdtscp lfence mfence serialize rdtsc lfence_rdtsc; do
            runs=1
            case $m in rdtscp | lfence | mfence | serialize) [ "$1" = 1 ] || runs=0 ;; esac
            [ $m = serialize ] && [ "$2" != 1 ] && runs=0
            lf=0
            case $m in lfence | mfence | serialize | lfence_rdtsc) lf=1 ;; esac
            pref=${p[$m]}
            if [ $runs = 1 ] && { [ $lf = 0 ] || [ "$3" = 1 ]; } && [ "$pref" -lt $best ]; then
                best=$pref def=$m
            fi
            eval "runs_$m=$runs"
        done
        for m in cpuid rdtscp lfence mfence serialize rdtsc lfence_rdtsc; do
            eval "runs=\$runs_$m"
            if [ $m = "$def" ]; then echo "$m yes (the default)"
            elif [ "$runs" = 1 ]; then echo "$m yes"
            else echo "$m no"; fi
        done
    }
    actual() {
        awk '$1 ~ /^(cpuid|rdtscp|lfence|mfence|serialize|rdtsc|lfence_rdtsc)$/ {
            h = $0; sub(/ +$/, "", h)
            if (h ~ /yes \(the default\)$/) print $1 " yes (the default)"
            else if (h ~ / yes$/) print $1 " yes"
            else if (h ~ / no$/) print $1 " no"
            else print $1 " ?" }' "$D/out"
    }
    r=0 s=0
    has rdtscp && r=1
    has serialize && s=1
    if [ "$flags" = "  " ]; then
        fail "methods: no flags line in /proc/cpuinfo to hold the table to"
    else
        for case in "+lfence_serializing:$r:$s:1" "-rdtscp,+lfence_serializing:0:$s:1" \
            "-lfence_serializing:$r:$s:0" "-rdtscp,-lfence_serializing:0:$s:0" \
            "-serialize,+lfence_serializing:$r:0:1"; do
            IFS=: read -r ov er es el <<<"$case"
            TKS_CPU_FEATURES=$ov "$T" methods >"$D/out" 2>"$D/err"
            RC=$?
            if [ "$RC" -ne 0 ]; then
                fail "TKS_CPU_FEATURES=$ov methods: exit $RC"
            elif ! grep -q "^Overridden  TKS_CPU_FEATURES=$ov: " "$D/out"; then
                fail "TKS_CPU_FEATURES=$ov methods: the table does not say it is for a CPU the test told of: $(tail -2 "$D/out")"
            elif [ "$(actual)" != "$(expected "$er" "$es" "$el")" ]; then
                fail "TKS_CPU_FEATURES=$ov methods (RDTSCP $er, SERIALIZE $es, LFENCE serialising $el): got $(actual | tr '\n' ';'), expected $(expected "$er" "$es" "$el" | tr '\n' ';')"
            else
                pass "TKS_CPU_FEATURES=$ov methods: $(actual | grep default | cut -d' ' -f1) the default, as RDTSCP $er, SERIALIZE $es, LFENCE serialising $el say"
            fi
        done
        # The CPU as it is: LFENCE's serialisation unknown to the test, so either default of the
        # two; every method runs or not as the flags say.
        run methods
        a=$(actual | sed 's/ (the default)//')
        e1=$(expected $r $s 1 | sed 's/ (the default)//')
        [ "$RC" -eq 0 ] && [ "$a" = "$e1" ] && [ "$(actual | grep -c 'the default')" -eq 1 ] &&
            ! grep -q '^Overridden' "$D/out" &&
            pass "methods: each method runs as /proc/cpuinfo's flags say (rdtscp $r, serialize $s)" ||
            fail "methods: got $(actual | tr '\n' ';'), the flags say $(echo "$e1" | tr '\n' ';')"
        TKS_CPU_FEATURES=+rdtscp,+serialize "$T" info >"$D/out" 2>"$D/err"
        [ $r = 1 ] || grep -q '^Overridden .*refused: +rdtscp (the code would execute it' "$D/out" ||
            fail "info: +rdtscp given on a CPU without RDTSCP was not refused: $(grep Overridden "$D/out")"
        [ $s = 1 ] || grep -q 'refused: .*+serialize (the code would execute it' "$D/out" ||
            fail "info: +serialize given on a CPU without SERIALIZE was not refused: $(grep Overridden "$D/out")"
        grep -q '^CPU         (TKS_CPU_FEATURES [0-9a-f]\{8\}) ' "$D/out" &&
            pass "info under TKS_CPU_FEATURES: the brand says so; +rdtscp/+serialize refused where the flags lack them" ||
            fail "info under TKS_CPU_FEATURES: $(head -n 4 "$D/out")"
    fi
    ;;
esac

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
