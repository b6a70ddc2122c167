# tickscope.bash: bash completion for tickscope. Commands, options and methods are read from the
# tickscope being completed (its help, each command's --help, `tickscope methods`), so a new
# command or option completes without editing this file.

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
    case $cmd in help | version | methods | tour | -*) return 0 ;; esac

    # The value of the option before the cursor, by its help line's metavariable.
    if [[ $prev == --* ]]; then
        metavar=
        while read -r opt line; do
            [[ $opt == "$prev" ]] && metavar=$line && break
        done < <(_tickscope_options "$prog" "$cmd")
        if [[ -n $metavar || $prev == --method ]]; then
            case $prev:$metavar in
            --method:*)
                # A comma-separated list: complete the name after the last comma.
                local head=
                [[ $cur == *,* ]] && head=${cur%,*},
                COMPREPLY=($(compgen -P "$head" -W "$(_tickscope_methods "$prog")" -- "${cur##*,}"))
                [[ $metavar == LIST ]] && compopt -o nospace 2>/dev/null
                ;;
            --own:*) COMPREPLY=($(compgen -W 'irq preempt' -- "$cur")) ;;
            --format:*) COMPREPLY=($(compgen -W 'console json csv markdown' -- "$cur")) ;;
            --mode:*) COMPREPLY=($(compgen -W 'latency throughput' -- "$cur")) ;;
            *:FILE | *:PATH)
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -f -- "$cur"))
                ;;
            *:DIR)
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -d -- "$cur"))
                ;;
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
    return 0
}
complete -F _tickscope tickscope
