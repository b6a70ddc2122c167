# SPDX-License-Identifier: MIT
# cli_tour.sh: `tickscope` with no arguments characterises the machine and ends with a verdict.
# It measures for a few seconds, so it is a test of its own. Usage: bash cli_tour.sh /path/to/tickscope
set -u

CMD=
NAME=cli_tour
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"

run tour
if [ "$RC" -ne 0 ]; then
    fail "tickscope (the tour) exited $RC: $(cat "$D/tour.err")"
fi
for want in '^== 1\. info' '^TSC: ' '^One TSC tick = ' '^== 2\. validate' '^Recommended: ' \
    '^== 3\. resolution' '^One dependent add costs ' '^Verdict: '; do
    grep -q "$want" "$D/tour.out" || fail "the tour printed no line matching '$want'"
done
[ "$FAILED" -eq 0 ] && grep '^Verdict: ' "$D/tour.out" | cut -c1-160
[ "$FAILED" -eq 0 ] || cat "$D/tour.out"
finish
