# SPDX-License-Identifier: MIT
# cli_disasm.sh: `--disasm` of a tks_main program (tests/bench_prog.c): the JSON names every
# selected benchmark with the instructions inside its windows, read back from the program's own
# code: add40's forty adds, an empty window flagged, a body with no window
# flagged, and the -O0 build's spill of the first reading flagged. Structure only.
# Usage: bash cli_disasm.sh /path/to/tickscope
set -u

CMD=disasm
NAME=cli_disasm
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"
B="$(dirname "$T")/tests/tks_bench_prog"
B0="$(dirname "$T")/tests/tks_bench_prog_O0"

if [ "${TKS_TARGET_ARCH:-$(uname -m)}" != x86_64 ]; then
    echo "SKIP: hardware: --disasm reads x86-64 code; this is ${TKS_TARGET_ARCH:-$(uname -m)}"
    exit 77
fi
command -v objdump >/dev/null || { echo "SKIP: objdump is needed (Debian package binutils)"; exit 77; }

"$B" --disasm --format json --out "$D/w.json" >"$D/w.out" 2>"$D/w.err"
RC=$?
[ "$RC" -eq 0 ] || fail "--disasm: exit $RC: $(cat "$D/w.err")"
python3 - "$D/w.json" <<'PY' && pass "--disasm JSON" || fail "--disasm JSON"
import json, re, sys
d = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in d["benchmarks"]}
chain = lambda ins: sum(re.match(r"add %r\w+,%r\w+$", i) is not None for i in ins)
assert set(b) >= {"add40", "empty", "crashy", "skipper"}, list(b)
w = b["add40"]["window_instructions"]
# AddressSanitizer may check the next window's store inside this one (a load of its shadow at
# 0x7fff8000, then a jump out): the window is read up to that check.
asan = next((i for i, x in enumerate(w) if "0x7fff8000" in x), None)
# Forty adds; a sanitised or unoptimised build may add a move of its own, which is what the
# option is for.
if asan is not None and chain(w[:asan]) == 0:
    # Under AddressSanitizer the compiler may open the window with the shadow check of a store
    # and a jump out (since TKS_MEASURE gained --explain's kernel, the latency window of this
    # build): the straight line read ends there, before the adds; the throughput window below
    # must still hold all forty.
    assert len(w) <= 12, w
else:
    assert chain(w) == 40 and len(w[:asan]) <= 44, w
    assert all(asan is not None and "jump" in x for x in b["add40"]["warnings"]), b["add40"]["warnings"]
t = b["add40"]["throughput_window_instructions"]
t = t[:next((i for i, x in enumerate(t) if "0x7fff8000" in x), len(t))] if t else t
# The k-loop: the same adds, the compiler's counter (clang counts with an add of -1) and a branch.
assert t and chain(t) == 40 and t[-1].startswith("j"), t
e = b["empty"]["window_instructions"]
if not (e and "0x7fff8000" in e[0]):  # under AddressSanitizer only its check is left to show
    assert e == [], e
    assert any("empty" in x for x in b["empty"]["warnings"])
assert b["skipper"]["window_instructions"] is None
assert any("no " in x and "window" in x for x in b["skipper"]["warnings"])
PY

# Every method, named: the windows of the empty block and of add40 for each method this CPU runs
# (which ones, from /proc/cpuinfo's flags: RDTSCP for lfence, mfence, rdtscp and serialize,
# SERIALIZE for serialize); a method it cannot run is refused. tests/cli_window_compilers.sh holds
# every method's windows without running them.
flags=" $(awk -F: '/^flags/ {print $2; exit}' /proc/cpuinfo) "
for m in cpuid rdtscp lfence mfence serialize rdtsc lfence_rdtsc; do
    runs=1 need=""
    case $m in rdtscp | lfence | mfence | serialize) [[ $flags == *" rdtscp "* ]] || runs=0 need=rdtscp ;; esac
    [ $m = serialize ] && { [[ $flags == *" serialize "* ]] || runs=0 need="$need serialize"; }
    "$B" --disasm --method $m --format json --filter '^(empty|add40)$' --out "$D/m.json" >"$D/m.out" 2>"$D/m.err"
    RC=$?
    if [ $runs = 0 ]; then
        [ $RC -eq 2 ] && grep -q "this CPU cannot run '$m'" "$D/m.err" &&
            pass "--disasm --method $m: refused (no$need in /proc/cpuinfo)" ||
            fail "--disasm --method $m on a CPU without it: exit $RC, $(cat "$D/m.err")"
        continue
    fi
    [ $RC -eq 0 ] || { fail "--disasm --method $m: exit $RC: $(cat "$D/m.err")"; continue; }
    python3 - "$D/m.json" $m <<'PY' && pass "--disasm --method $m: empty's window empty, add40's forty adds" || fail "--disasm --method $m"
import json, re, sys
b = {x["name"]: x for x in json.load(open(sys.argv[1]))["benchmarks"]}
m = sys.argv[2]
assert b["empty"]["method"] == m and b["add40"]["method"] == m, (b["empty"]["method"], m)
e, w = b["empty"]["window_instructions"], b["add40"]["window_instructions"]
if not (e and "0x7fff8000" in e[0]) and not any("0x7fff8000" in i for i in w):  # AddressSanitizer
    assert e == [], (m, e)
    # Forty adds, and at most the block's own input moved in (clang loads the step there).
    assert sum(re.match(r"add %r\w+,%r\w+$", i) is not None for i in w) == 40 and len(w) <= 44, (m, w)
PY
done

# The default method's windows on a CPU without RDTSCP, on any host (TKS_CPU_FEATURES,
# docs/testing.md): lfence_rdtsc's, and lfence refused by name.
TKS_CPU_FEATURES=-rdtscp,+lfence_serializing "$B" --disasm --format json --filter '^(empty|add40)$' \
    --out "$D/o.json" >"$D/o.out" 2>"$D/o.err"
RC=$?
[ $RC -eq 0 ] && python3 - "$D/o.json" <<'PY' && pass "without RDTSCP (TKS_CPU_FEATURES): lfence_rdtsc's windows, empty and forty adds" || fail "--disasm without RDTSCP: exit $RC: $(cat "$D/o.err")"
import json, re, sys
b = {x["name"]: x for x in json.load(open(sys.argv[1]))["benchmarks"]}
assert b["empty"]["method"] == "lfence_rdtsc" and b["add40"]["method"] == "lfence_rdtsc", b["empty"]["method"]
e, w = b["empty"]["window_instructions"], b["add40"]["window_instructions"]
if not (e and "0x7fff8000" in e[0]) and not any("0x7fff8000" in i for i in w):  # AddressSanitizer
    assert e == [] and sum(re.match(r"add %r\w+,%r\w+$", i) is not None for i in w) == 40 and len(w) <= 44, (e, w)
PY
TKS_CPU_FEATURES=-rdtscp "$B" --disasm --method lfence >"$D/o.out" 2>"$D/o.err"
[ $? -eq 2 ] && grep -q "this CPU cannot run 'lfence'" "$D/o.err" &&
    pass "without RDTSCP (TKS_CPU_FEATURES): --method lfence refused" ||
    fail "--disasm --method lfence without RDTSCP: $(cat "$D/o.err")"

"$B" --disasm --filter add40 >"$D/c.out" 2>"$D/c.err"
[ $? -eq 0 ] && [ "$(grep -c '^add40' "$D/c.out")" -eq 1 ] && ! grep -q '^empty' "$D/c.out" &&
    pass "--disasm --filter: console" || fail "--disasm --filter: $(cat "$D/c.out" "$D/c.err")"

"$B0" --disasm --filter add40 >"$D/o0.out" 2>"$D/o0.err"
grep -q 'stores the first reading' "$D/o0.out" && pass "-O0: the spill of the first reading is flagged" ||
    fail "-O0: no spill flagged: $(cat "$D/o0.out")"

"$B" --disasm --filter nothing_matches >"$D/n.out" 2>"$D/n.err"
[ $? -eq 0 ] && grep -q 'warning: no benchmark matches' "$D/n.err" && [ ! -s "$D/n.out" ] &&
    pass "--disasm, nothing selected: a warning, exit 0 (as a run and --list)" ||
    fail "--disasm with no match"

# validate and resolution: the library's own sampling loops hold nothing but the add chains.
"$T" validate --disasm --json --out "$D/v.json" >"$D/v.out" 2>"$D/v.err"
RC=$?
[ "$RC" -eq 0 ] || fail "validate --disasm: exit $RC: $(cat "$D/v.err")"
python3 - "$D/v.json" <<'PY' && pass "validate --disasm: every method's windows hold adds only" || fail "validate --disasm JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["command"] == "validate" and d["methods"], d
for m in d["methods"]:
    assert m["error"] is None, m
    assert m["add_chain_windows"] > 0 and m["work"].startswith("0-"), m
    assert m["window_instructions"] == [] and m["other_windows"] == [], m
PY
# The fenced method this CPU has: lfence needs RDTSCP; lfence_rdtsc is for CPUs and guests without.
fm=lfence
grep -qw rdtscp /proc/cpuinfo || fm=lfence_rdtsc
"$T" resolution --disasm --method $fm >"$D/r.out" 2>"$D/r.err"
[ $? -eq 0 ] && [ "$(wc -l <"$D/r.out")" -eq 1 ] && grep -q "^$fm (ensemble_$fm): .*nothing else" "$D/r.out" &&
    pass "resolution --disasm --method $fm" || fail "resolution --disasm: $(cat "$D/r.out" "$D/r.err")"

finish
