#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# man_install.sh: `cmake --install` into a temporary prefix puts the page of every man/*.scd in
# share/man/manN (no scdoc needed: the pages are kept in man/) and the bash completion in share/bash-completion; then `man tickscope` (and each
# command's page) works with MANPATH pointing there.
B=${1:?usage: man_install.sh BUILD_DIR SOURCE_DIR}
S=${2:?}
command -v man >/dev/null || { echo "SKIP: man is needed to read them (apt-get install man-db)"; exit 77; }
D=$(mktemp -d "${TMPDIR:-/tmp}/tks_maninst.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }

cmake --install "$B" --prefix "$D/p" >"$D/install.log" 2>&1 || { cat "$D/install.log"; fail "cmake --install"; exit 1; }
n=0
for src in "$S"/man/*.scd; do
    page=$(basename "$src" .scd)
    sec=${page##*.}
    if [ -s "$D/p/share/man/man$sec/$page" ]; then n=$((n + 1)); else fail "$page not installed in share/man/man$sec"; fi
done
echo "ok: $n pages installed"
[ -s "$D/p/share/bash-completion/completions/tickscope" ] || fail "bash completion not installed"
[ -s "$D/p/share/zsh/site-functions/_tickscope" ] || fail "zsh completion not installed"

export MANPATH="$D/p/share/man" MANPAGER=cat PAGER=cat MANWIDTH=100 LC_ALL=C.UTF-8
where=$(man -w tickscope 2>&1)
case $where in "$D"/*) echo "ok: man -w tickscope: $where" ;; *) fail "man -w tickscope gave '$where'" ;; esac
man tickscope >"$D/t.txt" 2>"$D/t.err" || fail "man tickscope: $(cat "$D/t.err")"
grep -q '^NAME' "$D/t.txt" && grep -q 'tickscope - measure clock cycles' "$D/t.txt" ||
    fail "man tickscope does not show the NAME section"
for src in "$S"/man/tickscope-*.scd; do
    page=$(basename "$src" .scd)
    man "${page##*.}" "${page%.*}" >"$D/p.txt" 2>&1 && grep -q "^NAME" "$D/p.txt" ||
        fail "man ${page##*.} ${page%.*}: $(head -3 "$D/p.txt")"
done
man 1 tickscope-validate | grep -q -- '--no-chain' || fail "man tickscope-validate lacks --no-chain"
man 3 tickscope-bench | grep -q 'TKS_MEASURE' || fail "man 3 tickscope-bench lacks TKS_MEASURE"
man 3 tickscope-region | grep -q 'TKS_REGION_BEGIN' || fail "man 3 tickscope-region lacks TKS_REGION_BEGIN"
man 3 tickscope-region | grep -q 'PERFSTART' || fail "man 3 tickscope-region lacks the IAPerf macros"
[ $FAILED -eq 0 ] && echo "ok: man tickscope and every command's page render from the prefix"
exit $FAILED
