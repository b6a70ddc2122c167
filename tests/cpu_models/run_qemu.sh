#!/bin/bash
# SPDX-License-Identifier: MIT
# run_qemu.sh: tickscope's CPUID-dependent paths on CPUs this machine is not: the Debian kernel
# booted under QEMU's TCG with `-cpu MODEL` for each model below, one short boot each, running
# only commands whose output depends on CPUID alone (init.sh: `tickscope methods`, `info --format
# json`'s identity and features, the asm catalogue's choice of forms; no timing means anything
# under TCG). judge.py holds what they say to the truth: QEMU's own definition of the model
# (query-cpu-model-expansion, qmp_model.py), less the features QEMU warns TCG cannot give, and
# the raw CPUID of the VM (cpuid_raw.c), never tickscope's code.
#   run_qemu.sh <tickscope binary> <forms_list binary> <build dir>
# Exit 0: passed; 1: failed; 77: skipped (something this needs is not installed; says what).
# Environment: TKS_QEMU=<path> the emulator; TKS_CPU_MODELS="A B ..." the models (default all
# below); TKS_QEMU_TIMEOUT (seconds, default 150) bounds each VM.
set -u

SKIP=77
TICKSCOPE=${1:?usage: run_qemu.sh <tickscope binary> <forms_list binary> <build dir>}
FORMS_LIST=${2:?usage: run_qemu.sh <tickscope binary> <forms_list binary> <build dir>}
BUILD=${3:?usage: run_qemu.sh <tickscope binary> <forms_list binary> <build dir>}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mkdir -p "$BUILD" && cd "$BUILD" && pwd)/cpu-models-qemu
PACKAGES="apt-get install qemu-system-x86 linux-image-amd64 busybox-static cpio python3 libc6-dev"
# Intel's server cores with and without AVX-512 filtered by TCG, an Intel core without RDTSCP
# (Conroe), AMD's Zen 3 (EPYC-Milan: no CPUID 0x80000021 in QEMU 7.2, so LFENCE is not known to
# be dispatch-serialising) and Zen 4 (EPYC-Genoa, QEMU 8.1 and later), and QEMU's default
# qemu64 (AuthenticAMD, no RDTSCP).
MODELS=${TKS_CPU_MODELS:-Skylake-Server Icelake-Server EPYC-Genoa EPYC-Milan Conroe qemu64}

skip() {
    echo "SKIP: $1 ($PACKAGES)"
    exit $SKIP
}
fail() {
    echo "FAIL: $*"
    exit 1
}

# ---------------------------------------------------------------- what this machine has
# shellcheck source=../qemu_host.sh
. "$(dirname "$0")/../qemu_host.sh"
command -v python3 >/dev/null || skip "python3"
# The kernel linux-image-amd64 follows (no module is built: its headers are not needed).
KVER=$(dpkg-query -W -f='${Depends}\n' linux-image-amd64 2>/dev/null | sed -n 's/.*linux-image-\([^ ,]*\).*/\1/p' | head -1)
KERNEL=/boot/vmlinuz-$KVER
[ -n "$KVER" ] && [ -r "$KERNEL" ] || skip "the kernel linux-image-amd64 follows, with its image in /boot"
[ -x "$TICKSCOPE" ] || fail "no tickscope binary at $TICKSCOPE"
[ -x "$FORMS_LIST" ] || fail "no forms_list binary at $FORMS_LIST"

rm -rf "$WORK"
mkdir -p "$WORK/root/bin"
START=$(date +%s)
echo "kernel $KERNEL, busybox $BUSYBOX, qemu $QEMU, work dir $WORK"

# ---------------------------------------------------------------- the initramfs
if ! ${CC:-cc} -std=c11 -O2 -static -Wall -Wextra -Werror "$HERE/cpuid_raw.c" \
        -o "$WORK/root/bin/cpuid_raw" 2>"$WORK/cpuid_raw.log"; then
    cat "$WORK/cpuid_raw.log"
    grep -q "cannot find -lc" "$WORK/cpuid_raw.log" && skip "a static C library (libc.a)"
    fail "cpuid_raw does not build"
fi
cp "$TICKSCOPE" "$WORK/root/bin/tickscope"
cp "$FORMS_LIST" "$WORK/root/bin/forms_list"
# Their shared libraries and the loader, at the paths they were linked to find them. No binutils:
# a form the catalogue chooses then stops at the missing assembler, before anything is measured.
for lib in $(ldd "$TICKSCOPE" "$FORMS_LIST" 2>/dev/null | grep -v ':$' | grep -o '/[^ ]*' | sort -u); do
    mkdir -p "$WORK/root$(dirname "$lib")"
    cp -L "$lib" "$WORK/root$lib"
done
cp "$BUSYBOX" "$WORK/root/bin/busybox"
for applet in $("$BUSYBOX" --list); do
    [ -e "$WORK/root/bin/$applet" ] || ln -s busybox "$WORK/root/bin/$applet"
done
mkdir -p "$WORK/root/proc" "$WORK/root/sys" "$WORK/root/dev" "$WORK/root/tmp"
cp "$HERE/init.sh" "$WORK/root/init"
chmod +x "$WORK/root/init"
(cd "$WORK/root" && find . | cpio -o -H newc --quiet | gzip -1) >"$WORK/initramfs.gz" || fail "cpio"

# ---------------------------------------------------------------- the boots, two at a time
DEFINED=$("$QEMU" -cpu help 2>/dev/null | awk '$1 == "x86" {print $2}')
boot() {
    local m=$1 log=$WORK/$1.console
    # QEMU's definition of the model, as this emulator has it, before the boot.
    python3 "$HERE/qmp_model.py" "$QEMU" "$m" >"$WORK/$m.qmp.json" 2>"$WORK/$m.qmp.err"
    timeout --foreground -k 10 "${TKS_QEMU_TIMEOUT:-150}" "$QEMU" -machine pc -accel tcg -cpu "$m" -smp 1 -m 384M \
        -nographic -no-reboot -kernel "$KERNEL" -initrd "$WORK/initramfs.gz" \
        -append "console=ttyS0 panic=-1 quiet loglevel=1" </dev/null >"$log" 2>"$WORK/$m.stderr"
    echo "$?" >"$WORK/$m.rc"
    tr -d '\r' <"$log" >"$log.txt" && mv "$log.txt" "$log"
}
BOOTED=""
NOT_DEFINED=""
running=0
for m in $MODELS; do
    if ! echo "$DEFINED" | grep -qxF "$m"; then
        NOT_DEFINED="$NOT_DEFINED $m"
        continue
    fi
    BOOTED="$BOOTED $m"
    boot "$m" &
    running=$((running + 1))
    if [ $running -ge 2 ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
END=$(date +%s)

# ---------------------------------------------------------------- verdict
echo "---- $((END - START)) s for the boots ($(echo $BOOTED | wc -w) models, two at a time)"
# A model this emulator does not define is said, not failed: Debian 12's QEMU 7.2 has no
# EPYC-Genoa (QEMU 8.1 added it); its boot runs wherever the emulator has it.
for m in $NOT_DEFINED; do
    echo "NOTE: $m not booted: $("$QEMU" --version | head -1) does not define it"
done
[ -n "$BOOTED" ] || fail "none of the models ($MODELS) is defined by $QEMU"
exec python3 "$HERE/judge.py" "$WORK" $BOOTED
