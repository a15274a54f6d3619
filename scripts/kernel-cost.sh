#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Static cost of the hot block of each kernel, per core model, with llvm-mca
# (there is no ARM hardware here).  The harnesses in bench/mca/ put one
# kernel block (LBS-4 and DQS-4, p+n+t into the 40-byte vertex, u16 joints,
# f32 weights, 64 joints), one block of LBS-4's arithmetic floor
# (bench/arith.h: its arithmetic alone) and one vertex of the per-vertex
# baseline between LLVM-MCA markers, with every format a constant; clang-14
# -O3 compiles them for each ISA, the marked region is cut out and llvm-mca
# 19 models it on:
#   neon:   cortex-a55, cortex-a76, neoverse-n1
#   armv7:  cortex-a57 running 32-bit code: LLVM has no 32-bit model of
#           the Cortex-A7, A32, A35 or A53, and its A9, A12, A15 and A17
#           models cannot price some of the kernel's NEON instructions.
#           (clang's armv7 unroll threshold left the staging pass's loop
#           over the 4 slots rolled, so it is raised there.)
#   sse2:   znver3, skylake, icelake-server
#   avx2:   znver3, skylake, icelake-server
#   avx512: icelake-server
# Prints cycles per vertex, the baseline/kernel ratio and baseline/arith4,
# the most any kernel doing LBS-4's arithmetic could reach; with --json FILE
# also writes [{isa, cpu, case, cycles_per_vertex}, ...].  The library
# itself is built with gcc: these are estimates of the code's shape, for
# comparing kernel with baseline on cores we cannot run.
# LLVM (19 as 14) models cortex-a76 with Cortex-A57's tables: 3-wide
# dispatch, 128-bit operations at half rate.  neoverse-n1 is its model of
# the Cortex-A76's server twin (the same core: 8-wide issue, two full-width
# vector pipes), so that row is the better estimate for A76-class phones.
set -euo pipefail
cd "$(dirname "$0")/.."
json=""
while [ $# -gt 0 ]; do
  case $1 in
    --json) json=$2; shift 2 ;;
    *) echo "usage: $0 [--json FILE]" >&2; exit 2 ;;
  esac
done
cc=$(command -v clang-14 || command -v clang) || { echo "kernel-cost: clang not found" >&2; exit 1; }
# 19: LLVM 14 has no Neoverse N1 model (its neoverse-n1 is Cortex-A57's too)
mca=$(command -v llvm-mca-19) || { echo "kernel-cost: llvm-mca-19 not found (Debian 12: llvm-19)" >&2; exit 1; }
simde=$(dirname "$(dirname "$(find /usr/include /usr/local/include -path '*simde/x86/avx512.h' 2>/dev/null | head -n 1)")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# isa | lanes | compiler flags | llvm-mca flags per cpu (space-separated cpus)
targets=(
  "neon|4|--target=aarch64-linux-gnu|-mtriple=aarch64-linux-gnu|cortex-a55 cortex-a76 neoverse-n1"
  "armv7|4|--target=armv7a-linux-gnueabihf -mfpu=neon-vfpv4 -mllvm -unroll-threshold=600|-mtriple=armv7a-linux-gnueabihf -mattr=+neon,+vfp4|cortex-a57"
  "sse2|4|-msse2||znver3 skylake icelake-server"
  "avx2|8|-mavx2 -mfma||znver3 skylake icelake-server"
  "avx512|16|-mavx512f -mavx512vl -mavx512bw -mavx512dq -mavx2 -mfma||icelake-server"
)

# region FILE.s REGION: the marked region into $work/region.s
region() {
  awk -v r="$2" '$0 ~ "LLVM-MCA-BEGIN " r "$" {f=1; next} $0 ~ "LLVM-MCA-END " r "$" {f=0} f' "$1" >"$work/region.s"
}

# loops FILE.s REGION: the region's backward branches (x86 j*, aarch64
# b/b.cc/cbz/tbz, arm b/bcc to a label above them), i.e. its loops
loops() {
  region "$1" "$2"
  awk '/^[.A-Za-z0-9_]+:/ {seen[substr($1, 1, length($1) - 1)] = 1; next}
       $1 ~ /^(j[a-z]+|b|b\.?(eq|ne|hs|lo|cs|cc|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)|cbn?z|tbn?z)$/ && seen[$NF] {n++}
       END {print n + 0}' "$work/region.s"
}

# cycles_per_iteration FILE.s REGION MCAFLAGS CPU
cycles() {
  region "$1" "$2"
  # shellcheck disable=SC2086
  "$mca" $3 -mcpu="$4" -iterations=200 "$work/region.s" 2>/dev/null |
    awk '/^Iterations:/ {it=$2} /^Total Cycles:/ {c=$3} END {if (it > 0) printf "%.3f", c / it}'
}

records=()
printf '%-7s %-15s %-10s %10s\n' isa cpu case cycles/v
for t in "${targets[@]}"; do
  IFS='|' read -r isa lanes cflags mflags cpus <<<"$t"
  # shellcheck disable=SC2086
  "$cc" -O3 -S -Wall -Werror $cflags -DSKIN_W="$lanes" -Iinclude -Isrc -Isimd -I"$simde" -o "$work/k.s" bench/mca/mca_kernel.c
  # shellcheck disable=SC2086
  "$cc" -O3 -S -Wall -Werror $cflags -Iinclude -I"$simde" -o "$work/b.s" bench/mca/mca_baseline.c
  # llvm-mca runs a region as straight-line code: a loop left rolled
  # counts as one pass, so the kernel regions must have none.  The
  # baseline's influence loop stays rolled on some targets, as the
  # compilers build it for the bench: its estimate is then low.
  for c in lbs4 dqs4 arith4; do
    if [ "$(loops "$work/k.s" $c)" -gt 0 ]; then
      echo "kernel-cost: $isa $c: a loop left rolled in the region" >&2
      exit 1
    fi
  done
  [ "$(loops "$work/b.s" baseline4)" -eq 0 ] ||
    echo "note: $isa baseline4 keeps a loop rolled: counted once, its estimate is low" >&2
  for cpu in $cpus; do
    base=$(cycles "$work/b.s" baseline4 "$mflags" "$cpu")
    for c in lbs4 dqs4 arith4; do
      per_block=$(cycles "$work/k.s" "$c" "$mflags" "$cpu")
      v=$(awk -v b="$per_block" -v w="$lanes" 'BEGIN {printf "%.3f", b / w}')
      printf '%-7s %-15s %-10s %10s\n' "$isa" "$cpu" "$c" "$v"
      records+=("{\"isa\": \"$isa\", \"cpu\": \"$cpu\", \"case\": \"$c\", \"cycles_per_vertex\": $v}")
      [ "$c" = lbs4 ] && lbs=$v
      [ "$c" = arith4 ] && arith=$v
    done
    printf '%-7s %-15s %-10s %10s   baseline/lbs4 = %s, baseline/arith4 = %s\n' "$isa" "$cpu" baseline4 "$base" \
      "$(awk -v b="$base" -v l="$lbs" 'BEGIN {printf "%.2f", b / l}')" \
      "$(awk -v b="$base" -v a="$arith" 'BEGIN {printf "%.2f", b / a}')"
    records+=("{\"isa\": \"$isa\", \"cpu\": \"$cpu\", \"case\": \"baseline4\", \"cycles_per_vertex\": $base}")
  done
done
if [ -n "$json" ]; then
  { echo "["; for i in "${!records[@]}"; do
      sep=,; [ "$i" -eq $((${#records[@]} - 1)) ] && sep=""
      echo "  ${records[$i]}$sep"
    done; echo "]"; } >"$json"
fi
