#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, then builds and tests skin in several
# configurations, each in its own directory under build-ci/.  Prints one
# summary line "run-tests: N passed, M failed" and exits nonzero if any
# test (or any configure/build) failed.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scripts/setup.sh || { echo "run-tests: setup failed" >&2; echo "run-tests: 0 passed, 1 failed"; exit 1; }

jobs=$(nproc)
# CI=true reaches ctest (and the tests) through the environment: there a
# missing Vulkan device is a failure, not a skip.
if [ -n "${CI:-}" ]; then export CI; fi

passed=0 failed=0 skipped=0 report=() failures=()

# test_output DIR TEST: what TEST printed in the last ctest run in DIR.
test_output() {
  awk -v t="$2" '$0 ~ "^[0-9]+/[0-9]+ Test: " && $NF == t { want = 1; next }
    want && $0 == "<end of output>" { exit }
    want && seen { print; next }
    want && /^-+$/ { seen = 1 }' "$1/Testing/Temporary/LastTest.log" 2>/dev/null
}

# config NAME "CTEST ARGS" CMAKE ARGS...
config() {
  local name=$1 ctest_args=$2 dir=$root/build-ci/$1 log t0=$SECONDS
  shift 2
  log=$dir.log
  mkdir -p "$dir"
  echo "=== $name: configure and build"
  if ! { cmake -S "$root" -B "$dir" "$@" && cmake --build "$dir" -j"$jobs"; } >"$log" 2>&1; then
    tail -n 40 "$log"
    echo "=== $name: configure/build FAILED (full log: $log)"
    failed=$((failed + 1)) report+=("$name: build failed ($((SECONDS - t0)) s)")
    return
  fi
  echo "=== $name: ctest $ctest_args"
  local out
  # shellcheck disable=SC2086  # ctest_args is a word list on purpose
  out=$(cd "$dir" && ctest --output-on-failure --no-tests=ignore --timeout 900 -j"$jobs" $ctest_args 2>&1)
  local rc=$?
  printf '%s\n' "$out"
  # "NN% tests passed, F tests failed out of T"; absent when nothing matched.
  local line total=0 bad=0 skip
  line=$(printf '%s\n' "$out" | grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' | tail -n 1)
  # Tests that skipped themselves (SKIP_RETURN_CODE) count as neither.
  skip=$(printf '%s\n' "$out" | grep -cE '^[[:space:]]*[0-9]+ - .*\(Skipped\)$')
  if [ -n "$line" ]; then
    bad=$(sed -E 's/.* ([0-9]+) tests? failed out of.*/\1/' <<<"$line")
    total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")
  elif [ $rc -ne 0 ]; then
    bad=1 # ctest itself failed without a summary
  fi
  passed=$((passed + total - bad - skip)) failed=$((failed + bad)) skipped=$((skipped + skip))
  # The end of each failing test's output is repeated at the end of the run,
  # where a truncated CI log still shows it.
  local t
  while read -r t; do
    failures+=("--- $name: $t (the end of its output)")
    mapfile -t -O "${#failures[@]}" failures < <(test_output "$dir" "$t" | tail -n 30)
  done < <(printf '%s\n' "$out" | awk '/^The following tests FAILED:/ { on = 1; next }
                                      on && /^[[:space:]]+[0-9]+ - / { print $3; next } { on = 0 }')
  report+=("$name: $((total - bad - skip)) passed, $bad failed, $skip skipped ($((SECONDS - t0)) s)")
}

start=$SECONDS
# Only the main configuration builds the bench and Vulkan.
lean=(-DSKIN_BUILD_BENCH=OFF)

# 1. Everything, warnings as errors, every test (per-ISA kernels, Vulkan on lavapipe).
#    A CPU without AVX-512 (e.g. AMD Zen 3) leaves the native 16-lane tests
#    out here rather than skipping them: configuration 2 runs those kernels.
#    The sanitizer and fuzz builds compile only the x86 kernels this CPU
#    runs (runnable); the AVX-512 ones, where it lacks them, are tested in
#    configuration 2 (compiled at -O0 with ASan they took minutes).
main_args=""
runnable="sse2;avx2;avx512"
if ! grep -qw avx512bw /proc/cpuinfo 2>/dev/null; then
  main_args="-E ^(kernels|assets)_avx512$"
  runnable="sse2;avx2"
  echo "=== main: no AVX-512 on this CPU: kernels_avx512/assets_avx512 run in portable-kernels"
fi
config main "$main_args" -DCMAKE_BUILD_TYPE=Release -DSKIN_WERROR=ON -DSKIN_CHECK_DIGESTS=ON

# 2. Portable kernels: the 16-lane x86 kernels compiled without -m flags
#    and with SIMDE_NO_NATIVE (SIMDe's plain C fallbacks, no native
#    intrinsics), so their tests run on a CPU without AVX-512 (one with it
#    ran them natively above).  -O1: at -O3 gcc needs many minutes for the
#    emulated AVX-512 kernel.
if [ -n "$main_args" ]; then
  config portable-kernels "-L kernels -R avx512" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS=-DSIMDE_NO_NATIVE \
    "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG" -DSKIN_PORTABLE_KERNELS=ON -DSKIN_X86_KERNELS=avx512 \
    -DSKIN_WERROR=ON -DSKIN_VULKAN=OFF "${lean[@]}"
fi

# 3. AddressSanitizer + UndefinedBehaviorSanitizer, all but the package test:
#    the Vulkan tests (bad-argument table, fault injection) run on lavapipe
#    here too, with lavapipe preloaded and its own leaks suppressed
#    (tests/support/CMakeLists.txt).
config asan-ubsan "-LE package" -DCMAKE_BUILD_TYPE=Debug \
  -DSKIN_SANITIZE=address,undefined "-DSKIN_X86_KERNELS=$runnable" "${lean[@]}"

# 4. ThreadSanitizer on the thread tests: user threads calling skin_mesh,
#    skin_mesh_parallel's pool, several users of the pool at once.
config tsan "-L threads" -DCMAKE_BUILD_TYPE=Debug \
  -DSKIN_SANITIZE=thread "-DSKIN_X86_KERNELS=$runnable" -DSKIN_VULKAN=OFF "${lean[@]}"

# 5. libFuzzer: fuzz_mesh, fuzz_helpers and fuzz_assets (the loader on
#    scenes built from the input), SKIN_FUZZ_SECONDS (30) each from their
#    seeds, as CTest tests (label fuzz): a crash, sanitizer report or failed
#    oracle fails the run.  clang; -O1 keeps the build short (the kernels get
#    coverage only, see SKIN_FUZZ in CMakeLists.txt).
config fuzz "-L fuzz" -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g" -DSKIN_FUZZ=ON -DSKIN_WERROR=ON -DSKIN_BUILD_TESTS=OFF \
  "-DSKIN_X86_KERNELS=$runnable" \
  -DSKIN_ASSETS=ON -DSKIN_BUILD_EXAMPLES=OFF -DSKIN_VULKAN=OFF "${lean[@]}"

# 5b. The kernels as clang -O3 builds them (the compiler of Android's NDK
#    and Apple's toolchains), warnings as errors, and their tests: clang
#    builds some code differently enough to need its own run (until 9a25692
#    it left the blocks' loops rolled, at up to half the speed).
config clang-kernels "-L kernels $main_args" -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_BUILD_TYPE=Release -DSKIN_WERROR=ON -DSKIN_VULKAN=OFF -DSKIN_BUILD_EXAMPLES=OFF "${lean[@]}"

# 6. aarch64 (NEON kernels) cross build, every test under qemu-aarch64 but
#    the scalar kernels' and the pool's stress test (the same C, run natively
#    above; under qemu a minute of the run); the bench's programs too, for
#    the baseline's test and NEON's output digests (the scalar ones included).
config aarch64 "-E ^(kernels_scalar|morph_scalar|core.test_parallel_users)$" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake" -DSKIN_VULKAN=OFF -DSKIN_CHECK_DIGESTS=ON

# 6b. The NEON kernels and morphs under UndefinedBehaviorSanitizer (qemu):
#    SIMDe's NEON forms of some SSE intrinsics access memory through aligned
#    types, which the Release run above tolerates (ffaccf7: an 8-byte store
#    at 4 mod 8 in packed records).  Release, so it tests the kernels' code.
config aarch64-ubsan "-L kernels|morph" -DCMAKE_BUILD_TYPE=Release -DSKIN_SANITIZE=undefined \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake" -DSKIN_VULKAN=OFF -DSKIN_ASSETS=OFF \
  -DSKIN_BUILD_EXAMPLES=OFF "${lean[@]}"

# 6c. armv7 (32-bit ARM, NEON) cross build: the NEON kernels against the
#    reference, the golden vertices and the morphs, under qemu-arm.
config armv7 "-R ^(kernels_neon|morph_neon|core.test_golden|core.size)$" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/arm-linux-gnueabihf.cmake" -DSKIN_VULKAN=OFF -DSKIN_ASSETS=OFF \
  -DSKIN_BUILD_EXAMPLES=OFF -DSKIN_WERROR=ON "${lean[@]}"

# 7. WebAssembly (Emscripten, run under node): the module without SIMD
#    (SKIN_SIMD=OFF, build only), then with the SIMD128 kernels: the kernel,
#    golden and bad-input tests under node, and wasm/'s tests (label wasm:
#    npm ci installs three.js from wasm/package-lock.json, then the module
#    against the no-SIMD one, against three.js on assimp's characters, bad
#    input).
wasm_args=(-DCMAKE_BUILD_TYPE=Release -DSKIN_WERROR=ON -DSKIN_VULKAN=OFF -DSKIN_ASSETS=OFF -DSKIN_THREADS=OFF
  -DSKIN_BUILD_EXAMPLES=OFF "${lean[@]}"
  -DCMAKE_TOOLCHAIN_FILE="$(em-config EMSCRIPTEN_ROOT)/cmake/Modules/Platform/Emscripten.cmake")
config wasm-scalar "" "${wasm_args[@]}" -DSKIN_SIMD=OFF -DSKIN_BUILD_TESTS=OFF
config wasm "" "${wasm_args[@]}" -DSKIN_WASM_SCALAR_DIR="$root/build-ci/wasm-scalar/wasm"

echo
if [ ${#failures[@]} -gt 0 ]; then printf '%s\n' "${failures[@]}"; echo; fi
printf '  %s\n' "${report[@]}"
echo "  total $((SECONDS - start)) s; $skipped tests skipped themselves (not counted)"
echo "run-tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
