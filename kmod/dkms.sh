#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0 OR MIT)
# dkms.sh: the kernel module under DKMS, so that it is rebuilt for every kernel update.
#   dkms.sh install      copy the sources to /usr/src/tickscope-VERSION, dkms add, build, install
#   dkms.sh remove       dkms remove every build of this version, and its sources
#   dkms.sh source DIR   only lay out the DKMS source tree in DIR (tests, packaging)
# The version is dkms.conf's PACKAGE_VERSION. See kmod/README.md.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VERSION=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$ROOT/kmod/dkms.conf")
[ -n "$VERSION" ] || { echo "tickscope: no PACKAGE_VERSION in kmod/dkms.conf" >&2; exit 1; }

# The module's own files, and the two shared headers and the add chain it includes.
source_tree() {
    mkdir -p "$1/include/tickscope" "$1/src/arch/x86"
    cp "$ROOT"/kmod/Kbuild "$ROOT"/kmod/dkms.conf "$ROOT"/kmod/*.h "$ROOT"/kmod/*.c "$1/"
    cp "$ROOT"/include/tickscope/clock.h "$ROOT"/include/tickscope/clock_intrin.h \
       "$ROOT"/include/tickscope/kmod.h "$1/include/tickscope/"
    cp "$ROOT"/src/arch/add_chain.h "$ROOT"/src/arch/work_cases.h "$1/src/arch/"
    cp "$ROOT"/src/arch/x86/add_chain.h "$1/src/arch/x86/"
}

need_dkms() {
    command -v dkms >/dev/null 2>&1 ||
        { echo "tickscope: dkms is not installed (apt-get install dkms)" >&2; exit 1; }
}

case "${1:-}" in
source)
    [ -n "${2:-}" ] || { echo "usage: dkms.sh source DIR" >&2; exit 2; }
    source_tree "$2"
    ;;
install)
    need_dkms
    dest=/usr/src/tickscope-$VERSION
    rm -rf "$dest"
    source_tree "$dest"
    # A second install of the same version replaces the first.
    dkms remove "tickscope/$VERSION" --all >/dev/null 2>&1 || true
    dkms add "tickscope/$VERSION"
    dkms build "tickscope/$VERSION"
    dkms install "tickscope/$VERSION"
    echo "tickscope: tickscope.ko $VERSION is installed under DKMS: modprobe tickscope"
    ;;
remove)
    need_dkms
    dkms remove "tickscope/$VERSION" --all || true
    rm -rf "/usr/src/tickscope-$VERSION"
    ;;
*)
    echo "usage: dkms.sh install | remove | source DIR" >&2
    exit 2
    ;;
esac
