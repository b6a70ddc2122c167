#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# names.sh: no two folders of src/ hold a file of the same name (a `kernel.c` in three folders
# meant three different things). The one exception is src/arch/: each architecture's folder
# implements the same arch.h, so arch/x86/cpu.c and arch/arm64/cpu.c are one thing twice.
#   usage: bash names.sh SOURCE_DIR      exit 0 when every name is unique, 1 otherwise
set -u
SRC=${1:?usage: names.sh SOURCE_DIR}
dups=$(cd "$SRC/src" && find . -type f \( -name '*.c' -o -name '*.h' \) | grep -v '^\./arch/[^/]*/' |
       awk -F/ '{print $NF}' | sort | uniq -d)
if [ -n "$dups" ]; then
    for d in $dups; do
        echo "FAIL: $d is in more than one folder:" $(cd "$SRC/src" && find . -name "$d" | grep -v '^\./arch/[^/]*/')
    done
    exit 1
fi
echo "names: every file name under src/ is in one folder only (arch/*/ aside)"
