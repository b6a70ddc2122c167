# SPDX-License-Identifier: MIT
# cli_compare_gate.sh (issue 46): `tickscope compare --fail-on-regression 5` never passes a
# benchmark it cannot test. Synthetic files whose answer is known by construction, tickscope's and
# Google Benchmark's, 1 and 1, 2 and 2, 5 and 5 runs a side, identical and 30% slower: with too
# few runs for a test, 30% slower fails the gate (exit 1) on the runs' own intervals widened by the
# assumed spread between processes (its ends computed here from the formula docs/compare.md
# gives), identical is NOT TESTED (exit 3) with what each side needs; 5 and 5 are tested (exit 0,
# or 1). Each case with its exit status and the line it must print; the Markdown, JSON, CSV and
# HTML say "not tested" as loudly as "regression"; a real program's single runs, the issue's case.
CMD=compare
NAME=compare_gate
. "$(dirname "$0")/lib_cli.sh"

# gen.py FILE TOOL N NAME=SCALE...: a result file of N runs of each benchmark at 100 x SCALE
# (+ a jitter: 0, +0.1, -0.1, +0.05, -0.05), tickscope's (core cycles with +-0.1 intervals) or
# Google Benchmark's (ns, per repetition). gen.py --expect TOOL N SCALE: the interval of the
# change with the assumed spread, "lo hi" in percent as compare prints them.
cat >"$D/gen.py" <<'EOF'
import json, math, sys
JITTER = (0.0, 0.1, -0.1, 0.05, -0.05)
HALF, CV, Z = 0.1, 0.0266, 1.959963984540054
def figures(n, scale):
    return [100 * scale + JITTER[i] for i in range(n)]
def rel_var(tool, xs):
    n, m = len(xs), sum(xs) / len(xs)
    se = HALF / 1.96 if tool == "ours" else 0.0
    own = n * se * se / (n * n)
    spread = sum((x - m) ** 2 for x in xs) / (n - 1) / n if n > 1 else 0.0
    return max(own, spread) / (m * m) + CV * CV
if sys.argv[1] == "--expect":
    tool, n, scale = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    a, b = figures(n, 1.0), figures(n, scale)
    r = (sum(b) / n) / (sum(a) / n)
    s = math.sqrt(rel_var(tool, a) + rel_var(tool, b))
    print("%+.2f%% %+.2f%%" % (100 * (r * math.exp(-Z * s) - 1), 100 * (r * math.exp(Z * s) - 1)))
    sys.exit(0)
path, tool, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = []
for spec in sys.argv[4:]:
    name, scale = spec.split("=")
    for i, v in enumerate(figures(n, float(scale))):
        if tool == "ours":
            rows.append({"name": name, "run_name": name, "run_type": "iteration",
                         "repetition_index": i, "real_time": v / 3, "time_unit": "ns",
                         "ticks": v / 1.5, "core_cycles": v, "core_cycles_ci": [v - HALF, v + HALF]})
        else:
            rows.append({"name": name, "run_name": name, "run_type": "iteration", "repetitions": n,
                         "repetition_index": i, "iterations": 1000, "real_time": v,
                         "cpu_time": v, "time_unit": "ns"})
ctx = {"host_name": "ci"}
if tool == "ours":
    ctx.update({"tickscope_version": "0.1.0", "method": "lfence", "mode": "latency"})
json.dump({"context": ctx, "benchmarks": rows}, open(path, "w"))
EOF
TOOFEW='inconclusive: too few runs \(the smallest p this test can give is'
# expect NAME STATUS WHAT STREAM REGEX ARGS...: `compare ARGS` exits with STATUS and prints a
# line matching REGEX (extended) on STREAM (out or err)
expect() {
    local name=$1 want=$2 what=$3 stream=$4 re=$5
    shift 5
    run "$name" compare "$@"
    [ "$RC" -eq "$want" ] && grep -Eq -- "$re" "$D/$name.$stream" && pass "$what: exit $want" ||
        fail "$what: exit $RC (expected $want): $(cat "$D/$name.out" "$D/$name.err")"
}

# case TOOL N SCALE: compare N runs a side, the new side SCALE times the old, under a 5% gate
case_of() {
    local tool=$1 n=$2 scale=$3 want unit flag what line runs id="$1$2x$3" plo phi lo hi p
    python3 "$D/gen.py" "$D/$id.old.json" "$tool" "$n" bm=1
    python3 "$D/gen.py" "$D/$id.new.json" "$tool" "$n" "bm=$scale"
    read -r plo phi < <(python3 "$D/gen.py" --expect "$tool" "$n" "$scale")
    lo=${plo//./\\.} hi=${phi//./\\.}
    lo=${lo//+/\\+} hi=${hi//+/\\+}
    [ "$tool" = ours ] && unit='core cycles' flag='--processes 4' || unit=ns flag='--benchmark_repetitions=4'
    [ "$n" -eq 1 ] && p=1.000 || p=0.333
    run "$id" compare --fail-on-regression 5 "$D/$id.old.json" "$D/$id.new.json"
    what="$tool, $n and $n runs, x$scale"
    if [ "$n" -eq 5 ]; then
        # tested: the U test over 5 and 5 (p = 2/252 when every new run is slower)
        if [ "$scale" = 1 ]; then
            want=0 line="^bm +$unit +100 +100 +\\+0\\.00% +\\[[-+0-9.]+%, [-+0-9.]+%\\] +U 5/5 +1\\.000 +same$"
        else
            want=1 line="^bm +$unit +100 +130 +\\+30\\.00% +\\[\\+[0-9.]+%, \\+[0-9.]+%\\] +U 5/5 +0\\.008 +slower REGRESSION$"
        fi
    elif [ "$scale" = 1 ]; then
        want=3 line="^bm +$unit .* \\+0\\.00% +~\\[$lo, $hi\\] +none $n/$n +- +$TOOFEW $p\\) NOT TESTED$"
        [ "$n" -eq 1 ] && runs="1 run" || runs="$n runs"
        grep -Fxq "tickscope: not tested: bm: too few runs for a test; +0.00% in $unit, with the assumed spread $plo to $phi, does not lie beyond +5.00%; old has $runs, needs 4 ($flag); new has $runs, needs 4 ($flag)" "$D/$id.err" ||
            fail "$what: no 'not tested' line on stderr: $(cat "$D/$id.err")"
    else
        want=1 line="^bm +$unit .* \\+(29\\.99|30\\.00)% +~\\[$lo, $hi\\] +none $n/$n +- +$TOOFEW $p\\) REGRESSION \\(assumed spread\\)$"
        grep -q "^tickscope: regression: bm is +.*% slower in $unit (too few runs for a test; with the assumed spread of 2.66% a process, $plo to $phi), beyond +5.00%$" "$D/$id.err" ||
            fail "$what: no 'regression' line on stderr: $(cat "$D/$id.err")"
    fi
    if [ "$RC" -ne "$want" ]; then
        fail "$what: exit $RC, expected $want: $(cat "$D/$id.out" "$D/$id.err")"
    elif ! grep -Eq "$line" "$D/$id.out"; then
        fail "$what: no line matching '$line': $(cat "$D/$id.out")"
    else
        pass "$what: exit $want, '$(grep -E '^bm ' "$D/$id.out" | tr -s ' ')'"
    fi
}
for tool in ours gb; do
    for n in 1 2 5; do
        case_of "$tool" "$n" 1
        case_of "$tool" "$n" 1.3
    done
done
# the footer and the warnings of a comparison that cannot gate
grep -q '^1 benchmark(s) NOT TESTED against the gate (too few runs for a test; exit status 3 unless a regression fails it): bm\.$' "$D/ours1x1.out" &&
    grep -q '^warning: --fail-on-regression on 1 benchmark(s) with too few runs for a test: .* 2\.66% of the figure a process' "$D/ours1x1.out" &&
    grep -q '^error: 1 benchmark(s) NOT TESTED against the +5\.00% gate' "$D/ours1x1.out" &&
    pass "not tested: the footer, the assumed spread's warning, the error line" ||
    fail "not tested: footer or warnings: $(cat "$D/ours1x1.out")"
# no gate: the verdicts as before, exit 0
expect nogate 0 "no gate: too few runs, no interval" out "^bm .* +- +none 1/1 +- +$TOOFEW 1\\.000\\)$" \
    "$D/ours1x1.3.old.json" "$D/ours1x1.3.new.json"

# one comparison with a regression and a benchmark not tested: the regression's exit status, both said
python3 "$D/gen.py" "$D/mix.old.json" ours 1 bm=1 other=1
python3 "$D/gen.py" "$D/mix.new.json" ours 1 bm=1.3 other=1
run mix compare --fail-on-regression 5 "$D/mix.old.json" "$D/mix.new.json"
[ "$RC" -eq 1 ] && grep -q '^tickscope: regression: bm ' "$D/mix.err" && grep -q '^tickscope: not tested: other: ' "$D/mix.err" &&
    grep -Eq '^other .* NOT TESTED$' "$D/mix.out" &&
    pass "a regression and a benchmark not tested: exit 1, both named" || fail "mix: exit $RC: $(cat "$D/mix.out" "$D/mix.err")"

# ---- a pull-request comment says NOT TESTED as loudly as REGRESSION; JSON and CSV carry it
run md compare --markdown --fail-on-regression 5 "$D/mix.old.json" "$D/mix.new.json"
[ "$RC" -eq 1 ] && grep -Eq '^\| bm \|.*\| \*\*inconclusive: too few runs .* REGRESSION \(assumed spread\)\*\* \|$' "$D/md.out" &&
    grep -Eq '^\| other \|.*\| \*\*inconclusive: too few runs .* NOT TESTED\*\* \|$' "$D/md.out" &&
    grep -q '^- \*\*1 benchmark(s) NOT TESTED\*\* against the gate' "$D/md.out" &&
    grep -q '^  - \*\*NOT TESTED\*\* `other`: old has 1 run, needs 4 (--processes 4); new has 1 run, needs 4 (--processes 4)$' "$D/md.out" &&
    grep -q '^> \*\*Error\*\* (`compare.not_tested`)' "$D/md.out" &&
    pass "--markdown: NOT TESTED in bold beside REGRESSION, with what each side needs" ||
    fail "--markdown: exit $RC: $(cat "$D/md.out")"
run js compare --json --out "$D/mix.cmp.json" --fail-on-regression 5 "$D/mix.old.json" "$D/mix.new.json"
run js1 compare --json --out "$D/same1.cmp.json" --fail-on-regression 5 "$D/gb1x1.old.json" "$D/gb1x1.new.json"
[ "$RC" -eq 3 ] || fail "--json on a comparison that cannot gate: exit $RC, expected 3"
run js5 compare --json --out "$D/same5.cmp.json" --fail-on-regression 5 "$D/gb5x1.old.json" "$D/gb5x1.new.json"
if python3 - "$D" "$(python3 "$D/gen.py" --expect gb 1 1)" <<'EOF'
import json, sys
d, (lo, hi) = sys.argv[1], [float(x.rstrip("%")) / 100 for x in sys.argv[2].split()]
m = json.load(open(d + "/mix.cmp.json"))
assert m["gate"] == "regression" and m["regressions"] == 1 and m["not_tested"] == 1, m
assert m["assumed_spread"] == 0.0266
bm, other = m["benchmarks"]
assert bm["regression"] and not bm["not_tested"] and bm["change_ci"] == [None, None]
assert other["not_tested"] and not other["regression"]
assert other["runs_needed"] == {"old": 4, "new": 4}
codes = [x["code"] for x in m["diagnostics"]]
assert "compare.gate_assumed_spread" in codes and "compare.not_tested" in codes, codes
s = json.load(open(d + "/same1.cmp.json"))
assert s["gate"] == "not_tested" and s["regressions"] == 0 and s["not_tested"] == 1
lo2, hi2 = s["benchmarks"][0]["change_ci_assumed_spread"]
assert abs(lo2 - lo) < 6e-5 and abs(hi2 - hi) < 6e-5, (lo2, hi2, lo, hi)
p = json.load(open(d + "/same5.cmp.json"))
assert p["gate"] == "pass" and p["not_tested"] == 0 and p["benchmarks"][0]["runs_needed"] == {"old": 0, "new": 0}
assert p["benchmarks"][0]["change_ci_assumed_spread"] == [None, None]
EOF
then pass "--json: gate regression / not_tested / pass, not_tested, runs_needed, the assumed spread's interval"
else fail "--json: $(cat "$D/mix.cmp.json")"; fi
run csv compare --format csv --fail-on-regression 5 "$D/mix.old.json" "$D/mix.new.json"
[ "$RC" -eq 1 ] && head -n1 "$D/csv.out" | grep -q ',regression,not_tested$' && grep -q '^bm,.*,yes,no$' "$D/csv.out" &&
    grep -q '^other,.*,no,yes$' "$D/csv.out" && pass "--format csv: a not_tested column" ||
    fail "csv: exit $RC: $(cat "$D/csv.out")"
run html compare --html "$D/mix.html" --fail-on-regression 5 "$D/mix.old.json" "$D/mix.new.json"
[ "$RC" -eq 1 ] && grep -q '1 regression; 1 benchmark NOT TESTED against the gate' "$D/mix.html" &&
    grep -q 'inconclusive (NOT TESTED)' "$D/mix.html" && pass "--html: NOT TESTED beside the regressions" ||
    fail "html: exit $RC"

# ---- the issue's case: a real program's single runs (its default), the new file's figures x 1.3
B="$(dirname "$T")/tests/tks_bench_prog"
[ -x "$B" ] || { fail "$B is missing"; finish; }
"$B" --filter '^add40$' --min-time 0.02 --format json --out "$D/real.json" --quiet ||
    fail "the benchmark program failed"
python3 - "$D/real.json" "$D/real13.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for b in d["benchmarks"]:
    for k in ("real_time", "cpu_time", "ticks", "core_cycles"):
        if isinstance(b.get(k), (int, float)):
            b[k] *= 1.3
    for k in ("ticks_ci", "core_cycles_ci"):
        if isinstance(b.get(k), list) and None not in b[k]:
            b[k] = [x * 1.3 for x in b[k]]
json.dump(d, open(sys.argv[2], "w"))
EOF
# (arm64 under QEMU: its counter reads 0 ticks for forty adds, and 0 x 1.3 is no change)
if coarse_clock_ok; then
    skip "hardware: add40 x1.3: this target's counter ($TKS_TARGET_ARCH) cannot see forty adds"
else
    expect real 1 "a real single run against itself x1.3: REGRESSION on the assumed spread" out \
        "^add40 .* \\+30\\.00% +~\\[\\+[0-9.]+%, \\+[0-9.]+%\\] +none 1/1 +- +$TOOFEW 1\\.000\\) REGRESSION \\(assumed spread\\)$" \
        --fail-on-regression 5 "$D/real.json" "$D/real13.json"
fi
expect realsame 3 "a real single run against itself: not tested" err \
    '^tickscope: not tested: add40: .*old has 1 run, needs 4 \(--processes 4\)' \
    --fail-on-regression 5 "$D/real.json" "$D/real.json"
run help compare --help
grep -q 'NOT$' "$D/help.out" && grep -q '3 when --fail-on-regression found no regression but could not' "$D/help.out" &&
    grep -q 'assumed spread between processes (2.66% a process)' "$D/help.out" &&
    pass "--help: exit status 3 and the assumed spread" || fail "--help: $(cat "$D/help.out")"
finish
