# SPDX-License-Identifier: MIT
# cli_replay_validate.sh: `tickscope validate --record FILE` and `tickscope resolution --record
# FILE` replayed by `tickscope replay FILE`: the replayed report equals the live one in JSON
# (every field but the date, the host's name and its load, which are the replaying machine's)
# and in the console table; the recording holds the ensembles asked for and packs them well
# under the eight bytes a window takes raw; a cut file, --record with --kernel and a recording
# that cannot be written are refused in one line.
CMD=replay
NAME=replay_validate
. "$(dirname "$0")/lib_cli.sh"
# shellcheck source=lib_replay.sh
. "$(dirname "$0")/lib_replay.sh"

# live LABEL CMD ARGS...: a live run recorded to $D/LABEL.rec, then its replay in the same
# format; $D/LABEL.out (live) and $D/LABEL-replay.out (replayed).
live() {
    local label=$1 cmd=$2
    shift 2
    run "$label" "$cmd" --quiet --out "$D/$label.report" --record "$D/$label.rec" "$@"
    [ "$RC" -eq 0 ] || { fail "$label: the live run: exit $RC: $(head -3 "$D/$label.err")"; return 1; }
    [ -s "$D/$label.rec" ] || { fail "$label: no recording written"; return 1; }
    return 0
}
replay() {
    local label=$1
    shift
    run "$label-replay" replay "$D/$label.rec" --out "$D/$label-replay.report" "$@"
    [ "$RC" -eq 0 ] || { fail "$label: replay: exit $RC: $(head -3 "$D/$label-replay.err")"; return 1; }
}

V=(--ensembles 8 --samples 600 --budget 0)
R=(--max 12 --samples 400)

# validate: JSON, every method's figures, the recommendation and its reason, the time it took.
if live vjson validate "${V[@]}" --format json && replay vjson --format json; then
    same "$D/vjson.report" "$D/vjson-replay.report" "validate json"
    # The recording holds what was asked for: 8 ensembles of 600 samples for every method
    # measured (--budget 0: none cut short), at under 2 bytes a window (8 raw).
    python3 - "$D/vjson-replay.report" "$D/vjson.rec" <<'PY' && pass "validate: 8 x 600 windows a method, recorded in under 2 bytes each" || fail "validate: the recording's ensembles or size"
import json, os, sys
d = json.load(open(sys.argv[1]))
measured = [m for m in d["methods"] if m["available"] and "error" not in m]
assert measured, d["methods"]
n = 0
for m in measured:
    assert (m["ensembles"], m["samples_per_ensemble"]) == (8, 600), (m["name"], m["ensembles"], m["samples_per_ensemble"])
    n += 8 * 600
size = os.path.getsize(sys.argv[2])
assert size < 2 * n, (size, n)
PY
fi
# methods of the target's (x86: lfence, rdtscp and the unfenced rdtsc; arm64: isb and cntvct)
case "${TKS_TARGET_ARCH:-$(uname -m)}" in
aarch64 | arm64) VM=isb,cntvct ;;
*) VM=lfence,rdtscp,rdtsc ;;
esac
if live vcon validate "${V[@]}" --method "$VM"; then
    replay vcon
    cmp -s "$D/vcon.report" "$D/vcon-replay.report" && pass "validate: the console report replays unchanged" ||
        fail "validate console: $(diff "$D/vcon.report" "$D/vcon-replay.report" | head -5)"
    for f in csv markdown; do
        replay vcon --format $f
        [ "$RC" -eq 0 ] && grep -q "${VM%%,*}" "$D/vcon-replay.report" && pass "validate: replay --format $f" ||
            fail "validate: replay --format $f: exit $RC"
    done
fi

# resolution: JSON with every n's point, the fits, the resolutions and the long chain.
if live rjson resolution "${R[@]}" --format json && replay rjson --format json; then
    same "$D/rjson.report" "$D/rjson-replay.report" "resolution json"
    python3 - "$D/rjson-replay.report" <<'PY' && pass "resolution: the replay holds n = 0..12" || fail "resolution: the replay's points are not n = 0..12"
import json, sys
d = json.load(open(sys.argv[1]))
pts = [k for k in d if isinstance(d[k], list)]
ns = None
for k in pts:
    if d[k] and isinstance(d[k][0], dict) and "n" in d[k][0]:
        ns = [p["n"] for p in d[k]]
assert ns == list(range(13)), ns
PY
fi
if live rcon resolution "${R[@]}"; then
    replay rcon
    cmp -s "$D/rcon.report" "$D/rcon-replay.report" && pass "resolution: the console report replays unchanged" ||
        fail "resolution console: $(diff "$D/rcon.report" "$D/rcon-replay.report" | head -5)"
fi

# Bad input: one line, exit 1. A file cut inside a section is damaged; one cut where a section
# ends lacks the validation's end.
if [ -s "$D/vjson.rec" ]; then
    size=$(wc -c <"$D/vjson.rec")
    head -c $((size / 2)) "$D/vjson.rec" >"$D/vcut.rec"
    head -c $(($(wc -c <"$D/rjson.rec") - 1)) "$D/rjson.rec" >"$D/rcut.rec"
    # the last section of a validate recording is its end ('V'): everything before it
    python3 - "$D/vjson.rec" "$D/vend.rec" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
pos, last = 21, 21
while pos < len(b):
    last = pos
    pos += 1
    n, shift = 0, 0
    while True:
        c = b[pos]; pos += 1
        n |= (c & 0x7f) << shift; shift += 7
        if not c & 0x80:
            break
    pos += n
assert b[last:last + 1] == b"V", b[last:last + 1]
open(sys.argv[2], "wb").write(b[:last])
PY
    for c in "vcut:damaged" "rcut:damaged" "vend:cut short"; do
        run "$c" replay "$D/${c%%:*}.rec"
        if [ "$RC" -eq 1 ] && [ "$(wc -l <"$D/$c.err")" -eq 1 ] && grep -qF -- "${c#*:}" "$D/$c.err"; then
            pass "replay of ${c%%:*}.rec: one line, exit 1"
        else
            fail "replay of ${c%%:*}.rec: exit $RC: $(cat "$D/$c.err")"
        fi
    done
fi

# --record with --kernel: a usage error (its line, then the usage errors' pointer to --help)
# before anything is measured or written.
for cmd in validate resolution; do
    run "$cmd-kernel" "$cmd" --kernel --record "$D/$cmd-kernel.rec"
    [ "$RC" -eq 2 ] && head -1 "$D/$cmd-kernel.err" | grep -q -- '--record.*--kernel' &&
        [ ! -e "$D/$cmd-kernel.rec" ] && pass "$cmd --record --kernel: refused in one line, exit 2" ||
        fail "$cmd --record --kernel: exit $RC: $(cat "$D/$cmd-kernel.err")"
    run "$cmd-nodir" "$cmd" --quiet --record "$D/no/such/dir/x.rec"
    [ "$RC" -eq 1 ] && [ "$(wc -l <"$D/$cmd-nodir.err")" -eq 1 ] && grep -q 'x.rec' "$D/$cmd-nodir.err" &&
        pass "$cmd --record into a missing directory: one line, exit 1" ||
        fail "$cmd --record into a missing directory: exit $RC: $(cat "$D/$cmd-nodir.err")"
    run "$cmd-help" "$cmd" --help
    grep -q -- '--record FILE' "$D/$cmd-help.out" && pass "$cmd --help lists --record" ||
        fail "$cmd --help does not list --record"
done
finish
