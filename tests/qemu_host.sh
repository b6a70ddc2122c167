# SPDX-License-Identifier: MIT
# qemu_host.sh: what the QEMU boots of the tests (tests/kmod/run_qemu.sh,
# tests/cpu_models/run_qemu.sh) need of the host, checked alike: sourced after the script's own
# skip(). Sets QEMU and BUSYBOX, or skips naming what is missing.

[ "$(uname -m)" = x86_64 ] || skip "an x86-64 host (this is $(uname -m))"
QEMU=${TKS_QEMU:-$(command -v qemu-system-x86_64)}
[ -n "$QEMU" ] && [ -x "$QEMU" ] || skip "qemu-system-x86_64"
command -v cpio >/dev/null || skip "cpio"
command -v gzip >/dev/null || skip "gzip"
BUSYBOX=""
for b in /bin/busybox /usr/bin/busybox "$(command -v busybox 2>/dev/null)"; do
    # A dynamic busybox would need its libraries in the VM too: only a static one will do.
    if [ -n "$b" ] && [ -x "$b" ] && LC_ALL=C ldd "$b" 2>&1 | grep -q "not a dynamic executable\|statically linked"; then
        BUSYBOX=$b
        break
    fi
done
[ -n "$BUSYBOX" ] || skip "a static busybox"
