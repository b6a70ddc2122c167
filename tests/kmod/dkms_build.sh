#!/bin/bash
# SPDX-License-Identifier: MIT
# dkms_build.sh <build dir>: the DKMS package of tickscope.ko (kmod/dkms.conf, kmod/dkms.sh)
# builds against every kernel whose headers are installed, in a DKMS tree of its own under the
# build directory (the system's /var/lib/dkms and /usr/src are not touched; DKMS may create its
# signing key in /var/lib/dkms, as it does on any first use).
# Exit 0: built for every kernel; 1: failed; 77: skipped (dkms or kernel headers missing).
set -u
BUILD=${1:?usage: dkms_build.sh <build dir>}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
command -v dkms >/dev/null || { echo "SKIP: dkms is not installed (apt-get install dkms)"; exit 77; }
kernels=()
for d in /lib/modules/*/build; do
    [ -f "$d/Makefile" ] && kernels+=("$(basename "$(dirname "$d")")")
done
[ ${#kernels[@]} -gt 0 ] ||
    { echo "SKIP: no kernel headers (apt-get install linux-headers-amd64)"; exit 77; }
VERSION=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$SRC/kmod/dkms.conf")
T=$(mkdir -p "$BUILD" && cd "$BUILD" && pwd)/kmod-dkms
rm -rf "$T"
mkdir -p "$T/src" "$T/tree" "$T/install"
sh "$SRC/kmod/dkms.sh" source "$T/src/tickscope-$VERSION" || { echo "FAIL: dkms.sh source"; exit 1; }
opts=(-m tickscope -v "$VERSION" --sourcetree "$T/src" --dkmstree "$T/tree" --installtree "$T/install")
dkms add "${opts[@]}" >"$T/add.log" 2>&1 || { cat "$T/add.log"; echo "FAIL: dkms add"; exit 1; }
status=0
for k in "${kernels[@]}"; do
    if dkms build "${opts[@]}" -k "$k" --kernelsourcedir "/lib/modules/$k/build" >"$T/build-$k.log" 2>&1 &&
            ls "$T/tree/tickscope/$VERSION/$k"/*/module/tickscope.ko* >/dev/null 2>&1; then
        echo "ok: dkms build tickscope/$VERSION for $k"
    else
        tail -n 30 "$T/build-$k.log"
        tail -n 30 "$T/tree/tickscope/$VERSION/build/make.log" 2>/dev/null
        echo "FAIL: dkms build tickscope/$VERSION for $k"
        status=1
    fi
done
exit $status
