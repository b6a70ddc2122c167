#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# devices_unchanged.sh [DEV_DIR]: the device nodes and links that tests point outputs at are what
# Linux makes them: /dev/null, /dev/full, /dev/zero, /dev/random and /dev/urandom character
# devices of their numbers with mode 0666, and /dev/stdin, /dev/stdout, /dev/stderr and /dev/fd
# links to /proc/self/fd. Registered to run after every other test (tests/CMakeLists.txt) and
# run by .ci/run after each step: a test or step that replaced one (a report renamed over
# /dev/null by a command run as root, say) fails the run, naming the node, instead of leaving
# a regular file that later steps read (debhelper put one's contents into a package).
# First it checks itself on a tree of its own where each kind of damage is made, which it must
# report. DEV_DIR (default /dev) is for that.
set -u

# check_tree DIR: prints one line per node that is not as it should be; exit 1 if any.
check_tree() {
    local dir=$1 bad=0 spec name want got
    for spec in null:1:3 full:1:7 zero:1:5 random:1:8 urandom:1:9; do
        IFS=: read -r name maj min <<<"$spec"
        want="character special file $maj:$min 666"
        if [ -L "$dir/$name" ] || [ ! -e "$dir/$name" ]; then
            got=$( [ -L "$dir/$name" ] && echo "a symbolic link to $(readlink "$dir/$name")" || echo missing)
        else
            # %t:%T are hexadecimal; these numbers are under 10.
            got=$(stat -c '%F %t:%T %a' "$dir/$name")
        fi
        [ "$got" = "$want" ] || { echo "$dir/$name: $got, not a $want"; bad=1; }
    done
    for spec in stdin:/proc/self/fd/0 stdout:/proc/self/fd/1 stderr:/proc/self/fd/2 fd:/proc/self/fd; do
        name=${spec%%:*} want=${spec#*:}
        if [ -L "$dir/$name" ]; then got="a link to $(readlink "$dir/$name")"
        elif [ -e "$dir/$name" ]; then got="a $(stat -c %F "$dir/$name")"
        else got=missing
        fi
        [ "$got" = "a link to $want" ] || { echo "$dir/$name: $got, not a link to $want"; bad=1; }
    done
    return $bad
}

DEV=${1:-/dev}
if [ $# -eq 0 ]; then
    # The check checked: a tree like /dev with one node damaged at a time must be reported.
    T=$(mktemp -d "${TMPDIR:-/tmp}/tks_devices.XXXXXX") || exit 1
    trap 'rm -rf "$T"' EXIT
    fake() { # a /dev whose character devices are regular files (no mknod as a user), and links
        rm -rf "$T/dev" && mkdir "$T/dev" && : >"$T/dev/null"
        ln -s /proc/self/fd/0 "$T/dev/stdin" && ln -s /proc/self/fd "$T/dev/fd"
        ln -s /proc/self/fd/2 "$T/dev/stderr" && ln -s /proc/self/fd/1 "$T/dev/stdout"
    }
    fake
    out=$(check_tree "$T/dev") && { echo "FAIL: a regular file as null passed"; exit 1; }
    grep -q "/null: regular empty file 0:0" <<<"$out" && grep -q "/full: missing" <<<"$out" &&
        ! grep -q stdout <<<"$out" || { echo "FAIL: the self-check's findings: $out"; exit 1; }
    rm "$T/dev/stdout" && : >"$T/dev/stdout"
    check_tree "$T/dev" | grep -q "/stdout: a regular empty file, not a link" ||
        { echo "FAIL: a regular file as stdout was not reported"; exit 1; }
    echo "ok: the check reports a device or link replaced by a file"
fi
if out=$(check_tree "$DEV"); then
    echo "ok: $DEV/null, full, zero, random, urandom are their character devices; stdin, stdout, stderr, fd their links"
    exit 0
fi
echo "FAIL: a test or step changed what tests write to (restore it, e.g. rm -f /dev/null && mknod -m 666 /dev/null c 1 3, and find the culprit):"
echo "$out"
exit 1
