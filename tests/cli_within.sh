# SPDX-License-Identifier: MIT
# cli_within.sh: the default run's second process (bench.within_process). A body that measures 40
# dependent adds in the first process and 400 in every later one (tks_moves_prog) carries the
# warning in the JSON (its code, both figures) and on the console (rendered from the code), and
# --processes 1 runs one process: no second one, no warning.
# Usage: bash cli_within.sh /path/to/tickscope (the benchmark program is found beside it)
set -u
CMD=bench
NAME=within
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"
B="$(dirname "$T")/tests/tks_moves_prog"
[ -x "$B" ] || { echo "FAIL: $B is missing"; exit 1; }

TKS_TEST_MOVES="$D/mark" runb moves --min-time 0.05 --format json --out "$D/moves.json"
# A counter that reads 0 ticks for 40 adds (qemu-aarch64's: coarse_clock_ok) sees no figure move:
# the two measuring checks are skipped there, the --processes 1 check below still runs.
if [ "$RC" -eq 0 ] && coarse_clock_ok && python3 - "$D/moves.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
sys.exit(0 if b["ticks"] == 0 else 1)
PY
then skip "hardware: this target's counter reads 0 ticks for 40 adds: no figure to move between processes"
elif [ "$RC" -eq 0 ] && python3 - "$D/moves.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
d = [x for x in b["diagnostics"] if x["code"] == "bench.within_process"]
assert len(d) == 1, b["diagnostics"]
v = d[0]["values"]
assert v["next"] > 5 * v["here"] > 0, v
assert "--processes N" in d[0]["message"] and d[0]["severity"] == "warning", d[0]
PY
then pass "a figure that moves between processes: bench.within_process with both figures"
else fail "moves: exit $RC: $(cat "$D/moves.err")"; fi

rm -f "$D/mark"
TKS_TEST_MOVES="$D/mark" runb console --min-time 0.05
[ "$SKIPPED" -gt 0 ] || { [ "$RC" -eq 0 ] && grep -q '^moves: warning: a second, shorter process read .* holds within this process only' "$D/console.out" &&
    pass "the console renders it" || fail "console: exit $RC: $(cat "$D/console.out" "$D/console.err")"; }

rm -f "$D/mark"
TKS_TEST_MOVES="$D/mark" runb one --min-time 0.05 --processes 1 --format json --out "$D/one.json"
if [ "$RC" -eq 0 ] && python3 - "$D/one.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["benchmarks"][0]
assert not [x for x in b["diagnostics"] if x["code"] == "bench.within_process"], b["diagnostics"]
PY
then pass "--processes 1: one process, no second one"
else fail "--processes 1: exit $RC: $(cat "$D/one.err")"; fi
finish
