# cli_compare.sh: `tickscope compare` end to end: two real result files of a tks_main program
# (the structure of the table, Markdown and JSON), synthetic files with a known change (verdicts,
# the regression gate's exit status and printed rows), baselines by name and by path, and bad
# input (not JSON, another tool's JSON, no benchmarks, no shared names, bad options): exit 2 with
# a one-line error.
CMD=compare
NAME=compare
. "$(dirname "$0")/lib_cli.sh"

B="$(dirname "$T")/tests/tks_bench_prog"
[ -x "$B" ] || { echo "FAIL: $B is missing"; exit 1; }

# ---- real files: the same program twice, three repetitions each
for f in a b; do
    "$B" --filter '^(add40|empty)$' --min-time 0.02 --repetitions 3 --format json --out "$D/$f.json" \
        --quiet || fail "the benchmark program failed writing $f.json"
done
run real compare "$D/a.json" "$D/b.json"
if [ "$RC" -ne 0 ]; then
    fail "compare of two real files: exit $RC: $(cat "$D/real.err")"
else
    # core cycles where the runner has its reference chain; under an emulator (arm64) a 40-add
    # body reads 0, which has no ratio: no test
    grep -Eq '^add40 +(core cycles|ticks) +[-0-9.]+ +[-0-9.]+ +([-+][0-9.]+%|\?) +(\[[-+][0-9.]+%, [-+][0-9.]+%\]|-) +(bootstrap|none) 3/3 ' "$D/real.out" &&
        pass "real files: an add40 row with a bootstrap over 3 and 3 figures" ||
        fail "real files: no add40 row as expected: $(cat "$D/real.out")"
    grep -q '^Comparing .*a.json (old) with .*b.json (new)' "$D/real.out" || fail "real files: no heading"
fi
run realmd compare --markdown "$D/a.json" "$D/b.json"
[ "$RC" -eq 0 ] && grep -q '^| add40 | core cycles |' "$D/realmd.out" && grep -q '^|---|' "$D/realmd.out" &&
    pass "--markdown: a pipe table" || fail "--markdown: exit $RC: $(cat "$D/realmd.out")"
run realjs compare --format json --out "$D/cmp.json" "$D/a.json" "$D/b.json"
if [ "$RC" -ne 0 ] || ! python3 - "$D/cmp.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
names = [b["name"] for b in d["benchmarks"]]
assert names == ["add40", "empty"], names
b = d["benchmarks"][0]
for k in ("unit", "old", "new", "change", "change_ci", "test", "p_value", "n_old", "n_new", "verdict", "regression"):
    assert k in b, k
assert b["unit"] in ("core_cycles", "ticks") and b["test"] in ("bootstrap", "none") and b["n_old"] == 3
assert b["verdict"] in ("same", "slower", "faster", "inconclusive")
assert d["fail_on_regression"] is None and d["regressions"] == 0
EOF
then fail "--format json: exit $RC or wrong shape"; else pass "--format json: the shape"; fi
no_temps "json"

# ---- synthetic files: bm 10% slower in new, other unchanged, four repetitions each
mk() { # mk FILE HOST SCALE: a result file in our schema
    python3 - "$@" <<'EOF'
import json, sys
path, host, scale = sys.argv[1], sys.argv[2], float(sys.argv[3])
rows = []
for name, base in (("bm", 100.0), ("other", 50.0)):
    s = scale if name == "bm" else 1.0
    for i, jit in enumerate((0.0, 0.1, -0.1, 0.05)):
        v = base * s + jit
        rows.append({"name": name, "run_name": name, "run_type": "iteration", "repetition_index": i,
                     "real_time": v / 3.6, "time_unit": "ns", "ticks": v / 1.4,
                     "ticks_ci": [v / 1.4 - 0.1, v / 1.4 + 0.1], "core_cycles": v,
                     "core_cycles_ci": [v - 0.1, v + 0.1]})
ctx = {"host_name": host, "tickscope_version": "0.1.0", "method": "lfence", "mode": "latency",
       "tsc": {"hz": 2.6e9}}
json.dump({"context": ctx, "benchmarks": rows}, open(path, "w"))
EOF
}
mk "$D/old.json" h 1.0
mk "$D/new.json" h 1.1
mk "$D/far.json" elsewhere 1.0
run gate compare --fail-on-regression 5 "$D/old.json" "$D/new.json"
if [ "$RC" -ne 1 ]; then
    fail "--fail-on-regression 5 on a 10% slowdown: exit $RC, expected 1"
else
    grep -Eq '^bm +core cycles .* \+10\.00% .* U 4/4 .* slower REGRESSION' "$D/gate.out" &&
        grep -Eq '^other .* same' "$D/gate.out" &&
        grep -q '^tickscope: regression: bm is +10.00% slower in core cycles' "$D/gate.err" &&
        grep -q '^1 regression(s) beyond +5.00% with 95% confidence: bm' "$D/gate.out" &&
        pass "--fail-on-regression 5: exit 1, the offending row printed" ||
        fail "--fail-on-regression: $(cat "$D/gate.out" "$D/gate.err")"
fi
run gate20 compare --fail-on-regression 20% "$D/old.json" "$D/new.json"
[ "$RC" -eq 0 ] && grep -q '^0 regression(s) beyond +20.00%' "$D/gate20.out" &&
    pass "--fail-on-regression 20%: exit 0" || fail "--fail-on-regression 20%: exit $RC"
run faster compare --fail-on-regression 1 "$D/new.json" "$D/old.json"
[ "$RC" -eq 0 ] && grep -Eq '^bm .* -9\.09% .* faster' "$D/faster.out" &&
    pass "the other way round: faster, exit 0" || fail "faster: exit $RC: $(cat "$D/faster.out")"
run far compare "$D/old.json" "$D/far.json"
[ "$RC" -eq 0 ] && grep -q "^warning: different machines: old ran on host 'h', new on 'elsewhere'" "$D/far.out" &&
    pass "different hosts: a warning" || fail "different hosts: $(cat "$D/far.out")"

# ---- baselines: by name under the cache directory, and by path
run save compare --save-baseline main "$D/old.json"
[ "$RC" -eq 0 ] && cmp -s "$D/old.json" "$TICKSCOPE_CACHE_DIR/baselines/main.json" &&
    pass "--save-baseline main: the file kept under the cache directory" ||
    fail "--save-baseline: exit $RC: $(cat "$D/save.err")"
run base compare --baseline main --fail-on-regression 5 "$D/new.json"
[ "$RC" -eq 1 ] && grep -q 'baselines/main.json (old)' "$D/base.out" &&
    pass "--baseline main: compared, the gate fails" || fail "--baseline main: exit $RC: $(cat "$D/base.err")"
run savep compare --baseline main --save-baseline "$D/kept.json" "$D/new.json"
[ "$RC" -eq 0 ] && cmp -s "$D/new.json" "$D/kept.json" && pass "--save-baseline PATH after a comparison" ||
    fail "--save-baseline PATH: exit $RC"
run basep compare --baseline "$D/kept.json" "$D/new.json"
[ "$RC" -eq 0 ] && grep -Eq '^bm .* \+0\.00% ' "$D/basep.out" && pass "--baseline PATH" ||
    fail "--baseline PATH: exit $RC"

# ---- bad input and bad usage: exit 2, one line
printf 'this is not json\n' >"$D/text.json"
printf '{"benchmarks": []}\n' >"$D/none.json"
printf '{"benchmarks": [{"x": 1}]}\n' >"$D/other.json"
"$T" info --json --root "$(dirname "$0")/fixtures/env/vm" >"$D/info.json" 2>/dev/null ||
    printf '{"cpu": {}, "tsc": {}}\n' >"$D/info.json"
python3 - "$D/old.json" "$D/renamed.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for b in d["benchmarks"]:
    b["name"] = b["run_name"] = "x_" + b["name"]
json.dump(d, open(sys.argv[2], "w"))
EOF
expect_usage notjson "not JSON" "$D/text.json" "$D/new.json"
expect_usage infojson "not a benchmark result" "$D/info.json" "$D/new.json"
expect_usage nobench "no benchmarks" "$D/old.json" "$D/none.json"
expect_usage othertool "another tool" "$D/other.json" "$D/new.json"
expect_usage noshared "share no benchmark" "$D/old.json" "$D/renamed.json"
expect_usage missing "cannot read" "$D/old.json" "$D/nonexistent.json"
expect_usage onefile "needs two files" "$D/old.json"
expect_usage threefiles "too many files" "$D/old.json" "$D/new.json" "$D/far.json"
expect_usage badopt "unknown option" --frobnicate "$D/old.json" "$D/new.json"
expect_usage badpct "percentage" --fail-on-regression lots "$D/old.json" "$D/new.json"
expect_usage badfmt "'xml' is not a format of compare; its formats are console, json, csv, markdown" --format xml "$D/old.json" "$D/new.json"
expect_usage nobase "no baseline 'nosuch'" --baseline nosuch "$D/new.json"
expect_usage badname "baseline name" --baseline 'a b' "$D/new.json"
expect_usage basetwo "one file" --baseline main "$D/old.json" "$D/new.json"
TICKSCOPE_CACHE_DIR= expect_usage nocache "no cache directory" --baseline main "$D/new.json"
for f in notjson infojson nobench othertool noshared missing; do
    [ "$(wc -l <"$D/$f.err")" -eq 2 ] || fail "$f: the error is not one line (and the --help hint)"
done
run identical compare "$D/old.json" "$D/old.json"
[ "$RC" -eq 0 ] && grep -q 'identical' "$D/identical.err" && pass "identical files: a note" ||
    fail "identical files: exit $RC"
run help compare --help
[ "$RC" -eq 0 ] && grep -q '^usage: tickscope compare' "$D/help.out" && pass "--help" || fail "--help: exit $RC"
finish
