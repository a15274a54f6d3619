/* SPDX-License-Identifier: MIT */
/* The per-vertex baseline: the textbook skinning loop engines write (one
 * vertex at a time, 4-wide SIMD, blend each influence's matrix columns with
 * 4-wide FMAs, then transform p, n, t), written as well as good engines write
 * it.  skin's kernels are judged by their speed-up over it at the same ISA.
 * Compiled once per ISA (baseline.c, see bench/CMakeLists.txt). */
#ifndef SKIN_BENCH_BASELINE_H
#define SKIN_BENCH_BASELINE_H

#include <stddef.h>

#include "skin/skin.h"

/* The palette as engines keep it: per joint four 4-float columns (c0 c1 c2
 * of the 3x3 part with lane 3 = 0, c3 = translation with lane 3 = 1),
 * 16-byte aligned.  Engines hold column-major 4x4 matrices already; skin's
 * 3x4 row-major palette is converted once per frame, outside the timed loop. */
typedef struct baseline_palette {
    float *columns; /* 16 floats per joint */
    uint32_t joint_count;
} baseline_palette;

/* Converts a 3x4 row-major palette; returns 0, or -1 if out of memory. */
int baseline_palette_init(baseline_palette *b, const float *matrices, uint32_t joint_count);
void baseline_palette_free(baseline_palette *b);

/* Skins vertices [first, first + count) of `mesh` (LBS; u8/u16 joints,
 * f32/unorm16/unorm8 weights; positions, normals and tangents as present)
 * into one interleaved vertex of `stride` bytes at `out` (position at byte
 * 0, normal at 12, tangent at 24 with w copied), vertex i at out + i*stride.
 * stride must be 12 (p), 24 (p+n) or 40 (p+n+t) bytes for the attributes
 * present.  Joints are clamped to the palette like skin does.  Thread-safe
 * on disjoint outputs. */
typedef void (*baseline_fn)(const skin_mesh_desc *mesh, const baseline_palette *pal, float *out,
                            size_t stride, size_t first, size_t count);

void baseline_run_base(const skin_mesh_desc *, const baseline_palette *, float *, size_t, size_t, size_t);
#if defined(BASELINE_HAVE_X86)
void baseline_run_avx2(const skin_mesh_desc *, const baseline_palette *, float *, size_t, size_t, size_t);
void baseline_run_avx512(const skin_mesh_desc *, const baseline_palette *, float *, size_t, size_t,
                         size_t);
#endif

/* The build for an ISA tier (SSE2/NEON: base), or NULL where it is not built. */
baseline_fn baseline_for(skin_isa isa);

#endif
