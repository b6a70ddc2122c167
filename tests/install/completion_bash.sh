#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# completion_bash.sh: drives _tickscope (completion/tickscope.bash) as bash would, through
# COMP_WORDS and COMP_CWORD, and checks the candidates against what tickscope itself says: its
# commands, each command's --help options, `tickscope methods`, `tickscope sys --list`, files and
# directories, and the fixed sets of values (formats, modes, registers, CPUs, baselines).
T=${1:?usage: completion_bash.sh TICKSCOPE SOURCE_DIR}
S=${2:?}
# compopt exists only while bash completes; outside, the script's `compopt ... 2>/dev/null` no-ops.
source "$S/completion/tickscope.bash" || { echo "FAIL: the completion script does not load"; exit 1; }
complete -p tickscope | grep -q -- '-F _tickscope' || { echo "FAIL: no 'complete -F _tickscope tickscope'"; exit 1; }
D=$(mktemp -d "${TMPDIR:-/tmp}/tks_compl.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
# In an empty directory, so that a word completed with files finds none unless a case made them.
T=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")
W=$(mktemp -d "${TMPDIR:-/tmp}/tks_complw.XXXXXX") || exit 1
trap 'rm -rf "$D" "$W"' EXIT
mkdir -p "$W/cwd" && cd "$W/cwd" || exit 1

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
    # An empty word: the options, and sys's suites besides (compare's files: none here).
    [ "$c" = sys ] && want=$(echo "$want $("$T" sys --list | sed -n 's/^\([a-z][a-z0-9_]*\):.*/\1/p')" | sorted)
    expect "$want" "$c" --json ""
done
expect "$cmds" help ""
expect "validate" help va
expect "" help validate ""
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

# Fixed sets of values.
expect "latency throughput" asm --mode ""
expect "console html json markdown" compare --format ""
expect "console csv html json markdown xml" asm --table t --format ""
expect "xmm1 xmm10 xmm11 xmm12 xmm13 xmm14 xmm15" asm --chain xmm1
cpus=$(for c in /sys/devices/system/cpu/cpu[0-9]*; do [ -d "$c" ] && echo "${c##*cpu}"; done | sorted)
expect "$cpus" validate --pin ""

# sys: suites and operation ids (`tickscope sys --list`), the ids as a comma-separated list.
expect "cpu" sys c
ids=$("$T" sys --list | sed -n 's/^[a-z][a-z0-9_]*: *//p' | tr ' ' '\n')
[ "$(echo "$ids" | wc -l)" -gt 10 ] || fail "sys --list gives $(echo "$ids" | wc -l) ids"
want=$(echo "$ids" | grep '^fa' | sed 's/^/fork,/' | sorted)
expect "$want" sys --only fork,fa

# compare: result files, and saved baselines by name (from the cache directory) or by path.
mkdir -p "$W/cache/baselines" && : >"$W/cache/baselines/main.json" && : >"$W/cache/baselines/nightly.json"
: >"$W/cwd/new.json"
expect "new.json" compare n
export TICKSCOPE_CACHE_DIR="$W/cache"
expect "main new.json nightly" compare --baseline ""
expect "new.json nightly" compare --save-baseline n
unset TICKSCOPE_CACHE_DIR

# Files and directories.
mkdir -p "$D/dir1" "$D/dir2" && : >"$D/file1" && : >"$D/dir1/inner"
expect "$D/dir1 $D/dir2 $D/file1" validate --out "$D/"
expect "$D/dir1 $D/dir2 $D/file1" resolution --raw "$D/"
expect "$D/dir1 $D/dir2" validate --plot "$D/d"
expect "$D/dir1 $D/dir2" info --root "$D/"
expect "$D/file1" info --out = "$D/f"
exit $FAILED
