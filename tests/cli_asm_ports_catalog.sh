# SPDX-License-Identifier: MIT
# cli_asm_ports_catalog.sh: `tickscope asm --ports --table` (no FILE): the forms come from the
# catalogue (those of this CPU whose name holds --only), carry its names into JSON and CSV, and a
# form the cached table (of `asm --table`) reads as not single-uop is left out of the mixes and
# reported as such. Small subsets, one blocker and short budgets; no figure compared with a speed.
# Usage: bash cli_asm_ports_catalog.sh /path/to/tickscope
set -u

CMD=asm
NAME=cli_asm_ports_catalog
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"

expect_usage ports_force "--force does not apply" --ports --table --force
expect_usage ports_att "--att does not apply" --ports --table --att
expect_usage ports_diff "not --diff" --ports --diff a.csv b.csv
expect_usage ports_only_alone "--only goes with --table" --ports --only 'r64'

[ "${TKS_TARGET_ARCH:-$(uname -m)}" = x86_64 ] ||
    skip_rest "hardware: the catalogue is x86-64 instructions; this build is for ${TKS_TARGET_ARCH:-$(uname -m)}"
command -v as >/dev/null && command -v objdump >/dev/null ||
    skip_rest "as and objdump are needed (Debian package binutils)"

expect_usage ports_none "no register form of the catalogue" --ports --table --only 'no such form'
expect_usage ports_memory_only "1 with a memory operand" --ports --table --only 'popcnt r64, m64'

printf 'alu | throughput | mov {r}, 1\n' >"$D/b.tbl"
ONLY='cnt r64, r64' # popcnt, lzcnt, tzcnt where the CPU has them
run ports asm --ports --table --only "$ONLY" --budget 0.02 --blockers "$D/b.tbl" --json
if [ "$RC" -ne 0 ]; then
    fail "ports: exit $RC: $(cat "$D/ports.err")"
else
    python3 - "$D/ports.out" "$ONLY" <<'PY' && pass "ports: the catalogue's forms, by --only" || fail "ports: JSON"
import json, sys
d, only = json.load(open(sys.argv[1])), sys.argv[2]
forms = [f for f in d["forms"] if not f["blocker"]]
names = [f["name"] for f in forms]
assert names and set(names) <= {"popcnt r64, r64", "lzcnt r64, r64", "tzcnt r64, r64"}, names
for f in forms:
    assert only in f["name"], f
    assert f["code"] == f["name"].split()[0] + " {r}, r14", f
    assert f["status"] in ("assigned", "ambiguous", "inconsistent", "unblocked",
                           "not single-uop", "failed"), f
assert all(p["a"] in names and p["b"] == "alu" for p in d["pairs"])
PY
    grep -q "forms of the catalogue on this CPU hold '$ONLY'" "$D/ports.err" &&
        grep -Eq 'beside 1 blockers: at most [0-9]+ snippets, about [0-9]+ min' "$D/ports.err" &&
        pass "ports: the run's size before it starts" || fail "ports: stderr: $(cat "$D/ports.err")"
fi

run ports_csv asm --ports --table --only 'popcnt r64, r64' --budget 0.02 --blockers "$D/b.tbl" --format csv
[ "$RC" -eq 0 ] && head -1 "$D/ports_csv.out" | grep -q '^name,code,blocker,' &&
    grep -q '^"popcnt r64, r64","popcnt {r}, r14",0,' "$D/ports_csv.out" && pass "ports: csv" ||
    fail "ports csv: $RC $(cat "$D/ports_csv.err")"

# The cached table: its throughput of popcnt made 0.7 cycles (1.43 a cycle, not one uop), the
# form is left out of the mixes and reported not single-uop with the cached figure.
run table asm --table --only 'popcnt r64, r64' --budget 0.02 --quiet
CACHE=$(ls "$TICKSCOPE_CACHE_DIR"/asm-table-*.csv 2>/dev/null | head -1)
if [ "$RC" -ne 0 ] || [ -z "$CACHE" ]; then
    fail "table: exit $RC, cache '${CACHE:-}': $(cat "$D/table.err")"
else
    python3 - "$CACHE" <<'PY' || fail "cache: no throughput row of popcnt r64, r64"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, n = rows[0], 0
for r in rows[1:]:
    if r[head.index("form")] == "popcnt r64, r64" and r[head.index("key")] == "T":
        for k, v in (("cycles", "0.7"), ("cycles_lo", "0.69"), ("cycles_hi", "0.71")):
            r[head.index(k)] = v
        n += 1
assert n
csv.writer(open(sys.argv[1], "w", newline=""), lineterminator="\n").writerows(rows)
PY
    run cached asm --ports --table --only 'popcnt r64, r64' --budget 0.02 --blockers "$D/b.tbl" --json
    [ "$RC" -eq 0 ] && grep -q '1 not single-uop by the cached table' "$D/cached.err" &&
        python3 - "$D/cached.out" <<'PY' && pass "ports: the cached table's not single-uop form left out" || fail "cached: $RC $(cat "$D/cached.err")"
import json, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["forms"] if not f["blocker"]]
assert len(f) == 1 and f[0]["name"] == "popcnt r64, r64", f
assert f[0]["status"] == "not single-uop" and abs(f[0]["cycles"] - 0.7) < 1e-9, f
assert not [p for p in d["pairs"] if p["a"] == "popcnt r64, r64"], d["pairs"]
PY
fi

finish
