#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# paths_anywhere.sh TICKSCOPE BENCH_PROG SOURCE_DIR: the tests that read the source tree pass
# wherever the checkout lives. A copy of the tree is put under a parent path with spaces and a
# directory named like a build ("a b/build-1234/tick scope": cli_readme once found no README
# under a parent named build-*), and those tests run from the copy against this build's programs:
# cli_readme, the layer and size checks, man_generated, man_options, completion_bash.
set -u
T=${1:?usage: paths_anywhere.sh TICKSCOPE BENCH_PROG SOURCE_DIR}
BP=${2:?}
S=${3:?}
W=$(mktemp -d "${TMPDIR:-/tmp}/tks_paths.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
C="$W/a b/build-1234/tick scope"
mkdir -p "$C" || exit 1
# The tree without build directories or Git's.
(cd "$S" && tar -c --exclude='./build*' --exclude=./.git .) | (cd "$C" && tar -x) ||
    { echo "FAIL: could not copy the tree to '$C'"; exit 1; }
FAILED=0
SKIPPED=0
# check NAME CMD...: CMD passes from the copy. A sub-test that skips (77, a tool missing) makes
# this test a skip too, with its reason: never a pass for what did not run (TKS_CI=1 fails it).
check() {
    local name=$1 rc
    shift
    "$@" >"$W/$name.log" 2>&1
    rc=$?
    case $rc in
    0) echo "ok: $name from '$C'" ;;
    77) echo "SKIP: $name from '$C': $(grep -m1 '^SKIP' "$W/$name.log" | sed 's/^SKIP: //')"; SKIPPED=1 ;;
    *) echo "FAIL: $name from '$C' (exit $rc):"; tail -5 "$W/$name.log"; FAILED=1 ;;
    esac
}
check cli_readme bash "$C/tests/cli_readme.sh" "$T"
check structure_sizes bash "$C/tests/structure/sizes.sh" "$C"
if command -v python3 >/dev/null; then
    check structure_layers python3 "$C/tests/structure/layers.py" "$C"
    check man_options bash "$C/tests/install/man_options.sh" "$T" "$BP" "$C"
else
    echo "SKIP: structure_layers and man_options from '$C': python3 is not installed (Debian package python3)"
    SKIPPED=1
fi
check man_generated sh "$C/man/generate.sh" --check
check completion_bash bash "$C/tests/install/completion_bash.sh" "$T" "$C"
[ "$FAILED" -ne 0 ] && exit 1
[ "$SKIPPED" -ne 0 ] && exit 77
exit 0
