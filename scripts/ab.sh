#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Interleaved A/B timing of two revisions: builds skin-kernel-run at each
# (git worktrees and builds under build-ab/, kept for the next run), then
# runs the two in turn, ROUNDS times, pinned to one CPU, and prints each
# one's ns/vertex sorted and the ratio of the medians (B / A).  The
# project's machines have slow phases of seconds to minutes, so two builds
# timed one after the other can fall on either side of one; taken in turn,
# both see the same phases.  SKIN_ISA passes through.
#   scripts/ab.sh [-r ROUNDS] [-c CPU] REV_A REV_B [skin-kernel-run arguments]
# e.g. SKIN_ISA=avx2 scripts/ab.sh HEAD~1 HEAD lbs 10000 4 random 200 none f32 apart
# A revision may be WORKTREE: the working tree as it is, uncommitted changes too.
# To clean up: rm -rf build-ab && git worktree prune.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
rounds=7 cpu=1
while getopts "r:c:" opt; do
  case $opt in
    r) rounds=$OPTARG ;;
    c) cpu=$OPTARG ;;
    *) sed -n '2,12s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '2,12s/^# \{0,1\}//p' "$0" >&2; exit 2; }
revs=("$1" "$2")
shift 2

# build REV: skin-kernel-run of REV, its path on stdout
build() {
  local rev=$1 src dir
  if [ "$rev" = WORKTREE ]; then
    src=$PWD dir=build-ab/WORKTREE
  else
    local id
    id=$(git rev-parse --short "$rev^{commit}")
    src=build-ab/src-$id dir=build-ab/$id
    [ -d "$src" ] || git worktree add -q --detach "$src" "$id" >&2
  fi
  cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DSKIN_BUILD_TESTS=OFF -DSKIN_BUILD_EXAMPLES=OFF \
    -DSKIN_VULKAN=OFF -DSKIN_ASSETS=OFF >/dev/null
  cmake --build "$dir" --target skin-kernel-run -j"$(nproc)" >/dev/null
  echo "$dir/bench/skin-kernel-run"
}

bins=()
for i in 0 1; do bins[i]=$(build "${revs[i]}"); done
times=("" "") # each build's times, one a line
for ((r = 0; r < rounds; ++r)); do
  for i in 0 1; do
    t=$(taskset -c "$cpu" "${bins[i]}" "$@" | sed -n 's/.*: \([0-9.]*\) ns\/vertex.*/\1/p')
    [ -n "$t" ] || { echo "ab: ${revs[i]} printed no time" >&2; exit 1; }
    times[i]+="$t"$'\n'
  done
done
median() { grep . | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
for i in 0 1; do
  echo "${revs[i]}: $(printf %s "${times[i]}" | sort -n | tr '\n' ' ')(median $(printf %s "${times[i]}" | median))"
done
awk -v a="$(printf %s "${times[0]}" | median)" -v b="$(printf %s "${times[1]}" | median)" \
  'BEGIN {printf "B / A (medians): %.3f\n", b / a}'
