#!/bin/sh
# SPDX-License-Identifier: MIT
# man/generate.sh [--check]: the man pages man/NAME.N made from their sources man/NAME.N.scd with
# scdoc. The generated pages are kept in the repository, so that `make install` installs them
# on the quick start's packages alone (scdoc is a developer's tool): after editing a .scd, run
# `sh man/generate.sh` and commit both. A page whose source did not change keeps its date.
# --check changes nothing: it says which page is missing, left over or not what scdoc makes of
# its source (the test man_generated), and exits 1 if any; 77 without scdoc.
set -u
M=$(cd "$(dirname "$0")" && pwd)
CHECK=0
case ${1:-} in --check) CHECK=1 ;; '') ;; *) echo "usage: sh man/generate.sh [--check]"; exit 2 ;; esac
if ! command -v scdoc >/dev/null; then
    echo "SKIP: scdoc is needed to make the pages from their sources (apt-get install scdoc)"
    exit 77
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/tks_man.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

# The date scdoc writes in the .TH line is SOURCE_DATE_EPOCH's, else today's.
page_date() { sed -n 's/^\.TH "[^"]*" "[^"]*" "\([0-9-]*\)".*/\1/p' "$1" | head -n1; }
# scdoc's output without its first line, which names scdoc's version.
body() { tail -n +2 "$1"; }

bad=0 n=0
for src in "$M"/*.scd; do
    page=${src%.scd}
    name=$(basename "$page")
    n=$((n + 1))
    d=$( [ -f "$page" ] && page_date "$page" )
    if [ -n "$d" ]; then
        SOURCE_DATE_EPOCH=$(date -u -d "$d" +%s) scdoc <"$src" >"$T/$name" || { bad=1; continue; }
    else
        scdoc <"$src" >"$T/$name" || { bad=1; continue; }
    fi
    body "$T/$name" >"$T/$name.body"
    if [ -f "$page" ] && body "$page" | cmp -s - "$T/$name.body"; then
        continue
    fi
    if [ $CHECK -eq 1 ]; then
        if [ -f "$page" ]; then
            echo "FAIL: man/$name is not what scdoc makes of man/$name.scd (run sh man/generate.sh):"
            body "$page" | diff - "$T/$name.body" | head -n 10
        else
            echo "FAIL: man/$name is missing (run sh man/generate.sh)"
        fi
        bad=1
    else
        # Changed: today's date (or SOURCE_DATE_EPOCH's).
        scdoc <"$src" >"$page" && echo "wrote man/$name"
    fi
done
for page in "$M"/*.[1-9]; do
    [ -e "$page" ] || continue
    if [ ! -f "$page.scd" ]; then
        echo "FAIL: man/$(basename "$page") has no source man/$(basename "$page").scd (remove it)"
        bad=1
    fi
done
[ $bad -eq 0 ] && [ $CHECK -eq 1 ] && echo "ok: the $n pages in man/ are what scdoc makes of their sources"
exit $bad
