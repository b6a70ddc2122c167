#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh: the portability matrix (issue 6): each toolchain this machine has builds tickscope in a
# directory of its own under the build tree and runs its tests there; the public headers compile
# as C99, C11 and C++ with every compiler (C++ also under the warnings its users turn on:
# -Wshadow -Wconversion -Wzero-as-null-pointer-constant -Wold-style-cast), and for Windows with
# mingw-w64 (compile only). A missing toolchain is a skip with the package that brings it, never
# a failure; every part ends by listing what it ran and what it could not. With TKS_CI=1 (.ci/run)
# anything it could not run is a failure: CI installs every toolchain. Each sub-build's own skips
# go through tests/skips.py as the main build's do: under TKS_CI=1 a skip there fails too, unless
# every reason it gave is hardware the machine lacks ("SKIP: hardware: ...").
#   usage: bash run.sh SOURCE_DIR WORK_DIR PART
#   PART: headers | clang | i386 | arm64
# Exit 0 passed, 1 failed, 77 skipped (the toolchain is missing).
set -u

SRC=${1:?usage: run.sh SOURCE_DIR WORK_DIR PART}
WORK=${2:?usage: run.sh SOURCE_DIR WORK_DIR PART}
PART=${3:?usage: run.sh SOURCE_DIR WORK_DIR PART}
SRC=$(cd "$SRC" && pwd) || exit 1
mkdir -p "$WORK" || exit 1
WORK=$(cd "$WORK" && pwd) || exit 1 # absolute: the sub-builds' tests run from their own directory
JOBS=${TKS_PORT_JOBS:-$(nproc 2>/dev/null || echo 2)}
START=$SECONDS

skip() { # skip WHAT PACKAGES
    echo "SKIP: $1 missing (apt-get install $2)"
    if [ "${TKS_CI:-0}" = 1 ]; then
        echo "FAIL: TKS_CI=1: CI installs every toolchain, so nothing may be skipped"
        exit 1
    fi
    exit 77
}
# What the header matrix ran and what it could not, for the summary at its end.
RAN=()
COULD_NOT=()
could_not() { # could_not ROWS PACKAGES
    echo "note: headers: $1 not run (apt-get install $2)"
    COULD_NOT+=("$1 (apt-get install $2)")
}
have() { command -v "$1" >/dev/null 2>&1; }
elapsed() { echo "$((SECONDS - START)) s"; }

# compiles_m32 CC: the 32-bit C library is there (libc6-dev-i386) and links.
compiles_m32() {
    printf '#include <errno.h>\n#include <stdio.h>\nint main(void) { return errno; }\n' >"$WORK/m32.c"
    "$1" -m32 -idirafter "$WORK/m32-include" "$WORK/m32.c" -o "$WORK/m32" >/dev/null 2>&1
}
# The kernel's x86 headers serve -m32 too; without gcc-multilib nothing points -m32 at them.
mkdir -p "$WORK/m32-include"
[ -e "$WORK/m32-include/asm" ] || ln -s /usr/include/x86_64-linux-gnu/asm "$WORK/m32-include/asm" 2>/dev/null

# subbuild NAME CMAKE_ARGS...: configure, build and test one toolchain's tree with warnings as
# errors, leaving out this suite (no recursion) and the kernel module's tests (they need root
# and a kernel of their own).
subbuild() {
    local name=$1 dir="$WORK/$1" t0=$SECONDS
    shift
    echo "== $name: configure and build in $dir"
    rm -rf "$dir"
    if ! cmake -S "$SRC" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DTKS_WERROR=ON "$@" >"$WORK/$name.configure.log" 2>&1; then
        cat "$WORK/$name.configure.log"
        echo "FAIL: $name: cmake could not configure"
        return 1
    fi
    if ! cmake --build "$dir" -j "$JOBS" >"$WORK/$name.build.log" 2>&1; then
        grep -E 'error|warning' "$WORK/$name.build.log" | head -40
        echo "FAIL: $name: the build failed (log: $WORK/$name.build.log)"
        return 1
    fi
    echo "   built in $((SECONDS - t0)) s"
    [ "${BUILD_ONLY:-0}" = 1 ] && return 0
    # The known answers (label known) are the main build's: they hold this CPU's figures, which
    # an emulator's timing does not have (arm64 under QEMU), and the main build measures them.
    (cd "$dir" && ctest --output-on-failure -j "$JOBS" -LE 'portability|kmod|known' --output-junit "$dir/check-junit.xml") \
        >"$WORK/$name.test.log" 2>&1
    local rc=$?
    grep -E '^ *[0-9]+/[0-9]+ Test|tests passed|Not Run|\*\*\*Skipped|SKIP' "$WORK/$name.test.log" | sed 's/^/   /'
    if [ "$rc" -ne 0 ]; then
        sed -n '/The following tests FAILED/,$p' "$WORK/$name.test.log"
        grep -B2 -A30 -E '\*\*\*Failed|\*\*\*Timeout' "$WORK/$name.test.log" | grep -E '^(FAIL|/.*CHECK|.*failed)' | head -40
        echo "FAIL: $name: tests failed (log: $WORK/$name.test.log) after $((SECONDS - t0)) s"
        return 1
    fi
    # The sub-build's skips, each with its reason, under the main build's rule (tests/skips.py):
    # with TKS_CI=1 a skip fails, unless every reason is hardware the machine lacks.
    if ! command -v python3 >/dev/null; then
        echo "SKIP: $name: its skips cannot be listed: python3 is not installed (Debian package python3)"
        [ "${TKS_CI:-0}" = 1 ] && { echo "FAIL: TKS_CI=1: CI installs python3"; return 1; }
    else
        python3 "$SRC/tests/skips.py" "$dir/check-junit.xml" >"$WORK/$name.skips.log" 2>&1
        local skips_rc=$?
        sed "s/^/   $name: /" "$WORK/$name.skips.log"
        if [ "$skips_rc" -ne 0 ]; then
            echo "FAIL: $name: tests skipped under TKS_CI=1 (listed above)"
            return 1
        fi
    fi
    echo "ok: $name: built and tested in $((SECONDS - t0)) s"
}

# ---------------------------------------------------------------- the header matrix
headers() {
    local failed=0 n=0 hdrs="" h tu cc std
    # Every public header, as a user includes it; those that appear later (region.h, iaperf.h)
    # are picked up by the glob. kmod.h is the kernel module's ioctl ABI: Linux only.
    for h in "$SRC"/include/tickscope.h "$SRC"/include/tickscope/*.h; do
        hdrs="$hdrs ${h#"$SRC"/include/}"
    done
    echo "== public headers:$hdrs"
    tu="$WORK/headers.c"
    {
        echo "/* Generated by tests/portability/run.sh: every public header, and a use of each clock read. */"
        for h in $hdrs; do
            case $h in tickscope/kmod.h) echo "#if defined(__linux__)"; echo "#include <$h>"; echo "#endif" ;;
            *) echo "#include <$h>" ;; esac
        done
        # Twice: the include guards must hold.
        for h in $hdrs; do
            case $h in tickscope/kmod.h) ;; *) echo "#include <$h>" ;; esac
        done
        cat <<'EOF'
#ifdef __cplusplus
extern "C" {
#endif
unsigned long long tks_port_use(void);
#ifdef __cplusplus
}
#endif
unsigned long long tks_port_use(void)
{
    struct tks_cpu_features f;
    tks_u32 aux = 0;
    tks_u64 sum = 0;
    tks_cpu_features_probe(&f);
    sum += (tks_method_available(TKS_METHOD_LFENCE, &f) ? 1u : 0u) + tks_cpu_aux();
#if defined(TKS_ARCH_X86)
    {
        tks_u32 r[4];
        tks_cpuid(0, 0, r);
        sum += r[0];
    }
    sum += TKS_END(cpuid, &aux) - TKS_BEGIN(cpuid);
    sum += TKS_END(rdtscp, &aux) - TKS_BEGIN(rdtscp);
    sum += TKS_END(lfence, &aux) - TKS_BEGIN(lfence);
    sum += TKS_END(mfence, &aux) - TKS_BEGIN(mfence);
    sum += TKS_END(serialize, &aux) - TKS_BEGIN(serialize);
    sum += TKS_END(rdtsc, &aux) - TKS_BEGIN(rdtsc);
    sum += tks_rdtsc() + tks_rdtscp(&aux);
#else
    sum += TKS_END(isb, &aux) - TKS_BEGIN(isb);
    sum += TKS_END(cntvct, &aux) - TKS_BEGIN(cntvct);
#endif
    return sum + aux + tks_method_info(TKS_METHOD_LFENCE)->flags;
}
/* The regions' and the IAPerf macros expand in the user's code: they are checked there. */
int tks_port_regions(int n);
int tks_port_regions(int n)
{
    int s = 0, i;
    tks_region_stats st;
    for (i = 0; i < n; i++) {
        TKS_REGION_BEGIN("port");
        s += i;
        TKS_REGION_END("port");
    }
    return s + tks_region_stats_get("port", &st);
}
int tks_port_iaperf(void);
int tks_port_iaperf(void)
{
    PERFINITMHZ(0)
    PERFSTART
    PERFSTOP
    PERFREPORT
    return clocks > 0;
}
EOF
    } >"$tu"
    cp "$tu" "$WORK/headers.cc"

    # check LABEL COMPILER ARGS...: compile the unit, report, count failures.
    check() {
        local label=$1
        shift
        n=$((n + 1))
        RAN+=("$label")
        if "$@" -I"$SRC/include" -c -o "$WORK/headers.o" >"$WORK/headers.log" 2>&1; then
            echo "ok: headers: $label"
        else
            echo "FAIL: headers: $label: $*"
            head -30 "$WORK/headers.log"
            failed=$((failed + 1))
        fi
    }
    local W="-Wall -Wextra -Werror"
    # What users of the headers compile C++ with (issue 18): the headers and their macros'
    # expansions must not warn under it.
    local STRICT_CXX="-Wshadow -Wconversion -Wzero-as-null-pointer-constant -Wold-style-cast"
    for cc in gcc clang; do
        have $cc || { could_not "$cc rows" "$cc"; continue; }
        for std in c99 c11; do
            check "$cc -std=$std -pedantic -Wconversion" $cc -std=$std -pedantic $W -Wstrict-prototypes -Wshadow \
                -Wconversion "$tu"
        done
        if compiles_m32 $cc; then
            check "$cc -m32 -std=c11 -fPIC (i386)" $cc -m32 -fPIC -std=c11 -pedantic $W -idirafter "$WORK/m32-include" "$tu"
        else
            could_not "$cc -m32 (i386)" "libc6-dev-i386 lib32gcc-12-dev"
        fi
    done
    for cxx in g++ clang++; do
        have $cxx || { could_not "$cxx rows" "$cxx"; continue; }
        for std in c++11 c++17; do
            check "$cxx -std=$std" $cxx -x c++ -std=$std $W "$WORK/headers.cc"
        done
        check "$cxx -std=c++17 $STRICT_CXX" $cxx -x c++ -std=c++17 $W $STRICT_CXX "$WORK/headers.cc"
        if compiles_m32 $cxx; then
            check "$cxx -m32 -std=c++17 $STRICT_CXX (i386)" $cxx -m32 -x c++ -std=c++17 $W $STRICT_CXX \
                -idirafter "$WORK/m32-include" "$WORK/headers.cc"
        else
            could_not "$cxx -m32 (i386)" "lib32stdc++-12-dev"
        fi
    done
    if have aarch64-linux-gnu-gcc; then
        check "aarch64-linux-gnu-gcc -std=c99 -pedantic" aarch64-linux-gnu-gcc -std=c99 -pedantic $W "$tu"
        check "aarch64-linux-gnu-gcc -std=c11 -pedantic" aarch64-linux-gnu-gcc -std=c11 -pedantic $W "$tu"
        if have aarch64-linux-gnu-g++; then
            check "aarch64-linux-gnu-g++ -std=c++17" aarch64-linux-gnu-g++ -x c++ -std=c++17 $W "$WORK/headers.cc"
            check "aarch64-linux-gnu-g++ -std=c++17 $STRICT_CXX" aarch64-linux-gnu-g++ -x c++ -std=c++17 $W \
                $STRICT_CXX "$WORK/headers.cc"
        else
            could_not "aarch64-linux-gnu-g++ (arm64 C++)" "g++-aarch64-linux-gnu"
        fi
        if have clang; then
            check "clang --target=aarch64-linux-gnu -std=c11" clang --target=aarch64-linux-gnu \
                --sysroot=/usr/aarch64-linux-gnu -isystem /usr/aarch64-linux-gnu/include -std=c11 -pedantic $W "$tu"
        fi
    else
        could_not "aarch64-linux-gnu-gcc rows (arm64)" "gcc-aarch64-linux-gnu g++-aarch64-linux-gnu"
    fi
    # Windows: the intrinsics path of clock.h (no inline assembly but the SERIALIZE bytes).
    if have x86_64-w64-mingw32-gcc; then
        check "x86_64-w64-mingw32-gcc -std=c11 (Windows, intrinsics)" x86_64-w64-mingw32-gcc -std=c11 $W "$tu"
        check "x86_64-w64-mingw32-gcc -std=c99 -pedantic (Windows)" x86_64-w64-mingw32-gcc -std=c99 -pedantic $W "$tu"
        if have x86_64-w64-mingw32-g++; then
            check "x86_64-w64-mingw32-g++ -std=c++17 (Windows)" x86_64-w64-mingw32-g++ -x c++ -std=c++17 $W "$WORK/headers.cc"
            check "x86_64-w64-mingw32-g++ -std=c++17 $STRICT_CXX (Windows)" x86_64-w64-mingw32-g++ -x c++ \
                -std=c++17 $W $STRICT_CXX "$WORK/headers.cc"
        else
            could_not "x86_64-w64-mingw32-g++ (Windows C++)" "g++-mingw-w64-x86-64"
        fi
        # The reads must be the instructions, with no stray call: disassemble the object.
        if x86_64-w64-mingw32-gcc -O2 -std=c11 -I"$SRC/include" -c "$tu" -o "$WORK/headers-w64.o" 2>/dev/null &&
            have x86_64-w64-mingw32-objdump; then
            local dis
            dis=$(x86_64-w64-mingw32-objdump -d "$WORK/headers-w64.o")
            n=$((n + 1))
            RAN+=("mingw-w64 object disassembled: the reads inline")
            if echo "$dis" | grep -q rdtscp && echo "$dis" | grep -q lfence && echo "$dis" | grep -q cpuid &&
                ! echo "$dis" | grep -qE 'call .*(rdtsc|cpuid|lfence)'; then
                echo "ok: headers: mingw-w64 object has RDTSC, RDTSCP, LFENCE, CPUID inline"
            else
                echo "FAIL: headers: the mingw-w64 object lacks an inline read"
                failed=$((failed + 1))
            fi
        fi
    else
        could_not "x86_64-w64-mingw32-gcc rows (Windows)" "gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64"
    fi
    echo "headers: ran ${#RAN[@]} row(s), $((n - failed)) of $n passed in $(elapsed):"
    printf '   ran: %s\n' "${RAN[@]}"
    if [ "${#COULD_NOT[@]}" -gt 0 ]; then
        echo "headers: could not run ${#COULD_NOT[@]} row(s):"
        printf '   could not: %s\n' "${COULD_NOT[@]}"
        if [ "${TKS_CI:-0}" = 1 ]; then
            echo "FAIL: TKS_CI=1: CI installs every toolchain, so every row must run"
            failed=$((failed + 1))
        fi
    else
        echo "headers: every row ran"
    fi
    [ "$failed" -eq 0 ]
}

case $PART in
headers)
    have gcc || have clang || skip "a C compiler" "gcc"
    headers
    ;;
clang)
    have clang || skip "clang" "clang"
    CC=clang subbuild x86_64-clang -DCMAKE_C_COMPILER=clang
    ;;
i386)
    have gcc || skip "gcc" "gcc"
    compiles_m32 gcc || skip "the 32-bit C library" "libc6-dev-i386 lib32gcc-12-dev"
    if ! "$WORK/m32"; then
        # A kernel built without IA32 emulation runs no 32-bit program ("Exec format error"):
        # no package brings that, so the build is still checked and only its tests are skipped.
        BUILD_ONLY=1 subbuild i386 -DCMAKE_TOOLCHAIN_FILE="$SRC/cmake/toolchain-i386.cmake" || exit 1
        echo "SKIP: hardware: this kernel runs no 32-bit program (no IA32 emulation): the i386 build compiled with -Werror, its tests did not run"
        exit 77
    fi
    subbuild i386 -DCMAKE_TOOLCHAIN_FILE="$SRC/cmake/toolchain-i386.cmake"
    ;;
arm64)
    have aarch64-linux-gnu-gcc || skip "the arm64 cross compiler" "gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
    have qemu-aarch64 || have qemu-aarch64-static || skip "qemu-aarch64" "qemu-user"
    [ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] || skip "the arm64 C library" "libc6-dev-arm64-cross"
    subbuild arm64 -DCMAKE_TOOLCHAIN_FILE="$SRC/cmake/toolchain-aarch64.cmake"
    ;;
*)
    echo "usage: run.sh SOURCE_DIR WORK_DIR headers|clang|i386|arm64"
    exit 2
    ;;
esac
rc=$?
echo "$PART: $([ "$rc" -eq 0 ] && echo passed || echo FAILED) in $(elapsed)"
exit "$rc"
