# SPDX-License-Identifier: MIT
# toolchain-aarch64.cmake: cross-compile for arm64 Linux and run the tests under QEMU's user-mode
# emulation (ctest runs every test program through CMAKE_CROSSCOMPILING_EMULATOR; the shell tests
# get wrappers, see tests/CMakeLists.txt).
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake
# Needs: apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
# (g++-aarch64-linux-gnu only for the optional C++ parts). TKS_AARCH64_PREFIX picks another
# triplet's tools; TKS_AARCH64_SYSROOT another target root.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(TKS_AARCH64_PREFIX "aarch64-linux-gnu-" CACHE STRING "Prefix of the arm64 cross tools")
set(TKS_AARCH64_SYSROOT "/usr/aarch64-linux-gnu" CACHE PATH "The arm64 C library's root (for QEMU)")
set(CMAKE_C_COMPILER "${TKS_AARCH64_PREFIX}gcc")
find_program(_tks_aarch64_cxx "${TKS_AARCH64_PREFIX}g++")
if(_tks_aarch64_cxx)
  set(CMAKE_CXX_COMPILER "${_tks_aarch64_cxx}")
endif()

# qemu-aarch64 finds the arm64 dynamic loader and libraries under -L.
find_program(TKS_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(TKS_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${TKS_QEMU_AARCH64};-L;${TKS_AARCH64_SYSROOT}")
endif()

set(CMAKE_FIND_ROOT_PATH "${TKS_AARCH64_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
