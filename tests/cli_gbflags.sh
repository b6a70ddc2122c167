# SPDX-License-Identifier: MIT
# cli_gbflags.sh: a benchmark program built on tks_main driven by Google Benchmark's flags, as a
# script written for Google Benchmark would: each flag does what Google's does, through ours.
# Usage: bash cli_gbflags.sh /path/to/tickscope (the benchmark program is found beside it)
set -u
CMD=bench
NAME=gbflags
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"
B="$(dirname "$T")/tests/tks_bench_prog"
[ -x "$B" ] || { echo "FAIL: $B is missing"; exit 1; }
py() { python3 -c "$1" "${@:2}" 2>"$D/py.err"; }

runb list --benchmark_list_tests
runb list2 --list
[ "$RC" -eq 0 ] && cmp -s "$D/list.out" "$D/list2.out" && pass "--benchmark_list_tests = --list" || fail "--benchmark_list_tests: $(cat "$D/list.out")"
runb listf --benchmark_list_tests=true --benchmark_filter='^add'
[ "$(cat "$D/listf.out")" = add40 ] && pass "--benchmark_filter=REGEX" || fail "--benchmark_filter: $(cat "$D/listf.out")"
runb listall --benchmark_list_tests=true --benchmark_filter=all
cmp -s "$D/listall.out" "$D/list.out" && pass "--benchmark_filter=all selects everything" || fail "filter=all: $(cat "$D/listall.out")"

# --benchmark_out: JSON in the file by default, the console table still on stdout.
runb out --benchmark_filter=add40 --benchmark_min_time=100x --benchmark_out="$D/gb.json"
if [ "$RC" -eq 0 ] && grep -q '^add40 ' "$D/out.out" &&
   py 'import json,sys; d=json.load(open(sys.argv[1])); b=d["benchmarks"]; sys.exit(0 if len(b)==1 and b[0]["name"]=="add40" and "context" in d else 1)' "$D/gb.json"; then
    pass "--benchmark_out=FILE: Google Benchmark's JSON in FILE, the console table on stdout"
else
    fail "--benchmark_out: exit $RC $(cat "$D/out.err" "$D/py.err")"
fi
# --benchmark_min_time=100x: 100 windows per run.
py 'import json,sys; d=json.load(open(sys.argv[1])); b=d["benchmarks"][0]; sys.exit(0 if b["windows"]==100 and d["context"]["min_windows"]==100 else 1)' "$D/gb.json" &&
    pass "--benchmark_min_time=100x: 100 windows" || fail "100x: $(grep -o '"windows": [0-9]*' "$D/gb.json")"
grep -q '100 windows per benchmark' "$D/out.out" && pass "100x: the console header says so" || fail "100x header: $(head -n1 "$D/out.out")"

runb outcsv --benchmark_filter=add40 --benchmark_min_time=100x --benchmark_out="$D/gb.csv" --benchmark_out_format=csv
[ "$RC" -eq 0 ] && head -n1 "$D/gb.csv" | grep -q '^name,' && grep -q '^add40 ' "$D/outcsv.out" &&
    pass "--benchmark_out_format=csv" || fail "--benchmark_out_format=csv: $(head -n2 "$D/gb.csv")"
runb fmt --benchmark_filter=add40 --benchmark_min_time=0.01s --benchmark_format=json
py 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["context"]["min_time"]==0.01 and "min_windows" not in d["context"] else 1)' "$D/fmt.out" &&
    pass "--benchmark_format=json on stdout; --benchmark_min_time=0.01s is seconds" || fail "--benchmark_format=json: $(cat "$D/py.err")"
runb reps --benchmark_filter=add40 --benchmark_min_time=100x --benchmark_repetitions=2 --benchmark_format=json
py 'import json,sys; d=json.load(open(sys.argv[1])); b=d["benchmarks"]; r=[x for x in b if x.get("run_type")=="iteration"]; a=[x for x in b if x.get("run_type")=="aggregate"]; sys.exit(0 if len(r)==2 and len(a)>=3 else 1)' "$D/reps.out" &&
    pass "--benchmark_repetitions=2: two runs and their aggregates" || fail "--benchmark_repetitions: $(cat "$D/py.err")"
# Directories and missing places are refused before measuring, naming the cause.
runb outdir --benchmark_out="$D"
[ "$RC" -eq 1 ] && grep -q 'Is a directory' "$D/outdir.err" && pass "--benchmark_out=DIR: $(cat "$D/outdir.err")" || fail "--benchmark_out=DIR: exit $RC $(cat "$D/outdir.err")"

# ---- every flag of Google Benchmark 1.7 (its src/benchmark.cc's list) and 1.9's dry run: none
# is refused. Each alone with --list (parsed, nothing measured), then all of them in one run.
ALL=(--benchmark_list_tests=false --benchmark_filter=add40 --benchmark_min_time=60x
     --benchmark_min_warmup_time=0.01 --benchmark_repetitions=2
     --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=false
     --benchmark_display_aggregates_only=true --benchmark_format=json --benchmark_out="$D/all.csv"
     --benchmark_out_format=csv --benchmark_color=auto --benchmark_counters_tabular=true
     --benchmark_perf_counters=task-clock --benchmark_context=k=v --benchmark_time_unit=us
     --benchmark_dry_run=false --v=0)
for flag in "${ALL[@]}"; do
    runb one "$flag" --list
    [ "$RC" -eq 0 ] || fail "'$flag' with --list: exit $RC, $(cat "$D/one.err")"
done
pass "each of Google Benchmark 1.7's ${#ALL[@]} flags is accepted"
runb all -q "${ALL[@]}"
if [ "$RC" -eq 0 ] && py 'import json,sys; d=json.load(open(sys.argv[1])); b=d["benchmarks"]; sys.exit(0 if [x["name"] for x in b]==["add40_mean","add40_median","add40_stddev","add40_cv"] and b[0]["time_unit"]=="us" and d["context"]["k"]=="v" else 1)' "$D/all.out" &&
   [ "$(grep -c '^add40,' "$D/all.csv")" -eq 2 ] && [ "$(grep -c '^add40_' "$D/all.csv")" -eq 4 ]; then
    pass "all of them in one run: the aggregates on stdout (display), every row in the file"
else
    fail "all flags in one run: exit $RC $(cat "$D/all.err" "$D/py.err")"
fi

# ---- aggregates only: report_aggregates_only in every report, display_ only on stdout.
AGG=(--benchmark_filter='add40|empty' --benchmark_min_time=60x --benchmark_repetitions=3)
rows='import json,sys; d=json.load(open(sys.argv[1])); print(" ".join(x["name"]+":"+x["run_type"] for x in d["benchmarks"]))'
runb ragg -q "${AGG[@]}" --benchmark_report_aggregates_only=true --benchmark_format=json --benchmark_out="$D/ragg.json"
want="add40_mean:aggregate add40_median:aggregate add40_stddev:aggregate add40_cv:aggregate empty_mean:aggregate empty_median:aggregate empty_stddev:aggregate empty_cv:aggregate"
[ "$RC" -eq 0 ] && [ "$(py "$rows" "$D/ragg.out")" = "$want" ] && [ "$(py "$rows" "$D/ragg.json")" = "$want" ] &&
    pass "--benchmark_report_aggregates_only: only _mean, _median, _stddev and _cv rows, on stdout and in the file" ||
    fail "report_aggregates_only: exit $RC: $(py "$rows" "$D/ragg.out") / $(py "$rows" "$D/ragg.json")"
runb dagg -q "${AGG[@]}" --benchmark_display_aggregates_only --benchmark_out="$D/dagg.json"
if [ "$RC" -eq 0 ] && grep -q '^add40_mean ' "$D/dagg.out" && ! grep -q '^add40 ' "$D/dagg.out" &&
   [ "$(py "$rows" "$D/dagg.json" | tr ' ' '\n' | grep -c ':iteration$')" -eq 6 ]; then
    pass "--benchmark_display_aggregates_only: the console shows the aggregates, the file every run"
else
    fail "display_aggregates_only: exit $RC: $(head -n 12 "$D/dagg.out") $(py "$rows" "$D/dagg.json")"
fi
runb nagg -q "${AGG[@]}" --benchmark_format=json
[ "$(py "$rows" "$D/nagg.out" | tr ' ' '\n' | grep -c ':iteration$')" -eq 6 ] &&
    pass "without it, every run's row (3 a benchmark) beside the aggregates" || fail "no aggregates only: $(py "$rows" "$D/nagg.out")"

# ---- time unit: at a TSC rate of 1 GHz a tick is a ns, so real_time in us is ticks / 1000.
# A block of 0 ticks (a counter coarser than add40, as qemu-aarch64's; never on x86) has no ratio.
for unit in ns:1 us:1e3 ms:1e6 s:1e9; do
    runb tu -q --tsc-hz=1GHz --benchmark_filter=add40 --benchmark_min_time=60x --benchmark_format=json \
        --benchmark_time_unit="${unit%%:*}" --benchmark_out="$D/tu.csv" --benchmark_out_format=csv
    if [ "$RC" -eq 0 ] && coarse_clock_ok && py 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["benchmarks"][0]["ticks"] != 0)' "$D/tu.out"; then
        skip "hardware: --benchmark_time_unit=${unit%%:*}: add40 read 0 ticks, so real_time/ticks cannot be checked"
    elif [ "$RC" -eq 0 ] && py 'import json,sys; b=json.load(open(sys.argv[1]))["benchmarks"][0]; u,s=sys.argv[2],float(sys.argv[3]); sys.exit(0 if b["time_unit"]==u and abs(b["real_time"]*s/b["ticks"]-1)<1e-4 and b["cpu_time"]==b["real_time"] else 1)' "$D/tu.out" "${unit%%:*}" "${unit#*:}" &&
       grep -q ",${unit%%:*},[0-9]" "$D/tu.csv"; then
        pass "--benchmark_time_unit=${unit%%:*}: real_time in ${unit%%:*} (ticks / ${unit#*:} at 1 GHz), time_unit ${unit%%:*}, the CSV too"
    else
        fail "--benchmark_time_unit=${unit%%:*}: exit $RC $(cat "$D/tu.err" "$D/py.err") $(head -c 600 "$D/tu.out")"
    fi
done
runb tuc -q --tsc-hz=1GHz --benchmark_filter=add40 --benchmark_min_time=60x --benchmark_time_unit=ms
grep -Eq '^Benchmark +ticks .* ms +min ' "$D/tuc.out" && grep -Eq '^add40 .* 0\.0000[0-9]+ ' "$D/tuc.out" &&
    pass "--benchmark_time_unit=ms: the console's time column in ms" || fail "console in ms: $(cat "$D/tuc.out")"

# ---- context: the pairs in the JSON's context.
runb ctx -q --benchmark_filter=add40 --benchmark_min_time=60x --benchmark_format=json --benchmark_context=pipeline=ci,run=7
py 'import json,sys; c=json.load(open(sys.argv[1]))["context"]; sys.exit(0 if c["pipeline"]=="ci" and c["run"]=="7" and "host_name" in c else 1)' "$D/ctx.out" &&
    pass "--benchmark_context=pipeline=ci,run=7: both keys in the JSON's context" || fail "context: $(cat "$D/ctx.err" "$D/py.err")"

# ---- dry run: each body once (one repetition whatever is asked), no figures.
runb dry -q --benchmark_filter='add40|empty|skipper' --benchmark_repetitions=5 --benchmark_dry_run --benchmark_format=json
py 'import json,sys; d=json.load(open(sys.argv[1])); b=d["benchmarks"]; ok=[x for x in b if not x.get("error_occurred")]; sys.exit(0 if [x["name"] for x in b]==["add40","empty","skipper"] and all(x["iterations"]==1 and x["dry_run"] and x["real_time"]==0 and "ticks" not in x for x in ok) and len(ok)==2 and d["context"]["dry_run"]=="true" else 1)' "$D/dry.out" &&
    pass "--benchmark_dry_run: one row each, one iteration, no figures (the skip still said)" || fail "dry run: exit $RC $(cat "$D/dry.err" "$D/py.err") $(head -c 800 "$D/dry.out")"
runb dryc -q --benchmark_filter=add40 --benchmark_dry_run
grep -Eq '^add40 +ran \(dry run\)' "$D/dryc.out" && pass "--benchmark_dry_run: the console says the body ran" || fail "dry run console: $(cat "$D/dryc.out")"

# ---- random interleaving: --v=1 prints each run as it starts. Without it the runs go in
# registration order; with it (three benchmarks, three repetitions: 1680 orders) every run is
# there, each benchmark's repetitions numbered 1, 2, 3 in the order they ran, the order is not
# the registration order, one seed gives one order and another seed another.
order() { sed -n 's/^.*: run [0-9]*\/9: \([a-z0-9]*\), repetition \([0-9]\)\/3$/\1.\2/p' "$D/$1.err" | tr '\n' ' '; }
IL=(--benchmark_filter='add40|empty|skipper' --benchmark_min_time=60x --benchmark_repetitions=3 --v=1 --format=json)
runb seq "${IL[@]}"
SEQ="add40.1 add40.2 add40.3 empty.1 empty.2 empty.3 skipper.1 skipper.2 skipper.3 "
[ "$(order seq)" = "$SEQ" ] && pass "--v=1: one line per run; without interleaving, registration order" || fail "--v=1 order: '$(order seq)' $(cat "$D/seq.err")"
runb rnd1 "${IL[@]}" --benchmark_enable_random_interleaving --random-seed 11
runb rnd2 "${IL[@]}" --benchmark_enable_random_interleaving --random-seed 11
runb rnd3 "${IL[@]}" --benchmark_enable_random_interleaving --random-seed 12
o1=$(order rnd1) o3=$(order rnd3)
sorted=$(echo "$o1" | tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' ')
numbered=1
for b in add40 empty skipper; do
    [ "$(echo "$o1" | tr ' ' '\n' | grep "^$b\." | tr '\n' ' ')" = "$b.1 $b.2 $b.3 " ] || numbered=0
done
if [ "$sorted" = "$SEQ" ] && [ "$numbered" = 1 ] && [ "$o1" != "$SEQ" ] && [ "$o3" != "$SEQ" ] &&
   [ "$(order rnd2)" = "$o1" ] && [ "$o3" != "$o1" ]; then
    pass "--benchmark_enable_random_interleaving: all 9 runs, interleaved ($o1), the seed repeats it, another seed differs"
else
    fail "random interleaving: seq '$SEQ', 11: '$o1', 11 again: '$(order rnd2)', 12: '$o3'"
fi
py 'import json,sys; d=json.load(open(sys.argv[1])); b=[x for x in d["benchmarks"] if x["run_type"]=="iteration"]; sys.exit(0 if d["context"]["random_seed"]==11 and [x["name"] for x in b]==["add40"]*3+["empty"]*3+["skipper"]*3 and [x["repetition_index"] for x in b]==[0,1,2]*3 else 1)' "$D/rnd1.out" &&
    pass "random interleaving: the JSON names the seed and keeps every repetition" || fail "interleaved JSON: $(cat "$D/py.err")"
runb rnd4 "${IL[@]}" --benchmark_enable_random_interleaving
grep -q 'random order (--random-seed [0-9]* repeats it)' "$D/rnd4.err" && pass "an unseeded order says its seed" || fail "unseeded: $(cat "$D/rnd4.err")"

# ---- minimum warm-up time: the body runs that long, its windows dropped, before measuring.
runb wu0 -q --benchmark_filter=add40 --benchmark_min_time=60x --benchmark_format=json
runb wu1 -q --benchmark_filter=add40 --benchmark_min_time=60x --benchmark_format=json --benchmark_min_warmup_time=0.2
py 'import json,sys; a=json.load(open(sys.argv[1]))["benchmarks"][0]; b=json.load(open(sys.argv[2]))["benchmarks"][0]; sys.exit(0 if b["seconds"]>=0.2 and b["discarded"]["warmup"]>a["discarded"]["warmup"]+100 and b["windows"]==a["windows"]==60 else 1)' "$D/wu0.out" "$D/wu1.out" &&
    pass "--benchmark_min_warmup_time=0.2: 0.2 s of windows dropped first, the same 60 kept" || fail "warm-up: $(cat "$D/wu1.err" "$D/py.err")"

# ---- colour: accepted; this report has none, which one note says.
runb col --list --benchmark_color=true
[ "$RC" -eq 0 ] && [ "$(grep -c 'benchmark_color' "$D/col.err")" -eq 1 ] && pass "--benchmark_color=true: accepted, one note" || fail "colour: exit $RC $(cat "$D/col.err")"
runb col0 --list --benchmark_color=false
[ "$RC" -eq 0 ] && [ ! -s "$D/col0.err" ] && pass "--benchmark_color=false: nothing to say" || fail "colour false: $(cat "$D/col0.err")"

# ---- filters: a leading '-' selects what the regex does not match, as Google Benchmark 1.7;
# a filter that matches nothing is the same for --list and for a run: a warning, exit 0, as
# Google Benchmark ("Failed to match any benchmarks", exit 0).
runb neg --list --benchmark_filter=-add40
[ "$RC" -eq 0 ] && [ "$(cat "$D/neg.out")" = "$(grep -v '^add40$' "$D/list.out")" ] && [ -s "$D/neg.out" ] &&
    pass "--benchmark_filter=-add40: every benchmark but add40" || fail "-add40: $(cat "$D/neg.out")"
runb neg2 --list --filter='-^(add40|empty)$'
[ "$(cat "$D/neg2.out")" = "$(grep -Ev '^(add40|empty)$' "$D/list.out")" ] && pass "--filter='-^(add40|empty)\$'" || fail "negative --filter: $(cat "$D/neg2.out")"
runb negall --list --benchmark_filter=-.
runb nomatchrun --benchmark_filter=nothing_matches
runb nomatchlist --list --benchmark_filter=nothing_matches
if [ "$RC" -eq 0 ] && [ ! -s "$D/nomatchlist.out" ] && [ ! -s "$D/nomatchrun.out" ] && [ ! -s "$D/negall.out" ] &&
   grep -q 'warning: no benchmark matches' "$D/nomatchrun.err" && cmp -s "$D/nomatchrun.err" "$D/nomatchlist.err" &&
   [ "$(runb x --benchmark_filter=nothing_matches; echo $RC)" = 0 ] && [ "$(runb x --benchmark_filter=-.; echo $RC)" = 0 ]; then
    pass "a filter matching nothing: --list and a run both exit 0 with one warning"
else
    fail "no match: list exit $RC, $(cat "$D/nomatchlist.err" "$D/nomatchrun.err")"
fi

# ---- beside a real Google Benchmark 1.7 program with the same names (Debian's libbenchmark-dev):
# the filters select the same names with the same exit codes, and aggregates only, the time unit
# and the context give the same rows and fields.
if ! command -v c++ >/dev/null || ! printf '#include <benchmark/benchmark.h>\n' | c++ -E -x c++ - >/dev/null 2>&1; then
    skip "the comparison with Google Benchmark: a C++ compiler and Google Benchmark's headers are needed (Debian packages g++ libbenchmark-dev)"
else
    cat >"$D/gb.cc" <<'EOF'
#include <benchmark/benchmark.h>
#include <cstdlib>
static void add40(benchmark::State &s) { for (auto _ : s) benchmark::DoNotOptimize(s.iterations()); }
BENCHMARK(add40);
static void empty(benchmark::State &s) { for (auto _ : s) benchmark::ClobberMemory(); }
BENCHMARK(empty);
static void crashy(benchmark::State &s) { if (s.range(0) == 1) std::abort(); for (auto _ : s) benchmark::ClobberMemory(); }
BENCHMARK(crashy)->Arg(0)->Arg(1);
static void skipper(benchmark::State &s) { s.SkipWithError("needs a GPU"); for (auto _ : s) {} }
BENCHMARK(skipper);
BENCHMARK_MAIN();
EOF
    if ! c++ -O1 -std=c++11 "$D/gb.cc" -o "$D/gb" -lbenchmark -lpthread 2>"$D/gbcc.err"; then
        fail "the Google Benchmark program does not build: $(cat "$D/gbcc.err")"
    else
        for f in -add40 'add40|empty' '-^(add40|empty)$' 'crashy' '-crashy/1' nothing_matches '-.' all; do
            "$D/gb" --benchmark_list_tests --benchmark_filter="$f" >"$D/gbl.out" 2>/dev/null; grc=$?
            runb tkl --benchmark_list_tests --benchmark_filter="$f"
            [ "$RC" -eq "$grc" ] && cmp -s "$D/gbl.out" "$D/tkl.out" && pass "--benchmark_filter='$f': as Google Benchmark's (exit $grc, $(wc -l <"$D/tkl.out") names)" ||
                fail "--benchmark_filter='$f': Google's exit $grc '$(cat "$D/gbl.out")', ours $RC '$(cat "$D/tkl.out")'"
        done
        "$D/gb" --benchmark_filter=nothing_matches >/dev/null 2>&1; grc=$?
        runb x --benchmark_filter=nothing_matches
        [ "$RC" -eq "$grc" ] && pass "a run matching nothing: exit $grc, as Google Benchmark" || fail "run matching nothing: Google's $grc, ours $RC"
        GBA=(--benchmark_filter='add40|empty' --benchmark_repetitions=3 --benchmark_format=json
             --benchmark_time_unit=ms --benchmark_context=pipeline=ci)
        fields='import json,sys; d=json.load(open(sys.argv[1])); print(d["context"]["pipeline"], [(x["name"], x["run_type"], x.get("aggregate_name"), x["time_unit"]) for x in d["benchmarks"]])'
        "$D/gb" "${GBA[@]}" --benchmark_report_aggregates_only=true --benchmark_min_time=0.001 >"$D/gba.json" 2>/dev/null
        runb tka -q "${GBA[@]}" --benchmark_report_aggregates_only=true --benchmark_min_time=60x
        [ -n "$(py "$fields" "$D/gba.json")" ] && [ "$(py "$fields" "$D/gba.json")" = "$(py "$fields" "$D/tka.out")" ] &&
            pass "aggregates only, time unit, context: the rows and fields of Google Benchmark's JSON" ||
            fail "beside Google Benchmark: '$(py "$fields" "$D/gba.json")' against '$(py "$fields" "$D/tka.out")'"
        "$D/gb" "${GBA[@]}" --benchmark_display_aggregates_only=true --benchmark_min_time=0.001 --benchmark_out="$D/gbd.json" >"$D/gbd.out" 2>/dev/null
        runb tkd -q "${GBA[@]}" --benchmark_display_aggregates_only=true --benchmark_min_time=60x --benchmark_out="$D/tkd.json"
        [ "$(py "$fields" "$D/gbd.json")" = "$(py "$fields" "$D/tkd.json")" ] && [ "$(py "$fields" "$D/gbd.out")" = "$(py "$fields" "$D/tkd.out")" ] &&
        [ "$(py "$fields" "$D/tkd.out")" = "$(py "$fields" "$D/tka.out")" ] &&
            pass "display aggregates only: the aggregates on stdout, every row in the file, as Google Benchmark" ||
            fail "display aggregates only: file '$(py "$fields" "$D/gbd.json")' against '$(py "$fields" "$D/tkd.json")'"
    fi
fi

for bad in "--benchmark_min_time=0x" "--benchmark_min_time=soon" "--benchmark_out_format=xml" \
           "--benchmark_repetitions=0" "--benchmark_list_tests=maybe" "--benchmark_out=" \
           "--benchmark_time_unit=min" "--benchmark_color=blue" "--benchmark_context=a" \
           "--benchmark_report_aggregates_only=perhaps" "--benchmark_min_warmup_time=-1" "--v=loud" \
           "--benchmark_dry_run=2"; do
    runb bad "$bad"
    flagname=${bad%%=*}
    if [ "$RC" -eq 2 ] && [ "$(wc -l <"$D/bad.err")" -eq 1 ] && grep -qF -- "error: $flagname" "$D/bad.err"; then
        pass "'$bad': exit 2, $(cat "$D/bad.err")"
    else
        fail "'$bad': exit $RC, stderr: $(cat "$D/bad.err")"
    fi
done
no_temps gbflags
finish
