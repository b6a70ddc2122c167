# SPDX-License-Identifier: MIT
# cli_info.sh: `tickscope info` as a user meets it: the readable report, the JSON fields the issue
# names, the per-boot cache (used, refused when stale or damaged, --recalibrate, switched off),
# --tsc-hz, fixture trees through --root, usage errors, and the same context block in the result
# files of validate and resolution. Structure only, no speed. Usage: bash cli_info.sh /path/to/tickscope
set -u

CMD=info
NAME=cli_info
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"
FIX="$(cd "$(dirname "$0")" && pwd)/fixtures"

# jq-like checks in python: json_check FILE 'python expression over d' MESSAGE
json_check() {
    local file=$1 expr=$2 msg=$3
    if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($expr) else 1)" "$file" 2>"$D/py.err"; then
        pass "$msg"
    else
        fail "$msg: $(cat "$D/py.err")"
    fi
}

# ---- the readable report (its own cache, so the JSON run below starts cold)
TICKSCOPE_CACHE_DIR="$D/cache0" run text info
if [ "$RC" -ne 0 ]; then
    fail "text: exit $RC: $(cat "$D/text.err")"
else
    for want in '^CPU ' '^TSC rate ' '^Quantum ' '^Core clock ' '^Environment ' '^Calibration '; do
        grep -q "$want" "$D/text.out" || fail "text: no line matching '$want'"
    done
    pass "text: exit 0, $(grep -c . "$D/text.out") lines"
fi

# ---- the JSON document, against the field list of the issue
run json info --json --out "$D/info.json"
if [ "$RC" -ne 0 ]; then
    fail "json: exit $RC: $(cat "$D/json.err")"
fi
json_check "$D/info.json" "all(k in d['cpu'] for k in ('vendor','brand','family','model','stepping'))" "json: cpu fields"
json_check "$D/info.json" "all(k in d['tsc'] for k in ('invariant','hz','hz_source','hz_sources','calibration_ppm','quantum_ticks'))" "json: tsc fields"
json_check "$D/info.json" "all('source' in s and s['hz'] > 0 for s in d['tsc']['hz_sources']) and len(d['tsc']['hz_sources']) >= 1" "json: every hz source has a name and a rate"
json_check "$D/info.json" "d['tsc']['hz'] is None or d['tsc']['hz_source'] in [s['source'] for s in d['tsc']['hz_sources']]" "json: the chosen source is among the sources"
json_check "$D/info.json" "d['tsc']['quantum_ticks'] >= 1" "json: a quantum of at least one tick"
json_check "$D/info.json" "all(k in d['core'] for k in ('hz','cycles_per_tick','source'))" "json: core fields"
json_check "$D/info.json" "d['core']['source'] in ('add-chain','perf-counter','none') and [x['code'] for x in d['core']['counter']['diagnostics']][0].startswith('platform.counter.') and d['core']['counter']['note']" "json: core source named; how the counter was read (or why none) is a platform.counter.* code"
json_check "$D/info.json" "all(k in d['hypervisor'] for k in ('present','vendor','cpuid_ticks'))" "json: hypervisor fields"
json_check "$D/info.json" "d['core']['source'] != 'add-chain' or (d['core']['add_check']['verdict'] in ('holds','slow','disagree','none') and (d['core']['add_check']['verdict'] == 'slow') == (d['core']['add_check']['add_cycles'] > 1) and [c['id'] for c in d['checks']].count('core_adds') == (d['core']['add_check']['verdict'] != 'none'))" "json: the core clock's add check, its verdict and a core_adds finding where it was read"
json_check "$D/info.json" "all(set(('id','code','finding','advice')) <= set(w) and w['advice'] and w['code'].startswith('env.') and w['diagnostics'][0]['code'] == w['code'] and w['diagnostics'][0]['severity'] == 'warning' and any(x['code'].endswith('.fix') for x in w['diagnostics']) for w in d['warnings'])" "json: every warning has an id, an env.* code (a warning) with its .fix remedy, and the finding and advice in words"
json_check "$D/info.json" "len(set(c['id'] for c in d['checks'])) == len(d['checks']) >= 14" "json: at least 14 checks, ids unique"
json_check "$D/info.json" "[c for c in d['checks'] if c['status']=='warn'] == d['warnings']" "json: warnings are the checks with status warn"

# ---- the cache: measured once per boot, then reused. Whether the real machine is idle is not
# ours to choose, so these runs read /proc under a fixture tree of a quiet machine
# (tests/fixtures/cache/quiet: its own boot id, one runnable task, no steal).
Q="$FIX/cache/quiet"
run cold info --json --root "$Q" --out "$D/cold.json"
json_check "$D/cold.json" "d['calibration_cache']['used'] is False and [x['code'] for x in d['calibration_cache']['diagnostics']] == ['platform.measured', 'platform.cache.stored'] and d['calibration_cache']['note']" "cache: the first run measures and caches"
[ -s "$D/cache/calibration" ] && pass "cache: written to \$TICKSCOPE_CACHE_DIR" || fail "cache: no file in $D/cache"
run warm info --json --root "$Q" --out "$D/warm.json"
json_check "$D/warm.json" "d['calibration_cache']['used'] is True and [x['code'] for x in d['calibration_cache']['diagnostics']] == ['platform.cache.hit']" "cache: the second run reuses it (platform.cache.hit)"
json_check "$D/warm.json" "len(d['tsc']['diagnostics']) == 1 and d['tsc']['diagnostics'][0]['code'].startswith('platform.rate.') and d['tsc']['hz_reason'] == d['tsc']['diagnostics'][0]['message']" "json: why the TSC rate is the one chosen is a platform.rate.* code, its words in hz_reason"
python3 - "$D/cold.json" "$D/warm.json" <<'PY' && pass "cache: the reused figures are the measured ones; the core clock is measured again" || fail "cache: figures differ after a round trip"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
sys.exit(0 if a['tsc']['hz'] == b['tsc']['hz'] and a['tsc']['quantum_ticks'] == b['tsc']['quantum_ticks'] and b['core']['cycles_per_tick'] > 0 else 1)
PY
grep -q '^core' "$D/cache/calibration" && fail "cache: the core clock was cached" || pass "cache: the core clock is not in the file"
run recal info --json --root "$Q" --recalibrate --out "$D/recal.json"
json_check "$D/recal.json" "d['calibration_cache']['used'] is False and d['calibration_cache']['diagnostics'][0]['code'] == 'platform.recalibrated'" "cache: --recalibrate measures again"
echo "garbage" >"$D/cache/calibration"
run damaged info --json --root "$Q" --out "$D/damaged.json"
json_check "$D/damaged.json" "d['calibration_cache']['used'] is False and 'platform.cache.foreign' in [x['code'] for x in d['calibration_cache']['diagnostics']]" "cache: a foreign file is not trusted, and the note says so"
grep -q '^tickscope-calibration ' "$D/cache/calibration" && pass "cache: a damaged file is replaced" || fail "cache: the damaged file was not rewritten"
sed -i 's/^\(quantum [0-9]*\)/\19/' "$D/cache/calibration"
run edited info --json --root "$Q" --out "$D/edited.json"
json_check "$D/edited.json" "d['calibration_cache']['used'] is False and 'platform.cache.damaged' in [x['code'] for x in d['calibration_cache']['diagnostics']]" "cache: a file edited by hand fails its checksum"
sed -i '1s/.*/tickscope-calibration 9/' "$D/cache/calibration"
run future info --json --root "$Q" --out "$D/future.json"
json_check "$D/future.json" "d['calibration_cache']['used'] is False and 'platform.cache.newer' in [x['code'] for x in d['calibration_cache']['diagnostics']]" "cache: a future format is not read"
sed -i 's/^key boot=[^ ]*/key boot=another-boot/' "$D/cache/calibration"
run stale info --json --root "$Q" --out "$D/stale.json"
json_check "$D/stale.json" "d['calibration_cache']['used'] is False" "cache: another boot's file is not used"
TICKSCOPE_CACHE_DIR= "$T" info --json --out "$D/off.json" 2>"$D/off.err"
json_check "$D/off.json" "d['calibration_cache']['used'] is False and d['calibration_cache']['path'] is None" "cache: TICKSCOPE_CACHE_DIR= turns it off"
# A busy machine (tests/fixtures/cache/busy: 3 runnable tasks): measured, used, not cached.
TICKSCOPE_CACHE_DIR="$D/cache-busy" run busy info --root "$FIX/cache/busy"
grep -q '^Calibration measured; not cached: 2 other runnable task(s) while calibrating' "$D/busy.out" &&
    pass "cache: a busy machine's figures are not cached, and info says why" || fail "busy: $(grep ^Calibration "$D/busy.out")"
[ -e "$D/cache-busy/calibration" ] && fail "busy: a cache file was written" || pass "busy: no cache file"
# Two commands calibrating at once: both succeed and the file is whole.
rm -rf "$D/cache"
"$T" info --json --root "$Q" --out "$D/both1.json" 2>/dev/null & first=$!
"$T" info --json --root "$Q" --out "$D/both2.json" 2>/dev/null
second=$?
wait "$first"
[ $? -eq 0 ] && [ "$second" -eq 0 ] && pass "cache: two commands at once both succeed" || fail "cache: two at once failed"
run after info --json --root "$Q" --out "$D/after.json"
json_check "$D/after.json" "d['calibration_cache']['used'] is True" "cache: the file two commands wrote at once is whole and used"

# ---- --tsc-hz: the one rate every conversion uses
run override info --json --tsc-hz 2.5GHz --out "$D/override.json"
json_check "$D/override.json" "d['tsc']['hz'] == 2.5e9 and d['tsc']['hz_source'] == 'override'" "--tsc-hz 2.5GHz: the rate and its source"
json_check "$D/override.json" "abs(d['tsc']['quantum_ns'] - d['tsc']['quantum_ticks'] / 2.5) < 1e-9" "--tsc-hz: nanoseconds follow the override"
run override2 info --json --tsc-hz=2300000000 --out "$D/override2.json"
json_check "$D/override2.json" "d['tsc']['hz'] == 2.3e9" "--tsc-hz=2300000000"
expect_usage hz_zero "--tsc-hz" --tsc-hz 0
expect_usage hz_negative "--tsc-hz" --tsc-hz -2e9
expect_usage hz_word "--tsc-hz" --tsc-hz fast
expect_usage hz_unit "--tsc-hz" --tsc-hz 2.3GHzz
expect_usage hz_missing "--tsc-hz" --tsc-hz
expect_usage unknown "--bogus" --bogus
expect_usage raw "--raw" --raw "$D/r.csv"

# ---- environment checks from fixture trees
run laptop info --json --root "$FIX/env/laptop" --pin 0 --out "$D/laptop.json"
[ "$RC" -eq 0 ] || fail "laptop: exit $RC: $(cat "$D/laptop.err")"
json_check "$D/laptop.json" "{'governor','turbo','smt','nmi_watchdog','clocksource'} <= {w['id'] for w in d['warnings']}" "laptop tree: governor, turbo, smt, nmi_watchdog and clocksource warned"
run baremetal info --json --root "$FIX/env/baremetal" --pin 2 --out "$D/bare.json"
json_check "$D/bare.json" "all(c['status'] == 'ok' for c in d['checks'] if c['id'] in ('governor','frequency','turbo','nmi_watchdog','aslr','load'))" "tuned bare-metal tree: the tuning checks pass"
# A root that is not there is a typo, not a machine with nothing to report; an empty one is the
# latter, and its file checks are 'unknown'.
expect_usage noroot "No such file or directory" --root "$D/nonexistent"
mkdir -p "$D/emptyroot"
run emptyroot info --json --root "$D/emptyroot" --out "$D/noroot.json"
[ "$RC" -eq 0 ] && pass "empty root: exit 0" || fail "empty root: exit $RC: $(cat "$D/emptyroot.err")"
json_check "$D/noroot.json" "sum(c['status'] == 'unknown' for c in d['checks']) >= 8" "empty root: the file checks are 'unknown'"

# ---- the same context block in every result file
run vjson validate --json --ensembles 2 --samples 200 --budget 0.05 --no-chain --method rdtsc --out "$D/validate.json"
json_check "$D/validate.json" "all(k in d['context'] for k in ('cpu','tsc','core','hypervisor','warnings'))" "validate --json carries the context block"
run rjson resolution --json --method rdtsc --max 4 --samples 200 --tsc-hz 2GHz --out "$D/res.json"
json_check "$D/res.json" "d['context']['tsc']['hz'] == 2e9 and abs(d['fit']['slope_ns'] - d['fit']['slope'] / 2) < 1e-9" "resolution --json: context block, nanoseconds through --tsc-hz"
# CPUID's cost both ways on an x86 host: its windows close with RDTSCP where the CPU has it, with
# the fenced RDTSC without it (TKS_CPU_FEATURES=-rdtscp: the path a CPU without RDTSCP takes,
# which once executed RDTSCP there: SIGILL under QEMU's qemu64). The same instruction timed two
# ways: each a positive cost, within a factor of two of the other (a guest's CPUID traps to the
# hypervisor, thousands of ticks either way).
case "${TKS_TARGET_ARCH:-$(uname -m)}" in
x86_64 | AMD64 | amd64 | i?86)
    if grep -qw rdtscp /proc/cpuinfo 2>/dev/null; then
        run cpuid_rdtscp info --json --out "$D/cpuid_rdtscp.json"
        TKS_CPU_FEATURES=-rdtscp "$T" info --json --out "$D/cpuid_no_rdtscp.json" >"$D/cpuid_no.out" 2>"$D/cpuid_no.err"
        RC=$?
        [ "$RC" -eq 0 ] && python3 - "$D/cpuid_rdtscp.json" "$D/cpuid_no_rdtscp.json" <<'PY' &&
import json, sys
a, b = (json.load(open(p))["hypervisor"]["cpuid_ticks"] for p in sys.argv[1:3])
assert a > 0 and b > 0 and 0.5 <= b / a <= 2, (a, b)
PY
            pass "CPUID's cost with and without RDTSCP (TKS_CPU_FEATURES=-rdtscp): both positive, within 2x" ||
            fail "CPUID's cost without RDTSCP: exit $RC: $(head -3 "$D/cpuid_no.err") $(grep -o '"cpuid_ticks[^,]*' "$D"/cpuid_*.json)"
    else
        skip "hardware: CPUID's cost with RDTSCP: this CPU has none (the path without it ran above)"
    fi ;;
esac
no_temps all

finish
