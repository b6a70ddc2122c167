# SPDX-License-Identifier: MIT
# cli_sys_quick.sh: `tickscope sys --quick` ends within 20 s of wall time, calibration included (a
# fresh cache), on this machine and on this machine told (--root) that its L3 is 300 MiB, as a
# guest once declared: there a full run chases 4 x 300 = 1200 MiB and --quick took 73 s here.
# With that L3 the mem suite's plan is --quick's: the curve ends at 128 MiB (not 1200), said as
# sys.quick_capped (128 of 1200 MiB), and the rows of memory say they are not beyond the 300 MiB
# L3 (sys.quick_within_caches, 131072 of 307200 KiB). Every operation is there, or named in its
# suite's sys.time_left_out. Tolerance: none on the 20 s; the command holds its own budget (it
# cuts rows short or leaves them out on a loaded machine, and says so), and runs here took 14.6 to
# 17.9 s at load averages of 1.2 to 3.7 on 2 vCPUs. Usage: bash cli_sys_quick.sh /path/to/tickscope
set -u

CMD=sys
NAME=cli_sys_quick
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"

LIMIT=20
if emulated_target; then
    skip_rest "hardware: this build's programs run under an emulator: its time is the emulator's"
fi
"$T" sys --list >"$D/list.out" 2>&1 || fail "sys --list: $(cat "$D/list.out")"

# A /sys tree declaring L1d 48K, L2 1M, L3 300M (nothing else under the root: /proc/meminfo
# unreadable means free memory unknown, so the working set is not refused).
c="$D/root300/sys/devices/system/cpu/cpu0/cache"
for i in 0 2 3; do mkdir -p "$c/index$i"; done
printf '1\n' >"$c/index0/level"; printf 'Data\n' >"$c/index0/type"; printf '48K\n' >"$c/index0/size"
printf '2\n' >"$c/index2/level"; printf 'Unified\n' >"$c/index2/type"; printf '1024K\n' >"$c/index2/size"
printf '3\n' >"$c/index3/level"; printf 'Unified\n' >"$c/index3/type"; printf '300M\n' >"$c/index3/size"

# timed NAME ARGS...: run tickscope with a fresh calibration cache; sets RC and WALL (seconds).
timed() {
    local name=$1 t0 t1
    shift
    export TICKSCOPE_CACHE_DIR="$D/cache_$name"
    t0=$(date +%s.%N)
    run "$name" "$@"
    t1=$(date +%s.%N)
    WALL=$(python3 -c "print('%.2f' % ($t1 - $t0))")
}

# check JSON BIG: every operation present or left out for time; with BIG=1 the 300 MiB plan.
check() {
    python3 - "$1" "$D/list.out" "$2" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
big = sys.argv[3] == "1"
ids = {}
for line in open(sys.argv[2]):
    suite, rest = line.split(":", 1)
    ids[suite] = rest.split()
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
need([s["suite"] for s in doc["suites"]] == ["cpu", "os", "mem"], "suites in order")
for s in doc["suites"]:
    rows = {o["id"]: o for o in s["operations"]}
    codes = {x["code"]: x for x in s["diagnostics"]}
    out = codes.get("sys.time_left_out")
    left = out["values"]["ids"].split(", ") if out else []
    if out:
        print("   %s: left out for time: %s" % (s["suite"], ", ".join(left)))
        need(out["values"]["rows"] == len(left), "sys.time_left_out: its count is not its list")
    for i in ids[s["suite"]]:
        if i == "curve" or i in left:
            continue
        if i in ("fault_file", "fault_major") and "sys.no_fault_file" in codes:
            continue
        if i == "lat_ram_huge" and "sys.huge_backed" not in codes:
            continue
        need(i in rows, "%s: operation %s neither there nor left out" % (s["suite"], i))
    for o in s["operations"]:
        need(o["ok"] or o["error"], "%s: not measured without a reason" % o["id"])
        for x in o["diagnostics"]:
            if x["code"] == "sys.time_cut":
                print("   %s: cut short: %s" % (o["id"], x["message"]))
    if s["suite"] != "mem":
        continue
    b = [p["bytes"] for p in s["curve"]]
    cut = "sys.curve_cut" in codes
    if big:
        cap = codes.get("sys.quick_capped")
        need(cap and cap["values"] == {"mib": 128, "full_mib": 1200},
             "300 MiB L3: no sys.quick_capped of 128 of 1200 MiB: %s" % cap)
        need(cut or (b and b[-1] == 128 << 20), "300 MiB L3: the curve ends at %s, not 128 MiB" % b[-1:])
        need(all(x <= 128 << 20 for x in b), "300 MiB L3: a working set over 128 MiB")
        for i in ("lat_ram", "read_ram", "write_ram", "copy_ram"):
            if i in rows and rows[i]["ok"]:
                w = [x for x in rows[i]["diagnostics"] if x["code"] == "sys.quick_within_caches"]
                need(w and w[0]["values"] == {"kib": 131072, "llc_kib": 307200},
                     "%s: not said to be within the 300 MiB L3: %s" % (i, rows[i]["diagnostics"]))
    else:
        need("sys.quick_capped" not in codes or not s["caches"] or
             4 * max(c["bytes"] for c in s["caches"]) > 128 << 20,
             "capped although 4x the last level is at most 128 MiB")
for x in bad:
    print("  " + x)
sys.exit(1 if bad else 0)
PY
}

for what in 300 machine; do
    if [ $what = 300 ]; then
        timed big sys --quick --root "$D/root300" --json --out "$D/big.json"
        json="$D/big.json" big=1 label="a declared 300 MiB L3"
    else
        timed here sys --quick --json --out "$D/here.json"
        json="$D/here.json" big=0 label="this machine's caches"
    fi
    if [ "$RC" -ne 0 ]; then
        fail "sys --quick, $label: exit $RC: $(tail -5 "$D/$([ $big = 1 ] && echo big || echo here).err")"
        continue
    fi
    if python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)" "$WALL" "$LIMIT"; then
        pass "sys --quick, $label: $WALL s (at most $LIMIT s; load average $(cut -d' ' -f1 /proc/loadavg))"
    else
        fail "sys --quick, $label: $WALL s, over $LIMIT s (load average $(cut -d' ' -f1 /proc/loadavg))"
    fi
    if check "$json" "$big"; then
        pass "sys --quick, $label: every operation there or left out for time, the plan as worked"
    else
        fail "sys --quick, $label: the report (above)"
    fi
done

finish
