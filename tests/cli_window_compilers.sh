# SPDX-License-Identifier: MIT
# cli_window_compilers.sh: TKS_MEASURE's windows (tickscope/bench_window.h) hold nothing of ours,
# whichever compiler builds the user's program: tests/window_bodies.c compiled (not run) by gcc
# and clang, at -O2 and -O3, for x86-64 and i386, and every window of every method read back with
# objdump (tests/window_scan.py): a block of nothing leaves an empty window, a block of one
# marker instruction a window of that instruction (and the repetition loop in throughput mode).
# On i386 the compiler may also move the readings between registers and the stack inside a
# window (too few registers: tickscope/clock.h); nothing else. The library's sampling loops
# (src/sample/ensemble.c, at the library's -O2) likewise, their work a dependent add chain (tests/cli_window.sh holds
# the built library's to every count of adds). Every method is compiled into every program, so
# this holds the methods this CPU cannot run too.
# Usage: bash cli_window_compilers.sh /path/to/tickscope
set -u

CMD=none
NAME=cli_window_compilers
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"
SRC=$(cd "$(dirname "$0")" && pwd)
INC="$SRC/../include"

case "${TKS_TARGET_ARCH:-$(uname -m)}" in
x86_64 | amd64 | AMD64) ;;
*) echo "SKIP: hardware: the windows are read as x86 code; this build is for ${TKS_TARGET_ARCH:-$(uname -m)}"; exit 77 ;;
esac
command -v objdump >/dev/null || { echo "SKIP: objdump is needed (Debian package binutils)"; exit 77; }

for cc in gcc clang; do
    if ! command -v $cc >/dev/null; then
        skip "$cc is not installed (Debian package $cc)"
        continue
    fi
    for target in -m64 -m32; do
        if ! echo 'int main(void) { return 0; }' | $cc $target -x c - -o "$D/probe" 2>/dev/null; then
            skip "$cc $target cannot build a program here (for -m32: Debian package gcc-multilib)"
            continue
        fi
        for opt in -O2 -O3; do
            what="$cc $opt $target"
            obj="$D/w$cc$opt$target.o"
            if ! $cc $opt $target -std=c11 -I"$INC" -c "$SRC/window_bodies.c" -o "$obj" 2>"$D/cc.err"; then
                fail "$what: tests/window_bodies.c does not compile: $(head -n3 "$D/cc.err")"
                continue
            fi
            objdump -d --no-show-raw-insn "$obj" >"$D/w.dis"
            arch=""
            [ "$target" = -m32 ] && arch=--i386
            if python3 "$SRC/window_scan.py" $arch "$D/w.dis" window_empty window_marker window_hooks >"$D/scan.out"; then
                pass "$what: TKS_MEASURE: $(grep -c . "$D/scan.out") functions, $(awk '{s += $2} END {print s}' "$D/scan.out") windows, nothing of ours inside"
            else
                fail "$what: TKS_MEASURE: $(grep FAIL "$D/scan.out" | head -n 5)"
            fi
            # The library builds its sampling loops at -O2 whatever the build type
            # (CMakeLists.txt): those flags only.
            [ "$opt" = -O2 ] || continue
            if ! $cc -O2 -fomit-frame-pointer $target -std=c11 -D_GNU_SOURCE -I"$INC" -I"$SRC/../src" \
                -c "$SRC/../src/sample/ensemble.c" -o "$obj" 2>"$D/cc.err"; then
                fail "$what: src/sample/ensemble.c does not compile: $(head -n3 "$D/cc.err")"
                continue
            fi
            objdump -d --no-show-raw-insn "$obj" >"$D/w.dis"
            if python3 "$SRC/window_scan.py" --adds $arch "$D/w.dis" ensemble_cpuid ensemble_rdtscp ensemble_lfence \
                ensemble_mfence ensemble_serialize ensemble_rdtsc ensemble_lfence_rdtsc >"$D/scan.out"; then
                pass "$what: the sampling loops: $(awk '{s += $2} END {print s}' "$D/scan.out") windows, adds only"
            else
                fail "$what: the sampling loops: $(grep FAIL "$D/scan.out" | head -n 5)"
            fi
        done
    done
done
finish
