#!/usr/bin/env bash
# The kernels' output bits against the recorded ones: results for a given
# ISA must be bit-identical on every x86 vendor, and a kernel change that
# means to keep its bits must keep them.  Runs `scripts/gpu-machine.sh
# digests SKIN_KERNEL_RUN` (96 cases: every ISA, LBS and DQS, 1/3/4/8
# influences, both rigs, every output format, dense and sparse morphs) and
# compares it with GOLDEN, leaving out the ISAs this CPU cannot run.  The
# digests are those of CI's main configuration (Debian 12's gcc, Release);
# a change that alters bits on purpose records them anew:
#   scripts/gpu-machine.sh digests build/bench/skin-kernel-run > tests/digests-x86.txt
#   tests/check_digests.sh SKIN_KERNEL_RUN GOLDEN
set -euo pipefail
bin=$1 golden=$2
root=$(cd "$(dirname "$0")/.." && pwd)
# An ISA runs when skin-kernel-run reports it back (skin falls back to the
# best ISA the CPU has otherwise).
ran=()
for isa in scalar sse2 avx2 avx512; do
  if SKIN_ISA=$isa "$bin" lbs 16 1 random 1 | grep -q "^lbs $isa "; then ran+=("$isa"); fi
done
pattern="^($(IFS='|'; echo "${ran[*]}")) "
echo "check_digests: ISAs run here: ${ran[*]}"
if diff <(grep -E "$pattern" "$golden") <("$root/scripts/gpu-machine.sh" digests "$bin" | grep -E "$pattern"); then
  echo "check_digests: $(grep -cE "$pattern" "$golden") digests equal"
else
  echo "check_digests: output bits differ from $golden (lines < recorded, > here)" >&2
  exit 1
fi
