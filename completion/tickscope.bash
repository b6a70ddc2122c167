# SPDX-License-Identifier: MIT
# tickscope.bash: bash completion for tickscope. Commands, options, methods and sys's suites and
# operation ids are read from the tickscope being completed (its help, each command's --help,
# `tickscope methods`, `tickscope sys --list`), so a new command or option completes without
# editing this file; the few fixed sets of values are in _tickscope_values. Files go where
# --help says FILE or PATH (and after compare and replay), directories where it says DIR.

# The commands `tickscope help` lists (not "(none)").
_tickscope_commands()
{
    "$1" help 2>/dev/null | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p'
}

# "--opt" or "--opt METAVAR" for each option line of `tickscope CMD --help`.
_tickscope_options()
{
    "$1" "$2" --help 2>/dev/null |
        sed -n 's/^ \{1,4\}\(--[a-z0-9][a-z0-9_-]*\)\([ =]\([A-Z][A-Z0-9_]*\)\)\{0,1\}.*/\1 \3/p'
}

# The method names of `tickscope methods`: the first column under the dashed line.
_tickscope_methods()
{
    "$1" methods 2>/dev/null | sed -n '/^---/,$s/^\([a-z][a-z0-9_]*\) .*/\1/p'
}

# The values of an option that takes one of a fixed set (besides --method, read from the binary):
# "CMD --opt" -> words. One table for bash; completion/_tickscope has the same.
_tickscope_values()
{
    case $1:$2 in
    *:--own) echo irq preempt ;;
    *:--mode) echo latency throughput ;;
    compare:--format) echo console markdown json html ;;
    sys:--format) echo console markdown csv json html ;;
    asm:--format) echo console markdown csv json html xml ;;
    *:--format) echo console markdown csv json ;;
    *:--chain) echo rax rbx rcx rdx rsi rdi rbp r8 r9 r10 r11 r12 r13 xmm{0..15} ;;
    *:--pin)
        local c
        for c in /sys/devices/system/cpu/cpu[0-9]*; do [[ -d $c ]] && echo "${c##*cpu}"; done | sort -n
        ;;
    esac
}

# The saved baselines' names (compare --baseline), from the cache directory tickscope uses.
_tickscope_baselines()
{
    local dir f
    if [[ -n ${TICKSCOPE_CACHE_DIR+set} ]]; then dir=$TICKSCOPE_CACHE_DIR
    elif [[ -n $XDG_CACHE_HOME ]]; then dir=$XDG_CACHE_HOME/tickscope
    else dir=$HOME/.cache/tickscope
    fi
    [[ -n $dir ]] || return 0
    for f in "$dir"/baselines/*.json; do [[ -f $f ]] && f=${f##*/} && echo "${f%.json}"; done
}

# sys: its suites (`tickscope sys --list`: "suite: id id ..."), or with "ids" every operation id.
_tickscope_sys_list()
{
    if [[ $2 == ids ]]; then
        "$1" sys --list 2>/dev/null | sed -n 's/^[a-z][a-z0-9_]*: *//p' | tr ' ' '\n'
    else
        "$1" sys --list 2>/dev/null | sed -n 's/^\([a-z][a-z0-9_]*\):.*/\1/p'
    fi
}

# A comma-separated list of WORDS: complete the word after the last comma.
_tickscope_list()
{
    local cur=$1 head=
    shift
    [[ $cur == *,* ]] && head=${cur%,*},
    COMPREPLY=($(compgen -P "$head" -W "$*" -- "${cur##*,}"))
    compopt -o nospace 2>/dev/null
}

_tickscope()
{
    local cur prev prog cmd opt metavar line i
    local -a words
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    prog=${COMP_WORDS[0]}
    # --opt=value: bash splits at '=' (COMP_WORDBREAKS); rejoin to find the option.
    if [[ $cur == = ]]; then
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        cur=
    elif [[ $prev == = && COMP_CWORD -ge 2 ]]; then
        prev=${COMP_WORDS[COMP_CWORD - 2]}
    fi
    if [[ COMP_CWORD -eq 1 ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W '--help --version' -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$(_tickscope_commands "$prog")" -- "$cur"))
        fi
        return 0
    fi
    cmd=${COMP_WORDS[1]}
    case $cmd in
    help)
        [[ COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "$(_tickscope_commands "$prog")" -- "$cur"))
        return 0
        ;;
    version | methods | tour | -*) return 0 ;;
    esac

    # The value of the option before the cursor, by its help line's metavariable.
    if [[ $prev == --* ]]; then
        metavar=
        while read -r opt line; do
            [[ $opt == "$prev" ]] && metavar=$line && break
        done < <(_tickscope_options "$prog" "$cmd")
        if [[ -n $metavar || $prev == --method ]]; then
            local values
            values=$(_tickscope_values "$cmd" "$prev")
            case $prev:$metavar in
            --method:LIST) _tickscope_list "$cur" $(_tickscope_methods "$prog") ;;
            --method:*) COMPREPLY=($(compgen -W "$(_tickscope_methods "$prog")" -- "$cur")) ;;
            --only:*) _tickscope_list "$cur" $(_tickscope_sys_list "$prog" ids) ;;
            --baseline:* | --save-baseline:*)
                # A saved name, or a path (with '/' or ending in .json).
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -W "$(_tickscope_baselines)" -- "$cur") $(compgen -f -- "$cur"))
                ;;
            *:FILE | *:PATH)
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -f -- "$cur"))
                ;;
            *:DIR)
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -d -- "$cur"))
                ;;
            *) [[ -n $values ]] && COMPREPLY=($(compgen -W "$values" -- "$cur")) ;;
            esac
            return 0
        fi
    fi
    if [[ $cur == -* || -z $cur ]]; then
        words=()
        while read -r opt line; do
            words+=("$opt")
        done < <(_tickscope_options "$prog" "$cmd")
        COMPREPLY=($(compgen -W "${words[*]}" -- "$cur"))
    fi
    # What a command takes besides options: sys its suites, compare its result files, replay
    # its recording.
    if [[ $cur != -* ]]; then
        case $cmd in
        sys) COMPREPLY+=($(compgen -W "$(_tickscope_sys_list "$prog")" -- "$cur")) ;;
        compare | replay)
            compopt -o filenames 2>/dev/null
            COMPREPLY+=($(compgen -f -- "$cur"))
            ;;
        esac
    fi
    return 0
}
complete -F _tickscope tickscope
