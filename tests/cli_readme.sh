# SPDX-License-Identifier: MIT
# cli_readme.sh: every program the documents tell a user to run (./build/...) is one the build
# makes, so that following them in order never meets a missing file (the README once ran
# ./strlen_bench). The documents: README.md, docs/*.md and every other README.md of the tree.
# Usage: bash cli_readme.sh /path/to/tickscope (its directory is the build the documents call build/)
set -u
T=${1:?usage: bash $0 /path/to/tickscope}
SRC="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="$(dirname "$T")"
FAILED=0 n=0
# Paths relative to the tree, so that where the checkout lives (a parent named build-1234, a
# path with spaces) changes nothing; build directories inside the tree (build, build-asan, ...)
# are left out: they hold no documents of ours.
docs=()
while IFS= read -r -d '' f; do
    docs+=("$SRC/${f#./}")
done < <(cd "$SRC" && find . -path './build*' -prune -o -path './.git' -prune -o \
    \( -name README.md -o -path './docs/*.md' \) -type f -print0 | sort -z)
[ "${#docs[@]}" -gt 1 ] || { echo "FAIL: found ${#docs[@]} document(s) under $SRC"; exit 1; }
echo "reading ${#docs[@]} documents"
while IFS= read -r path; do
    rel=${path#./build/}
    n=$((n + 1))
    case "$rel" in
    bench/*) [ -d "$BUILD/bench" ] || continue ;;       # built only with TKS_BUILD_BENCH
    examples/*) [ -d "$BUILD/examples" ] || continue ;; # and TKS_BUILD_EXAMPLES
    esac
    if [ -x "$BUILD/$rel" ]; then
        echo "ok: $path"
    else
        echo "FAIL: $path is named in a document but the build has no such program"
        FAILED=$((FAILED + 1))
    fi
done < <(grep -ohE '\./build/[A-Za-z0-9_/.-]*[A-Za-z0-9_]' "${docs[@]}" | sort -u)
[ "$n" -gt 0 ] || { echo "FAIL: no ./build/ path found in the documents"; exit 1; }
# Programs named bare, as the old README's ./strlen_bench was: they exist nowhere.
bare=$(grep -ohE '(^|[ `$])\./[a-z_]+_bench\b' "${docs[@]}" | sort -u)
[ -z "$bare" ] || { echo "FAIL: documents run programs that do not exist: $bare"; FAILED=$((FAILED + 1)); }
if [ "$FAILED" -ne 0 ]; then
    echo "$FAILED check(s) failed"
    exit 1
fi
echo "all $n paths exist"
