#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# spdx.sh SOURCE_DIR [--add]: every source file carries an SPDX licence identifier line in its
# first five lines, naming its licence (LICENSE): MIT, except the kernel module (kmod/), which is
# "Dual MIT/GPL" as its MODULE_LICENSE says: `(GPL-2.0 OR MIT)`, the kernel's spelling, as
# kmod/*.c already carry it (`//` in the module's .c files, as the kernel's own sources do).
#
# The source files: code and build files, whatever their folder:
#   *.c *.h *.cc *.sh *.py *.cmake *.in *.bash *.scd (man pages), CMakeLists.txt, Makefile,
#   Kbuild, kmod/dkms.conf, completion/_tickscope, .ci/run, debian/rules.
# Not: documents (*.md: LICENSE covers them), data (tests/fixtures/, tests/fuzz/corpus/,
# examples/asm/instructions.tbl), the generated man pages (man/*.[1-9], made from the .scd
# sources) and Debian's declarative files (debian/control, changelog, copyright, *.install).
#
# --add inserts the line where it is missing (after a #! or #compdef first line, and after an
# scdoc page's title line, which scdoc wants first), in the file's comment syntax; a file whose
# line names another licence is reported, never rewritten. Without --add, exit 1 when any file
# lacks its line or names another licence.
set -u
S=$(cd "${1:?usage: spdx.sh SOURCE_DIR [--add]}" && pwd)
ADD=0
case ${2:-} in --add) ADD=1 ;; '') ;; *) echo "usage: spdx.sh SOURCE_DIR [--add]"; exit 2 ;; esac

# The files, relative to S: build directories inside the tree (build, build-asan, ...), Git's
# and Debian's working directories and the data folders pruned.
files() {
    (cd "$S" && find . \( -path './build*' -o -path './.git' -o -path './tests/fixtures' \
            -o -path './tests/fuzz/corpus' -o -path './debian/*' -type d \) -prune -o -type f \( \
            -name '*.c' -o -name '*.h' -o -name '*.cc' -o -name '*.sh' -o -name '*.py' \
            -o -name '*.cmake' -o -name '*.in' -o -name '*.bash' -o -name '*.scd' \
            -o -name CMakeLists.txt -o -name Makefile -o -name Kbuild -o -path ./kmod/dkms.conf \
            -o -path ./completion/_tickscope -o -path ./.ci/run -o -path ./debian/rules \
        \) -print | sed 's|^\./||' | LC_ALL=C sort)
}


# The line in the file's own comment syntax.
line_for() {
    local id=$2
    case $1 in
    kmod/*.c) echo "// SPDX-License-Identifier: $id" ;;
    *.c | *.h | *.cc) echo "/* SPDX-License-Identifier: $id */" ;;
    *.scd) echo "; SPDX-License-Identifier: $id" ;;
    *) echo "# SPDX-License-Identifier: $id" ;;
    esac
}

# How many first lines must stay first: a #! or #compdef line, an scdoc title line.
keep_first() {
    local first
    first=$(head -n1 "$S/$1")
    case $1 in *.scd) echo 1; return ;; esac
    case $first in '#!'* | '#compdef'*) echo 1 ;; *) echo 0 ;; esac
}

add_line() {
    local f=$1 line=$2 k tmp
    k=$(keep_first "$f")
    tmp=$(mktemp "$S/$f.spdx.XXXXXX") || return 1
    { head -n "$k" "$S/$f"; echo "$line"; tail -n +"$((k + 1))" "$S/$f"; } >"$tmp" &&
        chmod --reference="$S/$f" "$tmp" && mv "$tmp" "$S/$f"
}

# Every file's identifier, read in one pass (a process per file is minutes on a loaded machine):
# "FILE<TAB>IDENTIFIER" for each file that has one in its first five lines.
identifiers() {
    files | (cd "$S" && tr '\n' '\0' | xargs -0 awk '
        FNR == 1 { found = 0 }
        FNR <= 5 && !found && /SPDX-License-Identifier:/ {
            id = $0
            sub(/.*SPDX-License-Identifier: */, "", id)
            sub(/ *(\*\/)? *$/, "", id)
            print FILENAME "\t" id
            found = 1
        }')
}

declare -A ids
while IFS=$'\t' read -r f have; do
    ids[$f]=$have
done < <(identifiers)
missing=0 wrong=0 added=0 n=0
while IFS= read -r f; do
    n=$((n + 1))
    have=${ids[$f]-}
    case $f in kmod/*) want='(GPL-2.0 OR MIT)' ;; *) want=MIT ;; esac # the module: dual
    if [ -z "$have" ]; then
        if [ $ADD -eq 1 ]; then
            add_line "$f" "$(line_for "$f" "$want")" && added=$((added + 1)) || { echo "FAIL: could not add the line to $f"; missing=$((missing + 1)); }
        else
            echo "missing: $f (wants $want)"
            missing=$((missing + 1))
        fi
    elif [ "$have" != "$want" ]; then
        echo "wrong: $f says '$have', its licence is '$want'"
        wrong=$((wrong + 1))
    fi
done < <(files)

[ "$n" -gt 100 ] || { echo "FAIL: only $n source files found under $S"; exit 1; }
if [ $ADD -eq 1 ]; then
    echo "$n source files: added the line to $added, $wrong name another licence"
    [ $wrong -eq 0 ]
    exit
fi
if [ $missing -ne 0 ] || [ $wrong -ne 0 ]; then
    echo "FAIL: of $n source files, $missing lack an SPDX-License-Identifier line and $wrong name another licence (tests/structure/spdx.sh SOURCE_DIR --add inserts the missing ones)"
    exit 1
fi
echo "ok: all $n source files carry their SPDX-License-Identifier (MIT; kmod/: (GPL-2.0 OR MIT))"
