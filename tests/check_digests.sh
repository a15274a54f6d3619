#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The kernels' output bits against recorded ones.  Results for a given ISA
# must be bit-identical on every x86 vendor (and NEON's on every aarch64
# core), and a kernel change that means to keep its bits must keep them.
# 96 cases for the x86 ISAs, 48 for aarch64's: every ISA this machine runs,
# LBS and DQS, 1/3/4/8 influences, both rigs, every output format, dense and
# sparse morphs; one line each: ISA, case, input and output FNV-1a digests
# of skin-kernel-run.  RUN is skin-kernel-run, after an emulator if it needs
# one (the aarch64 build's qemu-aarch64 -L ...).
#   tests/check_digests.sh print RUN...          the digests, to stdout
#   tests/check_digests.sh check GOLDEN RUN...   compare with GOLDEN
# The golden files are from CI's main and aarch64 configurations (Debian 12's
# gcc, Release); a change that alters bits on purpose records them anew:
#   tests/check_digests.sh print build/bench/skin-kernel-run > tests/digests-x86.txt
set -euo pipefail
mode=${1:-} golden=
if [ "$mode" = check ]; then golden=$2; shift; fi
[ "$mode" = print ] || [ "$mode" = check ] || { sed -n '2,15p' "$0" >&2; exit 2; }
shift
run=("$@")
# An ISA runs when skin-kernel-run reports it back (skin falls back to the
# best ISA the CPU has otherwise).
isas=()
for isa in scalar sse2 avx2 avx512 neon; do
  line=$(SKIN_ISA=$isa "${run[@]}" lbs 16 1 random 1 || true)
  if [[ $line == "lbs $isa "* ]]; then isas+=("$isa"); fi
done
# one case ISA METHOD K RIG MORPH FORMAT: its line
one() {
  echo "$1 $2 k$3 $4 $5 $6 $(SKIN_ISA=$1 "${run[@]}" "$2" 10007 "$3" "$4" 1 "$5" "$6" | grep -o 'in .*')"
}
digests() {
  for isa in "${isas[@]}"; do
    for m in lbs dqs; do
      for k in 1 3 4 8; do for rig in random coherent; do one "$isa" $m $k $rig none f32; done; done
      for f in snorm16 1010102; do one "$isa" $m 4 random none $f; done
      for mo in dense sparse; do one "$isa" $m 4 random $mo f32; done
    done
  done
}
if [ "$mode" = print ]; then digests; exit 0; fi
pattern="^($(IFS='|'; echo "${isas[*]}")) "
echo "check_digests: ISAs run here: ${isas[*]}"
if diff <(grep -E "$pattern" "$golden") <(digests); then
  echo "check_digests: $(grep -cE "$pattern" "$golden") digests equal"
else
  echo "check_digests: output bits differ from $golden (lines < recorded, > here)" >&2
  exit 1
fi
