# SPDX-License-Identifier: MIT
# cli_example_memcpy.sh: examples/memcpy, Google Benchmark's memcpy example ported to tickscope
# (Range, SetBytesProcessed, ArgNames, ArgsProduct, items and user counters): its names are
# Google Benchmark's, its JSON carries the counters as Google Benchmark 1.7 writes them (and ours
# beside them), CSV and Markdown have them, and Google Benchmark's compare.py pairs its Range
# names with a Google Benchmark file of the same names: one written here in Google Benchmark's
# shape, and the real one of examples/gbench_memcpy (the same program under Google Benchmark).
CMD=example
NAME=example_memcpy
. "$(dirname "$0")/lib_cli.sh"

CP=/usr/share/benchmark/compare.py
PY=/usr/bin/python3 # Debian's, which has python3-scipy
B="$(dirname "$T")/examples/memcpy"
G="$(dirname "$T")/examples/gbench_memcpy"
[ -x "$B" ] || { echo "FAIL: $B is missing"; exit 1; }
RANGE="bm_memcpy/8 bm_memcpy/64 bm_memcpy/512 bm_memcpy/4096 bm_memcpy/8192"

# The names: Google Benchmark's Range(8, 8 << 10) and ArgNames/ArgsProduct, written by hand.
runb list --benchmark_list_tests
[ "$(tr '\n' ' ' <"$D/list.out")" = "$RANGE bm_gather/size:512/stride:8 bm_gather/size:4096/stride:8 bm_gather/size:512/stride:64 bm_gather/size:4096/stride:64 " ] &&
    pass "the names are Google Benchmark's" || fail "names: $(tr '\n' ' ' <"$D/list.out")"

runb json --benchmark_format=json --benchmark_repetitions=3 --benchmark_min_time=0.01 --quiet \
    --benchmark_filter='bm_memcpy/|size:4096'
[ "$RC" -eq 0 ] || fail "the JSON run exited $RC: $(tail -n 3 "$D/json.err")"
cp "$D/json.out" "$D/a.json"
"$PY" - "$D/a.json" <<'PYEOF' && pass "JSON: bytes_per_second, items_per_second and user counters as Google Benchmark writes them, per core cycle beside" || fail "JSON counters"
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
it = [r for r in rows if r["run_type"] == "iteration"]
assert len(it) == 5 * 3 + 2 * 3, [r["name"] for r in it]
for r in it:
    w = r["work_counters"]
    if r["name"].startswith("bm_memcpy/"):
        n = int(r["name"].split("/")[1])
        assert r["bytes_per_second"] > 0 and "items_per_second" not in r, r
        c = w["bytes_per_second"]
        assert c["flags"] == ["rate"] and c["k"] == 1024, c
        # bytes a second over core cycles a second: the bytes a core cycle times the cycles a second
        # an 8-byte copy's time may have an interval down to zero (loaded machine): the rate's
        # upper end is then open, null in JSON; the lower end always stands
        lo, hi = c["figure_ci"]
        assert c["per_cycle"] > 0 and lo is not None and lo <= c["figure"], c
        assert hi is None or c["figure"] <= hi, c
        # n bytes an iteration at real_time ns an iteration (the time's one figure)
        assert abs(r["bytes_per_second"] * r["real_time"] * 1e-9 / n - 1) < 1e-9, (r, n)
    else:
        stride = int(r["name"].rsplit(":", 1)[1])
        assert r["lines"] == 64, r                         # 4096 / 64: iteration-invariant, averaged
        assert abs(r["items_per_second"] * r["real_time"] * 1e-9 / (4096 / stride) - 1) < 1e-9, r
        if stride == 64:                                   # one word a line: the two rates agree
            assert abs(r["lines_rate"] / r["items_per_second"] - 1) < 1e-12, r
        assert w["lines"]["flags"] == ["iteration_invariant", "avg_iterations"], w
        assert "per_cycle" not in w["lines"] and w["lines_rate"]["per_cycle"] > 0, w
agg = {r["name"]: r for r in rows if r["run_type"] == "aggregate"}
m = agg["bm_memcpy/4096_mean"]
vals = [r["bytes_per_second"] for r in it if r["name"] == "bm_memcpy/4096"]
assert abs(m["bytes_per_second"] / (sum(vals) / 3) - 1) < 1e-9, (m, vals)
assert agg["bm_gather/size:4096/stride:8_stddev"]["lines"] == 0
PYEOF

runb csv --format csv --min-time 0.01 --quiet --filter 'bm_memcpy/8$|size:4096/stride:64'
head -n 1 "$D/csv.out" | grep -q ',bytes_per_second,bytes_per_cycle,items_per_second,items_per_cycle,lines,lines_rate,lines_rate_per_cycle$' &&
    pass "CSV: a column per counter" || fail "CSV header: $(head -n 1 "$D/csv.out")"
runb md --format markdown --min-time 0.01 --quiet --filter 'bm_memcpy/8$'
grep -q '| work counters |' "$D/md.out" && grep -q 'bytes_per_second=[0-9.]*[kMGT]*/s' "$D/md.out" &&
    pass "Markdown: the work counters' column" || fail "Markdown: $(cat "$D/md.out")"

# --compare A,B: each side's counters beside the times
runb paired --compare 'bm_memcpy/512,bm_memcpy/4096' --min-time 0.05 --quiet --format json
"$PY" -c '
import json, sys
c = json.load(open(sys.argv[1]))["paired"]["counters"]
assert [x["name"] for x in c] == ["bytes_per_second"] and c[0]["a"] > 0 and c[0]["b"] > 0, c
' "$D/paired.out" && pass "--compare: the counters of A and B" || fail "--compare counters: rc $RC $(tail -n 3 "$D/paired.err")"

# A Google Benchmark file of the same names, in its 1.7 shape (three repetitions, 1% slower).
"$PY" - "$D/a.json" "$D/gb.json" <<'PYEOF'
import json, sys
ours = json.load(open(sys.argv[1]))
rows = []
for r in ours["benchmarks"]:
    if r["run_type"] != "iteration":
        continue
    row = {k: r[k] for k in ("name", "family_index", "per_family_instance_index", "run_name",
                             "run_type", "repetitions", "repetition_index", "threads", "iterations")}
    row |= {"real_time": r["real_time"] * 1.01, "cpu_time": r["cpu_time"] * 1.01, "time_unit": "ns"}
    if "bytes_per_second" in r:  # the same bytes in 1% more time
        row["bytes_per_second"] = r["bytes_per_second"] / 1.01
    rows.append(row)
json.dump({"context": {"date": "", "host_name": "gb", "executable": "gbench_memcpy",
                       "num_cpus": 2, "mhz_per_cpu": 2000, "cpu_scaling_enabled": False,
                       "caches": [], "library_build_type": "release"}, "benchmarks": rows},
          open(sys.argv[2], "w"), indent=2)
PYEOF
# tickscope compare sets the counters both files have beside each other
run cmp compare "$D/gb.json" "$D/a.json"
grep -Eq '^bm_memcpy/4096 +bytes_per_second +[0-9.e+]+ +[0-9.e+]+ +\+1\.00%' "$D/cmp.out" &&
    pass "tickscope compare: the work counters both files have" || fail "tickscope compare: $(cat "$D/cmp.out" "$D/cmp.err")"
run cmpj compare "$D/gb.json" "$D/a.json" --format json
"$PY" -c '
import json, sys
rows = {b["name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"]}
c = rows["bm_memcpy/4096"]["counters"]
assert [x["name"] for x in c] == ["bytes_per_second"] and abs(c[0]["change"] - 0.01) < 1e-9, c
assert rows["bm_gather/size:4096/stride:64"]["counters"] == [], rows
' "$D/cmpj.out" && pass "tickscope compare --format json: each row's counters" || fail "compare JSON counters: $(head -c 600 "$D/cmpj.out")"

if [ ! -f "$CP" ] || ! "$PY" -c 'import scipy.stats, numpy' 2>/dev/null; then
    skip_rest "Google Benchmark's compare.py needs the Debian packages libbenchmark-tools python3-scipy python3-numpy"
fi
# every Range name paired: a row with the two times' changes, and its U test over 3 and 3
pairs() {
    local out=$1 ok=1
    for n in $RANGE; do
        grep -Eq "^$n +[-+][0-9.]+ +[-+][0-9.]+ " "$out" && grep -q "^${n}_pvalue .*Repetitions: 3 vs 3" "$out" || ok=0
    done
    [ $ok = 1 ]
}
"$PY" "$CP" --no-color benchmarks "$D/gb.json" "$D/a.json" >"$D/cp.out" 2>"$D/cp.err" && pairs "$D/cp.out" &&
    pass "compare.py pairs the Range names with a Google Benchmark file's" ||
    fail "compare.py (Google Benchmark's shape): $(tail -n 3 "$D/cp.err") $(head -n 20 "$D/cp.out")"

if [ ! -x "$G" ]; then
    # In a build for another architecture than the machine's (the portability matrix's i386), no
    # package beside the matrix's toolchains brings that architecture's Google Benchmark (Debian's
    # libbenchmark-dev is the machine's; multiarch i386 would replace libc6-dev-i386): said as
    # hardware, which TKS_CI=1 allows. In a build for this machine it is a package CI installs.
    case "${TKS_TARGET_ARCH:-$(uname -m)}" in
    "$(uname -m)") skip_rest "examples/gbench_memcpy was not built: Google Benchmark (Debian: libbenchmark-dev) and a C++ compiler are needed" ;;
    *) skip_rest "hardware: examples/gbench_memcpy was not built: no Google Benchmark for ${TKS_TARGET_ARCH} on this $(uname -m) machine" ;;
    esac
fi
"$G" --benchmark_list_tests >"$D/glist.out" 2>"$D/glist.err"
cmp -s "$D/list.out" "$D/glist.out" && pass "Google Benchmark's own program lists the same names" ||
    fail "names differ: ours $(tr '\n' ' ' <"$D/list.out"), Google Benchmark's $(tr '\n' ' ' <"$D/glist.out")"
"$G" --benchmark_format=json --benchmark_repetitions=3 --benchmark_min_time=0.01 \
    --benchmark_filter='bm_memcpy/|size:4096' >"$D/g.json" 2>"$D/g.err" || fail "gbench_memcpy failed: $(tail -n 3 "$D/g.err")"
"$PY" "$CP" --no-color benchmarks "$D/g.json" "$D/a.json" >"$D/cpg.out" 2>"$D/cpg.err" && pairs "$D/cpg.out" &&
    pass "compare.py pairs Google Benchmark's run of the same program with ours" ||
    fail "compare.py (Google Benchmark's run): $(tail -n 3 "$D/cpg.err") $(head -n 20 "$D/cpg.out")"
"$PY" - "$D/g.json" "$D/a.json" <<'PYEOF' && pass "the same counter fields in both files" || fail "counter fields differ"
import json, sys
g, a = (json.load(open(p))["benchmarks"] for p in sys.argv[1:])
fields = lambda rows, n: {k for r in rows if r["name"] == n for k in r if k in ("bytes_per_second", "items_per_second", "lines", "lines_rate")}
for n in ("bm_memcpy/4096", "bm_gather/size:4096/stride:8"):
    assert fields(g, n) == fields(a, n) and fields(a, n), (n, fields(g, n), fields(a, n))
PYEOF
# --benchmark_counters_tabular: each counter its own column, named by the counter, and the header
# again where the set of counters changes, as Google Benchmark's console shows them (ours adds a
# rate's per-core-cycle column); the same on stdout (streamed) and in a file (printed whole).
TAB=(--benchmark_counters_tabular=true --benchmark_repetitions=2 --benchmark_filter='bm_memcpy/(8|64)$|size:512/')
"$G" "${TAB[@]}" --benchmark_min_time=0.001 >"$D/gtab.out" 2>/dev/null || fail "gbench_memcpy tabular failed"
runb tab "${TAB[@]}" --benchmark_min_time=0.002s --benchmark_out="$D/tab.txt" --benchmark_out_format=console
"$PY" - "$D/gtab.out" "$D/tab.out" "$D/tab.txt" <<'PYEOF' && pass "tabular counters: the columns and headers of Google Benchmark's console, streamed and whole" || fail "tabular: $(cat "$D/tab.out")"
import re, sys
def tables(path, after):
    heads, rows = [], []
    for line in open(path):
        w = line.split()
        if w and w[0] == "Benchmark":
            heads.append([c for c in w[w.index(after) + 1:] if not c.endswith("_per_cycle")])
            rows.append([])
        elif heads and w and re.match(r"bm_\S*[^:]$", w[0]):
            rows[-1].append(w)
    return heads, rows
g, _ = tables(sys.argv[1], "Iterations")
assert g == [["bytes_per_second"], ["items_per_second", "lines", "lines_rate"]], g
for path in sys.argv[2:]:
    h, rows = tables(path, "discarded")
    assert h == g, (path, h, g)
    agg = ("_mean", "_median", "_stddev", "_cv")
    for w in rows[0]:  # a run's rate, then its per-cycle figure; a cv row's a percentage
        assert w[-1].endswith("%") if w[0].endswith("_cv") else w[-2 if not w[0].endswith(agg) else -1].endswith("/s"), w
    names = [w[0] for w in rows[1]]
    assert names[:3] == ["bm_gather/size:512/stride:8"] * 2 + ["bm_gather/size:512/stride:8_mean"], names
    assert all("8" in w for w in rows[1] if not w[0].endswith(agg[2:])), rows[1]
PYEOF
finish
