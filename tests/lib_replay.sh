# SPDX-License-Identifier: MIT
# lib_replay.sh: what the replay tests of tickscope's own commands share (sourced after
# lib_cli.sh by cli_replay_validate.sh and cli_replay_asm.sh).

# same LIVE REPLAYED LABEL: the two JSON documents equal, but for the context's date, host name
# and load average (the replaying machine's).
same() {
    python3 - "$1" "$2" <<'PY' && pass "$3: the replay's report equals the live one" || fail "$3"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert set(a) == set(b), set(a) ^ set(b)
for k in a:
    if k != "context":
        assert a[k] == b[k], (k, a[k], b[k])
ca, cb = a["context"], b["context"]
for k in set(ca) | set(cb):
    if k not in ("date", "host_name", "load_avg"):
        assert ca.get(k) == cb.get(k), (k, ca.get(k), cb.get(k))
PY
}
