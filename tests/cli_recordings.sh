# SPDX-License-Identifier: MIT
# cli_recordings.sh: the recordings of other CPUs (tests/recordings/, README there) replayed and
# held to their workloads' truth: each figure within its tolerance of the truth, or carrying a
# warning that says it cannot be told; a folder's 101 adds told from its 100 adds. A recording of
# the old form (a report and its --raw windows) is made a recording by from_report.py first.
CMD=replay
NAME=recordings
. "$(dirname "$0")/lib_cli.sh"

R="$(cd "$(dirname "$0")" && pwd)/recordings"
command -v xz >/dev/null || skip_rest "xz is needed to read the --raw windows of the old recordings (Debian package xz-utils)"

for dir in "$R"/*/; do
    cpu=$(basename "$dir")
    out="$D/$cpu"
    mkdir -p "$out"
    n=0
    for rec in "$dir"*.rec; do
        [ -e "$rec" ] || continue
        run "$cpu-$(basename "$rec")" replay "$rec" --format json --out "$out/$(basename "$rec" .rec).json"
        [ "$RC" -eq 0 ] && n=$((n + 1)) || fail "$cpu: replay $(basename "$rec"): exit $RC: $(cat "$D/$cpu-$(basename "$rec").err")"
    done
    for report in "$dir"*.json; do
        [ -e "$report" ] || continue
        base=$(basename "$report" .json)
        [ -e "$dir$base.raw.csv.xz" ] || continue
        if ! python3 "$R/from_report.py" "$report" "$dir$base.raw.csv.xz" "$out/$base.rec" 2>"$D/conv.err"; then
            fail "$cpu: from_report.py $base: $(tail -3 "$D/conv.err")"
            continue
        fi
        run "$cpu-$base" replay "$out/$base.rec" --format json --out "$out/$base.json"
        [ "$RC" -eq 0 ] && n=$((n + 1)) || fail "$cpu: replay $base: exit $RC: $(cat "$D/$cpu-$base.err")"
        # the machine a replay reports is the recorded one, not this one
        python3 - "$report" "$out/$base.json" <<'EOF' || fail "$cpu $base: the replay reports another CPU"
import json, sys
a, b = (json.load(open(p))["context"]["cpu"] for p in sys.argv[1:3])
for k in ("vendor", "family", "model", "stepping", "features"):
    assert a[k] == b[k], (k, a[k], b[k])
EOF
    done
    [ "$n" -gt 0 ] || { fail "$cpu: no recording replayed"; continue; }
    python3 - "$dir/truth.csv" "$out" "$cpu" <<'EOF' >"$D/$cpu.check" 2>&1
import csv, glob, json, os, sys
truth_path, out, cpu = sys.argv[1:4]
# Warnings that say the headline cannot be told: what a figure off its truth must carry.
CANNOT_TELL = {
    "bench.under_cycle", "bench.zero_latency", "bench.zero_throughput", "bench.loop_floor",
    "bench.below_gap", "bench.negative", "bench.modes_repeated", "bench.modes_overlap",
    "bench.harness_kept", "core.add_chain_unread", "core.add_chain_unchecked",
    "bench.rate_mixed", "bench.core_drift",
}
truth = {}
for row in csv.reader(l for l in open(truth_path) if not l.startswith("#")):
    name, mode, cycles, tol = (x.strip() for x in row)
    cycles = float(cycles)
    tol = cycles * float(tol[:-1]) / 100 if tol.endswith("%") else float(tol)
    truth[(name, mode)] = (cycles, tol)
seen, figures, bad = set(), {}, 0
for path in sorted(glob.glob(os.path.join(out, "*.json"))):
    doc = json.load(open(path))
    mode = doc["context"]["mode"]
    for b in doc["benchmarks"]:
        key = (b["name"], mode)
        if key not in truth:
            continue
        seen.add(key)
        want, tol = truth[key]
        got = b.get("core_cycles")
        codes = [d["code"] for d in b.get("diagnostics", []) if d["severity"] in ("warning", "error")]
        figures[key] = b
        # OVERLAP_CYCLES (docs/constants.md): where the block's own correction was taken, the
        # add gap's figure lies within 6 core cycles of it
        adds = b.get("adds_gap_core_cycles")
        if mode == "latency" and b.get("harness_gap_source") == "block" and adds is not None:
            if abs(adds - got) <= 6:
                print("ok: %s %s: the add gap's figure %.3f within 6 cycles of the block's" % (cpu, b["name"], adds))
            else:
                bad += 1
                print("FAIL: %s %s: the add gap's figure %.3f and the block's %.3f differ by more "
                      "than OVERLAP_CYCLES (6)" % (cpu, b["name"], adds, got))
        if got is not None and abs(got - want) <= tol:
            print("ok: %s %s %s: %.3f core cycles, truth %g +- %g" % (cpu, b["name"], mode, got, want, tol))
        elif CANNOT_TELL & set(codes):
            print("ok: %s %s %s: %s, off its truth %g, says it cannot be told (%s)"
                  % (cpu, b["name"], mode, got, want, ", ".join(sorted(CANNOT_TELL & set(codes)))))
        else:
            bad += 1
            print("FAIL: %s %s %s: %s core cycles, truth %g +- %g, presented as a result (warnings: %s)"
                  % (cpu, b["name"], mode, got, want, tol, codes or "none"))
for key in sorted(set(truth) - seen):
    bad += 1
    print("FAIL: %s %s %s: not in the recordings" % (cpu, key[0], key[1]))
for mode in ("latency", "throughput"):
    a, b = figures.get(("add100", mode)), figures.get(("add101", mode))
    if a and b:
        # told apart: the difference's 95% interval (the two independent halves combined) above 0
        ha = (a["core_cycles_ci"][1] - a["core_cycles_ci"][0]) / 2
        hb = (b["core_cycles_ci"][1] - b["core_cycles_ci"][0]) / 2
        diff, half = b["core_cycles"] - a["core_cycles"], (ha * ha + hb * hb) ** 0.5
        if diff - half > 0:
            print("ok: %s %s: 101 adds told from 100: %.3f more, +- %.3f" % (cpu, mode, diff, half))
        else:
            bad += 1
            print("FAIL: %s %s: 101 adds not told from 100: %.3f more, +- %.3f" % (cpu, mode, diff, half))
sys.exit(1 if bad else 0)
EOF
    rc=$?
    cat "$D/$cpu.check"
    [ "$rc" -eq 0 ] || FAILED=$((FAILED + 1))
done
finish
