# SPDX-License-Identifier: MIT
# cli_replay.sh: a benchmark program's --record FILE replayed by `tickscope replay FILE`: the
# replayed report equals the live one (every benchmark field, the recorded machine's facts) in
# latency and throughput mode, with --processes and --isolate; a replayed 40-add chain reads its
# truth, 40 core cycles; a 0.2 s run records in well under 1 MB; bad input is refused in one line.
CMD=replay
NAME=replay
. "$(dirname "$0")/lib_cli.sh"

B="$(dirname "$T")/tests/tks_bench_prog"
[ -x "$B" ] || { echo "FAIL: $B is missing"; exit 1; }

# same LIVE REPLAYED LABEL: every field of every benchmark equal, and every field of the context
# but the date, the host's name and its load.
same() {
    python3 - "$1" "$2" <<'EOF' && pass "$3: the replay's report equals the live one" || fail "$3"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert len(a["benchmarks"]) == len(b["benchmarks"]) > 0, (len(a["benchmarks"]), len(b["benchmarks"]))
for x, y in zip(a["benchmarks"], b["benchmarks"]):
    assert set(x) == set(y), set(x) ^ set(y)
    for k in x:
        assert x[k] == y[k], (x["name"], k, x[k], y[k])
# the context: the machine's facts, as the live run reported them; only what the replaying
# machine has anew (the date, the host's name, its load) may differ
ca, cb = a["context"], b["context"]
for k in set(ca) | set(cb):
    if k not in ("date", "host_name", "load_avg"):
        assert ca.get(k) == cb.get(k), (k, ca.get(k), cb.get(k))
EOF
}

# record LABEL ARGS...: a live run of add40 with ARGS, as JSON and recorded; then its replay.
record() {
    local label=$1
    shift
    runb "$label" --filter '^add40$' --format json --out "$D/$label.json" --record "$D/$label.rec" "$@"
    [ "$RC" -eq 0 ] || { fail "$label: the live run: exit $RC: $(head -3 "$D/$label.err")"; return 1; }
    run "$label-replay" replay "$D/$label.rec" --format json --out "$D/$label-replay.json"
    [ "$RC" -eq 0 ] || { fail "$label: replay: exit $RC: $(head -3 "$D/$label-replay.err")"; return 1; }
    same "$D/$label.json" "$D/$label-replay.json" "$label"
}

record latency --mode latency --min-time 0.2
record throughput --mode throughput --min-time 0.1
record processes --processes 2 --min-time 0.05
record isolate --isolate --repetitions 2 --min-time 0.05

# The size: a 0.2 s run well under 1 MB.
size=$(wc -c <"$D/latency.rec")
[ "$size" -lt 1000000 ] && pass "a 0.2 s run records in $size bytes (under 1 MB)" ||
    fail "a 0.2 s run's recording is $size bytes"

# The truth of the replayed chain: 40 dependent adds are 40 core cycles, within 2 (cli_bench's 5%
# for the same chain; known_answers.sh holds the main build to 2%; the sub-builds leave it out).
# arm64 under QEMU: its counter reads no core cycles for forty adds (cli_bench skips the same
# truth there). An i386 build's latency mode: the compiler spills the carried register around
# the block inside its windows, and forty adds read 37.9-38.2 on a Zen 4 guest (a known defect,
# docs/benchmarks.md); its throughput mode is held.
modes="latency throughput"
if i386_target; then
    modes="throughput"
    skip "hardware: i386 has too few registers: the compiler's spills of add40's carried register sit in its latency windows (docs/benchmarks.md)"
fi
if coarse_clock_ok; then
    skip "hardware: the replayed add40 against forty core cycles: this target's counter ($TKS_TARGET_ARCH) cannot see forty adds"
elif (cd "$D" && python3 - $(for m in $modes; do echo "$m-replay.json"; done)) <<'EOF'
import json, sys
for p in sys.argv[1:]:
    b = json.load(open(p))["benchmarks"][0]
    assert abs(b["core_cycles"] - 40) <= 2, (p, b["core_cycles"])
EOF
then
    pass "the replayed 40-add chain reads 40 core cycles ($modes)"
else
    fail "the replayed 40-add chain is off its truth (40 core cycles): $(grep -ho '"core_cycles": [0-9.]*' "$D"/*-replay.json | head -2 | tr '\n' ' ')"
fi

# The console and CSV formats replay too.
run console replay "$D/latency.rec"
[ "$RC" -eq 0 ] && grep -q '^add40' "$D/console.out" && pass "replay: the console table" ||
    fail "replay console: exit $RC: $(head -3 "$D/console.out" "$D/console.err")"

# Bad input: one line each.
printf 'not a recording\n' >"$D/bad.rec"
head -c 5000 "$D/latency.rec" >"$D/cut.rec"
for c in "bad:not a tickscope recording" "cut:damaged" "missing:No such file"; do
    run "$c" replay "$D/${c%%:*}.rec"
    if [ "$RC" -eq 1 ] && [ "$(wc -l <"$D/$c.err")" -eq 1 ] && grep -qF -- "${c#*:}" "$D/$c.err"; then
        pass "replay of a ${c%%:*} file: one line, exit 1"
    else
        fail "replay of a ${c%%:*} file: exit $RC: $(cat "$D/$c.err")"
    fi
done
for other in "--compare add40,empty" "--explain"; do
    runb refused --record "$D/refused.rec" $other
    [ "$RC" -eq 2 ] && grep -q -- "--record" "$D/refused.err" && [ ! -e "$D/refused.rec" ] &&
        pass "--record with $other: refused, nothing written" ||
        fail "--record with $other: exit $RC: $(cat "$D/refused.err")"
done
run noarg replay
[ "$RC" -eq 2 ] && pass "replay without a file: usage, exit 2" || fail "replay without a file: exit $RC"
run help replay --help
[ "$RC" -eq 0 ] && grep -q -- '--format' "$D/help.out" && pass "replay --help" || fail "replay --help: exit $RC"
finish
