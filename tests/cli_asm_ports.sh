# SPDX-License-Identifier: MIT
# cli_asm_ports.sh: `tickscope asm --ports` and `--explain` as a user meets them: usage errors,
# and the structure of real measurements (a class and its evidence for --explain; forms, pairs
# and domains for --ports), with short budgets. No figure is compared with a speed: the classes'
# hit rates on known loops are bench/bench_explain's, the sets against published ones
# bench/bench_ports's.
# Usage: bash cli_asm_ports.sh /path/to/tickscope
set -u

CMD=asm
NAME=cli_asm_ports
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"

expect_usage both "--ports and --explain go alone" --ports --explain 'nop'
expect_usage explain_table "--explain takes one snippet" --explain --table /dev/null
expect_usage explain_nothing "give one snippet" --explain
expect_usage ports_kernel "go alone, in user space" --ports --kernel 'nop'

[ "${TKS_TARGET_ARCH:-$(uname -m)}" = x86_64 ] ||
    skip_rest "hardware: tickscope asm runs x86-64 code; this build is for ${TKS_TARGET_ARCH:-$(uname -m)}"
command -v as >/dev/null && command -v objdump >/dev/null ||
    skip_rest "as and objdump are needed (Debian package binutils)"

expect_usage explain_att "Intel syntax" --explain --att 'addq $1, %rax'
expect_usage explain_format "not a format" --explain --budget 0.02 --format markdown 'nop'
expect_usage ports_multi "one instruction" --ports --budget 0.02 'add {r}, 1; add {r}, 2'

# --explain on a dependent chain: a class, a finding, advice and the evidence with intervals.
# imul r64 has latency 3 and reciprocal throughput 1 on every CPU bench/ knows (Zen 4: uops.info
# and AMD's family 19h Software Optimization Guide; Zen 5: AMD's GCC model; Golden Cove: uops.info),
# and its latency is above its reciprocal throughput on the x86-64 cores uops.info lists: a
# dependent chain of it waits on its latency, so the one right class is "chain" (explain_report.c's
# name for a latency-bound loop), never ports, memory, front end or undetermined. Best of three runs (a neighbour's thread on
# the core can make work compete as if it were the front end: docs/asm.md), failing when none says
# chain.
got=""
for try in 1 2 3; do
    run explain asm --explain --budget 0.05 --json 'imul rax, rax'
    if [ "$RC" -ne 0 ]; then
        got="$got exit$RC"
        continue
    fi
    python3 - "$D/explain.out" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["command"] == "asm --explain" and d["snippet"] == "imul rax, rax"
assert d["finding"] and d["advice"] and "context" in d
assert d["carried_registers"] == 1, d["carried_registers"]
assert d["core_shared_experiments"] >= 0, d["core_shared_experiments"]
ev = d["evidence"]
kinds = [e["kind"] for e in ev]
assert kinds[0] == "base" and "chain" in kinds and "nops" in kinds and "work" in kinds, kinds
for e in ev:
    if "error" in e:
        continue
    lo, hi = e["cycles_ci"]
    assert lo <= e["cycles"] <= hi, e
    if e["kind"] != "base":
        assert math.isfinite(e["delta"]) and math.isfinite(e["alone"]), e
chain = [e for e in ev if e["kind"] == "chain"][0]
assert chain["added"] == "imul rax, rax, 1", chain
print(d["class"])
sys.exit(0 if d["class"] == "chain" else 3)
PY
    rc=$?
    [ "$rc" -eq 1 ] && break # the document is wrong: no retry helps
    got="$got $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["class"].replace(" ", "_"))' "$D/explain.out" 2>/dev/null)"
    [ "$rc" -eq 0 ] && break
done
if [ "${rc:-1}" -eq 0 ]; then
    pass "explain: a dependent imul chain is class chain, with its evidence (tries:$got)"
elif [ "${rc:-1}" -eq 3 ]; then
    fail "explain: a dependent imul chain is not class chain in three runs:$got"
else
    fail "explain: exit $RC or the JSON is wrong:$got $(cat "$D/explain.err")"
fi
run explain_text asm --explain --budget 0.02 'imul rax, rax'
[ "$RC" -eq 0 ] && grep -q '^Class ' "$D/explain_text.out" && grep -q '^Change ' "$D/explain_text.out" &&
    grep -q 'chain +3 cycles' "$D/explain_text.out" && pass "explain: text" ||
    fail "explain text: $RC $(cat "$D/explain_text.err")"

# A chase: the working-set experiments appear (one per cache level smaller than the chase).
run explain_chase asm --explain --budget 0.02 --json --chase 1M 'mov r14, [r14]'
python3 - "$D/explain_chase.out" <<'PY' && pass "explain: working sets" || fail "explain chase: $(cat "$D/explain_chase.err")"
import json, sys
d = json.load(open(sys.argv[1]))
ws = [e for e in d["evidence"] if e["kind"] == "working set"]
assert ws and all(e["working_set"] < 1 << 20 for e in ws), ws
assert d["evidence"][0]["working_set"] == 1 << 20
assert not any(e["kind"] == "work" and e["added"].startswith("mov [") for e in d["evidence"])
PY

expect_usage blockers_alone "--blockers goes with --ports" --blockers /dev/null 'nop'

# --ports on one form beside four blockers (vint may hold fadd and fmul's pipes: then a form
# disjoint from both skips it): every form and blocker with its figure, the pairs, the sets. (The default blockers are ten, and bench/bench_ports runs them.)
printf 'add r64 | throughput | add {r}, 1\n' >"$D/f.tbl"
printf 'alu | throughput | mov {r}, 1\nfadd | throughput | vaddpd {y}, ymm15, ymm15\nfmul | throughput | vmulpd {y}, ymm15, ymm15\nvint | throughput | vpaddd {y}, ymm15, ymm14\n' >"$D/b.tbl"
run ports asm --ports --budget 0.02 --json --table "$D/f.tbl" --blockers "$D/b.tbl"
if [ "$RC" -ne 0 ]; then
    fail "ports: exit $RC: $(cat "$D/ports.err")"
else
    python3 - "$D/ports.out" <<'PY' && pass "ports: forms, pairs, domains" || fail "ports: JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["command"] == "asm --ports"
forms = d["forms"]
names = [f["name"] for f in forms]
assert "add r64" in names
blockers = [f for f in forms if f["blocker"]]
assert [b["name"] for b in blockers] == ["alu", "fadd", "fmul", "vint"] and forms[:4] == blockers
statuses = {"assigned", "ambiguous", "inconsistent", "unblocked", "not single-uop", "failed"}
for f in forms:
    assert f["status"] in statuses, f
    if f["status"] != "failed":
        lo, hi = f["cycles_ci"]
        assert lo <= f["cycles"] <= hi and f["per_cycle"] > 0
    if f["status"] in ("assigned", "ambiguous"):
        assert f["port_set"] and len(f["port_set"].split()) == f["ports"], f
pairs = d["pairs"]
assert pairs and all(p["a"] in names and p["b"] in names for p in pairs)
forms_vs = [p for p in pairs if p["a"] == "add r64"]
# each blocker with a port count is either measured beside the form or skipped (its domain's
# representatives read disjoint, and they are named), when the form has one (a reading that
# gives no count, as a loaded machine's can, pairs with nothing)
add = [f for f in forms if f["name"] == "add r64"][0]
counted = {b["name"] for b in blockers if b["ports"]}
measured, skipped = set(add["measured_with"]), set(add["skipped"])
assert measured == {p["b"] for p in forms_vs} and len(forms_vs) == len(measured), (forms_vs, add)
assert not measured & skipped and set(add["disjoint_from"]) <= measured, add
assert bool(skipped) == bool(add["disjoint_from"]), add
assert measured | skipped == (counted if add["ports"] else set()), (add, counted)
assert d["mixes_skipped"] == len(skipped), d["mixes_skipped"]
t = d["time"]
assert t["assembling"] >= 0 and t["running"] > 0 and t["harness_runs"] > 0, t
for p in pairs:
    assert p["overlap"] is None or 0 <= p["overlap"] <= 16
    assert (p["overlap"] is None) == (p["no_overlap_because"] is not None), p
    # a mix at the width bounds the overlap from above only: its range starts at 0
    assert isinstance(p["width_bound"], bool), p
    if p["width_bound"]:
        assert p["overlap_range"][0] == 0, p
    assert p["width_there"] is None or p["width_there"] > 0, p
# the width: instructions a cycle of bodies on disjoint units, with its interval
if d["width"] is not None:
    lo, hi = d["width_ci"]
    assert 0 < lo <= d["width"] <= hi, (d["width"], d["width_ci"])
assert d["widest_mix"] >= 0
PY
fi
run ports_csv asm --ports --budget 0.02 --format csv --blockers "$D/b.tbl" 'add {r}, 1'
[ "$RC" -eq 0 ] && head -1 "$D/ports_csv.out" | grep -q '^name,code,blocker,cycles' &&
    grep -q '^"add {r}, 1","add {r}, 1",0,' "$D/ports_csv.out" && pass "ports: csv" ||
    fail "ports csv: $RC $(cat "$D/ports_csv.err")"

finish
