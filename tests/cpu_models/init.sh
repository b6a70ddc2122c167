#!/bin/sh
# SPDX-License-Identifier: MIT
# /init of the CPU-model VMs (tests/cpu_models/run_qemu.sh): runs only commands whose output
# depends on CPUID alone, each between "TKS-BEGIN name" and "TKS-END name rc=N" on the console,
# then powers off. Nothing here judges: the host does.
set -u
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /tmp
export TICKSCOPE_CACHE_DIR=/tmp/tks-cache
# Each command's output goes to a file first: the console is a terminal, which tables fit to.
part() {
    name=$1
    shift
    "$@" >/tmp/part.out 2>&1
    rc=$?
    echo "TKS-BEGIN $name"
    cat /tmp/part.out
    echo "TKS-END $name rc=$rc"
}
part cpuid /bin/cpuid_raw
part methods tickscope methods
part forms /bin/forms_list
# The catalogue's refusal of forms this CPU lacks: decided before anything is measured. One form
# per extension family the models differ by (run_qemu.sh's judge says which must be refused).
for f in 'vpaddd zmm, zmm, zmm' 'vpaddd ymm, ymm, ymm' 'vaddpd ymm, ymm, ymm' 'popcnt r64, r64'; do
    part "asm-only $f" tickscope asm --quiet --table --only "$f" --budget 0.001 --format csv --out /tmp/x.csv
done
part info tickscope info --format json --quiet
echo "TKS-DONE"
poweroff -f
