# SPDX-License-Identifier: MIT
# cli_stream.sh: output that arrives as it is made. On a pseudo-terminal 80 columns wide
# (tests/pty_run.py), a benchmark program and `tickscope sys` print each row as it is measured,
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
finish
