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

for bad in "--benchmark_min_time=0x" "--benchmark_min_time=soon" "--benchmark_out_format=xml" \
           "--benchmark_repetitions=0" "--benchmark_list_tests=maybe" "--benchmark_out="; do
    runb bad "$bad"
    flagname=${bad%%=*}
    if [ "$RC" -eq 2 ] && [ "$(wc -l <"$D/bad.err")" -eq 1 ] && grep -qF -- "$flagname" "$D/bad.err"; then
        pass "'$bad': exit 2, $(cat "$D/bad.err")"
    else
        fail "'$bad': exit $RC, stderr: $(cat "$D/bad.err")"
    fi
done
no_temps gbflags
finish
