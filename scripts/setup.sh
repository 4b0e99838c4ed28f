#!/usr/bin/env bash
# Installs the system packages kivl builds against (Debian): the Z3 library and headers
# (the `z3` crate links the system libz3), the z3 binary, and libclang (bindgen generates the
# Z3 bindings from the installed z3.h), and clang-14 / llvm-14-dev for the OpenCL/CUDA front end
# (clang and opt run as subprocesses; the llvm-ir crate links libLLVM-14.so, found through
# .cargo/config.toml), and g++-multilib: the device side is compiled for 32-bit nvptx, whose host
# side is then 32-bit x86, so a whole program's host code (`#include <cstdio>`, `<vector>`) needs
# the 32-bit C and C++ headers. Does nothing when they are present.
set -euo pipefail
missing=()
for pkg in libz3-dev z3 libclang-dev clang-14 llvm-14-dev g++-multilib; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi
command -v cargo >/dev/null || { echo "setup: cargo not found; install Rust (rustup) first" >&2; exit 1; }
