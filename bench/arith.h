/* SPDX-License-Identifier: MIT */
/* The arithmetic floors of LBS and DQS: skin's arithmetic per vertex on the
 * kernels' vector layer, with the palette already in lanes and planar
 * output.  LBS: the blend of k 3x4 matrices.  DQS: the blend of k dual
 * quaternions, each weight's sign set by its real part's dot with the
 * pivot's (the largest-weight slot's), the blend normalised by its real
 * part's length and turned into a 3x4 matrix.  Then, for both, p, n and t
 * transformed, tangent w copied.  It loads the attributes, the weights and
 * the lanes' palette components and stores the results, and does nothing
 * else: no joint indices, no palette fetch or transpose, no pivot choice, no
 * interleaved store.  A kernel's time over it is what moving data into and
 * out of lanes and its per-block bookkeeping cost it; the baseline's time
 * over LBS's is the most that a kernel doing this arithmetic on this many
 * lanes could gain over the baseline on this core, and DQS's over LBS's is
 * DQS / LBS for kernels that do nothing but skin's arithmetic. */
#ifndef SKIN_BENCH_ARITH_H
#define SKIN_BENCH_ARITH_H

#include <stddef.h>

#include "skin/skin.h"

/* Floats a block holds per lane (see arith_job.lanes): at most
 * SKIN_MAX_INFLUENCES * 12. */
static inline size_t arith_lane_floats(skin_method method, int k)
{
    return method == SKIN_DQS ? 8 * ((size_t)k + 1) : 12 * (size_t)k;
}

typedef struct arith_job {
    const float *in[10];                       /* px py pz nx ny nz tx ty tz tw */
    const float *weights[SKIN_MAX_INFLUENCES]; /* k float weight streams */
    /* For block b (vertices b*W .. b*W+W-1, W the build's lanes), at
     * lanes + (b % lane_blocks) * arith_lane_floats(method, k) * W, for each
     * component the W lanes' values.  LBS: for each slot i and matrix
     * component e (row-major 3x4), component e of the palette matrix of
     * each vertex's joint in slot i.  DQS: for each slot i and component e
     * of the dual quaternion (real x y z w, dual x y z w), that of each
     * vertex's joint in slot i; then the 8 of each vertex's pivot. */
    const float *lanes;
    size_t lane_blocks;
    float *out[10];     /* planar, as in */
    int k;              /* 1 .. SKIN_MAX_INFLUENCES */
    skin_method method; /* SKIN_LBS or SKIN_DQS */
} arith_job;

/* Fills `lanes` for `blocks` blocks of `width` vertices from vertex 0 of
 * the k u16 joint streams (and for DQS the float weights, which pick each
 * vertex's pivot as skin does: the largest, the first on ties) and the
 * palette's matrices or dual quaternions, as arith_job's lanes reads them
 * (arith_lane_floats(method, k) * width floats a block). */
void arith_fill_lanes(float *lanes, size_t blocks, int width, skin_method method, int k, const void *const *joints,
                      const float *const *weights, const skin_palette *palette);

/* Vertices [first, first + count) of job, both multiples of the build's
 * lanes.  Thread-safe on disjoint outputs. */
typedef void (*arith_fn)(const arith_job *job, size_t first, size_t count);

/* The build for an ISA's kernels and its lane count, or NULL where that ISA
 * has no kernels in this build (e.g. AVX2 on aarch64). */
arith_fn arith_for(skin_isa isa, int *lanes);

#endif
