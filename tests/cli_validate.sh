# SPDX-License-Identifier: MIT
# cli_validate.sh: `tickscope validate` as a user meets it: exit codes, the table, the JSON
# document's shape, the raw CSV, output files that appear whole or not at all, and usage errors.
# Structure only: no figure is compared with a speed. Usage: bash cli_validate.sh /path/to/tickscope
set -u

CMD=validate
NAME=cli_validate
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"

# Small and fast: every method, a few hundred samples each.
SMALL="--ensembles 3 --samples 200 --budget 0.05 --no-chain"

# expect_failure NAME ARGS...: exit 1 with exactly one line, "tickscope: error: ...", on stderr.
expect_failure() {
    local name=$1
    shift
    run "$name" "$@"
    if [ "$RC" -ne 1 ]; then
        fail "$name: exit $RC, expected 1 for: $*"
    elif [ "$(wc -l <"$D/$name.err")" -ne 1 ] || ! grep -q '^tickscope: error: ' "$D/$name.err"; then
        fail "$name: expected one 'tickscope: error:' line on stderr, got: $(cat "$D/$name.err")"
    else
        pass "$name: exit 1, '$(cat "$D/$name.err")'"
    fi
}

M=$(default_method)
[ -n "$M" ] || fail "tickscope methods marks no method as the default"

# ---- the table
run table validate $SMALL
if [ "$RC" -ne 0 ]; then
    fail "table: exit $RC: $(cat "$D/table.err")"
else
    grep -q '^method  *overhead' "$D/table.out" || fail "table: no header row with 'method' and 'overhead'"
    grep -q '^Recommended: ' "$D/table.out" || fail "table: no 'Recommended:' line"
    grep -Eq "^$M +[0-9]" "$D/table.out" || fail "table: no row of figures for $M (the default)"
    grep -q '^rdtsc ' "$D/table.out" || fail "table: no row for rdtsc"
    pass "table: exit 0, $(grep -c . "$D/table.out") lines"
fi
no_temps table

# ---- JSON for every method, and the raw samples of every method, in one run
run all validate $SMALL --json --out "$D/all.json" --raw "$D/all.csv"
if [ "$RC" -ne 0 ]; then
    fail "all: exit $RC: $(cat "$D/all.err")"
elif [ -s "$D/all.out" ]; then
    fail "all: --out was given but stdout got: $(head -c 200 "$D/all.out")"
elif ! python3 - "$D/all.json" "$D/all.csv" <<'EOF'
import csv, json, sys
errors = []
def check(cond, msg):
    if not cond:
        errors.append(msg)
doc = json.load(open(sys.argv[1]))
for k in ("recommended", "quantum_ticks", "context", "methods"):
    check(k in doc, "no top-level '%s'" % k)
check(isinstance(doc.get("context"), dict), "context is not an object")
q = doc.get("quantum_ticks")
check(isinstance(q, int) and q >= 1, "quantum_ticks %r is not a whole number >= 1" % (q,))
methods = doc.get("methods", [])
check(isinstance(methods, list) and len(methods) >= 1, "methods[] is empty")
names = [m.get("name") for m in methods]
check(len(set(names)) == len(names), "a method is listed twice: %r" % names)
for n in ("rdtsc",):
    check(n in names, "method %s is not listed" % n)
FIELDS = ("overhead_ticks", "total_variance", "abs_max_deviation", "variance_of_variances",
          "variance_of_minimums", "spurious_minimums", "ensembles", "samples_per_ensemble",
          "discarded", "ergodic")
expected_rows = 0
avail = {}
for m in methods:
    name = m.get("name")
    check(isinstance(name, str) and name, "a method without a name: %r" % m)
    check(isinstance(m.get("available"), bool), "%s: 'available' is not a boolean" % name)
    if not m.get("available"):
        continue
    if "error" in m:
        errors.append("%s: measured with an error: %s" % (name, m["error"]))
        continue
    for f in FIELDS:
        check(f in m, "%s: no '%s'" % (name, f))
    if not all(f in m for f in FIELDS):
        continue
    for f in FIELDS[:-1]:
        check(isinstance(m[f], (int, float)) and not isinstance(m[f], bool) and m[f] >= 0,
              "%s: %s = %r is not a number >= 0" % (name, f, m[f]))
    for f in ("overhead_ticks", "abs_max_deviation", "spurious_minimums", "ensembles",
              "samples_per_ensemble", "discarded"):
        check(isinstance(m[f], int), "%s: %s = %r is not a whole number" % (name, f, m[f]))
    check(isinstance(m["ergodic"], bool), "%s: ergodic is not a boolean" % name)
    check(m["ensembles"] == 3, "%s: %r ensembles, asked for 3" % (name, m["ensembles"]))
    check(2 <= m["samples_per_ensemble"] <= 200,
          "%s: samples_per_ensemble %r outside 2..200" % (name, m["samples_per_ensemble"]))
    check(m["spurious_minimums"] <= m["ensembles"] - 1, "%s: more spurious minimums than ensembles" % name)
    avail[name] = m
    expected_rows += m["ensembles"] * m["samples_per_ensemble"]
check(len(avail) >= 1, "no method was measured")
rec = doc.get("recommended")
check(rec not in ("rdtsc", "cpuid", "rdtscp"),
      "recommended %r, whose begin reading is not fenced" % (rec,))
if rec is not None:
    check(rec in avail, "recommended %r was not measured" % (rec,))
    check(avail.get(rec, {}).get("eligible") is True, "recommended %r is not eligible" % (rec,))
rows = list(csv.reader(open(sys.argv[2])))
check(rows and rows[0] == ["method", "ensemble", "sample", "ticks"], "raw header is %r" % (rows[:1],))
data = rows[1:]
check(len(data) == expected_rows, "raw has %d rows, the JSON says %d" % (len(data), expected_rows))
per = {}
for r in data:
    per[r[0]] = per.get(r[0], 0) + 1
for name, m in avail.items():
    want = m["ensembles"] * m["samples_per_ensemble"]
    check(per.get(name, 0) == want, "raw has %d rows of %s, expected %d" % (per.get(name, 0), name, want))
for e in errors:
    print("  " + e)
sys.exit(1 if errors else 0)
EOF
then
    fail "all: the JSON or the raw CSV is not as expected (above)"
else
    pass "all: JSON has every field, raw CSV has E*S rows per method, recommended $(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["recommended"])' "$D/all.json")"
fi
no_temps all

# ---- one method: exactly one entry, and its raw samples row by row
if [ -n "$M" ]; then
    run one validate $SMALL --method "$M" --json --out "$D/one.json" --raw "$D/one.csv"
    if [ "$RC" -ne 0 ]; then
        fail "one: exit $RC: $(cat "$D/one.err")"
    elif ! python3 - "$D/one.json" "$D/one.csv" "$M" <<'EOF'
import csv, json, sys
errors = []
doc = json.load(open(sys.argv[1]))
M = sys.argv[3]
ms = doc["methods"]
if len(ms) != 1 or ms[0].get("name") != M:
    errors.append("--method %s gave" % M + " %d entries: %r" % (len(ms), [m.get("name") for m in ms]))
else:
    E, S = ms[0]["ensembles"], ms[0]["samples_per_ensemble"]
    rows = list(csv.reader(open(sys.argv[2])))
    if rows[0] != ["method", "ensemble", "sample", "ticks"]:
        errors.append("raw header is %r" % rows[0])
    data = rows[1:]
    if len(data) != E * S:
        errors.append("raw has %d data rows, expected E*S = %d*%d = %d" % (len(data), E, S, E * S))
    want = [[M, str(e), str(s)] for e in range(E) for s in range(S)]
    got = [r[:3] for r in data]
    if got != want[:len(got)]:
        errors.append("raw rows are not " + M + ", e = 0..%d, s = 0..%d in order" % (E - 1, S - 1))
    bad = [r for r in data if len(r) != 4 or not r[3].isdigit() or int(r[3]) == 0]
    if bad:
        errors.append("%d rows without a positive whole number of ticks, first %r" % (len(bad), bad[0]))
for e in errors:
    print("  " + e)
sys.exit(1 if errors else 0)
EOF
    then
        fail "one: --method $M JSON or raw CSV not as expected (above)"
    else
        pass "one: one method entry, raw rows = E*S in order"
    fi
    no_temps one
fi

# ---- output files that cannot be written: exit 1 at once, nothing left behind
expect_failure out_nodir validate $SMALL --json --out "$D/nodir/v.json" --raw "$D/nodir_raw.csv"
[ -e "$D/nodir" ] && fail "out_nodir: the missing directory was created"
[ -e "$D/nodir_raw.csv" ] && fail "out_nodir: the --raw file was created although --out failed"
no_temps out_nodir

expect_failure raw_nodir validate $SMALL --json --out "$D/raw_nodir.json" --raw "$D/nodir/r.csv"
[ -e "$D/raw_nodir.json" ] && fail "raw_nodir: the --out file was created although --raw failed"
no_temps raw_nodir

# A directory in the raw file's place: the rename at the end fails; the report must not appear.
mkdir "$D/rawdir"
expect_failure raw_isdir validate $SMALL --json --out "$D/raw_isdir.json" --raw "$D/rawdir"
[ -e "$D/raw_isdir.json" ] && fail "raw_isdir: the --out file was committed although --raw failed"
[ -z "$(ls -A "$D/rawdir")" ] || fail "raw_isdir: files appeared inside the directory: $(ls -A "$D/rawdir")"
no_temps raw_isdir

# A read-only directory for the raw file (as nobody when root, who writes anywhere): the error
# names it, and the report is not written either.
if unprivileged; then
    mkdir "$U/ro" && chmod 555 "$U/ro"
    expect_failure raw_readonly validate $SMALL --json --out "$U/raw_ro.json" --raw "$U/ro/r.csv"
    grep -F "$U/ro/r.csv" "$D/raw_readonly.err" | grep -q "Permission denied" ||
        fail "raw_readonly: the error does not name $U/ro/r.csv and 'Permission denied'"
    [ -e "$U/raw_ro.json" ] && fail "raw_readonly: the --out file was created although --raw failed"
    [ -z "$(ls -A "$U/ro")" ] || fail "raw_readonly: files appeared in the read-only directory"
    no_temps raw_readonly
    privileged
fi

# ---- usage errors: exit 2, naming the problem
expect_usage method_unknown "unknown method 'nope'" --method nope
expect_usage method_unknown_in_list "unknown method 'nope'" --method lfence,nope
expect_usage ensembles_0 "--ensembles" --ensembles 0
expect_usage samples_1 "--samples" --samples 1
expect_usage samples_abc "'abc'" --samples abc
expect_usage samples_huge "'99999999999'" --samples 99999999999
expect_usage samples_negative "--samples" --samples -5
expect_usage budget_negative "--budget" --budget -1
expect_usage budget_abc "--budget" --budget abc
expect_usage option_unknown "unknown option '--bogus'" --bogus
expect_usage missing_samples "--samples" --samples
expect_usage missing_method "--method" --method
expect_usage missing_out "--out" --out
expect_usage missing_raw "--raw" --raw
expect_usage missing_budget "--budget" --budget

# ---- help
run help validate --help
if [ "$RC" -ne 0 ] || ! grep -q '^usage: tickscope validate' "$D/help.out"; then
    fail "help: exit $RC, or no 'usage: tickscope validate' line"
else
    pass "help: exit 0"
fi
no_temps help

finish
