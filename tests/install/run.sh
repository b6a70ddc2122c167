# SPDX-License-Identifier: MIT
# run.sh: tickscope as users get it from `make install`: installed into a temporary prefix, then
# used by a consumer project through find_package(tickscope) (shared and static targets), or
# through pkg-config (tickscope, tickscope --static with -static, tickscope-static), from where it
# was installed and after the tree was moved. Usage: bash run.sh BUILD_DIR SOURCE_DIR cmake|pkgconfig CC
set -u
BUILD=$1 SRC=$2 PART=$3 CC=$4
if [ "$PART" = pkgconfig ] && ! command -v pkg-config >/dev/null; then
    echo "SKIP: pkg-config is not installed (Debian package pkgconf)"
    exit 77
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/tks_install.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
FAILED=0
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
pass() { echo "ok: $*"; }
needs() { readelf -d "$1" 2>/dev/null | grep -q "NEEDED.*libtickscope"; }

if ! cmake --install "$BUILD" --prefix "$W/usr" >"$W/install.log" 2>&1; then
    cat "$W/install.log"
    echo "FAIL: cmake --install"
    exit 1
fi
LIBDIR=$(dirname "$(find "$W/usr" -name libtickscope.a | head -n1)")
[ -x "$W/usr/bin/tickscope" ] && [ -f "$LIBDIR/libtickscope.a" ] && [ -f "$W/usr/include/tickscope.h" ] &&
    pass "installed: bin/tickscope, $(basename "$LIBDIR")/libtickscope.a, include/tickscope.h" || fail "install tree incomplete"

# run NAME BINARY: runs it (the shared library found through LD_LIBRARY_PATH when not in its RPATH)
run() {
    local out
    if out=$(LD_LIBRARY_PATH="$LIBDIR" "$2" 2>&1) && echo "$out" | grep -q '^tickscope 0\.'; then
        pass "$1 runs: $out"
    else
        fail "$1: $out"
    fi
}

if [ "$PART" = cmake ]; then
    if cmake -S "$SRC/tests/install/consumer" -B "$W/consumer" -DCMAKE_C_COMPILER="$CC" \
            -DCMAKE_PREFIX_PATH="$W/usr" >"$W/cfg.log" 2>&1 &&
       cmake --build "$W/consumer" >"$W/build.log" 2>&1; then
        pass "find_package(tickscope): the consumer configures and builds"
        run "tickscope::tickscope" "$W/consumer/use_shared"
        run "tickscope::tickscope_static" "$W/consumer/use_static"
        needs "$W/consumer/use_shared" && pass "tickscope::tickscope links libtickscope.so" || fail "use_shared does not need libtickscope.so"
        needs "$W/consumer/use_static" && fail "tickscope::tickscope_static needs libtickscope.so" || pass "tickscope::tickscope_static links the archive"
    else
        cat "$W/cfg.log" "$W/build.log" 2>/dev/null | tail -20
        fail "the consumer project did not configure or build"
    fi
    # An older or newer minor version is refused (0.x: the structs may still grow).
    mkdir -p "$W/old"
    printf 'cmake_minimum_required(VERSION 3.16)\nproject(x LANGUAGES C)\nfind_package(tickscope 0.2 REQUIRED)\n' >"$W/old/CMakeLists.txt"
    cmake -S "$W/old" -B "$W/old/b" -DCMAKE_PREFIX_PATH="$W/usr" >/dev/null 2>&1 &&
        fail "find_package(tickscope 0.2) accepted 0.1" || pass "find_package(tickscope 0.2) refuses 0.1"
else
    export PKG_CONFIG_PATH="$LIBDIR/pkgconfig"
    pcbuild() { # pcbuild NAME EXTRA-CC-FLAGS PKG-CONFIG-ARGS...
        local name=$1 extra=$2
        shift 2
        # shellcheck disable=SC2046,SC2086
        "$CC" $extra -o "$W/$name" "$SRC/tests/install/consumer/main.c" $(pkg-config "$@") 2>"$W/$name.err"
    }
    pcbuild pc_shared "" --cflags --libs tickscope && run "pkg-config tickscope" "$W/pc_shared" || fail "pkg-config tickscope: $(cat "$W/pc_shared.err")"
    needs "$W/pc_shared" && pass "pkg-config tickscope links libtickscope.so" || fail "pc_shared does not need libtickscope.so"
    pkg-config --static --libs tickscope | grep -q -- '-lm' && pkg-config --static --libs tickscope | grep -q -- '-pthread' &&
        pass "pkg-config --static adds what the archive needs: $(pkg-config --static --libs tickscope)" || fail "--static: $(pkg-config --static --libs tickscope)"
    if pcbuild pc_allstatic "-static" --static --cflags --libs tickscope; then
        run "-static with pkg-config --static tickscope" "$W/pc_allstatic"
        readelf -d "$W/pc_allstatic" 2>/dev/null | grep -q NEEDED && fail "-static: still dynamic" || pass "-static: a fully static program"
    else
        fail "-static link: $(cat "$W/pc_allstatic.err")"
    fi
    pcbuild pc_static "" --cflags --libs tickscope-static && run "pkg-config tickscope-static" "$W/pc_static" || fail "tickscope-static: $(cat "$W/pc_static.err")"
    needs "$W/pc_static" && fail "tickscope-static needs libtickscope.so" || pass "tickscope-static links the archive, libc stays shared"
    # Relocatable: the .pc files find the prefix from where they are.
    mv "$W/usr" "$W/moved"
    LIBDIR=${LIBDIR/$W\/usr/$W/moved}
    export PKG_CONFIG_PATH="$LIBDIR/pkgconfig"
    pcbuild pc_moved "" --cflags --libs tickscope-static && run "after moving the tree" "$W/pc_moved" || fail "moved tree: $(cat "$W/pc_moved.err")"
fi

if [ "$FAILED" -ne 0 ]; then
    echo "$FAILED check(s) failed"
    exit 1
fi
echo "all checks passed"
