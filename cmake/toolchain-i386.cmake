# SPDX-License-Identifier: MIT
# toolchain-i386.cmake: a 32-bit x86 build with the host's gcc (or clang) and -m32.
#   cmake -S . -B build-i386 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-i386.cmake
# Needs the 32-bit C library: apt-get install libc6-dev-i386 lib32gcc-12-dev (gcc-multilib
# brings them too, but Debian will not install it beside gcc-aarch64-linux-gnu).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_C_FLAGS_INIT "-m32")
set(CMAKE_CXX_FLAGS_INIT "-m32")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-m32")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-m32")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-m32")

# <errno.h> includes <asm/errno.h>. gcc-multilib provides /usr/include/asm for -m32; without it
# (libc6-dev-i386 alone) point the compiler at the kernel's x86 headers, which serve both widths.
if(NOT EXISTS /usr/include/asm AND NOT EXISTS /usr/include/i386-linux-gnu/asm
   AND EXISTS /usr/include/x86_64-linux-gnu/asm)
  set(_tks_shim "${CMAKE_BINARY_DIR}/tks-i386-include")
  if(NOT EXISTS "${_tks_shim}/asm")
    file(MAKE_DIRECTORY "${_tks_shim}")
    file(CREATE_LINK /usr/include/x86_64-linux-gnu/asm "${_tks_shim}/asm" SYMBOLIC)
  endif()
  string(APPEND CMAKE_C_FLAGS_INIT " -idirafter ${_tks_shim}")
  string(APPEND CMAKE_CXX_FLAGS_INIT " -idirafter ${_tks_shim}")
endif()
