#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh SOURCE_DIR BUILD_DIR [SECONDS]: `make fuzz`. Builds every harness of tests/fuzz against
# libFuzzer with clang (AddressSanitizer, UndefinedBehaviorSanitizer, LeakSanitizer) in BUILD_DIR,
# makes their seeds (seeds.py), runs each for SECONDS (default 60) on its corpus (BUILD_DIR/corpus/NAME,
# kept between runs) with the seeds and the saved inputs of tests/fuzz/corpus/NAME, and prints the
# executions of each. An input that crashes, leaks or times out is written to
# tests/fuzz/corpus/NAME/ (commit it: ctest replays it from then on) and the run fails.
set -u
S=$(cd "${1:?usage: run.sh SOURCE_DIR BUILD_DIR [SECONDS]}" && pwd)
B=${2:?usage: run.sh SOURCE_DIR BUILD_DIR [SECONDS]}
SECONDS_EACH=${3:-60}
# Every tests/fuzz/fuzz_NAME.c, as tests/fuzz/CMakeLists.txt builds them.
HARNESSES=$(cd "$S/tests/fuzz" && ls fuzz_*.c | sed 's/^fuzz_\(.*\)\.c$/\1/')
case $SECONDS_EACH in '' | *[!0-9]*) echo "fuzz: SECONDS must be a whole number, not '$SECONDS_EACH'"; exit 2 ;; esac

CC=${FUZZ_CC:-clang}
if ! command -v "$CC" >/dev/null; then
    echo "fuzz: needs clang (apt-get install clang libclang-rt-14-dev)"; exit 1
fi
probe=$(mktemp -d "${TMPDIR:-/tmp}/tks_fuzzprobe.XXXXXX")
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$probe/p.c"
if ! "$CC" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" 2>"$probe/err"; then
    echo "fuzz: $CC cannot link libFuzzer (apt-get install libclang-rt-14-dev, or the one for your clang):"
    head -3 "$probe/err"; rm -rf "$probe"; exit 1
fi
rm -rf "$probe"

cmake -S "$S" -B "$B" -DCMAKE_C_COMPILER="$CC" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTKS_FUZZ=ON \
    -DTKS_BUILD_BENCH=OFF -DTKS_BUILD_EXAMPLES=OFF >"$B.configure.log" 2>&1 ||
    { cat "$B.configure.log"; exit 1; }
cmake --build "$B" -j "$(nproc 2>/dev/null || echo 2)" --target fuzzers tickscope >"$B/build.log" 2>&1 ||
    { tail -30 "$B/build.log"; exit 1; }
rm -f "$B.configure.log"
rm -rf "$B/seeds"
python3 "$S/tests/fuzz/seeds.py" "$S" "$B/seeds" "$B/tickscope" || exit 1

failed=0
printf '%-8s %8s %12s %10s %8s  %s\n' harness seconds executions "exec/s" corpus result
for h in $HARNESSES; do
    mkdir -p "$B/corpus/$h" "$S/tests/fuzz/corpus/$h"
    # The calibration cache of the harnesses' runs stays out of the user's home.
    TICKSCOPE_CACHE_DIR= "$B/tests/fuzz/fuzz_$h" "$B/corpus/$h" "$B/seeds/$h" "$S/tests/fuzz/corpus/$h" \
        -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 \
        -print_final_stats=1 -artifact_prefix="$S/tests/fuzz/corpus/$h/" >"$B/fuzz-$h.log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/fuzz-$h.log" | tail -1)
    secs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$B/fuzz-$h.log" | tail -1)
    n=$(find "$B/corpus/$h" -type f | wc -l)
    if [ "$rc" -eq 0 ]; then
        result=ok
    else
        failed=1
        art=$(sed -n 's/.*Test unit written to //p' "$B/fuzz-$h.log" | tail -1)
        result="FAILED (exit $rc): ${art:-see $B/fuzz-$h.log}"
    fi
    printf '%-8s %8s %12s %10s %8s  %s\n' "$h" "$SECONDS_EACH" "${execs:-?}" "${secs:-?}" "$n" "$result"
    if [ "$rc" -ne 0 ]; then
        grep -E 'ERROR|SUMMARY|^    #[0-9]+ ' "$B/fuzz-$h.log" | head -25
    fi
done
exit $failed
