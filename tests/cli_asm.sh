# SPDX-License-Identifier: MIT
# cli_asm.sh: `tickscope asm` as a user meets it: the JSON document's fields, a fit and a
# disassembly present, tables in every format, and bad input (assembler errors with their line,
# bad hex, faults, a snippet that never returns, unwritable output) giving exit 2 or 1 with one
# error line and no file; and one figure held to its truth: a dependent add, one core cycle.
# Usage: bash cli_asm.sh /path/to/tickscope
set -u

CMD=asm
NAME=cli_asm
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"

# Usage errors that need no assembler.
expect_usage no_snippet "give one snippet"
expect_usage two_snippets "one snippet at a time" 'nop' 'nop'
expect_usage mode_bad "--mode" --mode sideways 'nop'
expect_usage align_bad "power of two" --align 3 'nop'
expect_usage hex_bad "not a pair of hex digits" --hex '48 01 zz'
expect_usage chase_bad "--chase" --chase lots 'nop'
expect_usage raw_na "--raw does not apply" --raw "$D/r.csv" 'nop'
expect_usage option_unknown "unknown option '--bogus'" --bogus 'nop'

# The usage errors above decide first; then the rest is skipped where it cannot run.
[ "${TKS_TARGET_ARCH:-$(uname -m)}" = x86_64 ] ||
    skip_rest "hardware: tickscope asm runs x86-64 code; this build is for ${TKS_TARGET_ARCH:-$(uname -m)}"
command -v as >/dev/null && command -v objdump >/dev/null ||
    skip_rest "as and objdump are needed (Debian package binutils)"

expect_usage asm_error "line 2" 'add rax, 1
bogus rax'
expect_usage asm_reloc "relocation" 'mov rax, [rip+nowhere]'
expect_usage chain_bad "--chain" --chain r15 'add {r}, 1'

# One snippet, JSON, into a file.
run one asm --budget 0.05 --json --out "$D/one.json" 'add {r}, 1'
if [ "$RC" -ne 0 ]; then
    fail "one: exit $RC: $(cat "$D/one.err")"
else
    python3 - "$D/one.json" <<'PY' && pass "one: JSON fields, fit, disassembly" || fail "one: JSON"
import json, math, sys
d = json.load(open(sys.argv[1]))
for k in ("snippet", "mode", "unroll", "ticks_per_copy", "ticks_per_copy_ci", "core_cycles",
          "core_cycles_ci", "core_cycles_source", "fit", "disassembly", "context"):
    assert k in d, k
assert d["snippet"] == "add {r}, 1" and d["mode"] == "latency"
assert len(d["unroll"]) >= 2 and d["unroll"] == sorted(d["unroll"])
lo, hi = d["ticks_per_copy_ci"]
assert lo <= d["ticks_per_copy"] <= hi
assert all(k in d["fit"] for k in ("slope", "intercept", "r2"))
assert d["fit"]["slope"] == d["ticks_per_copy"]
assert math.isfinite(d["core_cycles"]) and "estimate" in d["core_cycles_source"]
lo, hi = d["core_cycles_ci"]
assert lo <= d["core_cycles"] <= hi
# Every copy of the latency chain is the same instruction on the chain register, then the loop.
dis = d["disassembly"]
assert len(dis) == d["unroll"][0] + 2, len(dis)
assert all("add" in l and "rax" in l for l in dis[:-2]), dis
assert "dec" in dis[-2] and "r15" in dis[-2]
assert d["kept"] + d["discarded"] == d["windows"]
PY
fi

# An oracle: `add rax, rax` depends on itself, and an integer add's latency is one core cycle on
# every x86-64 core (Intel's and AMD's optimisation manuals; uops.info's tables). Tolerance 0.05
# cycle (what the fit's interval on a quiet core spans; a core shared with another thread reads
# a few percent slow: docs/asm.md), best of three runs, failing only when all three miss.
got=""
ok=1
for try in 1 2 3; do
    run add1 asm --budget 0.05 --json 'add rax, rax'
    c=$([ "$RC" -eq 0 ] && python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["core_cycles"])' "$D/add1.out" 2>/dev/null)
    got="$got ${c:-exit$RC}"
    python3 -c 'import sys; sys.exit(0 if abs(float(sys.argv[1]) - 1) <= 0.05 else 1)' "${c:-nan}" 2>/dev/null && ok=0 && break
done
[ "$ok" -eq 0 ] && pass "add rax, rax: $c core cycles, 1.00 +-0.05 (tries:$got)" ||
    fail "add rax, rax: not 1.00 +-0.05 core cycles in three runs:$got"

# Throughput: the copies take different registers.
run thr asm --budget 0.05 --json --mode throughput 'imul {r}, {r}'
python3 - "$D/thr.out" <<'PY' && pass "throughput: copies on distinct registers" || fail "throughput: $(cat "$D/thr.err")"
import json, sys
d = json.load(open(sys.argv[1]))
regs = [l.split()[-1].split(",")[0] for l in d["disassembly"][:-2] if not l.startswith("...")]
assert len(set(regs)) == 13 and "r14" not in regs and "r15" not in regs, regs
# each register takes the same share of the copies: the unroll is a multiple of 13
assert all(u % 13 == 0 for u in d["unroll"]), d["unroll"]
whole = regs[:13 * (len(regs) // 13)]
assert len(whole) >= 26 and len({whole.count(r) for r in set(whole)}) == 1, regs
PY
# A register the snippet names itself is no copy's: no imul writes rbx, which every copy reads.
run named asm --budget 0.05 --json --mode throughput 'imul {r}, rbx'
python3 - "$D/named.out" <<'PY' && pass "throughput: not on the snippet's own registers" || fail "named: $(cat "$D/named.err")"
import json, sys
d = json.load(open(sys.argv[1]))
regs = [l.split()[-1].split(",")[0] for l in d["disassembly"][:-2] if not l.startswith("...")]
assert len(set(regs)) == 12 and "rbx" not in regs, regs
assert all(u % 12 == 0 for u in d["unroll"]), d["unroll"]
PY

# AT&T, hex and init.
run att asm --budget 0.05 --att 'addq $1, %rax'
[ "$RC" -eq 0 ] && grep -q 'ticks' "$D/att.out" && pass "att" || fail "att: $RC $(cat "$D/att.err")"
run hex asm --budget 0.05 --hex '48 01 c0'
[ "$RC" -eq 0 ] && grep -q 'add' "$D/hex.out" && pass "hex" || fail "hex: $RC $(cat "$D/hex.err")"
run init asm --budget 0.05 --init 'mov qword ptr [r14], r14' 'mov rax, [r14]'
[ "$RC" -eq 0 ] && grep -q '^Init' "$D/init.out" && pass "init" || fail "init: $RC $(cat "$D/init.err")"
printf 'mov {r}, [r14]\nadd {r}, 1\n' >"$D/snippet.s"
run file asm --budget 0.05 --file "$D/snippet.s"
[ "$RC" -eq 0 ] && pass "--file" || fail "--file: $RC $(cat "$D/file.err")"

# Failures: exit 1, one error line naming the cause, no --out file (lib_cli.sh).
expect_failure segv 'SIGSEGV.*copy 1 of the loop, byte 1 of it' \
    --init 'movabs rax, 0x4000000000000000' 'nop; mov rbx, [r14+rax]'

# Snippets that are not what they say are refused before they run (usage errors, exit 2).
expect_usage boundaries 'do not decode at their own boundaries' 'nop; .byte 0x0f'
grep -q 'seto' "$D/boundaries.err" && pass "boundaries: the unrolled disassembly shown" ||
    fail "boundaries: no disassembly: $(cat "$D/boundaries.err")"
expect_usage foreign_mem 'memory it was not given' 'nop; mov rax, [0]'
expect_usage foreign_rdi 'memory it was not given' 'add rax, [rdi]'
expect_usage att_without_flag 'add --att' 'mov $5, %eax'
expect_usage att_regs_without_flag 'add --att' 'imul %rax, %rax'
expect_usage intel_with_att 'drop --att' --att 'mov eax, 5'
expect_failure sigill SIGILL 'ud2'
expect_failure jumpout "outside the snippet" 'mov rax, 0x1000; jmp rax'
expect_failure hang "killed" --timeout 0.3 '1: jmp 1b'
run unwritable asm --budget 0.05 --out "$D/no/such/dir/x.json" 'nop'
[ "$RC" -eq 1 ] && grep -q 'cannot write' "$D/unwritable.err" && pass "unwritable --out" ||
    fail "unwritable: $RC $(cat "$D/unwritable.err")"
mkdir -p "$D/bin" && ln -sf "$(command -v python3)" "$D/bin/python3"
PATH="$D/bin" "$T" asm --quiet 'nop' >"$D/noas.out" 2>"$D/noas.err"
[ $? -eq 1 ] && grep -q 'binutils' "$D/noas.err" && pass "no as: names binutils" ||
    fail "no as: $(cat "$D/noas.err")"

# Tables in every format.
cat >"$D/t.tbl" <<'TBL'
# name | mode | code | init
add    | latency    | add {r}, 1
addtp  | throughput | add {r}, 1
chase  | latency,chase=16K | mov r14, [r14]
TBL
run tcsv asm --budget 0.05 --table "$D/t.tbl" --format csv
[ "$RC" -eq 0 ] && [ "$(wc -l <"$D/tcsv.out")" -eq 4 ] && head -1 "$D/tcsv.out" | grep -q '^name,mode,code,ticks_per_copy' &&
    pass "table csv" || fail "table csv: $RC $(cat "$D/tcsv.out" "$D/tcsv.err")"
run tmd asm --budget 0.05 --table "$D/t.tbl" --format markdown
[ "$RC" -eq 0 ] && [ "$(grep -c '^| ' "$D/tmd.out")" -eq 5 ] && pass "table markdown" || fail "table markdown"
run tcon asm --budget 0.05 --table "$D/t.tbl"
[ "$RC" -eq 0 ] && grep -q 'chase' "$D/tcon.out" && pass "table console" || fail "table console"
run tjson asm --budget 0.05 --table "$D/t.tbl" --json
python3 - "$D/tjson.out" <<'PY' && pass "table json" || fail "table json: $(cat "$D/tjson.err")"
import json, sys
d = json.load(open(sys.argv[1]))
assert [r["name"] for r in d["rows"]] == ["add", "addtp", "chase"]
assert all(r["error"] is None and r["disassembly"] for r in d["rows"])
assert d["rows"][2]["chase_bytes"] == 16384
PY
printf 'ok | latency | nop\nbad line\n' >"$D/bad.tbl"
expect_usage table_bad "line 2" --table "$D/bad.tbl"
printf 'ok | latency | nop\nboom | latency | ud2\n' >"$D/boom.tbl"
run tboom asm --budget 0.05 --table "$D/boom.tbl" --format csv --out "$D/boom.csv"
[ "$RC" -eq 1 ] && grep -q 'SIGILL' "$D/boom.csv" && pass "table row fault: in the table, exit 1" ||
    fail "table row fault: $RC $(cat "$D/tboom.err")"

# The starter table in examples/ parses and every row runs here (briefly: structure only).
starter="$(dirname "$0")/../examples/asm/instructions.tbl"
run starter asm --budget 0.02 --table "$starter" --format csv
python3 - "$D/starter.out" <<'PY' && pass "starter table: every row measured" || fail "starter table: $RC $(cat "$D/starter.err")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) >= 30, len(rows)
bad = [r["name"] + ": " + r["error"] for r in rows if r["error"]]
assert not bad, bad
PY

finish
