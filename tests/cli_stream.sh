# SPDX-License-Identifier: MIT
# cli_stream.sh: output that arrives as it is made. On a pseudo-terminal 80 columns wide
# (tests/pty_run.py), a benchmark program (in a random order too), `tickscope sys` and `tickscope
# asm --table` print each row as it is measured,
# long before they end, show a progress line with the time left, erase it before each row, and fit
# every line into the 80 columns; into pipes and files they write no progress byte and full-width
# lines, and JSON is written whole. Structure, never timing thresholds beyond "before the end".
# Usage: bash cli_stream.sh /path/to/tickscope
set -u

CMD=stream
NAME=cli_stream
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"
B="$(dirname "$T")/tests/tks_bench_prog"
PTY="$(dirname "$0")/pty_run.py"

# ---- a benchmark program: four runs of about 0.7 s, rows streamed, an ETA while they run
if python3 "$PTY" --columns 80 --row '^add40 ' --table '^Benchmark ' --eta --early 0.5 -- \
    "$B" --filter '^(add40|empty)$' --min-time 0.7 --repetitions 2 >"$D/bench_pty.txt"; then
    pass "benchmark program on a terminal: $(tail -1 "$D/bench_pty.txt")"
else
    fail "benchmark program on a terminal: $(cat "$D/bench_pty.txt")"
fi

# ---- the same into pipes: no progress, no escape, the same rows
"$B" --filter '^(add40|empty)$' --min-time 0.7 --repetitions 2 2>"$D/bench.err" | cat >"$D/bench.out"
if grep -q $'\r\|\x1b\|ETA' "$D/bench.err" "$D/bench.out"; then
    fail "benchmark program into pipes: progress bytes: $(od -c "$D/bench.err" | head -3)"
elif [ "$(grep -c '^add40 ' "$D/bench.out")" -ne 2 ] || [ "$(grep -c '^empty_median ' "$D/bench.out")" -ne 1 ]; then
    fail "benchmark program into pipes: rows: $(cat "$D/bench.out")"
else
    pass "benchmark program into pipes: rows, no progress bytes"
fi

# ---- JSON is written whole, never streamed, whatever the terminal
if python3 "$PTY" --columns 80 --row '"benchmarks"' --early 0 -- \
    "$B" --filter '^empty$' --min-time 0.05 --format json >"$D/json_pty.txt" &&
    grep -q '; 0 ETA line(s)' "$D/json_pty.txt"; then
    pass "JSON on a terminal: whole"
else
    fail "JSON on a terminal: $(cat "$D/json_pty.txt")"
fi

# ---- tickscope sys: rows of the cpu suite as they come, a wide table fitted to 80 columns
if python3 "$PTY" --columns 80 --row '^call_0 ' --table '^operation ' --eta --early 0.5 -- \
    "$T" sys cpu --time 0.25 >"$D/sys_pty.txt"; then
    pass "sys on a terminal: $(tail -1 "$D/sys_pty.txt")"
else
    fail "sys on a terminal: $(cat "$D/sys_pty.txt")"
fi
run sys_pipe sys cpu --quick --only call_0,call_1
if grep -q $'\r\|\x1b' "$D/sys_pipe.err" "$D/sys_pipe.out"; then
    fail "sys into a file: progress bytes"
elif ! grep -q '^call_1 .*call with 1 integer argument' "$D/sys_pipe.out"; then
    fail "sys into a file: full-width rows expected: $(cat "$D/sys_pipe.out")"
else
    pass "sys into a file: full-width rows, no progress bytes"
fi
# ---- a benchmark program in a random order: each repetition's row as it runs, in the order
# they run (each instance's repetitions in their own order), the aggregates after the last one
"$B" --filter '^(add40|empty)$' --min-time 0.05 --repetitions 3 --benchmark_enable_random_interleaving \
    --random-seed 5 2>"$D/rnd.err" | cat >"$D/rnd.out"
python3 - "$D/rnd.out" <<'PY' && pass "random interleaving streamed: every run, the aggregates after their runs" ||
import re, sys
rows = [l.split()[0] for l in open(sys.argv[1]) if re.match(r"(add40|empty)(_\w+)? ", l)]
runs = [r for r in rows if r in ("add40", "empty")]
assert sorted(runs) == ["add40"] * 3 + ["empty"] * 3, rows
assert runs != ["add40"] * 3 + ["empty"] * 3 and runs != ["empty"] * 3 + ["add40"] * 3, rows  # interleaved
for b in ("add40", "empty"):
    last = max(i for i, r in enumerate(rows) if r == b)
    agg = [i for i, r in enumerate(rows) if r.startswith(b + "_")]
    assert len(agg) == 4 and min(agg) == last + 1 and agg == list(range(last + 1, last + 5)), (b, rows)
PY
    fail "random interleaving streamed: $(cat "$D/rnd.out" "$D/rnd.err")"
if python3 "$PTY" --columns 80 --row '^(add40|empty) ' --table '^Benchmark ' --early 0.3 -- \
    "$B" --filter '^(add40|empty)$' --min-time 0.2 --repetitions 3 \
    --benchmark_enable_random_interleaving >"$D/rnd_pty.txt"; then
    pass "random interleaving on a terminal: $(tail -1 "$D/rnd_pty.txt")"
else
    fail "random interleaving on a terminal: $(cat "$D/rnd_pty.txt")"
fi

# ---- tickscope asm --table (the catalogue on this CPU): each measurement's row as it is
# measured, the progress line with the time left below them; into a pipe the same table as
# --out's file (whose rows are in the catalogue's order, the stream's in the order measured)
if [ "${TKS_TARGET_ARCH:-$(uname -m)}" != x86_64 ]; then
    skip "hardware: asm --table runs x86-64 code; this build is for ${TKS_TARGET_ARCH:-$(uname -m)}"
elif ! command -v as >/dev/null; then
    skip "asm --table needs as (Debian package binutils)"
else
    # 'r64, r64': about a hundred measurements, 1.5 to 2.5 s on a Zen 4 guest, which is about
    # the progress line's threshold (two seconds of work): TICKSCOPE_PROGRESS_AFTER=0 shows it on
    # work of any length, so that the line is drawn and erased on every machine
    if TICKSCOPE_PROGRESS_AFTER=0 python3 "$PTY" --columns 80 --row '^add r64, r64 ' --table '^form ' --eta --early 0.5 -- \
        "$T" asm --table --only 'r64, r64' --force >"$D/asm_pty.txt"; then
        pass "asm --table on a terminal: $(tail -1 "$D/asm_pty.txt")"
    else
        fail "asm --table on a terminal: $(cat "$D/asm_pty.txt")"
    fi
    # the threshold itself: the same rows from the cache, in well under a second, draw no line
    if python3 "$PTY" --columns 80 --row '^add r64, r64 ' --table '^form ' --no-bar --early 0 -- \
        "$T" asm --table --only 'r64, r64' >"$D/asm_cached_pty.txt"; then
        pass "asm --table from the cache on a terminal: no progress line on short work"
    else
        fail "asm --table from the cache on a terminal: $(cat "$D/asm_cached_pty.txt")"
    fi
    "$T" asm --table --only 'add r64' --budget 0.02 --force 2>"$D/asm_pipe.err" | cat >"$D/asm_pipe.out"
    run asm_file asm --table --only 'add r64' --budget 0.02 --out "$D/asm_file.txt" # from the cache
    if grep -q $'\r\|\x1b' "$D/asm_pipe.err" "$D/asm_pipe.out"; then
        fail "asm --table into a pipe: progress bytes: $(od -c "$D/asm_pipe.err" | head -3)"
    elif python3 - "$D/asm_pipe.out" "$D/asm_file.txt" <<'PY'; then
import sys
def parts(path):
    lines = open(path).read().split("\n")
    rule = next(i for i, l in enumerate(lines) if l.startswith("---"))
    end = lines.index("", rule)
    done = [l for l in lines[end:] if l.startswith("Done ")]
    assert len(done) == 1 and "; 0 failed)" in done[0], done
    return lines[:rule + 1], sorted(lines[rule + 1:end])
head_p, rows_p = parts(sys.argv[1])
head_f, rows_f = parts(sys.argv[2])
assert head_p == head_f, (head_p, head_f)
assert rows_p == rows_f and len(rows_p) == 9, (rows_p, rows_f)
PY
        pass "asm --table into a pipe: streamed, the same head and rows as the file's, no progress bytes"
    else
        fail "asm --table pipe against file: $(cat "$D/asm_pipe.out" "$D/asm_file.txt" "$D/asm_file.err")"
    fi
fi
finish
