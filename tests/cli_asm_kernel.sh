# SPDX-License-Identifier: MIT
# cli_asm_kernel.sh: `tickscope asm --kernel` where no module is needed: its options, and the
# one-line errors for a module that is not there, a device that is not the module (another
# protocol), a snippet too long for the module and options that do not go with it. The runs with
# the module loaded are in tests/kmod/run_qemu.sh (its QEMU boot); the JSON's "ring" of a user
# run is checked here, and the instruction table (--table --kernel) refused before anything is
# measured when the module is not there.
# A snippet whose RSP would leave the module's stack is refused here too, before the module.
# Usage: bash cli_asm_kernel.sh /path/to/tickscope
set -u

CMD=asm
NAME=cli_asm_kernel
# shellcheck source=lib_cli.sh
. "$(dirname "$0")/lib_cli.sh"

expect_usage own_alone "--own goes with --kernel" --own preempt 'nop'
expect_usage own_bad "--own needs irq or preempt" --kernel --own sometimes 'nop'
expect_usage device_alone "--kernel-device goes with --kernel" --kernel-device /dev/null 'nop'
expect_usage device_empty "--kernel-device needs a path" --kernel --kernel-device '' 'nop'
expect_usage chase_kernel "--chase does not go with --kernel" --kernel --chase 64K 'nop'
expect_usage fifo_kernel "--fifo does not apply" --kernel --fifo 'nop'

# The usage errors above decide first; then the rest is skipped where it cannot run.
[ "${TKS_TARGET_ARCH:-$(uname -m)}" = x86_64 ] ||
    skip_rest "hardware: tickscope asm runs x86-64 code; this build is for ${TKS_TARGET_ARCH:-$(uname -m)}"

# The size check comes before the module is looked for: 300 bytes a copy, the module takes 256.
nops=$(printf '90 %.0s' $(seq 300))
expect_usage too_long "the module takes at most 256" --kernel --hex "$nops"

# Failures: exit 1, one error line that says what to do, nothing on stdout, no --out file.
expect_failure missing "asm: --kernel: .*not loaded (modprobe tickscope" --kernel --quiet \
    --kernel-device "$D/no-such-device" --hex 90
# /dev/null opens but answers no tickscope request: another protocol, rebuild and reload.
expect_failure not_module "asm: --kernel: .*does not answer as this version's module.*rmmod tickscope" --kernel --quiet \
    --kernel-device /dev/null --hex 90
# A user-space run says where it ran.
if command -v as >/dev/null && command -v objdump >/dev/null; then
    # The table in ring 0 asks the module before it measures or prints anything: one line, and
    # no cache file (its rows run in tests/kmod/run_qemu.sh).
    export TICKSCOPE_CACHE_DIR="$D/cache"
    expect_failure table_missing "asm --table: --kernel: .*not loaded (modprobe tickscope" \
        --kernel --table --only 'add r64, r64' --kernel-device "$D/no-such-device"
    expect_failure table_not_module "asm --table: --kernel: .*does not answer as this version's" \
        --kernel --table --only 'add r64, r64' --kernel-device /dev/null
    # RSP moved past the module's stack, or set to what cannot be followed: refused before the
    # module is asked (a double fault in ring 0), naming how far or which instruction. A push a
    # copy fits (the module's stack holds 8 bytes a byte of code): it gets as far as the device.
    # enter 0x1000, 0 takes 4,104 bytes (the frame and RBP): 64 copies and the init's, 266,760.
    expect_usage stack_deep "reaches 196608 bytes below where it starts, past the 133120 bytes" \
        --kernel --kernel-device "$D/no-such-device" 'sub rsp, 0x30000; mov [rsp], rax; add rsp, 0x30000'
    expect_usage stack_enter "reaches 266760 bytes below" \
        --kernel --kernel-device "$D/no-such-device" --init 'enter 0x1000, 0' 'enter 0x1000, 0'
    expect_usage stack_set "\`mov rsp,rax\` sets RSP to a value the module cannot bound" \
        --kernel --kernel-device "$D/no-such-device" 'mov rsp, rax'
    # int n runs the kernel's handler for vector n: refused by name; int3 (a trap the die chain
    # catches) goes as far as the device
    expect_usage int_n "\`int 0x80\` runs the kernel's handler for that vector" \
        --kernel --kernel-device "$D/no-such-device" 'int 0x80'
    expect_failure int3 "asm: --kernel: .*not loaded (modprobe tickscope" --kernel --quiet \
        --kernel-device "$D/no-such-device" 'int3'
    expect_failure stack_push "asm: --kernel: .*not loaded (modprobe tickscope" --kernel --quiet \
        --kernel-device "$D/no-such-device" 'push rax; push rbx; call 1f; 1:'
    if ls "$D"/cache/asm-table-* >/dev/null 2>&1; then
        fail "table: a refused ring-0 table left a cache file"
    else
        pass "table: a refused ring-0 table left no cache file"
    fi
    run ring asm --budget 0.05 --json --hex '48 01 c0'
    python3 - "$D/ring.out" <<'PY' && pass "ring 3 in user space" || fail "ring: $(cat "$D/ring.err")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ring"] == 3 and "kernel_cpu" not in d, d.get("ring")
PY
else
    skip "the user-space run's ring: as and objdump are needed (Debian package binutils)"
fi

finish
