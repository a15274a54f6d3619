#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages skin needs (as root, or through sudo).
#   scripts/setup.sh         everything building and testing needs
#   scripts/setup.sh bench   only what skin-bench needs (scripts/run-bench.sh)
#   scripts/setup.sh plot    python3-matplotlib for scripts/plot-bench.py (about
#                            350 MB with its dependencies, so kept apart)
# Idempotent: does nothing when every package is already installed.
set -euo pipefail

bench=(
  build-essential cmake pkg-config           # toolchain
  libsimde-dev                               # SIMD kernels
  libassimp-dev assimp-testmodels            # the bench's real models (and the asset tests)
  libvulkan-dev glslc                        # skin_vk and its compute shaders (the bench's
                                             # Vulkan part runs where a driver is installed)
)
tests=(
  g++                                        # the C++ header test
  spirv-tools                                # spirv-val checks the compiled shaders
  mesa-vulkan-drivers vulkan-validationlayers  # lavapipe + validation for the Vulkan tests
  qemu-user gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross  # aarch64 cross build, run under qemu
  gcc-arm-linux-gnueabihf g++-arm-linux-gnueabihf libc6-dev-armhf-cross        # armv7 cross build, run under qemu
  libpng-dev                                 # skin-demo writes its picture as PNG
  clang llvm-19                              # scripts/kernel-cost.sh: clang-14 and llvm-mca-19
  libclang-rt-14-dev                         # libFuzzer and clang's sanitizer runtimes (SKIN_FUZZ)
  emscripten assimp-utils                    # the WebAssembly build; assimp's CLI converts its test characters
)

case "${1:-all}" in
  bench) packages=("${bench[@]}") ;;
  plot) packages=(python3-matplotlib) ;;
  all) packages=("${bench[@]}" "${tests[@]}") ;;
  *) echo "usage: $0 [bench|plot]" >&2; exit 2 ;;
esac

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
