/* SPDX-License-Identifier: MIT */
/* The stack skin_mesh uses (skin.h: the SIMD kernels at most about 64 KiB):
 * the deepest calls there are (8 influences, normal matrices or scales, the
 * most active morph targets, dense and sparse, partial blocks at both ends,
 * bounds, normalisation; SoA and interleaved output), on every ISA the CPU
 * runs, each on a thread whose stack is filled with a pattern first; the
 * deepest byte changed is the high-water mark.  Optimised builds only:
 * sanitizers and -O0 frames are larger (the test skips there). */
#define _POSIX_C_SOURCE 200809L /* pthread_attr_setstack */
#include "check.h"
#include "rig.h"
#include "skin/skin.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#endif
#if defined(SANITIZED) || !defined(__OPTIMIZE__)
enum { SKIP = 1 };
#else
enum { SKIP = 0 };
#endif

enum { N = 1203, JOINTS = 60, TARGETS = SKIN_MAX_ACTIVE_MORPH_TARGETS, STACK = 1 << 20, LIMIT = 64 << 10 };
#define PATTERN 0x5C

typedef struct call {
    const skin_mesh_desc *mesh;
    const skin_palette *pal;
    skin_method method;
    const skin_output *out;
    skin_status status;
} call;

static void *run(void *arg)
{
    call *c = arg;
    c->status = skin_mesh(c->mesh, c->pal, c->method, c->out, 5, N - 11); /* partial blocks at both ends */
    return NULL;
}

/* The call's stack high-water mark in bytes, or 0 if the thread failed. */
static size_t high_water(call *c, unsigned char *stack)
{
    memset(stack, PATTERN, STACK);
    pthread_attr_t attr;
    pthread_t t;
    if (pthread_attr_init(&attr) || pthread_attr_setstack(&attr, stack, STACK) || pthread_create(&t, &attr, run, c))
        return 0;
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
    size_t low = 0; /* the stack grows down from stack + STACK */
    while (low < STACK && stack[low] == PATTERN) ++low;
    return STACK - low;
}

int main(void)
{
    if (SKIP) {
        puts("test_stack: skipped (sanitizer or unoptimised build: larger frames)");
        return 77;
    }
    rig r;
    const rig_options o = {N, JOINTS, SKIN_MAX_INFLUENCES, SKIN_JOINT_U8, SKIN_WEIGHT_F32, 1, 11};
    rig_morphs dense, sparse;
    float *nm = malloc(sizeof(float) * 9 * JOINTS), *out = malloc(sizeof(float) * 10 * N);
    unsigned char *stack = aligned_alloc(4096, STACK);
    if (!nm || !out || !stack || rig_random(&r, &o) || rig_morph_targets(&dense, N, TARGETS / 4, 0.0, 3) ||
        rig_morph_targets(&sparse, N, TARGETS / 4, 0.3, 4))
        return 1;
    for (int e = 0; e < 9 * JOINTS; ++e) nm[e] = r.matrices[12 * (e / 9) + 4 * (e % 9 / 3) + e % 3];
    /* TARGETS active targets: each rig's targets four times over */
    skin_morph_target targets[TARGETS];
    float weights[TARGETS];
    for (int t = 0; t < TARGETS; ++t) {
        const rig_morphs *m = t % 2 ? &sparse : &dense;
        targets[t] = m->targets[t / 2 % (TARGETS / 4)];
        weights[t] = 0.01f * (float)(t + 1);
    }
    r.mesh.morph_target_count = TARGETS, r.mesh.morph_targets = targets;
    skin_palette pal = r.palette;
    pal.normal_matrices = nm, pal.morph_weights = weights;
    float bounds[6];
    skin_output outs[2] = {{.layout = SKIN_LAYOUT_STRIDED, .position = out, .position_stride = 40, .normal = out + 3,
                            .normal_stride = 40, .tangent = out + 6, .tangent_stride = 40,
                            .flags = SKIN_OUTPUT_NORMALIZE, .bounds = bounds},
                           {.layout = SKIN_LAYOUT_SOA, .flags = SKIN_OUTPUT_NORMALIZE, .bounds = bounds}};
    for (int e = 0; e < 10; ++e) outs[1].soa[e] = out + (size_t)e * N;
    size_t deepest = 0;
    for (int isa = SKIN_ISA_SCALAR; isa <= SKIN_ISA_SIMD128; ++isa) {
        if (!skin_isa_supported((skin_isa)isa)) continue;
        CHECK_STATUS(skin_set_isa((skin_isa)isa), SKIN_OK);
        for (int m = 0; m < 2; ++m)
            for (int l = 0; l < 2; ++l) {
                call c = {&r.mesh, &pal, m ? SKIN_DQS : SKIN_LBS, &outs[l], SKIN_ERROR_NULL_ARGUMENT};
                const size_t used = high_water(&c, stack);
                CHECK_STATUS(c.status, SKIN_OK);
                CHECK(used > 0 && used <= LIMIT);
                printf("%-6s %s %-11s stack %5.1f KiB\n", skin_isa_name((skin_isa)isa), m ? "DQS" : "LBS",
                       l ? "SoA" : "interleaved", (double)used / 1024);
                if (used > deepest) deepest = used;
            }
    }
    printf("deepest: %.1f KiB (limit %d KiB)\n", (double)deepest / 1024, LIMIT >> 10);
    rig_morphs_free(&dense);
    rig_morphs_free(&sparse);
    rig_free(&r);
    free(nm), free(out), free(stack);
    return check_finish("test_stack");
}
