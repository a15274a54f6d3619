#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what skin-bench needs (scripts/setup.sh bench), builds it (Release,
# in build/ or $SKIN_BENCH_BUILD_DIR) and runs its quick mode, which opens with
# a summary.  Extra arguments go to skin-bench, e.g. --check for the targets,
# or --json FILE for scripts/plot-bench.py.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${SKIN_BENCH_BUILD_DIR:-build}
scripts/setup.sh bench
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DSKIN_BUILD_BENCH=ON
cmake --build "$dir" --target skin-bench -j"$(nproc)"
exec "$dir/bench/skin-bench" --quick "$@"
