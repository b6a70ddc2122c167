# SPDX-License-Identifier: MIT
# cli_events.sh: event counters in a benchmark program (--counters, --benchmark_perf_counters):
# a body that faults in 16 fresh pages per iteration reads 16 page faults per iteration (within
# 1%) on any machine; an event the machine cannot count (a hardware event without a PMU, an
# unknown name) is one coded diagnostic, the run goes on, and the JSON lists it as refused with
# the reason; the figures survive --processes; the CSV has a column per event.
# Usage: bash cli_events.sh /path/to/tickscope (the benchmark program is found beside it)
set -u
CMD=bench
NAME=events
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"
B="$(dirname "$T")/tests/tks_events_prog"
[ -x "$B" ] || { echo "FAIL: $B is missing"; exit 1; }
py() { python3 -c "$1" "${@:2}" 2>"$D/py.err"; }

# What needs no counter first: the lists, and Google's default of none.
# A list that is not one: a usage error, one line.
for bad in "" "page-faults,,cycles" "a,b,c,d,e,f,g,h,i"; do
    runb bad --list --counters "$bad"
    if [ "$RC" -eq 2 ] && [ "$(wc -l <"$D/bad.err")" -eq 1 ] && grep -q 'error: --counters: ' "$D/bad.err"; then
        pass "--counters '$bad': $(cat "$D/bad.err")"
    else
        fail "--counters '$bad': exit $RC, $(cat "$D/bad.err")"
    fi
done
runb gbnone --filter '^pages/16$' --benchmark_min_time=0.02s --benchmark_format=json --benchmark_perf_counters=
py 'import json,sys; b=json.load(open(sys.argv[1]))["benchmarks"][0]; sys.exit(0 if "event_counters" not in b else 1)' "$D/gbnone.out" &&
    pass "--benchmark_perf_counters= (Google's default) counts nothing" || fail "empty --benchmark_perf_counters: $RC $(cat "$D/gbnone.err")"

# No perf_event_open at all (ENOSYS: QEMU user mode, a kernel built without perf events): nothing
# can be counted, so the counting checks below are skipped; on Linux proper it is always there.
# What the kernel answers is asked of it directly (tks_cpu_truth's perf_software), not of the
# program under test, which must then say the same.
machine=$(cpu_truth perf_software)
runb probe --filter '^pages/16$' --min-time 0.02 --format json --counters page-faults
refused=$(py 'import json,sys; b=json.load(open(sys.argv[1]))["benchmarks"][0]
print(" ".join(r["reason"] for r in b.get("event_counters_refused", [])))' "$D/probe.out")
case $machine in
ok) [ -z "$refused" ] || fail "page faults: the kernel counts them for this process, the program refused: $refused" ;;
ENOSYS)
    echo "$refused" | grep -q '(Function not implemented)' ||
        fail "perf_event_open is ENOSYS here, the program said: '$refused'"
    skip_rest "hardware: perf_event_open does not exist here (ENOSYS): the counting checks" ;;
'') fail "tks_cpu_truth (in tests/ beside $T) did not run: whether perf events exist is unknown" ;;
*) skip_rest "perf_event_open refuses software events here ($machine): the counting checks" ;;
esac

# 16 pages per iteration, alone and beside a hardware event and a name nobody knows.
# (256 windows, whatever the machine's load: the interval is over batches of 64 pairs, so it
# needs several)
runb pages --filter '^pages/16$' --benchmark_min_time=256x --format json \
    --counters page-faults,minor-faults,instructions,no-such-event
[ "$RC" -eq 0 ] && pass "a run with refused counters exits 0" || fail "exit $RC: $(cat "$D/pages.err")"
if py '
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
ev = {e["name"]: e for e in b["event_counters"]}
for name in ("page-faults", "minor-faults"):
    e = ev[name]
    assert abs(e["per_iteration"] - 16) <= 0.16, (name, e)
    assert abs(b[name] - e["per_iteration"]) < 1e-9, "the Google Benchmark field is the per-iteration count"
    assert abs(e["harness"]) <= 0.16, ("an empty block faults nothing", e)
    assert abs(e["block"] - 16) <= 0.16, e
    assert e["per_iteration_ci"][0] <= e["per_iteration"] <= e["per_iteration_ci"][1], e
    assert e["batches"] >= 2 and e["read"] in ("read", "rdpmc"), e
refused = {r["name"]: r for r in b["event_counters_refused"]}
assert "no-such-event" in refused and refused["no-such-event"]["code"] == "events.unknown", refused
assert "no-such-event" not in b and "no-such-event" not in ev
if "instructions" in refused:
    assert "instructions" not in b, "a refused counter has no figure"
    assert refused["instructions"]["code"].startswith("events."), refused
    assert refused["instructions"]["reason"].startswith("instructions not counted: "), refused
else:
    assert ev["instructions"]["per_iteration"] > 0, ev
codes = [d["code"] for d in b["diagnostics"]]
assert "events.unknown" in codes, codes
' "$D/pages.out"; then
    pass "16 fresh pages per iteration read 16 page faults per iteration (within 1%), the refused counters listed with their reason"
else
    fail "page faults: $(cat "$D/py.err")"
fi

# No PMU here (a VM without one): the hardware event is refused with the no-PMU diagnostic, one
# line, and the software events still count (16 page faults an iteration within 1%, as above: an
# AddressSanitizer build under load read 16.03 over 63 windows).
if [ -d /sys/bus/event_source/devices/cpu ] || ls -d /sys/bus/event_source/devices/armv8* >/dev/null 2>&1; then
    # The JSON check above required instructions counted or refused with a reason; the count
    # itself is cli_events_pmu.sh's. The no-PMU part did not run: a skip, of hardware.
    skip "hardware: a PMU here: the no-PMU refusal cannot be seen (cli_events_pmu.sh counts with it)"
else
    runb nopmu --filter '^pages/16$' --min-time 0.02 --counters instructions,page-faults
    lines=$(grep -c 'instructions not counted: ' "$D/nopmu.out")
    if [ "$RC" -eq 0 ] && [ "$lines" -eq 1 ] &&
       grep -Eq 'error: instructions not counted: no PMU in this virtual machine \(the hypervisor exposes none\)|error: instructions not counted: the kernel has no PMU' "$D/nopmu.out" &&
       awk '$1 == "page-faults" && $2 + 0 >= 15.84 && $2 + 0 <= 16.16 { ok = 1 } END { exit !ok }' "$D/nopmu.out"; then
        pass "no PMU: one line, $(grep -o 'instructions not counted: [^;]*' "$D/nopmu.out")"
    else
        fail "no PMU: exit $RC, $lines lines: $(cat "$D/nopmu.out" "$D/nopmu.err")"
    fi
fi

# Google Benchmark's spelling, its capitals and underscores.
runb gb --filter '^pages/16$' --benchmark_min_time=0.02s --benchmark_format=json \
    --benchmark_perf_counters=PAGE_FAULTS
py 'import json,sys; b=json.load(open(sys.argv[1]))["benchmarks"][0]; sys.exit(0 if abs(b["PAGE_FAULTS"]-16)<=0.16 else 1)' "$D/gb.out" &&
    pass "--benchmark_perf_counters=PAGE_FAULTS: the field is named as asked" || fail "--benchmark_perf_counters: $RC $(cat "$D/gb.err" "$D/py.err")"

# Across fresh processes (the result's wire) and in the CSV.
runb procs --filter '^pages/16$' --min-time 0.02 --processes 2 --format json --counters page-faults
py '
import json, sys
rows = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b["run_type"] == "iteration"]
assert len(rows) == 2, len(rows)
for b in rows:
    assert abs(b["event_counters"][0]["per_iteration"] - 16) <= 0.16, b["event_counters"]
' "$D/procs.out" && pass "--processes 2: each fresh process brings its counters back" || fail "--processes: $RC $(cat "$D/procs.err" "$D/py.err")"
runb csv --filter '^pages/16$' --min-time 0.02 --format csv --counters page-faults,bogus
py '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert abs(float(rows[0]["page-faults"]) - 16) <= 0.16, rows[0]
assert rows[0]["bogus"] == "" and "page-faults_harness" in rows[0], rows[0]
' "$D/csv.out" && pass "CSV: a column per event, empty for a refused one" || fail "csv: $(cat "$D/csv.out" "$D/py.err")"

# Over repetitions: each event's per-iteration count aggregated as Google Benchmark aggregates its
# perf counters (a field of each aggregate row), in the CSV's aggregate rows and the console's.
runb reps --filter '^pages/16$' --min-time 0.02 --benchmark_repetitions=3 --format json --counters page-faults
py '
import json, sys
rows = {b["name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"]}
assert abs(rows["pages/16_mean"]["page-faults"] - 16) <= 0.16, rows["pages/16_mean"]
assert abs(rows["pages/16_median"]["page-faults"] - 16) <= 0.16, rows["pages/16_median"]
assert 0 <= rows["pages/16_stddev"]["page-faults"] <= 0.16, rows["pages/16_stddev"]
assert 0 <= rows["pages/16_cv"]["page-faults"] <= 0.01, rows["pages/16_cv"]
' "$D/reps.out" && pass "--benchmark_repetitions: mean, median, stddev and cv of page-faults in the aggregate rows" || fail "aggregates: $RC $(cat "$D/reps.err" "$D/py.err")"
runb repscsv --filter '^pages/16$' --min-time 0.02 --benchmark_repetitions=2 --format csv --counters page-faults
py '
import csv, sys
rows = {r["name"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert abs(float(rows["pages/16_mean"]["page-faults"]) - 16) <= 0.16, rows["pages/16_mean"]
assert None not in rows["pages/16_cv"] and None not in rows["pages/16_cv"].values(), "an aggregate row has every column"
' "$D/repscsv.out" && pass "CSV: the aggregate rows carry the event column" || fail "csv aggregates: $(cat "$D/repscsv.out" "$D/py.err")"
runb repstab --filter '^pages/16$' --min-time 0.02 --benchmark_repetitions=2 --counters page-faults --benchmark_counters_tabular=true
if grep -Eq '^Benchmark .* page-faults$' "$D/repstab.out" && grep -Eq '^pages/16_mean .* 16(\.[0-9]+)?$' "$D/repstab.out" &&
   grep -Eq '^pages/16 .* 16(\.[0-9]+)?$' "$D/repstab.out"; then
    pass "console, tabular: a page-faults column, in the runs' rows and the aggregates'"
else
    fail "console tabular events: $(cat "$D/repstab.out")"
fi

# --compare A,B: each side's mean count per iteration, beside the work counters.
runb cmp --compare 'pages/16,add100' --min-time 0.02 --format json --counters page-faults
py '
import json, sys
e = {c["name"]: c for c in json.load(open(sys.argv[1]))["paired"]["event_counters"]}
assert abs(e["page-faults"]["a"] - 16) <= 0.16 and abs(e["page-faults"]["b"]) <= 0.16, e
' "$D/cmp.out" && pass "--compare: page faults of A (16) and B (0) per iteration" || fail "--compare events: $RC $(cat "$D/cmp.err" "$D/py.err")"

# tickscope compare of two files: a counter both have is paired; one the other lacks or refused
# is a coded diagnostic (compare.counter_one_side).
runb ca --filter '^pages/16$' --min-time 0.02 --format json --counters page-faults,minor-faults
runb cb --filter '^pages/16$' --min-time 0.02 --format json --counters page-faults,no-such-event
"$T" compare --format json "$D/ca.out" "$D/cb.out" >"$D/cmpf.out" 2>"$D/cmpf.err"
py '
import json, sys
d = json.load(open(sys.argv[1]))
s = json.dumps(d)
assert "\"page-faults\"" in s, "the shared counter is compared"
codes = [x for x in d["diagnostics"] if x["code"] == "compare.counter_one_side"]
assert any("minor-faults" in x["message"] for x in codes), codes
' "$D/cmpf.out" && pass "tickscope compare: page-faults paired, minor-faults (old only) a coded diagnostic" || fail "compare files: $(cat "$D/cmpf.err" "$D/py.err")"
finish
