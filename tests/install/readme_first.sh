#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# readme_first.sh: the README's "Your first benchmark", followed to the letter against a
# temporary install: its make install line, its bm_sum.c, its pkg-config build (with the rpath)
# and its CMake build, each program run. HOME is a temporary directory, so the README's
# $HOME/.local is too; a program run is given --min-time 0.05 to be quick; LD_LIBRARY_PATH is
# unset, so what finds the library is what the README says. The same pkg-config build without
# the rpath must fail to start, as the README warns.
# Usage: bash readme_first.sh BUILD_DIR SOURCE_DIR CC
set -u
B=${1:?usage: readme_first.sh BUILD_DIR SOURCE_DIR CC}
S=${2:?}
CC=${3:?}
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config is not installed (Debian package pkgconf)"; exit 77; }
W=$(mktemp -d "${TMPDIR:-/tmp}/tks_readme.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
FAILED=0
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
pass() { echo "ok: $*"; }
unset LD_LIBRARY_PATH PKG_CONFIG_PATH

# block LANG N: the Nth fenced block of language LANG in the README's "Your first benchmark".
block() {
    awk -v lang="$1" -v want="$2" '
        /^## / { in_sec = ($0 == "## Your first benchmark") }
        in_sec && /^```/ { if (inside) { inside = 0; next } if ($0 == "```" lang) { n++; inside = (n == want) } ; next }
        in_sec && inside { print }' "$S/README.md"
}

install_line=$(block sh 1)
[ "$install_line" = 'make install PREFIX=$HOME/.local' ] && pass "README installs with: $install_line" ||
    fail "the README's first shell block is '$install_line', not the make install this test stands in for"
export HOME="$W/home"
cmake --install "$B" --prefix "$HOME/.local" >"$W/install.log" 2>&1 || { cat "$W/install.log"; fail "cmake --install"; exit 1; }

mkdir -p "$W/pc" "$W/cm"
block c 1 >"$W/pc/bm_sum.c"
cp "$W/pc/bm_sum.c" "$W/cm/bm_sum.c"
block cmake 1 >"$W/cm/CMakeLists.txt"
[ -s "$W/pc/bm_sum.c" ] && [ -s "$W/cm/CMakeLists.txt" ] || { fail "no C or CMake block in the README's first benchmark"; exit 1; }

# run_block DIR N: the README's Nth shell block, run in DIR with `cc` as CC, each line that runs
# a program given --min-time 0.05.
run_block() {
    local dir=$1 n=$2
    block sh "$n" | sed -E 's#^(\./[A-Za-z0-9_/]*bm_sum)$#\1 --min-time 0.05#' >"$dir/steps.sh"
    grep -q -- '--min-time' "$dir/steps.sh" || { fail "shell block $n runs no bm_sum"; return 1; }
    (cd "$dir" && cc() { "$CC" "$@"; } && export -f cc && CC="$CC" bash -e steps.sh) >"$dir/run.log" 2>&1
}
if run_block "$W/pc" 2 && grep -q '^bm_sum/10 ' "$W/pc/run.log" && grep -q '^bm_sum/1000 ' "$W/pc/run.log"; then
    pass "pkg-config build with the rpath runs: $(grep -c '^bm_sum/' "$W/pc/run.log") rows"
else
    fail "pkg-config build: $(tail -5 "$W/pc/run.log")"
fi
# Without the rpath it stops at start, as the README says.
(cd "$W/pc" && PKG_CONFIG_PATH=$(grep -o 'PKG_CONFIG_PATH=.*' steps.sh | cut -d= -f2 | sed "s#\$HOME#$HOME#") &&
    export PKG_CONFIG_PATH && "$CC" -O2 -o bm_norpath bm_sum.c $(pkg-config --cflags --libs tickscope) &&
    ./bm_norpath --min-time 0.01) >"$W/norpath.out" 2>&1
if grep -q 'libtickscope.so.0: cannot open shared object file' "$W/norpath.out"; then
    pass "without the rpath: $(grep -o 'libtickscope.so.0: cannot open shared object file' "$W/norpath.out")"
else
    fail "without the rpath the program did not fail as the README says: $(tail -3 "$W/norpath.out")"
fi
if CC="$CC" run_block "$W/cm" 3 && grep -q '^bm_sum/10 ' "$W/cm/run.log"; then
    pass "CMake build runs: $(grep -c '^bm_sum/' "$W/cm/run.log") rows"
else
    fail "CMake build: $(tail -5 "$W/cm/run.log")"
fi
[ "$FAILED" -eq 0 ] && echo "all checks passed"
exit $((FAILED != 0))
