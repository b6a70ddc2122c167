# SPDX-License-Identifier: MIT
# cli_events_pmu.sh: hardware event counters where the machine has a PMU: 100 dependent adds read
# 100 instructions per iteration over the harness the report names (an empty block's windows and
# loop), in latency and in throughput mode; cycles and branches count too. Without a PMU (a VM
# that exposes none) the test says so and is skipped as hardware this machine lacks, never passed.
# Usage: bash cli_events_pmu.sh /path/to/tickscope (the benchmark program is found beside it)
set -u
CMD=bench
NAME=events_pmu
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"
B="$(dirname "$T")/tests/tks_events_prog"
[ -x "$B" ] || { echo "FAIL: $B is missing"; exit 1; }

# What the run says of instructions: counted, or the refusal's code and reason.
runb probe --filter '^add100$' --min-time 0.02 --format json --counters instructions
[ "$RC" -eq 0 ] || { echo "FAIL: exit $RC: $(cat "$D/probe.err")"; exit 1; }
refusal=$(python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
r = b.get("event_counters_refused", [])
print("%s\t%s" % (r[0]["code"], r[0]["reason"]) if r else "")' "$D/probe.out") || { echo "FAIL: the JSON: $(cat "$D/probe.out")"; exit 1; }
# No perf_event_open at all (QEMU user mode): asked of the kernel directly (tks_cpu_truth), not of
# the program; no package brings it, so it is said as hardware.
case "$refusal" in
"") ;;
events.no_pmu*) echo "SKIP: hardware: no PMU (${refusal#*	})"; exit 77 ;;
*)
    if [ "$(cpu_truth perf_software)" = ENOSYS ]; then
        echo "SKIP: hardware: perf_event_open does not exist here (ENOSYS): ${refusal#*	}"
    else
        echo "SKIP: instructions cannot be counted here: ${refusal#*	}"
    fi
    exit 77 ;;
esac

for mode in latency throughput; do
    runb "$mode" --filter '^add100$' --min-time 0.1 --mode "$mode" --format json \
        --counters instructions,cycles,branches,page-faults
    if python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
ev = {e["name"]: e for e in b["event_counters"]}
i = ev["instructions"]
assert abs(i["block"] - 100) <= 2, ("the block is 100 adds", i)
assert i["harness"] > 0 and abs(i["per_iteration"] - i["harness"] - i["block"]) < 1e-6, i
assert b["instructions"] == i["per_iteration"], "the Google Benchmark field"
assert ev["cycles"]["block"] >= 90, ("100 dependent adds take about 100 cycles", ev["cycles"])
assert ev["branches"]["per_iteration"] >= 0, ev["branches"]
print("instructions %.2f per iteration = block %.2f + harness %.2f (read %s); cycles block %.1f" % (
    i["per_iteration"], i["block"], i["harness"], i["read"], ev["cycles"]["block"]))
' "$D/$mode.out" >"$D/$mode.py" 2>&1; then
        pass "$mode: $(cat "$D/$mode.py")"
    else
        fail "$mode: $(cat "$D/$mode.py" "$D/$mode.err")"
    fi
done
finish
