/* SPDX-License-Identifier: MIT */
/* skin-kernel-run: one case, for profilers (valgrind --tool=callgrind) and
 * quick A/B timings.  Skins a 64-joint rig (random unless RIG says)
 * with u8 joints and f32 weights into the 40-byte interleaved p+n+t vertex,
 * REPS times, and prints the best ns/vertex.
 *   skin-kernel-run [lbs|dqs|baseline] [vertices] [influences] [RIG] [reps] [morph] [format]
 *                   [streams] [output]
 * RIG: random, coherent (rig_coherent), or grouped: the random rig with
 * each slot's joint shared by 16 consecutive vertices, so that every block
 * takes the uniform path (the most that grouping vertices by their joints
 * could give).
 * morph: dense or sparse (8 targets, position and normal deltas; sparse on
 * 10% of the vertices, see rig_morph_targets) or none.  format: the
 * normals' and tangents' format, f32 (default), snorm16 or 1010102 (a
 * tight vertex of 28 or 20 bytes; skin only).  streams: as the rig
 * allocates them (default: calloc'd, so from about 32k vertices on each 16
 * bytes past a page), aliased (all 18 input streams in one block at the same
 * address modulo 4 KiB) or apart (the same block, stream i moved 64 i
 * bytes further).  output: inter (default), inter-stream (the same, page
 * aligned, with SKIN_OUTPUT_STREAMING; skin only), or planar f32 streams
 * (skin only) in one block, each at the same address modulo 4 KiB
 * (soa-aliased, as separate large allocations are) or stream i 64 i bytes
 * further (soa-apart).
 * The ISA is skin's choice or SKIN_ISA; the baseline is the build of that
 * ISA's tier.  Under callgrind use reps 1: the kernel's share of the
 * instruction count is in the functions named blocks_*, stage* and
 * skin_kernel_*.  It also prints FNV-1a digests of the inputs and of the
 * last output, so two machines can be checked for bit-identical results
 * (same digest of the inputs, same ISA: the outputs' digests must match). */
#define _POSIX_C_SOURCE 200809L
#include "baseline.h"
#include "rig.h"
#include "skin/skin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t size)
{
    for (size_t i = 0; i < size; ++i) h = (h ^ ((const unsigned char *)data)[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t rig_digest(const rig *r, size_t n, uint32_t k)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int s = 0; s < 10; ++s) h = fnv1a(h, r->streams[s], n * sizeof(float));
    for (uint32_t i = 0; i < k; ++i) h = fnv1a(fnv1a(h, r->joints[i], n), r->weights[i], n * sizeof(float));
    h = fnv1a(h, r->matrices, 64 * 12 * sizeof(float));
    return fnv1a(h, r->dual_quats, 64 * 8 * sizeof(float));
}

/* bytes rounded up to whole 4 KiB pages, as aligned_alloc(4096, ...) wants */
static size_t pages(size_t bytes) { return (bytes + 4095) / 4096 * 4096; }

int main(int argc, char **argv)
{
    const char *method = argc > 1 ? argv[1] : "lbs";
    const size_t n = argc > 2 ? strtoul(argv[2], NULL, 10) : 10000;
    const uint32_t k = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 4;
    const char *rig_name = argc > 4 ? argv[4] : "random";
    const int coherent = !strcmp(rig_name, "coherent"), grouped = !strcmp(rig_name, "grouped");
    const int reps = argc > 5 ? atoi(argv[5]) : 20;
    const char *morph = argc > 6 ? argv[6] : "none";
    const char *format = argc > 7 ? argv[7] : "f32";
    const char *streams = argc > 8 ? argv[8] : "rig";
    const char *output = argc > 9 ? argv[9] : "inter";
    const int soa = !strncmp(output, "soa-", 4), stream = !strcmp(output, "inter-stream");
    const skin_vector_format vf = !strcmp(format, "snorm16")   ? SKIN_VECTOR_SNORM16
                                  : !strcmp(format, "1010102") ? SKIN_VECTOR_1010102
                                                               : SKIN_VECTOR_F32;
    const int base = strcmp(method, "baseline") == 0;
    if ((!base && strcmp(method, "lbs") != 0 && strcmp(method, "dqs") != 0) || n == 0 || k < 1 ||
        k > SKIN_MAX_INFLUENCES || (!coherent && !grouped && strcmp(rig_name, "random")) || reps < 1 ||
        (strcmp(morph, "none") && strcmp(morph, "dense") && strcmp(morph, "sparse")) ||
        (vf == SKIN_VECTOR_F32 && strcmp(format, "f32")) || (base && vf != SKIN_VECTOR_F32) ||
        (strcmp(streams, "rig") && strcmp(streams, "aliased") && strcmp(streams, "apart")) ||
        (strcmp(output, "inter") && !stream && strcmp(output, "soa-aliased") && strcmp(output, "soa-apart")) ||
        (soa && (base || vf != SKIN_VECTOR_F32)) || (stream && base)) {
        fprintf(stderr, "usage: skin-kernel-run [lbs|dqs|baseline] [vertices] [influences 1-8] "
                        "[random|coherent|grouped] [reps] [none|dense|sparse] [f32|snorm16|1010102] "
                        "[rig|aliased|apart] [inter|inter-stream|soa-aliased|soa-apart]\n");
        return 2;
    }
    rig r;
    const rig_options o = {n, 64, k, SKIN_JOINT_U8, SKIN_WEIGHT_F32, 0, 7};
    if ((coherent ? rig_coherent(&r, &o) : rig_random(&r, &o)) != 0) return fprintf(stderr, "out of memory\n"), 1;
    for (uint32_t s = 0; grouped && s < k; ++s) /* u8 joints */
        for (size_t v = 0; v < n; ++v) ((uint8_t *)r.joints[s])[v] = ((uint8_t *)r.joints[s])[v & ~(size_t)15];
    const size_t span = pages(n * sizeof(float)); /* a float stream in whole pages */
    char *block = NULL;
    if (strcmp(streams, "rig")) { /* 10 attribute, k joint and k weight streams, each span (+ 64 i) bytes on */
        const size_t step = streams[1] == 'p' ? 64 : 0;
        if (!(block = aligned_alloc(4096, pages((10 + 2 * (size_t)k) * (span + step)))))
            return fprintf(stderr, "out of memory\n"), 1;
        const float **a[10] = {&r.mesh.px, &r.mesh.py, &r.mesh.pz, &r.mesh.nx, &r.mesh.ny,
                               &r.mesh.nz, &r.mesh.tx, &r.mesh.ty, &r.mesh.tz, &r.mesh.tw};
        size_t i = 0;
        for (int e = 0; e < 10; ++e, ++i) *a[e] = memcpy(block + i * (span + step), *a[e], n * sizeof(float));
        for (uint32_t s = 0; s < k; ++s, ++i) r.mesh.joints[s] = memcpy(block + i * (span + step), r.mesh.joints[s], n);
        for (uint32_t s = 0; s < k; ++s, ++i)
            r.mesh.weights[s] = memcpy(block + i * (span + step), r.mesh.weights[s], n * sizeof(float));
    }
    rig_morphs morphs = {0};
    if (strcmp(morph, "none")) {
        if (rig_morph_targets(&morphs, n, 8, morph[0] == 's' ? 0.1 : 0.0, 9)) return fprintf(stderr, "out of memory\n"), 1;
        r.mesh.morph_target_count = morphs.count;
        r.mesh.morph_targets = morphs.targets;
        r.palette.morph_weights = morphs.weights;
    }
    /* 40 bytes per vertex; planar: 10 streams of whole pages, + 64 i bytes if apart */
    const size_t ostep = !strcmp(output, "soa-apart") ? 64 : 0;
    float *out = soa      ? aligned_alloc(4096, pages(10 * (span + ostep)))
                 : stream ? aligned_alloc(4096, pages(n * 40))
                          : malloc(n * 40);
    baseline_palette bp;
    baseline_mesh bm = {0}; /* the baseline's own copy of the mesh, as engines store it */
    const baseline_fn run_baseline = baseline_for(skin_get_isa());
    if (!out || baseline_palette_init(&bp, r.matrices, 64) != 0 ||
        (base && (!run_baseline || baseline_mesh_init(&bm, &r.mesh, 64) != 0)))
        return fprintf(stderr, "out of memory, or no baseline for this ISA\n"), 1;
    const size_t vbytes = vf == SKIN_VECTOR_SNORM16 ? 8 : 4, stride = vf == SKIN_VECTOR_F32 ? 40 : 12 + 2 * vbytes;
    skin_output so = {.layout = SKIN_LAYOUT_STRIDED, .position = out, .position_stride = stride,
                      .normal = (float *)((char *)out + 12), .normal_stride = stride,
                      .tangent = (float *)((char *)out + 12 + (vf == SKIN_VECTOR_F32 ? 12 : vbytes)),
                      .tangent_stride = stride,
                      .vector_format = vf,
                      .flags = stream ? SKIN_OUTPUT_STREAMING : 0};
    if (soa) {
        so = (skin_output){.layout = SKIN_LAYOUT_SOA};
        for (int e = 0; e < 10; ++e) so.soa[e] = (float *)((char *)out + e * (span + ostep));
    }
    double best = 1e300;
    for (int i = 0; i < reps; ++i) {
        const double t0 = now_ns();
        if (base)
            run_baseline(&bm, &bp, out, 0, n);
        else if (skin_mesh(&r.mesh, &r.palette, method[0] == 'd' ? SKIN_DQS : SKIN_LBS, &so, 0, n) != SKIN_OK)
            return fprintf(stderr, "skin_mesh failed\n"), 1;
        const double t = now_ns() - t0;
        if (t < best) best = t;
    }
    uint64_t out_digest = 0xcbf29ce484222325ull;
    if (soa)
        for (int e = 0; e < 10; ++e) out_digest = fnv1a(out_digest, so.soa[e], n * sizeof(float));
    else
        out_digest = fnv1a(out_digest, out, n * stride);
    printf("%s %s %zu vertices, %u influences, %s rig, morph %s, %s, streams %s, output %s: %.3f ns/vertex (best of %d); "
           "fnv1a in %016llx out %016llx\n",
           method, skin_isa_name(skin_get_isa()), n, k, rig_name, morph, format, streams, output,
           best / (double)n, reps, (unsigned long long)rig_digest(&r, n, k), (unsigned long long)out_digest);
    rig_morphs_free(&morphs);
    baseline_palette_free(&bp);
    baseline_mesh_free(&bm);
    free(out);
    rig_free(&r);
    free(block);
    return 0;
}
