# cli_readme.sh: every program the READMEs tell a user to run (./build/...) is one the build makes,
# so that following the README in order never meets a missing file (it once ran ./strlen_bench).
# Usage: bash cli_readme.sh /path/to/tickscope (its directory is the build the README calls build/)
set -u
T=${1:?usage: bash $0 /path/to/tickscope}
SRC="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="$(dirname "$T")"
FAILED=0 n=0
docs=$(find "$SRC" -name README.md -not -path '*/build*' | sort)
for path in $(grep -ohE '\./build/[A-Za-z0-9_/.-]*[A-Za-z0-9_]' $docs | sort -u); do
    rel=${path#./build/}
    n=$((n + 1))
    case "$rel" in
    bench/*) [ -d "$BUILD/bench" ] || continue ;;       # built only with TKS_BUILD_BENCH
    examples/*) [ -d "$BUILD/examples" ] || continue ;; # and TKS_BUILD_EXAMPLES
    esac
    if [ -x "$BUILD/$rel" ]; then
        echo "ok: $path"
    else
        echo "FAIL: $path is named in a README but the build has no such program"
        FAILED=$((FAILED + 1))
    fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no ./build/ path found in the READMEs"; exit 1; }
# Programs named bare, as the old README's ./strlen_bench was: they exist nowhere.
bare=$(grep -ohE '(^|[ `$])\./[a-z_]+_bench\b' $docs | sort -u)
[ -z "$bare" ] || { echo "FAIL: READMEs run programs that do not exist: $bare"; FAILED=$((FAILED + 1)); }
if [ "$FAILED" -ne 0 ]; then
    echo "$FAILED check(s) failed"
    exit 1
fi
echo "all $n paths exist"
