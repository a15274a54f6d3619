#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what building and testing skin needs on Debian 12 (as root).
# Idempotent: does nothing when every package is already installed.
set -euo pipefail

packages=(
  build-essential cmake pkg-config g++       # toolchain; g++ for the C++ header test
  libsimde-dev                               # SIMD kernels
  libomp-dev                                 # LLVM OpenMP (gcc's libgomp comes with gcc)
  libvulkan-dev glslc                        # skin_vk and its compute shaders
  spirv-tools                                # spirv-val checks the compiled shaders
  mesa-vulkan-drivers vulkan-validationlayers  # lavapipe + validation for the Vulkan tests
  qemu-user gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross  # aarch64 cross build, run under qemu
  libassimp-dev assimp-testmodels            # real-asset tests (skinned, animated models)
  libpng-dev                                 # skin-demo writes its picture as PNG
  clang llvm-19                              # scripts/kernel-cost.sh: clang-14 and llvm-mca-19
  libclang-rt-14-dev                         # libFuzzer and clang's sanitizer runtimes (SKIN_FUZZ)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: run as root to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
