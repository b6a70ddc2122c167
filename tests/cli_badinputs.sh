# SPDX-License-Identifier: MIT
# cli_badinputs.sh: the table of bad inputs (issue 19): each row is an exit status, a word the
# error must contain, and a command line. Every row must give exactly that status (2: usage
# error, 1: failure), one 'tickscope: error:' line naming the problem, nothing on stdout, and no
# file left behind (each runs in an empty directory, its --out and --raw pointing there).
# Usage: bash cli_badinputs.sh /path/to/tickscope
set -u
CMD=info
NAME=cli_badinputs
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"
T="$(cd "$(dirname "$T")" && pwd)/$(basename "$T")" # the rows run elsewhere
W="$D/w"          # the working directory of every row; must stay empty
mkdir -p "$W" "$D/adir"
echo "a file" >"$D/afile"
LONG=$(printf 'x%.0s' $(seq 5000))
LONGNAME=$(printf 'n%.0s' $(seq 300))
ROWS=0

# row STATUS WORD ARGS...: one line of the table.
row() {
    local want=$1 word=$2 rc errs
    shift 2
    ROWS=$((ROWS + 1))
    (cd "$W" && ${RUN_AS[@]+"${RUN_AS[@]}"} "$T" "$@" >"$D/row.out" 2>"$D/row.err")
    rc=$?
    errs=$(grep -c '^tickscope: error: ' "$D/row.err")
    local what="row $ROWS: tickscope $(printf '%q ' "$@" | cut -c1-100)"
    if [ "$rc" -ne "$want" ]; then
        fail "$what: exit $rc, expected $want: $(head -n2 "$D/row.err")"
    elif [ "$errs" -ne 1 ]; then
        fail "$what: $errs 'tickscope: error:' lines: $(head -n3 "$D/row.err")"
    elif ! grep '^tickscope: error: ' "$D/row.err" | grep -qF -- "$word"; then
        fail "$what: the error does not name the problem ('$word'): $(head -n1 "$D/row.err")"
    elif [ -s "$D/row.out" ]; then
        fail "$what: printed on stdout"
    elif [ -n "$(ls -A "$W")" ] || [ -n "$(ls -A "$D/adir")" ]; then
        fail "$what: left files behind: $(ls -A "$W" "$D/adir")"
        rm -rf "${W:?}"/* "${W:?}"/.[!.]* "$D/adir"/* 2>/dev/null
    else
        pass "$what: exit $rc, $(grep '^tickscope: error: ' "$D/row.err" | cut -c1-110)"
    fi
}

# ---- commands and options that do not exist
row 2 "unknown command 'bogus'" bogus
row 2 "unknown command ''" ""
row 2 "unknown command '--bogus'" --bogus
row 2 "unknown option '--bogus'" info --bogus
row 2 "unknown option '--json=yes'" info --json=yes
row 2 "unknown option '-" info "-$LONG"
row 2 "unexpected argument 'extra'" methods extra
row 2 "version takes no arguments" version extra
row 2 "unknown option" validate --ensemble 5
row 2 "--raw" info --raw x.csv
# ---- numbers: negative, zero, huge, not numbers, unit typos, empty, very long
row 2 "--tsc-hz" info --tsc-hz 0
row 2 "--tsc-hz" info --tsc-hz -2.3GHz
row 2 "--tsc-hz" info --tsc-hz 1e99
row 2 "--tsc-hz" info --tsc-hz fast
row 2 "--tsc-hz" info --tsc-hz 2.3GHzz
row 2 "unknown option 'GHz'" info --tsc-hz 2.3 GHz
row 2 "--tsc-hz" info --tsc-hz 2.3KHzGHz
row 2 "--tsc-hz" info --tsc-hz ""
row 2 "--tsc-hz" info --tsc-hz NaN
row 2 "--tsc-hz" info --tsc-hz inf
row 2 "--tsc-hz" info --tsc-hz "9$LONG"
row 2 "--tsc-hz" info --tsc-hz
row 2 "--pin" info --pin -1
row 2 "--pin" info --pin 99999
row 2 "--pin" info --pin one
row 2 "--pin" info --pin ""
row 2 "--pin" info --pin 1.5
row 2 "--ensembles" validate --ensembles 0
row 2 "--ensembles" validate --ensembles -5
row 2 "--ensembles" validate --ensembles 1e99
row 2 "--ensembles" validate --ensembles ten
row 2 "--ensembles" validate --ensembles 18446744073709551617
row 2 "--samples" validate --samples 0
row 2 "--samples" validate --samples 99999999999
row 2 "--samples" validate --samples 1k
row 2 "--budget" validate --budget -1
row 2 "--budget" validate --budget 1e99
row 2 "--budget" validate --budget soon
row 2 "--budget" validate --budget ""
row 2 "--max" resolution --max 0
row 2 "--max" resolution --max 201
row 2 "--max" resolution --max -1
row 2 "--samples" resolution --samples x
row 2 "--own" validate --own sideways
row 2 "--own goes with --kernel" resolution --own preempt
# ---- methods
row 2 "unknown method 'warp'" validate --method warp
row 2 "empty method name" validate --method lfence,,rdtsc
row 2 "empty method name" validate --method lfence,
row 2 "empty method name" validate --method ,
row 2 "empty method name" validate --method ""
row 2 "unknown method 'LFENCE'" validate --method LFENCE
row 2 "takes one method" resolution --method lfence,rdtsc
row 2 "unknown method 'warp'" resolution --method warp
# ---- paths that are not there or are empty
row 2 "--root" info --root /nonexistent
row 2 "--root" info --root "$D/afile"
row 2 "--root" info --root ""
row 2 "--out" info --out ""
row 2 "--raw" validate --raw ""
row 2 "--plot" validate --plot ""
row 2 "--plot" resolution --plot ""
row 2 "--kernel-device" validate --kernel-device ""
# ---- outputs that cannot be written: refused before measuring (exit 1, the real cause)
row 1 "No such file or directory" info --out "$D/missing/dir/x.json"
row 1 "Is a directory" info --out "$D/adir"
row 1 "Is a directory" info --out "$D/adir/"
row 1 "Not a directory" info --out "$D/afile/x.json"
row 1 "File name too long" info --out "$D/$LONGNAME.json"
row 1 "No such file or directory" validate --raw "$D/missing/x.csv"
row 1 "Is a directory" validate --out "$D/adir"
row 1 "Is a directory" resolution --raw "$D/adir"
row 1 "Is a directory" resolution --out .
if [ -c /dev/full ]; then
    row 1 "No space left on device" info --out /dev/full
else
    skip "the full-device row: /dev/full is not a character device here"
fi
# A read-only directory: as root, through an unprivileged user (root writes anywhere).
chmod 555 "$D/adir"
if unprivileged; then
    row 1 "Permission denied" info --out "$D/adir/x.json"
    privileged
fi
chmod 755 "$D/adir"

[ "$ROWS" -ge 50 ] && pass "$ROWS bad inputs" || fail "only $ROWS rows: the table must hold at least 50"
no_temps table
finish
