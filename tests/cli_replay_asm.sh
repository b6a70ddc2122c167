# SPDX-License-Identifier: MIT
# cli_replay_asm.sh: `tickscope asm CODE --record FILE` replayed by `tickscope replay FILE`: the
# replayed report equals the live one in JSON (every field but the date, the host's name and its
# load, which are the replaying machine's) in latency and throughput mode, and in the console
# table; the replayed dependent add reads its truth, one core cycle; a cut file, --record with a
# table or --kernel are refused.
CMD=replay
NAME=replay_asm
. "$(dirname "$0")/lib_cli.sh"
# shellcheck source=lib_replay.sh
. "$(dirname "$0")/lib_replay.sh"

# --record with what it does not take: usage errors wherever asm is built.
refused() {
    local label=$1
    shift
    run refused asm --record "$D/refused.rec" "$@"
    [ "$RC" -eq 2 ] && head -1 "$D/refused.err" | grep -q -- '--record' && [ ! -e "$D/refused.rec" ] &&
        pass "asm --record with $label: refused, nothing written" ||
        fail "asm --record with $label: exit $RC: $(cat "$D/refused.err")"
}
refused --table --table "$D/none.txt"
refused --kernel 'add {r}, {r}' --kernel
refused --explain 'add {r}, {r}' --explain
[ "${TKS_TARGET_ARCH:-$(uname -m)}" = x86_64 ] ||
    skip_rest "hardware: tickscope asm runs x86-64 code; this build is for ${TKS_TARGET_ARCH:-$(uname -m)}"
command -v as >/dev/null && command -v objdump >/dev/null ||
    skip_rest "as and objdump are needed (Debian package binutils)"

# record LABEL ARGS...: a live run recorded, and its replay, both as JSON.
record() {
    local label=$1
    shift
    run "$label" asm --quiet --format json --out "$D/$label.json" --record "$D/$label.rec" "$@"
    [ "$RC" -eq 0 ] || { fail "$label: the live run: exit $RC: $(head -3 "$D/$label.err")"; return 1; }
    run "$label-replay" replay "$D/$label.rec" --format json --out "$D/$label-replay.json"
    [ "$RC" -eq 0 ] || { fail "$label: replay: exit $RC: $(head -3 "$D/$label-replay.err")"; return 1; }
    same "$D/$label.json" "$D/$label-replay.json" "$label"
}

record latency 'add {r}, {r}'
record throughput 'imul {r}, {r}' --mode throughput

# The truth of the replayed chain: one dependent add is one core cycle (cli_asm's 5%).
python3 - "$D/latency-replay.json" <<'PY' && pass "the replayed dependent add reads one core cycle" || fail "the replayed dependent add is off one core cycle"
import json, sys
c = json.load(open(sys.argv[1]))["core_cycles"]
assert abs(c - 1) <= 0.05, c
PY

# The console report replays unchanged.
run con asm --quiet --out "$D/con.txt" --record "$D/con.rec" 'add {r}, {r}'
run con-replay replay "$D/con.rec" --out "$D/con-replay.txt"
[ "$RC" -eq 0 ] && cmp -s "$D/con.txt" "$D/con-replay.txt" && pass "asm: the console report replays unchanged" ||
    fail "asm console: exit $RC: $(diff "$D/con.txt" "$D/con-replay.txt" | head -5)"

# A cut file: one line, exit 1.
head -c $(($(wc -c <"$D/latency.rec") - 1)) "$D/latency.rec" >"$D/cut.rec"
run cut replay "$D/cut.rec"
[ "$RC" -eq 1 ] && [ "$(wc -l <"$D/cut.err")" -eq 1 ] && grep -q damaged "$D/cut.err" &&
    pass "replay of a cut asm recording: one line, exit 1" || fail "replay of a cut asm recording: exit $RC: $(cat "$D/cut.err")"
finish
