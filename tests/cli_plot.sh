# SPDX-License-Identifier: MIT
# cli_plot.sh: `--plot DIR` of `tickscope validate` and `tickscope resolution` as a user meets it:
# each figure's .dat and .gp under the expected names (the data with the right rows), SVGs when
# gnuplot is installed and a note saying how to render later when it is not, never a failure for
# that; a directory that cannot be written fails at once with one line; no temporaries anywhere.
# Structure only, small counts. Usage: bash cli_plot.sh /path/to/tickscope
set -u

CMD=validate
NAME=cli_plot
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"

SMALL="--ensembles 3 --samples 200 --budget 0.05 --no-chain"
HAVE_GNUPLOT=0
command -v gnuplot >/dev/null 2>&1 && HAVE_GNUPLOT=1
[ "$HAVE_GNUPLOT" -eq 1 ] || skip "the SVG checks: gnuplot is not installed (apt-get install gnuplot-nox)"

# expect_failure NAME ARGS...: exit 1 with exactly one line, "tickscope: error: ...", on stderr.
expect_failure() {
    local name=$1
    shift
    run "$name" "$@"
    if [ "$RC" -ne 1 ]; then
        fail "$name: exit $RC, expected 1 for: $*"
    elif [ "$(wc -l <"$D/$name.err")" -ne 1 ] || ! grep -q '^tickscope: error: ' "$D/$name.err"; then
        fail "$name: expected one 'tickscope: error:' line on stderr, got: $(cat "$D/$name.err")"
    else
        pass "$name: exit 1, '$(cat "$D/$name.err")'"
    fi
}

# check_figure LABEL DIR NAME ROWS COLS: NAME.dat (a '#' header, then ROWS rows of COLS numbers;
# ROWS empty: at least one) and NAME.gp (writing NAME.svg from NAME.dat); NAME.svg an SVG when
# gnuplot is installed.
check_figure() {
    local label=$1 dir=$2 name=$3 rows=$4 cols=$5 got
    if [ ! -s "$dir/$name.dat" ] || [ ! -s "$dir/$name.gp" ]; then
        fail "$label: $name.dat or $name.gp missing in $dir: $(ls "$dir" | tr '\n' ' ')"
        return
    fi
    head -n1 "$dir/$name.dat" | grep -q '^#' || fail "$label: $name.dat does not start with a '#' header"
    got=$(awk -v cols="$cols" 'NR > 1 && !/^#/ {
              n++
              if (NF != cols) bad = bad " row " n " has " NF " columns;"
              for (i = 1; i <= NF; i++) if ($i !~ /^(-?[0-9.e+-]+|NaN)$/) bad = bad " row " n " field " i " is " $i ";"
          } END { print n + 0 "|" bad }' "$dir/$name.dat")
    if [ -n "${got#*|}" ]; then
        fail "$label: $name.dat:${got#*|}"
    elif [ -n "$rows" ] && [ "${got%%|*}" -ne "$rows" ]; then
        fail "$label: $name.dat has ${got%%|*} rows, expected $rows"
    elif [ "${got%%|*}" -lt 1 ]; then
        fail "$label: $name.dat has no rows"
    fi
    grep -qF "set output '$name.svg'" "$dir/$name.gp" || fail "$label: $name.gp does not write $name.svg"
    grep -qF "'$name.dat'" "$dir/$name.gp" || fail "$label: $name.gp does not read $name.dat"
    grep -qF "set terminal svg" "$dir/$name.gp" || fail "$label: $name.gp does not set the svg terminal"
    if [ "$HAVE_GNUPLOT" -eq 1 ]; then
        if [ ! -s "$dir/$name.svg" ]; then
            fail "$label: $name.svg was not rendered"
        elif ! head -c 200 "$dir/$name.svg" | grep -Eq '^(<\?xml|<svg)'; then
            fail "$label: $name.svg is not an SVG: $(head -c 80 "$dir/$name.svg")"
        fi
    fi
}

# ---- validate --plot: for every method measured, its ensembles and its histogram, in a directory
# that did not exist (nor did its parent)
P="$D/plots/validate/new"
run vplot validate $SMALL --json --out "$D/v.json" --plot "$P"
if [ "$RC" -ne 0 ]; then
    fail "vplot: exit $RC: $(cat "$D/vplot.err")"
else
    methods=$(python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
print(" ".join(m["name"] for m in doc["methods"] if m.get("available") and "error" not in m))' "$D/v.json")
    n=0
    for m in $methods; do
        check_figure vplot "$P" "validate-$m-ensembles" 3 7
        check_figure vplot "$P" "validate-$m-histogram" "" 4
        n=$((n + 2))
    done
    [ "$n" -gt 0 ] || fail "vplot: no method was measured"
    if [ "$HAVE_GNUPLOT" -eq 1 ]; then
        grep -qxF "tickscope: note: rendered $n plots to $P/*.svg" "$D/vplot.err" ||
            fail "vplot: no 'rendered $n plots' note: $(cat "$D/vplot.err")"
    else
        grep -qF "gnuplot is not installed" "$D/vplot.err" || fail "vplot: no note that gnuplot is missing"
    fi
    pass "vplot: exit 0, $n figures for: $methods"
fi
FIRST=$(echo "${methods:-}" | awk '{print $1}')
no_temps vplot

# ---- no gnuplot on PATH: still exit 0, with a note on how to render later; --quiet: no note
if [ -n "$FIRST" ]; then
    mkdir -p "$D/emptybin"
    P="$D/plots/nognuplot"
    PATH="$D/emptybin" run nognuplot validate $SMALL --method "$FIRST" --plot "$P"
    if [ "$RC" -ne 0 ]; then
        fail "nognuplot: exit $RC: $(cat "$D/nognuplot.err")"
    elif ! grep -qxF "tickscope: note: gnuplot is not installed (apt-get install gnuplot-nox); render later with: cd $P && gnuplot *.gp" "$D/nognuplot.err"; then
        fail "nognuplot: no note saying how to render later: $(cat "$D/nognuplot.err")"
    elif ls "$P"/*.svg >/dev/null 2>&1; then
        fail "nognuplot: SVGs appeared without gnuplot"
    else
        HAVE_GNUPLOT=0 check_figure nognuplot "$P" "validate-$FIRST-ensembles" 3 7
        pass "nognuplot: exit 0, '$(cat "$D/nognuplot.err")'"
    fi
    no_temps nognuplot

    PATH="$D/emptybin" run quiet validate $SMALL --method "$FIRST" --plot "$D/plots/quiet" --quiet
    if [ "$RC" -ne 0 ] || [ -s "$D/quiet.err" ]; then
        fail "quiet: exit $RC, stderr: $(cat "$D/quiet.err")"
    else
        pass "quiet: exit 0, nothing on stderr"
    fi
fi

# ---- resolution --plot: the staircase and the ensembles, one row per n = 0..MAX
# (with the default method the CPU's features say, which tickscope must mark: tests/cpu_truth.h)
truth_default_method
if [ -n "$M" ]; then
    MAX=5
    P="$D/plots/resolution"
    run rplot resolution --method "$M" --max $MAX --samples 200 --plot "$P"
    if [ "$RC" -ne 0 ]; then
        fail "rplot: exit $RC: $(cat "$D/rplot.err")"
    else
        check_figure rplot "$P" resolution-$M $((MAX + 1)) 4
        check_figure rplot "$P" resolution-$M-ensembles $((MAX + 1)) 7
        ns=$(awk 'NR > 1 {printf "%s ", $1}' "$P/resolution-$M.dat")
        [ "$ns" = "0 1 2 3 4 5 " ] || fail "rplot: work column is '$ns', expected 0..$MAX"
        ns=$(awk 'NR > 1 {printf "%s ", $2}' "$P/resolution-$M-ensembles.dat")
        [ "$ns" = "0 1 2 3 4 5 " ] || fail "rplot: ensembles' work column is '$ns', expected 0..$MAX"
        grep -q "slope .* intercept" "$P/resolution-$M.gp" || fail "rplot: no fitted line in the script"
        if [ "$HAVE_GNUPLOT" -eq 1 ]; then
            grep -qxF "tickscope: note: rendered 2 plots to $P/*.svg" "$D/rplot.err" ||
                fail "rplot: no 'rendered 2 plots' note: $(cat "$D/rplot.err")"
        fi
        pass "rplot: exit 0, $(ls "$P" | tr '\n' ' ')"
    fi
    no_temps rplot
else
    fail "resolution --plot: not run, the default method is not the CPU's (above)"
fi

# ---- a --plot directory that cannot be written: exit 1 at once, one line, nothing created
: >"$D/afile"
expect_failure plot_isfile validate $SMALL --out "$D/pf.json" --plot "$D/afile"
grep -qF "$D/afile" "$D/plot_isfile.err" || fail "plot_isfile: the error does not name the directory"
[ -e "$D/pf.json" ] && fail "plot_isfile: the --out file was created although --plot failed"
no_temps plot_isfile

expect_failure plot_underfile validate $SMALL --raw "$D/pu.csv" --plot "$D/afile/sub/dir"
[ -e "$D/pu.csv" ] && fail "plot_underfile: the --raw file was created although --plot failed"
no_temps plot_underfile

expect_failure rplot_underfile resolution --max 2 --samples 200 --out "$D/ru.json" --plot "$D/afile/sub"
[ -e "$D/ru.json" ] && fail "rplot_underfile: the --out file was created although --plot failed"
no_temps rplot_underfile

# A read-only directory (as nobody when root, who writes anywhere): refused, nothing created.
if unprivileged; then
    mkdir "$U/ro" && chmod 555 "$U/ro"
    expect_failure plot_readonly validate $SMALL --plot "$U/ro"
    grep -F "$U/ro" "$D/plot_readonly.err" | grep -q "Permission denied" ||
        fail "plot_readonly: the error does not name $U/ro and 'Permission denied'"
    [ -z "$(ls -A "$U/ro")" ] || fail "plot_readonly: files appeared in the read-only directory"
    expect_failure plot_readonly_sub validate $SMALL --plot "$U/ro/sub"
    grep -F "$U/ro/sub" "$D/plot_readonly_sub.err" | grep -q "Permission denied" ||
        fail "plot_readonly_sub: the error does not name $U/ro/sub and 'Permission denied'"
    [ -z "$(ls -A "$U/ro")" ] || fail "plot_readonly_sub: files appeared in the read-only directory"
    no_temps plot_readonly
    privileged
fi

# ---- usage errors
expect_usage plot_missing "--plot" --plot
expect_usage plot_empty "--plot" --plot=
CMD=resolution
expect_usage rplot_missing "--plot" --plot

for cmd in validate resolution; do
    run "help_$cmd" "$cmd" --help
    grep -q -- '--plot DIR' "$D/help_$cmd.out" || fail "help_$cmd: --plot is not in 'tickscope $cmd --help'"
done

finish
