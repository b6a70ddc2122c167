#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# versions.sh SOURCE_DIR: one version everywhere it is written: the CMake project, the public
# header (TKS_VERSION_STRING), the kernel module (MODULE_VERSION) and its DKMS package.
set -u
root=${1:?usage: versions.sh SOURCE_DIR}
cmake=$(sed -n 's/^project(tickscope VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
header=$(sed -n 's/^#define TKS_VERSION_STRING "\(.*\)"/\1/p' "$root/include/tickscope/common.h")
module=$(sed -n 's/^#define TKS_KMOD_MODULE_VERSION "\(.*\)"/\1/p' "$root/kmod/internal.h")
dkms=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$root/kmod/dkms.conf")
echo "CMakeLists.txt $cmake, common.h $header, kmod/internal.h $module, kmod/dkms.conf $dkms"
if [ -z "$cmake" ] || [ "$cmake" != "$header" ] || [ "$cmake" != "$module" ] || [ "$cmake" != "$dkms" ]; then
    echo "FAIL: the versions differ"
    exit 1
fi
