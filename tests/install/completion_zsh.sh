#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# completion_zsh.sh: types into an interactive zsh (zpty) with completion/_tickscope in its fpath
# and the tickscope under test first in its path, presses TAB, and checks what zsh completed or
# listed: commands, options from --help, method names (after a comma too), values, directories.
T=${1:?usage: completion_zsh.sh TICKSCOPE SOURCE_DIR}
S=${2:?}
command -v zsh >/dev/null || { echo "SKIP: zsh is not installed (apt-get install zsh)"; exit 77; }
D=$(mktemp -d "${TMPDIR:-/tmp}/tks_zsh.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
mkdir -p "$D/bin" "$D/dir1" "$D/dir2" && : >"$D/file1"
ln -s "$(cd "$(dirname "$T")" && pwd)/$(basename "$T")" "$D/bin/tickscope"

# One zsh session; each case types a line and TAB, waits, records the screen, clears the line.
cat >"$D/drive.zsh" <<'ZSH'
zmodload zsh/zpty
zpty -b z "zsh -f -i"
zpty -w z "PS1='>'; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D; path=($2 \$path); LISTMAX=1000; setopt nobeep; unsetopt automenu; print READY\$((6*7))"
# Wait until compinit has run (READY42), at most 30 s on a loaded machine; then one completion
# that is not checked loads compsys's functions, so the first checked case has no head start to
# lose.
out=
for i in {1..150}; do
    sleep 0.2
    while zpty -r -t z chunk; do out+=$chunk; done
    [[ $out == *READY42* ]] && break
done
zpty -w -n z "tickscope "$'\t'
sleep 3
zpty -w -n z $'\x15'
sleep 0.5
while zpty -r -t z chunk; do :; done
shift 2
for line in "$@"; do
    zpty -w -n z "$line"$'\t'
    # Read until the screen has been quiet for two seconds (at most 15 s: a loaded machine).
    out= quiet=0
    for i in {1..75}; do
        sleep 0.2
        if zpty -r -t z chunk; then
            out+=$chunk quiet=0
            while zpty -r -t z chunk; do out+=$chunk; done
        else
            (( ++quiet >= 10 )) && [[ -n $out ]] && break
        fi
    done
    print -r -- "=== $line"
    print -r -- "$out" | sed $'s/\x1b\\[[0-9;?]*[a-zA-Z]//g' | tr '\r' '\n'
    zpty -w -n z $'\x15'   # ^U: kill the line
    sleep 0.3
    while zpty -r -t z chunk; do :; done
done
zpty -d z
ZSH
# Two methods of this target whose first three letters no other method shares.
methods=$("$T" methods | sed -n '/^---/,$s/^\([a-z][a-z0-9_]*\) .*/\1/p')
unique=()
for m in $methods; do
    [ "$(printf '%s\n' $methods | grep -c "^${m:0:3}")" -eq 1 ] && unique+=("$m")
done
[ ${#unique[@]} -ge 2 ] || { echo "FAIL: fewer than two methods with a unique prefix: $methods"; exit 1; }
m1=${unique[0]} m2=${unique[1]}
# A saved baseline in the cache directory the completion reads (zsh inherits it).
mkdir -p "$D/cache/baselines" && : >"$D/cache/baselines/main.json"
export TICKSCOPE_CACHE_DIR="$D/cache"
zsh "$D/drive.zsh" "$S/completion" "$D/bin" \
    "tickscope va" "tickscope validate --met" "tickscope info --ts" "tickscope validate --own " \
    "tickscope resolution --method ${m1:0:3}" "tickscope validate --method $m1,${m2:0:3}" \
    "tickscope validate --plot $D/" "tickscope validate --out $D/fi" "tickscope info --" \
    "tickscope help va" "tickscope sys c" "tickscope sys --only fork,posix_s" \
    "tickscope asm --mode th" "tickscope compare --format mar" "tickscope compare $D/fi" \
    "tickscope compare --baseline mai" \
    >"$D/screen.txt" 2>&1
FAILED=0
# expect CASE REGEX: the screen after CASE's TAB matches REGEX.
expect() {
    local text
    text=$(awk -v c="=== $1" '$0 == c {on = 1; next} /^=== / {on = 0} on' "$D/screen.txt")
    if printf '%s\n' "$text" | grep -Eq -- "$2"; then echo "ok: [$1] -> /$2/"
    else echo "FAIL: [$1]: no /$2/ in:"; printf '%s\n' "$text" | tail -5; FAILED=1; fi
}
expect "tickscope va" "tickscope validate $"
expect "tickscope validate --met" "tickscope validate --method $"
expect "tickscope info --ts" "tickscope info --tsc-hz $"
expect "tickscope validate --own " "irq +preempt"
expect "tickscope resolution --method ${m1:0:3}" "tickscope resolution --method $m1 $"
expect "tickscope validate --method $m1,${m2:0:3}" "--method $m1,$m2\$"
expect "tickscope validate --plot $D/" "dir1/? +dir2/?"
if awk -v c="=== tickscope validate --plot $D/" '$0 == c {on = 1; next} /^=== / {on = 0} on' \
        "$D/screen.txt" | grep -q file1; then
    echo "FAIL: --plot offers a file"; FAILED=1
fi
expect "tickscope validate --out $D/fi" "--out $D/file1 ?$"
expect "tickscope info --" "--recalibrate"
expect "tickscope info --" "--root"
expect "tickscope help va" "tickscope help validate $"
expect "tickscope sys c" "tickscope sys cpu $"
expect "tickscope sys --only fork,posix_s" "--only fork,posix_spawn$"
expect "tickscope asm --mode th" "--mode throughput $"
expect "tickscope compare --format mar" "--format markdown $"
expect "tickscope compare $D/fi" "compare $D/file1 ?$"
expect "tickscope compare --baseline mai" "--baseline main $"
exit $FAILED
