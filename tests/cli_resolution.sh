# SPDX-License-Identifier: MIT
# cli_resolution.sh: `tickscope resolution` as a user meets it: exit codes, the table, the JSON
# document's shape (one point per n = 0..max, in order), the raw CSV, files, usage errors.
# Structure only: no figure is compared with a speed. Usage: bash cli_resolution.sh /path/to/tickscope
set -u

CMD=resolution
NAME=cli_resolution
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"

# Usage errors need no clock: check them before deciding whether to skip the rest.
expect_usage max_0 "--max" --max 0
expect_usage max_201 "--max" --max 201
expect_usage max_abc "'abc'" --max abc
expect_usage max_missing "--max" --max
expect_usage samples_1 "--samples" --samples 1
expect_usage method_unknown "unknown method 'nope'" --method nope
expect_usage method_missing "--method" --method
expect_usage option_unknown "unknown option '--bogus'" --bogus

run help resolution --help
if [ "$RC" -ne 0 ] || ! grep -q '^usage: tickscope resolution' "$D/help.out"; then
    fail "help: exit $RC, or no 'usage: tickscope resolution' line"
else
    pass "help: exit 0"
fi

# The default method, named: --method skips the short validation that would otherwise choose one.
# Which one it is follows from the CPU's features (CPUID, tests/cpu_truth.h), and tickscope must
# mark that one: every CPU tickscope runs on has a default, so its absence fails, never skips.
truth_default_method
[ -n "$M" ] || finish
MAX=5
SMALL="--method $M --max $MAX --samples 200"

# ---- the table: one row per n = 0..MAX, then the summary
run table resolution $SMALL
if [ "$RC" -ne 0 ]; then
    fail "table: exit $RC: $(cat "$D/table.err")"
else
    ns=$(awk '/^-+$/ {t = 1; next} t && /^ *[0-9]+ / {print $1} t && /^$/ {exit}' "$D/table.out" | tr '\n' ' ')
    [ "$ns" = "0 1 2 3 4 5 " ] || fail "table: rows n = '$ns', expected 0..$MAX"
    grep -q "^Method $M " "$D/table.out" || fail "table: no 'Method $M' summary line"
    grep -q '^Resolution of the minimum: ' "$D/table.out" || fail "table: no resolution line"
    pass "table: exit 0, rows n = $ns"
fi

# ---- JSON and raw samples from one run
run json resolution $SMALL --json --out "$D/r.json" --raw "$D/r.csv"
if [ "$RC" -ne 0 ]; then
    fail "json: exit $RC: $(cat "$D/json.err")"
elif [ -s "$D/json.out" ]; then
    fail "json: --out was given but stdout got output"
else
COARSE=0
coarse_clock_ok && COARSE=1
python3 - "$D/r.json" "$D/r.csv" "$MAX" "$M" "$COARSE" <<'EOF'
import csv, json, sys
errors = []
def check(cond, msg):
    if not cond:
        errors.append(msg)
def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)
doc = json.load(open(sys.argv[1]))
mx = int(sys.argv[3])
M = sys.argv[4]
zeros = 0
check(doc.get("method") == M, "method is %r, asked for %s" % (doc.get("method"), M))
check(isinstance(doc.get("context"), dict), "no context object")
pts = doc.get("points")
check(isinstance(pts, list) and len(pts) == mx + 1,
      "%r points, expected max+1 = %d" % (len(pts) if isinstance(pts, list) else pts, mx + 1))
for i, p in enumerate(pts or []):
    for k in ("n", "min", "median", "mean", "variance", "max_deviation"):
        check(k in p and num(p[k]), "point %d: no number '%s'" % (i, k))
    check(p.get("n") == i, "point %d has n = %r: not in order 0..max" % (i, p.get("n")))
    if all(num(p.get(k)) for k in ("min", "median", "max_deviation", "variance")):
        if p["min"] == 0 and sys.argv[5] == "1":
            zeros += 1  # the counter is coarser than the window: skipped, not failed
        else:
            check(isinstance(p["min"], int) and p["min"] > 0, "point %d: min %r" % (i, p["min"]))
        check(p["median"] >= p["min"], "point %d: median below the minimum" % i)
        check(p["variance"] >= 0 and p["max_deviation"] >= 0, "point %d: negative spread" % i)
sp = doc.get("spurious_minimums")
check(isinstance(sp, int) and 0 <= sp <= mx, "spurious_minimums %r not in 0..max" % (sp,))
fit = doc.get("fit")
check(isinstance(fit, dict) and all(num(fit.get(k)) for k in ("slope", "intercept", "r2")),
      "fit lacks slope, intercept or r2: %r" % (fit,))
for k in ("resolution_min_instructions", "resolution_mean_instructions"):
    v = doc.get(k)
    check(isinstance(v, int) and 0 <= v <= mx, "%s = %r is not a whole number in 0..max" % (k, v))
S = doc.get("samples_per_point")
check(isinstance(S, int) and 2 <= S <= 200, "samples_per_point %r" % (S,))
rows = list(csv.reader(open(sys.argv[2])))
check(rows and rows[0] == ["method", "ensemble", "sample", "ticks"], "raw header %r" % (rows[:1],))
data = rows[1:]
if isinstance(S, int):
    check(len(data) == (mx + 1) * S,
          "raw has %d rows, expected (max+1)*samples_per_point = %d" % (len(data), (mx + 1) * S))
    want = [[M, str(e), str(s)] for e in range(mx + 1) for s in range(S)]
    check([r[:3] for r in data] == want[:len(data)], "raw rows are not %s, n = 0..max in order" % M)
for e in errors:
    print("  " + e)
sys.exit(1 if errors else 3 if zeros else 0)
EOF
case $? in
0) pass "json: $((MAX + 1)) points in order, fit and resolutions present, raw rows = (max+1)*S" ;;
3) skip "hardware: json: minimums of 0 ticks (the counter is coarser than the window): the rest passed" ;;
*) fail "json: the JSON or the raw CSV is not as expected (above)" ;;
esac
fi
no_temps json

# ---- a method the CPU (or user space) cannot run, and files that cannot be written
# cr0 is a kernel-only method: asking for it in user space is a usage error.
run cr0 resolution --method cr0 --max 1 --samples 200 --out "$D/cr0.json"
if [ "$RC" -ne 2 ] || ! grep -q '^tickscope: error: .*cr0' "$D/cr0.err" || [ -e "$D/cr0.json" ]; then
    fail "cr0: exit $RC (expected 2, a usage error naming cr0, no file): $(cat "$D/cr0.err")"
else
    pass "cr0: exit 2, '$(cat "$D/cr0.err")'"
fi

run nodir resolution $SMALL --json --out "$D/nodir/r.json" --raw "$D/nodir_raw.csv"
if [ "$RC" -ne 1 ] || [ "$(wc -l <"$D/nodir.err")" -ne 1 ] || ! grep -q '^tickscope: error: ' "$D/nodir.err"; then
    fail "nodir: exit $RC, expected 1 and one error line: $(cat "$D/nodir.err")"
elif [ -e "$D/nodir_raw.csv" ] || [ -e "$D/nodir" ]; then
    fail "nodir: files were created although --out could not be written"
else
    pass "nodir: exit 1, '$(cat "$D/nodir.err")'"
fi
no_temps nodir

run rawnodir resolution $SMALL --json --out "$D/rawnodir.json" --raw "$D/nodir/r.csv"
if [ "$RC" -ne 1 ] || ! grep -q '^tickscope: error: ' "$D/rawnodir.err"; then
    fail "rawnodir: exit $RC, expected 1: $(cat "$D/rawnodir.err")"
elif [ -e "$D/rawnodir.json" ]; then
    fail "rawnodir: the --out file was created although --raw could not be written"
else
    pass "rawnodir: exit 1, no --out file"
fi
no_temps rawnodir

finish
