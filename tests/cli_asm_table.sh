# SPDX-License-Identifier: MIT
# cli_asm_table.sh: `tickscope asm --table` without a file (the catalogue on the CPU at hand) and
# `asm --diff`: the forms a subset names, each measurement's row in every format (CSV, JSON, an
# XML that parses, the console table), the per-model cache (a second run measures nothing, a
# partial cache is continued, --force measures again), and --diff on two tables written by hand
# (a row apart beyond its interval, rows in one table only). Structure only: no figure is
# compared with a published one (bench/bench_table.c does that).
# Usage: bash cli_asm_table.sh /path/to/tickscope
set -u

CMD=asm
NAME=cli_asm_table
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"

# --diff reads files: no assembler needed. Two tables written by hand.
H='form,key,feature,kind,src,dst,cycles,cycles_lo,cycles_hi,ticks,ticks_lo,ticks_hi,r2,windows,chain_cycles,hash,snippet,error'
cat >"$D/a.csv" <<EOF
$H
"add r64, r64",T,x86-64,throughput,-1,-1,0.25,0.24,0.26,0.15,0.14,0.16,0.999,128,,0000000000000001,"add rax, rsi",
"add r64, r64",L0-0,x86-64,latency,0,0,1,0.99,1.01,0.6,0.59,0.61,0.999,128,,0000000000000002,"add rax, rsi",
"imul r64, r64",L0-0,x86-64,latency,0,0,3,2.99,3.01,1.8,1.79,1.81,0.999,128,,0000000000000003,"imul rax, rsi",
"only a, r64",T,x86-64,throughput,-1,-1,1,0.9,1.1,0.6,0.5,0.7,0.999,128,,0000000000000004,"nop",
EOF
cat >"$D/b.csv" <<EOF
$H
"add r64, r64",T,x86-64,throughput,-1,-1,0.255,0.245,0.265,0.15,0.14,0.16,0.999,128,,0000000000000001,"add rax, rsi",
"add r64, r64",L0-0,x86-64,latency,0,0,1.5,1.45,1.55,0.9,0.89,0.91,0.999,128,,0000000000000002,"add rax, rsi",
"imul r64, r64",L0-0,x86-64,latency,0,0,3.005,2.99,3.02,1.8,1.79,1.81,0.999,128,,0000000000000003,"imul rax, rsi",
"only b, r64",T,x86-64,throughput,-1,-1,1,0.9,1.1,0.6,0.5,0.7,0.999,128,,0000000000000005,"nop",
EOF
run diff asm --diff "$D/a.csv" "$D/b.csv"
[ "$RC" -eq 0 ] && grep -q '3 measurements in both: 1 differ' "$D/diff.out" &&
    grep -q 'only a, r64' "$D/diff.out" && grep -q 'only b, r64' "$D/diff.out" &&
    grep -q '^\* .*add r64, r64.*latency op1 -> op1' "$D/diff.out" &&
    ! grep -q 'imul' "$D/diff.out" && pass "diff: the row apart, the rows in one table only" ||
    fail "diff: $RC $(cat "$D/diff.out" "$D/diff.err")"
run diffjson asm --diff "$D/a.csv" "$D/b.csv" --json
python3 - "$D/diffjson.out" <<'PY' && pass "diff: JSON" || fail "diff json: $(cat "$D/diffjson.err")"
import json, sys
d = json.load(open(sys.argv[1]))
assert (d["differ"], d["agree"], d["only_a"], d["only_b"]) == (1, 2, 1, 1), d
apart = [r for r in d["rows"] if r["differs"]]
assert len(apart) == 1 and apart[0]["key"] == "L0-0" and apart[0]["b"]["core_cycles"] == 1.5
PY
expect_usage diff_one 'two tables' --diff "$D/a.csv"
printf 'name,mode\n' >"$D/notatable.csv"
expect_usage diff_foreign 'is not a table' --diff "$D/a.csv" "$D/notatable.csv"
expect_usage force_alone '--force goes with --table' --force 'nop'
expect_usage diff_kernel 'does not go with' --diff "$D/a.csv" "$D/b.csv" --kernel

[ "${TKS_TARGET_ARCH:-$(uname -m)}" = x86_64 ] ||
    skip_rest "hardware: tickscope asm runs x86-64 code; this build is for ${TKS_TARGET_ARCH:-$(uname -m)}"
command -v as >/dev/null && command -v objdump >/dev/null ||
    skip_rest "as and objdump are needed (Debian package binutils)"

export TICKSCOPE_CACHE_DIR="$D/cache"
expect_usage only_none 'no form of the catalogue' --table --only 'no such form'

# A subset of the catalogue: add on 64-bit registers (register, immediates, memory).
run t1 asm --table --only 'add r64' --budget 0.02 --format csv --out "$D/t1.csv"
python3 - "$D/t1.csv" <<'PY' && pass "table csv: forms, kinds, intervals" || fail "table csv: $RC $(cat "$D/t1.err")"
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
forms = {r["form"] for r in rows}
assert forms == {"add r64, r64", "add r64, imm8", "add r64, imm32", "add r64, m64"}, forms
kinds = {(r["form"], r["kind"]) for r in rows}
assert ("add r64, r64", "throughput") in kinds and ("add r64, r64", "latency") in kinds
assert ("add r64, m64", "latency_addr") in kinds, kinds
for r in rows:
    assert not r["error"], r
    v, lo, hi = float(r["cycles"]), float(r["cycles_lo"]), float(r["cycles_hi"])
    assert lo <= v <= hi and math.isfinite(v) and v > 0, r
    if r["kind"] == "latency_addr":
        assert float(r["chain_cycles"]) > 0 and "and rax" in r["snippet"], r
    if r["kind"] == "throughput":
        assert v < 1.5, r  # independent copies: well under one add's latency chain of 16
PY
cache=$(ls "$D/cache"/asm-table-*.csv 2>/dev/null | head -1)
[ -n "$cache" ] && [ "$(cut -d, -f1-3 "$cache" | grep 'add r64' | sort -u | wc -l)" -eq "$(($(wc -l <"$D/t1.csv") - 1))" ] &&
    pass "cache: one file per CPU model, every measurement in it" ||
    fail "cache: $(ls "$D/cache")"

# The second run measures nothing; a cache cut short is continued; --force measures everything.
run t2 asm --table --only 'add r64' --budget 0.02
grep -q '(0 measured now' "$D/t2.out" && pass "cache: a second run measures nothing" ||
    fail "cache reuse: $(head -3 "$D/t2.out")"
head -4 "$cache" >"$D/cut" && mv "$D/cut" "$cache"
run t3 asm --table --only 'add r64' --budget 0.02 --json
python3 - "$D/t3.out" "$D/t1.csv" <<'PY' && pass "cache: an interrupted table is continued" || fail "resume: $(cat "$D/t3.err")"
import json, sys
d = json.load(open(sys.argv[1]))
total = sum(1 for _ in open(sys.argv[2])) - 1
assert d["measurements"] == total and d["measured_now"] == total - 3, (d["measured_now"], total)
assert sum(r["from_cache"] for r in d["rows"]) == 3
assert d["command"] == "asm --table" and d["forms"] == 4
PY
run t4 asm --table --only 'add r64' --budget 0.02 --force
grep -q "($(($(wc -l <"$D/t1.csv") - 1)) measured now" "$D/t4.out" && pass "--force measures again" ||
    fail "--force: $(head -3 "$D/t4.out")"

# XML like uops.info's: it parses, one instruction element per form, latencies by operand.
run tx asm --table --only 'vaddpd' --budget 0.02 --format xml
python3 - "$D/tx.out" <<'PY' && pass "table xml" || fail "table xml: $RC $(cat "$D/tx.err")"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ins = root.findall("instruction")
assert ins, "no instruction"
for i in ins:
    assert i.get("asm") == "vaddpd" and i.get("string").startswith("vaddpd ")
    assert len(i.findall("operand")) == len(i.get("string").split(",")), i.get("string")
    m = i.find("architecture/measurement")
    assert m is not None and float(m.get("TP_unrolled")) > 0
    for lat in m.findall("latency"):
        assert int(lat.get("target_op")) == 1 and float(lat.get("cycles")) > 0
PY

# A catalogue row whose snippet fails is an error in its row, not a crash: none here, and the
# console table names the CPU and the cache.
run tc asm --table --only 'imul r32' --budget 0.02
[ "$RC" -eq 0 ] && grep -q '^CPU ' "$D/tc.out" && grep -q "^Cache .*asm-table-" "$D/tc.out" &&
    grep -q 'imul r32, r32, imm8' "$D/tc.out" && pass "table console" || fail "table console: $RC"

# --force on a subset measures that subset again and keeps the cache's rows of the others.
before=$(grep -c -e '^"*vaddpd' -e '^"*imul r32' "$cache")
run tf asm --table --only 'add r64, r64' --budget 0.02 --force
[ "$RC" -eq 0 ] && [ "$before" -gt 0 ] &&
    [ "$(grep -c -e '^"*vaddpd' -e '^"*imul r32' "$cache")" -eq "$before" ] &&
    grep -q '^"*add r64, imm8' "$cache" && pass "--force keeps the cache's other forms" ||
    fail "--force lost rows: $before before, $(grep -c -e '^"*vaddpd' -e '^"*imul r32' "$cache") after"

finish
