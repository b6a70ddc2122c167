#!/usr/bin/env bash
# completion_bash.sh: drives _tickscope (completion/tickscope.bash) as bash would, through
# COMP_WORDS and COMP_CWORD, and checks the candidates against what tickscope itself says: its
# commands, each command's --help options, `tickscope methods`, files and directories.
T=${1:?usage: completion_bash.sh TICKSCOPE SOURCE_DIR}
S=${2:?}
# compopt exists only while bash completes; outside, the script's `compopt ... 2>/dev/null` no-ops.
source "$S/completion/tickscope.bash" || { echo "FAIL: the completion script does not load"; exit 1; }
complete -p tickscope | grep -q -- '-F _tickscope' || { echo "FAIL: no 'complete -F _tickscope tickscope'"; exit 1; }
D=$(mktemp -d "${TMPDIR:-/tmp}/tks_compl.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }

# complete WORDS...: the candidates for the last word, sorted, one line.
complete_words() {
    COMP_WORDS=("$T" "$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE="${COMP_WORDS[*]}"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    _tickscope
    printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
# expect WANT WORDS...: the candidates are exactly WANT (a sorted, space-separated list).
expect() {
    local want=$1 got
    shift
    got=$(complete_words "$@")
    if [ "$got" = "$want" ]; then echo "ok: [$*] -> $got"; else fail "[$*]: got '$got', want '$want'"; fi
}
sorted() { tr ' ' '\n' | grep -v '^$' | sort | tr '\n' ' ' | sed 's/ $//'; }

# Commands: what `tickscope help` lists.
cmds=$("$T" help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p' | sorted)
[ -n "$cmds" ] || fail "no commands in tickscope help"
expect "$cmds" ""
expect "validate" va
expect "resolution" res
expect "--help --version" -

# Options: each command's --help, whatever it is.
for c in $cmds; do
    case $c in help | version | methods) continue ;; esac
    want=$("$T" "$c" --help | sed -n 's/^ \{1,4\}\(--[a-z0-9][a-z0-9_-]*\).*/\1/p' | sorted)
    [ -n "$want" ] || { fail "$c --help lists no options"; continue; }
    expect "$want" "$c" --
    expect "$want" "$c" --json ""
done
expect "--no-chain" validate --no
expect "--recalibrate --root" info --r
expect "" methods ""

# Methods: the first column of `tickscope methods`.
methods=$("$T" methods | sed -n '/^---/,$s/^\([a-z][a-z0-9_]*\) .*/\1/p' | sorted)
[ -n "$methods" ] || fail "no methods in tickscope methods"
expect "$methods" validate --method ""
expect "$methods" resolution --json --method ""
first=${methods%% *}
expect "$first" resolution --method "$first"
# validate takes a list: the name after the last comma is completed.
lf=$(printf '%s\n' $methods | grep '^l' | sed 's/^/lfence,/' | sorted)
expect "$lf" validate --method lfence,l
expect "irq preempt" validate --kernel --own ""
expect "" info --tsc-hz ""

# Files and directories.
mkdir -p "$D/dir1" "$D/dir2" && : >"$D/file1" && : >"$D/dir1/inner"
expect "$D/dir1 $D/dir2 $D/file1" validate --out "$D/"
expect "$D/dir1 $D/dir2 $D/file1" resolution --raw "$D/"
expect "$D/dir1 $D/dir2" validate --plot "$D/d"
expect "$D/dir1 $D/dir2" info --root "$D/"
expect "$D/file1" info --out = "$D/f"
exit $FAILED
