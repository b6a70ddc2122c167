# cli_tour.sh: `tickscope` with no arguments characterises the machine and ends with a verdict.
# It measures for a few seconds, so it is a test of its own. Usage: bash cli_tour.sh /path/to/tickscope
set -u

T=${1:?usage: cli_tour.sh /path/to/tickscope}
[ -x "$T" ] || { echo "FAIL: '$T' is not an executable"; exit 1; }
D=$(mktemp -d "${TMPDIR:-/tmp}/tks_cli_tour.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT

"$T" >"$D/out" 2>"$D/err"
RC=$?
FAILED=0
if [ "$RC" -ne 0 ]; then
    echo "FAIL: tickscope (the tour) exited $RC: $(cat "$D/err")"
    FAILED=1
fi
for want in '^== 1\. validate' '^Recommended: ' '^== 2\. resolution' '^Verdict: '; do
    grep -q "$want" "$D/out" || { echo "FAIL: the tour printed no line matching '$want'"; FAILED=1; }
done
if [ "$FAILED" -ne 0 ]; then
    cat "$D/out"
    exit 1
fi
grep '^Verdict: ' "$D/out" | cut -c1-160
echo "all checks passed"
