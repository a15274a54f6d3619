/* SPDX-License-Identifier: MIT */
/* The arithmetic floor of LBS: skin's arithmetic per vertex (the blend of k
 * 3x4 matrices, then p, n and t transformed, tangent w copied) on the
 * kernels' vector layer, with the palette already in lanes and planar
 * output.  It loads the attributes, the weights and the lanes' palette
 * components and stores the results, and does nothing else: no joint
 * indices, no palette fetch or transpose, no interleaved store.  A kernel's
 * time over it is what moving data into and out of lanes and its per-block
 * bookkeeping cost it, and the baseline's time over it is the most that a
 * kernel doing this arithmetic on this many lanes could gain over the
 * baseline on this core. */
#ifndef SKIN_BENCH_ARITH_H
#define SKIN_BENCH_ARITH_H

#include <stddef.h>

#include "skin/skin.h"

typedef struct arith_job {
    const float *in[10];                       /* px py pz nx ny nz tx ty tz tw */
    const float *weights[SKIN_MAX_INFLUENCES]; /* k float weight streams */
    /* For block b (vertices b*W .. b*W+W-1, W the build's lanes), at
     * lanes + (b % lane_blocks) * k * 12 * W: for each slot i and matrix
     * component e (row-major 3x4), the W lanes' values, i.e. component e of
     * the palette matrix of each vertex's joint in slot i. */
    const float *lanes;
    size_t lane_blocks;
    float *out[10]; /* planar, as in */
    int k;          /* 1 .. SKIN_MAX_INFLUENCES */
} arith_job;

/* Fills `lanes` for `blocks` blocks of `width` vertices from vertex 0 of
 * the k u16 joint streams and the row-major 3x4 matrices, as arith_job's
 * lanes reads them (k * 12 * width floats a block). */
void arith_fill_lanes(float *lanes, size_t blocks, int width, int k, const void *const *joints,
                      const float *matrices);

/* Vertices [first, first + count) of job, both multiples of the build's
 * lanes.  Thread-safe on disjoint outputs. */
typedef void (*arith_fn)(const arith_job *job, size_t first, size_t count);

/* The build for an ISA's kernels and its lane count, or NULL where that ISA
 * has no kernels in this build (e.g. AVX2 on aarch64). */
arith_fn arith_for(skin_isa isa, int *lanes);

#endif
