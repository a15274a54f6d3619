#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, builds skin-bench (Release, in build/ or
# $SKIN_BENCH_BUILD_DIR) and prints the quick benchmark table with the
# performance bars.  Extra arguments go to skin-bench.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${SKIN_BENCH_BUILD_DIR:-build}
scripts/setup.sh
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DSKIN_BUILD_BENCH=ON
cmake --build "$dir" --target skin-bench -j"$(nproc)"
exec "$dir/bench/skin-bench" --quick "$@"
