# SPDX-License-Identifier: MIT
# cli_kernel.sh: --kernel for validate and resolution as a user meets it without the module loaded
# (the module itself is exercised in a booted kernel by tests/kmod/run_qemu.sh): usage errors,
# the message that says how to build and load it, and a device that is not ours.
# Usage: bash cli_kernel.sh /path/to/tickscope
set -u

CMD=validate
NAME=cli_kernel
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"

# expect_failure NAME WORD ARGS...: exit 1, a 'tickscope: error:' line naming WORD, no --out file.
expect_failure() {
    local name=$1 word=$2
    shift 2
    rm -f "$D/u.json"
    run "$name" "$@" --out "$D/u.json"
    if [ "$RC" -ne 1 ]; then
        fail "$name: exit $RC, expected 1 for: $*"
    elif ! head -n1 "$D/$name.err" | grep -q '^tickscope: error: '; then
        fail "$name: first line on stderr is not 'tickscope: error:': $(cat "$D/$name.err")"
    elif ! grep -qF -- "$word" "$D/$name.err"; then
        fail "$name: stderr does not say '$word': $(cat "$D/$name.err")"
    elif [ -e "$D/u.json" ]; then
        fail "$name: a failed run left the --out file"
    else
        pass "$name: exit 1, '$(head -n1 "$D/$name.err")'"
    fi
}

for c in validate resolution; do
    CMD=$c
    expect_usage "$c-own-alone" "--own goes with --kernel" --own preempt
    expect_usage "$c-own-bad" "--own needs irq or preempt" --kernel --own never
    expect_usage "$c-own-missing" "--own needs" --kernel --own
    expect_usage "$c-device-alone" "--kernel-device goes with --kernel" --kernel-device /dev/null
    expect_usage "$c-fifo" "--fifo is for user-space runs" --kernel --fifo
    expect_usage "$c-cr0-user" "add --kernel" --method cr0
    expect_usage "$c-cr0-preempt" "needs interrupts off" --kernel --own preempt --method cr0

    # No module behind the path: how to build it and load it.
    expect_failure "$c-missing" "make kmod" "$c" --kernel --kernel-device "$D/no-such-device"
    grep -q 'insmod' "$D/$c-missing.err" || fail "$c-missing: no 'insmod' hint"
    grep -q 'linux-headers' "$D/$c-missing.err" || fail "$c-missing: no package for the headers"

    # Something that is not the module (ioctl on a regular file: ENOTTY).
    : >"$D/not-a-device"
    expect_failure "$c-not-ours" "another protocol version" "$c" --kernel --kernel-device "$D/not-a-device"

    run "$c-help" "$c" --help
    grep -q -- '--kernel ' "$D/$c-help.out" && grep -q -- '--own MODE' "$D/$c-help.out" ||
        fail "$c-help: --kernel and --own are not in the help"
done

# `tickscope methods` lists cr0 as a kernel-only method.
run methods methods
grep -Eq '^cr0 .*kernel only' "$D/methods.out" || fail "methods: cr0 is not listed as kernel only"

finish
