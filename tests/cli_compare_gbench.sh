# SPDX-License-Identifier: MIT
# cli_compare_gbench.sh: Google Benchmark's own comparison tool reads our result files. Debian's
# libbenchmark-tools ships it as /usr/share/benchmark/compare.py (it imports scipy and numpy,
# which the package does not pull in). Two files of a tks_main program, three repetitions each,
# compared in its three modes; its JSON dump must hold our benchmarks with their U test.
CMD=compare
NAME=compare_gbench
. "$(dirname "$0")/lib_cli.sh"

CP=/usr/share/benchmark/compare.py
PY=/usr/bin/python3 # Debian's, which has python3-scipy; not whatever python3 is first on PATH
if [ ! -f "$CP" ] || ! "$PY" -c 'import scipy.stats, numpy' 2>/dev/null; then
    echo "SKIP: Google Benchmark's compare.py needs the Debian packages libbenchmark-tools python3-scipy python3-numpy"
    exit 77
fi
B="$(dirname "$T")/tests/tks_bench_prog"
[ -x "$B" ] || { echo "FAIL: $B is missing"; exit 1; }
for f in a b; do
    # not the empty bodies: compare.py divides by the old time, which may be exactly 0 for them
    "$B" --filter '^add40$' --min-time 0.02 --repetitions 3 --format json --out "$D/$f.json" \
        --quiet || fail "the benchmark program failed writing $f.json"
done

"$PY" "$CP" --no-color -d "$D/dump.json" benchmarks "$D/a.json" "$D/b.json" >"$D/cp.out" 2>"$D/cp.err"
RC=$?
if [ "$RC" -ne 0 ]; then
    fail "compare.py benchmarks: exit $RC: $(tail -n 3 "$D/cp.err")"
else
    grep -Eq '^add40 +[-+][0-9.]+ +[-+][0-9.]+ +[0-9]+ +[0-9]+' "$D/cp.out" &&
        grep -q '^add40_pvalue .*U Test, Repetitions: 3 vs 3' "$D/cp.out" &&
        pass "compare.py benchmarks: a row per repetition of add40 and its U test" ||
        fail "compare.py benchmarks: $(cat "$D/cp.out")"
    "$PY" - "$D/dump.json" "$D/a.json" <<'PYEOF' && pass "compare.py's JSON dump: our times, our names, a U test" || fail "compare.py's JSON dump"
import json, sys
dump = json.load(open(sys.argv[1]))
ours = json.load(open(sys.argv[2]))
entry = [e for e in dump if e["name"] == "add40"]
assert entry, [e["name"] for e in dump]
e = entry[0]
assert e["time_unit"] == "ns" and e["run_type"] == "iteration", e
assert len(e["measurements"]) == 3, e["measurements"]
first = [b for b in ours["benchmarks"] if b["name"] == "add40"][0]
assert abs(e["measurements"][0]["real_time"] - first["real_time"]) < 1e-9
assert e["utest"] and e["utest"]["nr_of_repetitions"] == 3, e["utest"]
PYEOF
fi
"$PY" "$CP" --no-color filters "$D/a.json" add40 'add4.' >"$D/cpf.out" 2>"$D/cpf.err" &&
    grep -q '^\[add40 vs. add4\.\]' "$D/cpf.out" && pass "compare.py filters" ||
    fail "compare.py filters: $(tail -n 3 "$D/cpf.err")"
"$PY" "$CP" --no-color -a benchmarksfiltered "$D/a.json" add40 "$D/b.json" add40 >"$D/cpb.out" 2>"$D/cpb.err" &&
    grep -q '^\[add40 vs. add40\]_mean' "$D/cpb.out" && pass "compare.py benchmarksfiltered --display_aggregates_only" ||
    fail "compare.py benchmarksfiltered: $(tail -n 3 "$D/cpb.err")"
# A file holding benchmarks that failed (one skipped, one killed by a signal): their rows carry
# error_occurred and the time 0, as Google Benchmark's own do, and compare.py reads on (it
# stopped at the null they carried before).
for f in fa fb; do
    "$B" --filter '^add40$|skipper|crashy/1' --isolate --min-time 0.02 --repetitions 2 \
        --format json --out "$D/$f.json" --quiet
done
"$PY" "$CP" --no-color benchmarks "$D/fa.json" "$D/fb.json" >"$D/cpx.out" 2>"$D/cpx.err" &&
    grep -Eq '^add40 +[-+][0-9.]+' "$D/cpx.out" && grep -Eq '^skipper +[-+]0\.0000 ' "$D/cpx.out" &&
    pass "compare.py over files holding failed benchmarks: the others compared" ||
    fail "compare.py over failed benchmarks: $(tail -n 3 "$D/cpx.err") $(cat "$D/cpx.out")"
finish
