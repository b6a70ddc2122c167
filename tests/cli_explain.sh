# SPDX-License-Identifier: MIT
# cli_explain.sh: a benchmark program's --explain (tests/explain_prog.c, bodies of known
# bottleneck): the JSON's structure (each benchmark's class, finding and advice, and the base and
# six experiments, each with its figure, interval, delta, alone and ratio, then the working set
# the block touched and, where they could change the class, the loads inside L1, over smaller
# rings and over it, ascending, with the knee between two of them), the console's, and
# the class of each body: a dependent imul chain absorbs every addition (latency, by
# elimination), twelve mulpd streams compete with mulpd (ports: fmul), sixteen independent imul
# with imul (ports: mul), a pointer chase over twice the largest cache (at least 64 MiB) touches
# all of it and costs a load from beyond the caches (memory), 64 long NOPs with the NOPs (front
# end). The machine may be loaded: a
# body whose class is wrong is explained again with more time, twice at most, and fails if none
# is right (saying what each attempt found). The classes hold on a core of our own: while the
# host's other hyperthread runs on it, the two threads share its dispatch, every addition
# competes and a port-bound body is limited by the front end indeed (ex_imul read so in two CI
# runs: every ratio 0.5-1.2). So a port-bound body whose every attempt said "front end" passes,
# saying so, when in each attempt the additions on units it does not use all competed (sixteen
# imul and eight addpd need 4.5 instructions a cycle, under any x86-64 core's width), or the
# core is found shared: by the explanation itself in each attempt (core_shared_experiments, from
# its runs' add checks), or by a probe run beside it (asm's add check: core.add_chain_slow).
# Options --explain refuses are refused with exit 2.
# Usage: bash cli_explain.sh /path/to/tickscope
set -u

CMD=explain
NAME=cli_explain
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"
B="$(dirname "$T")/tests/tks_explain_prog"

case "${TKS_TARGET_ARCH:-$(uname -m)}" in
x86_64 | AMD64 | amd64) ;;
*)
    echo "SKIP: hardware: --explain adds x86-64 instructions; this is ${TKS_TARGET_ARCH:-$(uname -m)}"
    exit 77
    ;;
esac

# check FILE BODY CLASS [PORT_KIND]: the JSON's structure, and the class of BODY.
check() {
    python3 - "$@" <<'PY'
import json, math, sys
path, body, cls = sys.argv[1:4]
kind = sys.argv[4] if len(sys.argv) > 4 else None
d = json.load(open(path))
assert d["command"] == "--explain" and "context" in d, list(d)
(b,) = d["benchmarks"]
assert b["name"] == body, b["name"]
for k in ("class", "finding", "advice", "evidence", "seconds", "core_shared_experiments"):
    assert k in b, (k, list(b))
ev = b["evidence"]
kinds = [e["kind"] for e in ev]
# the memory rows: the working set always; where they could change the class (latency or
# undetermined, or any when the working set is beyond every cache level /sys declares) and the
# working set is over 64 KiB, loads inside L1, over smaller rings and over the working set,
# ascending
import glob
levels = [open(f).read().strip() for f in glob.glob("/sys/devices/system/cpu/cpu0/cache/index*/size")]
largest = max([int(v[:-1]) << {"K": 10, "M": 20, "G": 30}[v[-1]] for v in levels if v[-1:] in "KMG" and v[:-1].isdigit()] or [0])
beyond = largest > 0 and ev[7]["working_set"] > largest
loads = kinds.count("touched") - 1
assert loads == 0 or loads >= 2 and (beyond or b["class"] in ("memory", "latency", "undetermined")), kinds
assert b["class"] != "memory" or loads >= 2, kinds
assert kinds == ["base"] + ["work"] * 5 + ["nops"] + ["touched"] * (1 + loads), kinds
for e in ev:
    assert "error" not in e, e
    if e is ev[7]:
        assert e["working_set"] >= 0 and e["cycles"] is None, e
        continue
    lo, hi = e["cycles_ci"]
    assert lo <= e["cycles"] <= hi and e["cycles"] > 0, e
for e in ev[1:7]:
    lo, hi = e["delta_ci"]
    assert lo <= e["delta"] <= hi, e
    assert e["alone"] > 0 and math.isclose(e["ratio"], e["delta"] / e["alone"], rel_tol=1e-6), e
if loads:
    rings = [e["working_set"] for e in ev[8:]]
    assert rings[0] == 8192 and rings[-1] == ev[7]["working_set"] // 64 * 64, rings
    assert rings == sorted(set(rings)), rings
    assert ev[-1]["cycles"] >= 2 * ev[8]["cycles"], ev[8:]
if b["class"] == "memory":
    assert ev[7]["working_set"] >= 32 << 20, ev[7]
    lo, hi = b["knee_bytes"]
    assert lo in rings and hi in rings and lo < hi, (lo, hi, rings)
# the additions on units a port-bound body does not use (the other side's pipes and the loads):
# each competing means this thread got too little of the core's dispatch for two streams
fam = lambda e: e["name"].split(" x ", 1)[1].split(":")[0] if " x " in e["name"] else ""
unused = {"mul": ("fadd", "fmul", "load"), "fmul": ("alu", "mul", "load")}.get(kind, ())
others = [e["ratio"] for e in ev[1:7] if fam(e) in unused]
if b["class"] != cls or (kind and kind not in b["port_kinds"].split(", ")):
    print("%s: class %s (%s), wanted %s %s; (addition, ratio, delta's lower end): %s; "
          "working set %d bytes, loads inside L1 to over it: %s%s%s"
          % (body, b["class"], b.get("port_kinds"), cls, kind or "",
             [(e["name"], round(e["ratio"], 2), round(e["delta_ci"][0], 1)) for e in ev[1:7]],
             ev[7]["working_set"], [round(e["cycles"], 1) for e in ev[8:]],
             " [all competed]" if len(others) == 3 and min(others) >= 0.5 else "",
             " [core shared]" if b["core_shared_experiments"] else ""))
    sys.exit(3)
PY
}

# shared_core: 0 when a probe run finds the core shared with another thread (the add check's
# core.add_chain_slow in any of three short runs).
shared_core() {
    for _ in 1 2 3; do
        "$T" asm --quiet --json --mode throughput --budget 0.1 'mov {r}, 5' 2>/dev/null |
            grep -q '"core.add_chain_slow"' && return 0
    done
    return 1
}

# Each body: structure and class, explained again with more time (twice at most) when the class
# is wrong.
for spec in "ex_chain latency" "ex_fmul ports fmul" "ex_imul ports mul" "ex_chase memory" \
    "ex_nops front end"; do
    set -- $spec
    body=$1
    shift
    want="$*"
    kind=""
    case "$want" in ports\ *) kind=${want#ports }; want=ports ;; esac
    ok=0
    seen=""
    fronts=0
    wide=0
    shared=0
    for min_time in 0.05 0.2 0.5; do
        runb "$body" --explain --format json --min-time "$min_time" --filter "^$body\$" --out "$D/$body.json"
        [ "$RC" -eq 0 ] || { fail "$body: --explain exit $RC: $(cat "$D/$body.err")"; ok=2; break; }
        said=$(check "$D/$body.json" "$body" "$want" $kind)
        case $? in
        0) ok=1; break ;;
        3) seen="$seen; $min_time s: $said" # the class: explain again, with more time
           case "$said" in *": class front end ("*) fronts=$((fronts + 1)) ;; esac
           case "$said" in *"[all competed]"*) wide=$((wide + 1)) ;; esac
           case "$said" in *"[core shared]") shared=$((shared + 1)) ;; esac ;;
        *) fail "$body: the JSON's structure: $said"; ok=2; break ;;
        esac
    done
    if [ "$ok" -eq 0 ] && [ "$want" = ports ] && [ "$fronts" -eq 3 ] &&
        { [ "$wide" -eq 3 ] || [ "$shared" -eq 3 ] || shared_core; }; then
        ok=3
        pass "$body: front end in each attempt, another thread sharing the core (additions on units it does not use competed: $wide of 3; the explanation said the core was shared: $shared of 3; or a probe's core.add_chain_slow); $want${kind:+ ($kind)} on a core of its own"
    fi
    [ "$ok" -eq 1 ] && pass "$body: $want${kind:+ ($kind)}, with its evidence"
    [ "$ok" -eq 0 ] && fail "$body: not $want${kind:+ ($kind)} in 3 attempts (0.05, 0.2 and 0.5 s a run)$seen"
done

# The console: the class, the finding, the advice and the table, per benchmark.
runb console --explain --min-time 0.05 --filter '^ex_chain$'
if [ "$RC" -eq 0 ] && grep -q '^Benchmark   ex_chain$' "$D/console.out" &&
    grep -q '^Class       ' "$D/console.out" && grep -q '^Limit       ' "$D/console.out" &&
    grep -q '^Change      ' "$D/console.out" && grep -q '^the benchmark as given ' "$D/console.out" &&
    grep -q '^+[0-9]* x 8-byte NOP' "$D/console.out" && grep -q 'ratio = delta / alone' "$D/console.out"; then
    pass "console: class, finding, advice and the experiments"
else
    fail "console (exit $RC): $(cat "$D/console.out" "$D/console.err")"
fi

# Options that cannot go with it.
for opt in "--repetitions 2" "--format csv" "--compare ex_chain,ex_nops" "--processes 2"; do
    # shellcheck disable=SC2086
    runb refused --explain $opt
    if [ "$RC" -eq 2 ] && grep -q -- "--explain" "$D/refused.err"; then
        pass "--explain $opt refused"
    else
        fail "--explain $opt: exit $RC: $(cat "$D/refused.err")"
    fi
done

finish
