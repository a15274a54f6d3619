#!/bin/bash
# SPDX-License-Identifier: MIT
# Checks on a lent GPU machine (x86-64, no network, none of the project's
# packages): the Vulkan tests and demos on its GPU, the CPU-vs-GPU bench, the
# kernels' tests and the quick bench on its CPU, and the kernels' output
# digests against tests/digests-x86.txt. Never part of CI.
#
#   scripts/gpu-machine.sh bundle [BUILD] [DIR]   here: pack BUILD's programs, the
#       shared libraries they need (the Vulkan loader, glvnd for the NVIDIA
#       driver, the validation layer) and the test models into DIR/stage.tar.xz
#       (defaults: build, .dev; DIR must be ignored by git and carried)
#   scripts/gpu-machine.sh run [DIR] [OUT]        there: unpack and run it all,
#       writing log.txt, digests.txt, gpu.json, quick.json and demo PNGs to OUT
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
MODELS=/usr/share/assimp/models
BINS="bench/skin-bench bench/skin-kernel-run bench/test_baseline examples/skin-demo tests/vk/test_vk_* tests/test_kernels
      tests/test_morph tests/test_assets tests/test_golden tests/test_split tests/test_threads tests/test_isa_race
      tests/test_properties"
ASSETS="X/Testwuson.X X/BCN_Epileptic.X X/anim_test.x X/test.x FBX/animation_with_skeleton.fbx FBX/huesitos.fbx SMD/WusonSMD.smd
        glTF2/simple_skin glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF"

bundle() {
    local build=${1:-build} dir=${2:-.dev} stage
    stage=$(mktemp -d)/stage
    mkdir -p "$stage"/{bin,lib,layer,models} "$dir" || exit 1
    (cd "$build" && cp $BINS "$stage/bin/") && strip "$stage"/bin/* || exit 1
    # Everything but glibc and the C++ runtime, which the machine has (newer).
    ldd "$stage"/bin/* | awk '$3 ~ /^\// {print $3}' | sort -u |
        grep -Ev '/(libc|libm|libpthread|libdl|librt|libstdc\+\+|libgcc_s)\.so' | xargs -r cp -L -t "$stage/lib/"
    local multiarch=/usr/lib/x86_64-linux-gnu
    for l in libGLdispatch.so.0 libGLX.so.0 libEGL.so.1 libOpenGL.so.0 libGL.so.1 libVkLayer_khronos_validation.so; do
        cp -L "$multiarch/$l" "$stage/lib/" || exit 1
    done
    cp /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json "$stage/layer/"
    (cd "$MODELS" && cp -r --parents $ASSETS "$stage/models/") || exit 1
    tar cf - -C "$(dirname "$stage")" stage | xz -T0 -6 > "$dir/stage.tar.xz" || exit 1
    rm -rf "$(dirname "$stage")"
    ls -l "$dir/stage.tar.xz"
}

run() {
    local dir=${1:-.dev} out=${2:-${OUT:-/tmp/gpu-out}} t0 s b icd rc
    mkdir -p "$out"
    exec > >(tee -a "$out/log.txt") 2>&1
    t0=$(date +%s)
    step() { echo "== [$(( $(date +%s) - t0 )) s] $*"; }
    tar xJf "$dir/stage.tar.xz" -C /tmp || exit 1
    s=/tmp/stage b=/tmp/stage/bin
    export LD_LIBRARY_PATH=$s/lib:/usr/local/nvidia/lib64 VK_LAYER_PATH=$s/layer CI=true
    mkdir -p "$(dirname $MODELS)" && [ -e $MODELS ] || ln -s $s/models $MODELS
    icd=$(ls /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json 2>/dev/null ||
          find /usr /etc -name 'nvidia_icd*.json' 2>/dev/null | head -1)
    [ -n "$icd" ] && export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd
    lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Socket'; nvidia-smi -L
    step "digests (against tests/digests-x86.txt)"
    "$root/tests/check_digests.sh" print $b/skin-kernel-run > "$out/digests.txt"
    diff "$root/tests/digests-x86.txt" "$out/digests.txt" && echo "digests: all equal"
    step "Vulkan tests (each prints one VALIDATION line: the canary that proves sync validation is on)"
    for t in $b/test_vk_*; do
        timeout 120 "$t" > /tmp/vk.log 2>&1
        rc=$?; echo "$(basename "$t") rc=$rc $(grep -m1 'device' /tmp/vk.log)"; [ $rc = 0 ] || tail -20 /tmp/vk.log
    done
    export SKIN_DEMO_VALIDATION=1
    timeout 60 $b/skin-demo -o "$out/demo.png" --check; echo "demo rc=$?"
    timeout 60 $b/skin-demo $MODELS/X/Testwuson.X --method both --anim Wuson_Run --time 0.3 \
        --png "$out/wuson.png" --size 480x300 --check; echo "demo Testwuson rc=$?"
    timeout 60 $b/skin-demo $MODELS/glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf --frames 5 \
        --png "$out/morphcube.png" --size 800x320 --check; echo "demo morph cube rc=$?"
    unset SKIN_DEMO_VALIDATION
    step "kernel tests on this CPU"
    { for i in scalar sse2 avx2 avx512; do echo "SKIN_ISA=$i $b/test_kernels"; echo "SKIN_ISA=$i $b/test_morph"; done
      echo "SKIN_ISA=avx512 $b/test_assets $MODELS"
      for t in test_golden test_split test_threads test_isa_race test_properties test_baseline; do echo "$b/$t"; done
    } | xargs -P 8 -I{} sh -c 'log=$(mktemp); timeout 300 env {} > $log 2>&1; rc=$?; echo "rc=$rc {}"; [ $rc = 0 ] || tail -5 $log'
    step "CPU path against GPU path"
    timeout 150 $b/skin-bench --gpu --json "$out/gpu.json"; echo "rc=$?"
    step "quick bench, threads spread over the cores"
    timeout 200 $b/skin-bench --quick --json "$out/quick.json"; echo "rc=$?"
    step done
}

case "${1:-}" in
bundle) shift; bundle "$@" ;;
run) shift; run "$@" ;;
*) sed -n '2,12p' "$0"; exit 2 ;;
esac
