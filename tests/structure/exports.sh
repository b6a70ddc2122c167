#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# exports.sh SOURCE_DIR LIBTICKSCOPE_SO: the shared library exports exactly the functions and
# variables the public headers declare with TKS_API, nothing internal and nothing missing.
set -u
root=${1:?usage: exports.sh SOURCE_DIR LIBTICKSCOPE_SO}
so=${2:?usage: exports.sh SOURCE_DIR LIBTICKSCOPE_SO}
command -v nm >/dev/null || { echo "SKIP: nm (binutils) is not installed"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tks_exports.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# Names starting with two underscores are the toolchain's (AddressSanitizer's __odr_asan.*).
nm -D --defined-only "$so" | awk '$2 ~ /^[TDBV]$/ && $3 !~ /^__/ {print $3}' | sort -u >"$tmp/exported"
# A TKS_API declaration names its symbol right before its '(' (functions) or ';' (variables);
# comments and the macro's own definition are left out first.
command -v cc >/dev/null || { echo "SKIP: a C compiler (cc) is needed to strip the headers' comments"; exit 77; }
for h in "$root"/include/tickscope/*.h; do
    cc -fpreprocessed -dD -E -P -x c "$h" 2>/dev/null
done | grep -v '^#' | tr '\n' ' ' | grep -o 'TKS_API [^;(]*[(;]' |
    sed -E 's/[[:space:]]*[(;]$//; s/.*[^A-Za-z0-9_]//' | sort -u >"$tmp/declared"
status=0
if ! [ -s "$tmp/exported" ]; then
    echo "FAIL: $so exports nothing"
    exit 1
fi
while IFS= read -r s; do
    echo "FAIL: $s is exported but no public header declares it TKS_API"
    status=1
done < <(comm -23 "$tmp/exported" "$tmp/declared")
while IFS= read -r s; do
    echo "FAIL: $s is declared TKS_API but not exported"
    status=1
done < <(comm -13 "$tmp/exported" "$tmp/declared")
echo "$(wc -l <"$tmp/exported") symbols exported, $(wc -l <"$tmp/declared") declared TKS_API"
exit $status
