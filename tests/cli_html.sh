# SPDX-License-Identifier: MIT
# cli_html.sh: the --html pages in a real browser. A benchmark program's run, `tickscope compare`,
# `tickscope sys` (the call staircase, the memory curve with its knees) and `asm --table` each
# write their page beside their JSON in one run; Debian's Chromium, headless, loads each page and
# leaves the DOM after its scripts ran: no console message, every <svg> drawn, nothing fetched,
# the numbers on the page equal to the JSON's (tests/html_check.py). A page with a script error
# shows that the console check sees one. Short runs: structure, never timing.
# Usage: bash cli_html.sh /path/to/tickscope
set -u

CMD=html
NAME=cli_html
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"
B="$(dirname "$T")/tests/tks_bench_prog"
CHECK="$(dirname "$0")/html_check.py"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "SKIP: chromium is not installed (Debian package chromium)"; exit 77; }
export HOME="$D/home" # Chromium's profile and crash dumps stay in the temporary directory
mkdir -p "$HOME"

# browse NAME: $D/NAME.html loaded headless, the DOM after its scripts in $D/NAME.dom, the
# browser's log in $D/NAME.log. Run in the background: each start takes seconds.
browse() {
    timeout 180 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$HOME/$1" --enable-logging=stderr --v=0 \
        --dump-dom "file://$D/$1.html" >"$D/$1.dom" 2>"$D/$1.log"
}

# ---- the pages, each with the JSON of the same run
runb bench --filter '^(add40|empty)$' --min-time 0.05 --repetitions 2 --format json --out "$D/bench.json" \
    --html "$D/bench.html"
[ "$RC" -eq 0 ] || fail "bench --html: exit $RC: $(cat "$D/bench.err")"
runb bench2 --filter '^(add40|empty)$' --min-time 0.05 --repetitions 2 --format json --out "$D/bench2.json"
run compare compare "$D/bench.json" "$D/bench2.json" --json --out "$D/compare.json" --html "$D/compare.html"
[ "$RC" -eq 0 ] || fail "compare --html: exit $RC: $(cat "$D/compare.err")"
run sys sys cpu mem --quick --only call_0,call_1,call_2,call_3,call_7,curve --max-set 4M --no-huge \
    --json --out "$D/sys.json" --html "$D/sys.html"
[ "$RC" -eq 0 ] || fail "sys --html: exit $RC: $(cat "$D/sys.err")"
printf 'add r64 | latency | add {r}, 1\nimul r64 | throughput | imul {r}, {r}\n' >"$D/forms.tbl"
# The table's snippets are x86-64 instructions, assembled by as: the page of another target's
# build, or without as, is skipped (said so), the other pages checked.
arch=${TKS_TARGET_ARCH:-$(uname -m)}
if [ "$arch" != x86_64 ]; then
    skip "hardware: the asm page: its snippets are x86-64 instructions; this build is for $arch"
elif ! command -v as >/dev/null; then
    skip "the asm page: as is needed to assemble the snippets (Debian package binutils)"
else
    run asm asm --table "$D/forms.tbl" --json --out "$D/asm.json" --html "$D/asm.html"
    [ "$RC" -eq 0 ] || fail "asm --table --html: exit $RC: $(cat "$D/asm.err")"
    WANT_ASM=asm
fi
printf '<!DOCTYPE html><html><body><script>no_such_function();</script></body></html>\n' >"$D/broken.html"

# Every page asked for above must be there to be browsed: one never written is a failure, not a
# page left out of the checks.
pages="broken"
for k in bench compare sys ${WANT_ASM:-}; do
    if [ -s "$D/$k.html" ]; then
        pages="$pages $k"
    else
        fail "$k: --html wrote no page ($D/$k.html)"
    fi
done
for k in $pages; do browse "$k" & done
wait

if grep -q ':CONSOLE' "$D/broken.log"; then
    pass "a script error shows in the browser's log (the check below can fail)"
else
    fail "the browser logged no console message for a script error: $(tail -3 "$D/broken.log")"
fi
for k in $pages; do
    [ "$k" = broken ] && continue
    if [ ! -s "$D/$k.dom" ]; then
        fail "$k: chromium left no DOM: $(grep -v dbus "$D/$k.log" | tail -3)"
        continue
    fi
    if grep ':CONSOLE' "$D/$k.log"; then
        fail "$k: the page logged to the console (above)"
    fi
    python3 "$CHECK" "$k" "$D/$k.dom" "$D/$k.json" || fail "$k: the page against its JSON (above)"
done

# ---- where there is no page
run noh info --html "$D/x.html"
if [ "$RC" -eq 2 ] && grep -q "^tickscope: error: --html: info has no HTML page" "$D/noh.err"; then
    pass "info --html: a usage error naming the formats"
else
    fail "info --html: exit $RC: $(cat "$D/noh.err")"
fi
run full sys cpu --quick --only call_0 --html /dev/full
if [ "$RC" -eq 1 ] && grep -q "cannot write '/dev/full': No space left on device" "$D/full.err"; then
    pass "sys --html /dev/full: the cause named"
else
    fail "sys --html /dev/full: exit $RC: $(cat "$D/full.err")"
fi
finish
