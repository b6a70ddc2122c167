# SPDX-License-Identifier: MIT
# cli_bench_compare.sh: tks_main's --compare A,B end to end in a benchmark program: the report's
# structure (console, JSON, Markdown, CSV), names and regexes, and every bad pair: one benchmark,
# none matching, several matching, a failing benchmark, a bad threshold, a format it lacks.
CMD=bench
NAME=bench_compare
. "$(dirname "$0")/lib_cli.sh"

B="$(dirname "$T")/tests/tks_bench_prog"
[ -x "$B" ] || { echo "FAIL: $B is missing"; exit 1; }
Q="--min-time 0.01"
# expect2 NAME WORD ARGS...: exit 2, one error line naming WORD, nothing on stdout
expect2() {
    local name=$1 word=$2
    shift 2
    runb "$name" "$@"
    if [ "$RC" -ne 2 ] || ! grep -q "^tks_bench_prog: error: .*$word" "$D/$name.err" || [ -s "$D/$name.out" ]; then
        fail "$name: exit $RC (expected 2), stderr: $(cat "$D/$name.err")"
    else
        pass "$name: exit 2, '$(head -n1 "$D/$name.err")'"
    fi
}

runb aa $Q --compare add40,add40
if [ "$RC" -ne 0 ]; then
    fail "--compare add40,add40: exit $RC: $(cat "$D/aa.err")"
else
    grep -q '^Paired comparison: A = add40, B = add40; 16 blocks' "$D/aa.out" &&
        grep -Eq '^ticks +[0-9.]+ +[0-9.]+ +[0-9.]+  \[[0-9.]+, [0-9.]+\]$' "$D/aa.out" &&
        grep -Eq '^Verdict: ' "$D/aa.out" && grep -q '^warning: add40 is compared with itself' "$D/aa.out" &&
        pass "--compare add40,add40: the table, a verdict and the A/A warning" ||
        fail "--compare add40,add40: $(cat "$D/aa.out")"
fi
# regexes, JSON
runb js $Q --compare '^add4.$,^add4[0-9]$' --format json --out "$D/p.json"
if [ "$RC" -ne 0 ]; then
    fail "--compare with regexes, JSON: exit $RC: $(cat "$D/js.err")"
else
    python3 - "$D/p.json" <<'PYEOF' && pass "--compare regexes resolved, JSON shape" || fail "--compare JSON: $(cat "$D/p.json")"
import json, sys
d = json.load(open(sys.argv[1]))
p = d["paired"]
assert p["a"] == "add40" and p["b"] == "add40", p
assert p["blocks"] == 16 and p["cpu"] >= 0
for k in ("ratio_ticks", "ratio_core_cycles", "ratio_ns"):
    assert set(p[k]) == {"value", "ci"}, p[k]
# (the verdict of add40 against itself is held to "indistinguishable" below, best of three)
assert p["threshold"] == 0.01 and "tickscope_version" in d["context"]
PYEOF
fi
# add40 against itself is the same body: the one right verdict is "indistinguishable" (the ratio's
# interval within 1 +- T). T = 5%, the stated tolerance: an A/A interval of 10 ms runs reached +-6%
# in ticks on a loaded machine, and the verdict is in core cycles; best of three runs, failing
# only when none says so ("slower" or "faster" for one body against itself is a wrong verdict, and
# three in a row is no noise).
got=""
for try in 1 2 3; do
    runb aav $Q --compare add40,add40 --compare-threshold 5% --format json --out "$D/aav.json"
    v=$([ "$RC" -eq 0 ] && python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["paired"]["verdict"])' "$D/aav.json" 2>/dev/null)
    got="$got ${v:-exit$RC}"
    [ "$v" = indistinguishable ] && break
done
[ "$v" = indistinguishable ] && pass "add40 against itself: indistinguishable within +-5% (tries:$got)" ||
    fail "add40 against itself: not indistinguishable within +-5% in three runs:$got"
runb zero $Q --compare add40,empty
[ "$RC" -eq 1 ] && grep -q 'at or below zero ticks.*a ratio needs two positive costs' "$D/zero.err" &&
    pass "an empty body: no ratio, exit 1" || fail "empty body: exit $RC: $(cat "$D/zero.err")"
# The threshold is wide: the check is the format and the threshold's echo, and an A/A interval of
# 10 ms runs reached +-6% in ticks on a loaded machine.
runb md $Q --compare add40,add40 --format markdown --compare-threshold 50%
[ "$RC" -eq 0 ] && grep -q '^| ticks |' "$D/md.out" && grep -q 'within +-50.00%' "$D/md.out" &&
    pass "--format markdown, --compare-threshold 50%" || fail "markdown: exit $RC: $(cat "$D/md.out")"

expect2 one "needs two benchmarks" --compare add40
expect2 empty_half "needs two benchmarks" --compare add40,
expect2 none "matches no benchmark" --compare add40,nosuch
expect2 several "matches 2 benchmarks (crashy/0, crashy/1)" --compare add40,crashy
expect2 badre "nor a valid regular expression" --compare 'add40,(('
expect2 xml "'xml' is not a format of" --compare add40,add40 --format xml
runb csv $Q --compare add40,add40 --format csv
[ "$RC" -eq 0 ] && [ "$(wc -l <"$D/csv.out")" -eq 2 ] && head -n1 "$D/csv.out" | grep -q '^a,b,blocks,' &&
    sed -n 2p "$D/csv.out" | grep -q '^add40,add40,16,' &&
    pass "--compare --format csv: a header and one row" ||
    fail "--compare --format csv: exit $RC: $(cat "$D/csv.out" "$D/csv.err")"
expect2 thr "percentage" --compare add40,add40 --compare-threshold much
runb skip $Q --compare add40,skipper
[ "$RC" -eq 1 ] && grep -q '^tks_bench_prog: error: --compare: skipper: skipped: needs a GPU' "$D/skip.err" &&
    pass "a benchmark that skips itself: exit 1, named" || fail "skipper: exit $RC: $(cat "$D/skip.err")"
runb help --help
grep -q -- '--compare A,B' "$D/help.out" && grep -q -- '--compare-threshold' "$D/help.out" &&
    pass "--help lists --compare" || fail "--help: no --compare"
finish
