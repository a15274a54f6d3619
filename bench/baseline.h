/* SPDX-License-Identifier: MIT */
/* The per-vertex baseline: the skinning loop engines write, as well as good
 * engines write it.  Inputs as engines keep them (interleaved vertices,
 * joint indices and weights per vertex, column-major 4x4 palette), built
 * once from a skin_mesh_desc at load time; vertices grouped by their own
 * influence count, one loop per count, one vertex at a time with 4-wide
 * SIMD.  skin's kernels are judged by their speed-up over it at the same
 * ISA.  Compiled once per ISA (baseline.c, see bench/CMakeLists.txt). */
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

/* Vertices with k influences: [first, first + count) of the mesh, each with
 * k joint indices and k weights (none when k is 1: the weight is 1). */
typedef struct baseline_group {
    uint32_t k;
    size_t first, count;
    const uint16_t *joints;
    const float *weights;
} baseline_group;

/* A mesh as an engine stores it.  Each vertex is one interleaved record of
 * the attributes present: position (3 floats), normal (3), tangent (4, w
 * the handedness), 12, 24 or 40 bytes, the layout of skin's strided output;
 * the buffers end with a 64-byte pad, for 16-byte loads.  Vertices are
 * ordered by influence count, as engines order them at load time: vertex i
 * is the source mesh's vertex source[i]. */
typedef struct baseline_mesh {
    size_t vertex_count;
    int normals, tangents; /* tangents only with normals */
    float *vertices;
    size_t *source;
    uint32_t group_count;
    baseline_group groups[SKIN_MAX_INFLUENCES];
    void *storage; /* joints and weights */
} baseline_mesh;

/* Builds the engine's mesh from `mesh` (LBS inputs: any joint and weight
 * format, positions, normals and tangents as present; weights summing to
 * one, as engines require), converted as at load time: u16 joints clamped
 * to joint_count - 1 as skin clamps them, f32 weights; a vertex's influence
 * count is its last slot with a nonzero weight (at least 1).  Returns 0, or
 * -1 if out of memory or the mesh is not one skin takes (influence count,
 * tangents without normals, no joints). */
int baseline_mesh_init(baseline_mesh *b, const skin_mesh_desc *mesh, uint32_t joint_count);
void baseline_mesh_free(baseline_mesh *b);

/* The size in bytes of one vertex record, and of the output vertex. */
size_t baseline_vertex_size(const baseline_mesh *b);

/* Skins vertices [first, first + count) of `mesh` (in its order) into
 * `out`: vertex i at out + i * baseline_vertex_size(mesh) bytes, with
 * position, normal and tangent (w copied) as present.  Writes nothing
 * outside its range; thread-safe on disjoint ranges. */
typedef void (*baseline_fn)(const baseline_mesh *mesh, const baseline_palette *pal, float *out, size_t first,
                            size_t count);

void baseline_run_base(const baseline_mesh *, const baseline_palette *, float *, size_t, size_t);
#if defined(BASELINE_HAVE_X86)
void baseline_run_avx2(const baseline_mesh *, const baseline_palette *, float *, size_t, size_t);
void baseline_run_avx512(const baseline_mesh *, const baseline_palette *, float *, size_t, size_t);
#endif

/* The build for an ISA tier (SSE2/NEON: base), or NULL where it is not built. */
baseline_fn baseline_for(skin_isa isa);

#endif
