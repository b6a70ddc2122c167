# SPDX-License-Identifier: MIT
# make_settings.sh: the Makefile honours what is given on each call, whatever an earlier call
# configured: `make install PREFIX=B` after a configure with PREFIX=A installs into B, and
# `make ci` builds with -DTKS_WERROR=ON in build directories of its own. Builds the library and
# the command once (no tests, benchmarks or examples) in a temporary directory.
# Usage: bash make_settings.sh SOURCE_DIR
set -u
SRC=$1
command -v make >/dev/null || { echo "SKIP: make is not installed (Debian package make)"; exit 77; }
W=$(mktemp -d "${TMPDIR:-/tmp}/tks_make.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
FAILED=0
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
pass() { echo "ok: $*"; }
LEAN="-DTKS_BUILD_TESTS=OFF -DTKS_BUILD_BENCH=OFF -DTKS_BUILD_EXAMPLES=OFF"
unset MAKEFLAGS MAKELEVEL

make -C "$SRC" configure BUILD="$W/b" PREFIX="$W/first" CMAKE_FLAGS="$LEAN" >"$W/log" 2>&1 ||
    { tail -20 "$W/log"; fail "configure"; }
make -C "$SRC" install BUILD="$W/b" PREFIX="$W/second" JOBS=2 CMAKE_FLAGS="$LEAN" >>"$W/log" 2>&1 ||
    { tail -20 "$W/log"; fail "make install"; }
if [ -x "$W/second/bin/tickscope" ] && [ ! -e "$W/first" ]; then
    pass "make install PREFIX=second after a configure with PREFIX=first installs into second"
else
    fail "make install PREFIX: $(find "$W" -maxdepth 2 -name bin)"
fi
[ -n "$(find "$W/second" -name tickscope.pc)" ] && pass "tickscope.pc installed" || fail "no tickscope.pc"

# make ci: what it would run (make -n runs the sub-makes in -n mode too).
make -C "$SRC" -n ci BUILD="$W/b" >"$W/ci.txt" 2>&1
for dir in build-ci build-ci-asan; do
    if grep -E -- "-B $dir( |$)" "$W/ci.txt" | grep -q -- "-DTKS_WERROR=ON"; then
        pass "make ci configures $dir with -DTKS_WERROR=ON"
    else
        fail "make ci: no configure of $dir with -DTKS_WERROR=ON: $(grep -- '-B ' "$W/ci.txt")"
    fi
done
grep -q -- "-B $W/b " "$W/ci.txt" && fail "make ci touched BUILD=$W/b" || pass "make ci leaves the user's build directory alone"

if [ "$FAILED" -ne 0 ]; then
    echo "$FAILED check(s) failed"
    exit 1
fi
echo "all checks passed"
