/* SPDX-License-Identifier: MIT */
/* The SIMD kernels: written once, compiled once per ISA with SKIN_W lanes
 * (see vec.h) and per method (SKIN_KERNEL_METHOD) into SKIN_KERNEL_NAME.
 * Each lane is one vertex; no operation mixes lanes, so a vertex's result
 * does not depend on its block.  Blocks start at multiples of W (absolute
 * vertex index); the partial blocks at the ends of a range go through the
 * same block code on a padded scratch copy.
 *
 * How a range flows, one stage a file, included below in this order:
 *  - fetch.h: a palette's rows into lanes by joint (fetch4; the 16-lane
 *    tables; broadcasts for uniform blocks);
 *  - stage.h: each chunk of STAGE vertices' influences converted once
 *    (stage: clamped joints, palette byte offsets, float weights, DQS's
 *    pivots), read per block through load_influences and lane_*;
 *  - blend.h: the block's 3x4 matrix, by LBS (lbs, blend_lanes) or DQS
 *    (dqs, dq_blend_lanes);
 *  - apply.h: the matrix applied to the attributes (apply, normalize3);
 *    skin_block is one block's fetch, blend and apply;
 *  - morph.h: morph targets added to a chunk's attributes first
 *    (morph_chunk);
 *  - store.h: the block's components stored as the call asks (store_block);
 * and here: the block loops (blocks_*, one per influence count and fetch
 * kind), the runs of blocks of one class (skin_runs), the partial blocks
 * (skin_partial) and the entry point. */
#include "skin_internal.h"
#include "vec.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define W SKIN_W
#define ALWAYS_INLINE static inline __attribute__((always_inline))

#include "fetch.h"

/* --------------------------------------------- the types the stages share */

/* The block code's method for DQS whose signs are all + (all_signs_positive):
 * on 8 and 16 lanes, block functions of their own, which neither fetch a
 * pivot nor test a flag (tested in the blocks, a flag cost AVX2 DQS 3% more
 * instructions); on 4 lanes, where size counts most, kctx's flag
 * signs_positive, tested per block (SSE2 DQS-4 10k, random rig: 1.5% more
 * instructions; the NEON DQS kernel 223 -> 140 KB). */
enum { DQS_SIGNS_POSITIVE = SKIN_DQS + 16 };
#define SIGNS_FUNCTIONS (W > 4)
/* Whether `method`'s blocks test DQS's signs: a constant where the block
 * functions decide it. */
#define SIGNS_TESTED(c, method) (SIGNS_FUNCTIONS ? (method) != DQS_SIGNS_POSITIVE : !(c)->signs_positive)

/* Input streams, so that the main path and the scratch copy look alike. */
typedef struct inputs {
    const float *a[SKIN_COMPONENTS];
    const void *joints[SKIN_MAX_INFLUENCES];
    const void *weights[SKIN_MAX_INFLUENCES];
    size_t origin; /* mesh vertex of element 0: 0, or the scratch copy's block */
} inputs;

/* The call's morph targets with a non-zero weight, as morph_chunk reads
 * them: per component, the dense targets' delta streams and weights; the
 * sparse targets, each with its delta arrays (NULL: the call does not use
 * the component, or the target has none) and `cur`, the first entry of
 * its index list not yet behind the chunks, so a chunk finds its entries
 * without a search. */
typedef struct sparse_morph {
    const uint32_t *idx; /* the target's index list and its length, copied: one load closer */
    size_t count;
    const float *d[9];
    float w;
    size_t cur;
} sparse_morph;

#define MORPH_CHUNK 512
typedef struct morph_plan {
    float buf[9][MORPH_CHUNK];          /* the chunk's morphed components */
    const float *view[SKIN_COMPONENTS]; /* the chunk's attributes: buf's rows, or the inputs' */
    size_t view_first;                  /* its first vertex, as the inputs index it */
    int dense_any;
    int copy_all; /* copy every component the call uses, with or without targets */
    uint32_t dense_count[9];
    const float *dense[9][SKIN_MAX_ACTIVE_MORPH_TARGETS];
    float dense_w[9][SKIN_MAX_ACTIVE_MORPH_TARGETS];
    uint32_t sparse_count;
    uint32_t sparse_moved; /* bit e: some sparse target moves component e */
    int sparse_uniform;    /* every sparse target moves exactly those */
    sparse_morph sparse[SKIN_MAX_ACTIVE_MORPH_TARGETS];
} morph_plan;

typedef struct kctx {
    const skin_job *job;
    vi jlimit; /* v_joint_limit of the palette's last joint */
    int joints_u8;                     /* the mesh's formats, kept here so */
    skin_weight_format weight_format;  /* the block loop holds them locally */
    int kind;               /* FETCH_* for every source of this call */
    source mat, nmat, dq, sc;
    const uint32_t *signs;  /* DQS, 16 lanes, table kinds: build_signs's table, or NULL */
    int signs_positive;     /* DQS, 4 lanes: all_signs_positive holds (SIGNS_FUNCTIONS) */
    morph_plan *morph;      /* NULL: no morph target is active */
} kctx;

/* Influences of up to STAGE vertices, converted once by stage() from the
 * mesh's formats: joints clamped to the palette (for DQS and normal
 * matrices only: LBS reads its rows by offset), their byte offsets into
 * the palette (48 j for 3x4 matrices, 32 j for dual quaternions), and
 * float weights (wp[i]: the stream itself when it holds floats, else
 * w[i]); for DQS, the byte offsets of the pivots' dual quaternions
 * (pivot_joints), chosen here once rather than per block.  The block code
 * then reads one format only, from memory, with no branch on the format. */
#define STAGE 64
#define STAGED (W <= 8) /* see influences */
typedef struct staged {
    int32_t j[SKIN_MAX_INFLUENCES][STAGE];
    int32_t off[SKIN_MAX_INFLUENCES][STAGE];
    float w[SKIN_MAX_INFLUENCES][STAGE];
    const float *wp[SKIN_MAX_INFLUENCES];
    int32_t pivot_off[STAGE];
} staged;

/* ------------------------------------------------------------- the stages */

#include "stage.h"
#include "blend.h"
#include "apply.h"
#include "morph.h"
#include "store.h"

/* -------------------------------------------------------- the block loops */

/* The block loops run_blocks chooses from: for any call; for LBS of
 * position, normal and tangent with no normal matrices and no
 * normalisation, stored out of line; the same into the 40-byte vertex,
 * stored inline. */
enum { PNT_NONE, PNT_ANY, PNT_40 };

/* Skins the full blocks in [v, end) of `in`, their attributes at index
 * u - at_first of `at` for vertex u, and stores them; stage_c and stage_in
 * are c and in as stage() gets them (see blocks); pnt: PNT_*. */
ALWAYS_INLINE void run_blocks_as(const kctx *c, const inputs *in, const kctx *stage_c, const inputs *stage_in,
                                 const float *const *at, size_t at_first, staged *st, size_t v, size_t end,
                                 writer *wr, const int method, const uint32_t k, const int kind, const int pnt)
{
    while (v + W <= end) {
        const size_t n = end - v < STAGE ? (end - v) / W * W : STAGE;
        if (STAGED) stage(stage_c, stage_in, v, n, k, st, method);
        for (size_t o = 0; o < n; o += W, v += W) {
            vf x[SKIN_COMPONENTS];
            skin_block(c, in, at, v - at_first, st, o, v, x, method, k, kind, pnt != PNT_NONE);
#if W == 4
            if (method == SKIN_LBS && pnt != PNT_40) {
                store_block_any(c->job, wr, x, v);
                continue;
            }
#endif
            store_block(c->job, wr, x, v, pnt == PNT_40);
        }
    }
}

/* LBS of position, normal and tangent with no normal matrices and no
 * normalisation, the usual call, has block loops of its own on 4 lanes,
 * where those choices are constants: one for the 40-byte interleaved
 * vertex (writer.packed 10), stored inline, one for the other layouts,
 * stored out of line.  Tested per block, the choices sent the 10 outputs
 * through the stack (SSE2 LBS 10k, with matrix_offsets' multiply: the
 * 40-byte vertex with 1, 4, 8 influences 9-15% faster, snorm16, 1010102
 * and SoA output 6-12%).  DQS measured no faster so (8 influences 5-9%
 * slower), and keeps its loops and inline stores. */
ALWAYS_INLINE void run_blocks(const kctx *c, const inputs *in, const kctx *stage_c, const inputs *stage_in,
                              const float *const *at, size_t at_first, staged *st, size_t v, size_t end,
                              writer *wr, const int method, const uint32_t k, const int kind)
{
#if W == 4
    const skin_job *job = c->job;
    if (method == SKIN_LBS && job->normals && job->tangents && !job->normalize && !c->nmat.base) {
        if (wr->packed == 10)
            run_blocks_as(c, in, stage_c, stage_in, at, at_first, st, v, end, wr, method, k, kind, PNT_40);
        else
            run_blocks_as(c, in, stage_c, stage_in, at, at_first, st, v, end, wr, method, k, kind, PNT_ANY);
        return;
    }
#endif
    run_blocks_as(c, in, stage_c, stage_in, at, at_first, st, v, end, wr, method, k, kind, PNT_NONE);
}

/* Skins the full blocks in [v, end) of `in` and stores them; moved: the
 * chunk's attributes are c->morph's view (morph_chunk moved them). */
ALWAYS_INLINE void blocks(const kctx *c, const inputs *in, size_t v, size_t end, writer *wr, int moved,
                          const int method, const uint32_t k, const int kind)
{
#if STAGED
    /* Local copies: the stores below may write through char pointers,
     * which would make the compiler reload every field it reads through c
     * and in for each block.  (With 16 lanes the copies measured slower.) */
    const kctx c_copy = *c;
    const inputs in_copy = *in;
    staged chunk;
    const kctx *const lc = &c_copy;
    const inputs *const lin = &in_copy;
    staged *const st = &chunk;
    /* stage() reads the caller's structs, so the copies' addresses never
     * escape and their fields live in registers: a run of blocks then
     * starts without first writing and reading back the copies, which costs
     * real meshes, whose runs are a few blocks long (AVX2 LBS, ns/vertex:
     * Testwuson 4.11 -> 3.87, BCN_Epileptic 4.13 -> 3.96; the 64-joint
     * random rig 4.6 -> 4.5; SSE2 LBS-4, the coherent rig: 4-11% faster).
     * SSE2 DQS measured up to 4% slower so, and stages from the copies. */
    const int caller_structs = W == 8 || method == SKIN_LBS;
    const kctx *const stage_c = caller_structs ? c : lc;
    const inputs *const stage_in = caller_structs ? in : lin;
#else
    const kctx *const lc = c;
    const inputs *const lin = in;
    staged *const st = NULL; /* each block loads its own influences */
    const kctx *const stage_c = c;
    const inputs *const stage_in = in;
#endif
    /* With morph targets the attributes come from the chunk morph_chunk made. */
    const float *const *at = moved ? lc->morph->view : lin->a;
    const size_t at_first = moved ? lc->morph->view_first : 0;
    run_blocks(lc, lin, stage_c, stage_in, at, at_first, st, v, end, wr, method, k, kind);
}

/* One copy of the block loop per method, influence count and fetch kind,
 * so every loop over influences, rows and components unrolls.  Chunks
 * that morph targets move share it: they differ only in where the
 * attributes are read. */
typedef void (*blocks_fn)(const kctx *, const inputs *, size_t, size_t, writer *, int);
#define BLOCKS(method, k, kind)                                                                        \
    static void blocks_##method##_##k##_##kind(const kctx *c, const inputs *in, size_t v, size_t end, \
                                               writer *wr, int moved)                                 \
    {                                                                                                 \
        blocks(c, in, v, end, wr, moved, method, k, kind);                                            \
    }
#if W == 16
#define BLOCKS_K(method, k) BLOCKS(method, k, FETCH_ROWS) BLOCKS(method, k, FETCH_TABLE2) \
                            BLOCKS(method, k, FETCH_TABLE4) BLOCKS(method, k, FETCH_AOS) BLOCKS(method, k, FETCH_UNIFORM)
#define KINDS(method, k) {blocks_##method##_##k##_FETCH_ROWS, blocks_##method##_##k##_FETCH_TABLE2, \
                          blocks_##method##_##k##_FETCH_TABLE4, blocks_##method##_##k##_FETCH_AOS,  \
                          blocks_##method##_##k##_FETCH_UNIFORM}
#elif W == 8
#define BLOCKS_K(method, k) BLOCKS(method, k, FETCH_ROWS) BLOCKS(method, k, FETCH_UNIFORM)
#define KINDS(method, k) {blocks_##method##_##k##_FETCH_ROWS, NULL, NULL, NULL, blocks_##method##_##k##_FETCH_UNIFORM}
#else
#define BLOCKS_K(method, k) BLOCKS(method, k, FETCH_ROWS)
#define KINDS(method, k) {blocks_##method##_##k##_FETCH_ROWS, NULL, NULL, NULL, NULL}
#endif
#define BLOCKS_ALL(method) BLOCKS_K(method, 1) BLOCKS_K(method, 2) BLOCKS_K(method, 3) BLOCKS_K(method, 4) \
                           BLOCKS_K(method, 5) BLOCKS_K(method, 6) BLOCKS_K(method, 7) BLOCKS_K(method, 8)
#define KINDS_ALL(method) {KINDS(method, 1), KINDS(method, 2), KINDS(method, 3), KINDS(method, 4), \
                           KINDS(method, 5), KINDS(method, 6), KINDS(method, 7), KINDS(method, 8)}
/* This object's method (the build makes one object per ISA and method, and
 * defines SKIN_KERNEL_LBS or SKIN_KERNEL_DQS too, for #if). */
#ifndef SKIN_KERNEL_METHOD
#error "SKIN_KERNEL_METHOD must be SKIN_LBS or SKIN_DQS"
#endif
BLOCKS_ALL(SKIN_KERNEL_METHOD)
/* [active slots - 1][fetch kind] */
static const blocks_fn blocks_table[SKIN_MAX_INFLUENCES][FETCH_KINDS] = KINDS_ALL(SKIN_KERNEL_METHOD);
/* DQS when all_signs_positive holds */
#if defined(SKIN_KERNEL_DQS) && SIGNS_FUNCTIONS
BLOCKS_ALL(DQS_SIGNS_POSITIVE)
static const blocks_fn blocks_signs_positive[SKIN_MAX_INFLUENCES][FETCH_KINDS] = KINDS_ALL(DQS_SIGNS_POSITIVE);
#else
#define blocks_signs_positive blocks_table /* (LBS: never chosen; 4 lanes: c.signs_positive) */
#endif

/* Slot i's W weights (f32 bits without the sign, or unorm integers) and
 * joints (bytes if u8, else uint16_t), as 32-bit lanes. */
ALWAYS_INLINE vi weight_bits(const inputs *in, uint32_t i, size_t v, skin_weight_format wf)
{
    switch (wf) {
    case SKIN_WEIGHT_UNORM16: return v_load_u16((const uint16_t *)in->weights[i] + v);
    case SKIN_WEIGHT_UNORM8: return v_load_u8((const uint8_t *)in->weights[i] + v);
    default: return v_and_i32(v_loadu_i32((const float *)in->weights[i] + v), v_set1_i32(0x7fffffff));
    }
}

ALWAYS_INLINE vi joint_lanes(const inputs *in, uint32_t i, size_t v, int u8)
{
    return u8 ? v_load_u8((const uint8_t *)in->joints[i] + v) : v_load_u16((const uint16_t *)in->joints[i] + v);
}

/* Influence slots of the block at v, of k, that count: trailing slots whose
 * weights are zero (+0 or -0) in every lane are dropped, and the block is
 * skinned as a mesh with fewer influences.  Real meshes store most vertices'
 * unused slots as zeros at the end.  For finite palettes a term 0 * M
 * changes at most the sign of a zero, and the choice is the block's own
 * (absolute position), so no split of the range changes a bit. */
ALWAYS_INLINE uint32_t active_slots(const inputs *in, size_t v, uint32_t k, skin_weight_format wf)
{
    while (k > 1 && v_all_eq_i32(weight_bits(in, k - 1, v, wf), v_set1_i32(0))) --k;
    return k;
}

/* A block's class: its active slot count, plus 16 when every lane has the
 * same joint in each active slot (the block can use FETCH_UNIFORM). */
ALWAYS_INLINE uint32_t block_class(const inputs *in, size_t v, uint32_t k, skin_weight_format wf, int u8)
{
    k = active_slots(in, v, k, wf);
    if (!HAS_UNIFORM) return k;
    for (uint32_t i = 0; i < k; ++i) {
        const int32_t first = u8 ? ((const uint8_t *)in->joints[i])[v] : ((const uint16_t *)in->joints[i])[v];
        if (!v_all_eq_i32(joint_lanes(in, i, v, u8), v_set1_i32(first))) return k;
    }
    return k | 16u;
}

/* The block starting at vertex v (a multiple of W), of which only lanes
 * [lo, hi) are in the range: inputs are copied into zero-padded scratch so
 * the full-width code never reads past the streams.  The influences of
 * every lane inside the mesh are copied, not only the range's, so the
 * block's active slots, and with them every bit of its output, do not
 * depend on how the mesh is split. */
static void skin_partial(const kctx *c, const blocks_fn *fns, const inputs *in, const writer *wr, size_t v, int lo,
                         int hi)
{
    const skin_job *job = c->job;
    const skin_mesh_desc *m = job->mesh;
    const size_t jsize = m->joint_format == SKIN_JOINT_U8 ? 1 : 2;
    const size_t wsize = m->weight_format == SKIN_WEIGHT_F32 ? 4 : m->weight_format == SKIN_WEIGHT_UNORM16 ? 2 : 1;
    float attr[SKIN_COMPONENTS][W];
    uint16_t joints[SKIN_MAX_INFLUENCES][W];
    float weights[SKIN_MAX_INFLUENCES][W];
    inputs scratch = {{0}, {0}, {0}, v};
    memset(attr, 0, sizeof attr);
    memset(joints, 0, sizeof joints);
    memset(weights, 0, sizeof weights);
    const size_t n = (size_t)(hi - lo);
    for (int e = 0; e < SKIN_COMPONENTS; ++e) {
        if (!component_used(job, e)) continue;
        memcpy(&attr[e][lo], in->a[e] + v + lo, n * sizeof(float));
        scratch.a[e] = attr[e];
    }
    const size_t lanes = m->vertex_count - v < W ? m->vertex_count - v : W;
    for (uint32_t i = 0; i < m->influence_count; ++i) {
        memcpy(joints[i], (const char *)in->joints[i] + v * jsize, lanes * jsize);
        memcpy(weights[i], (const char *)in->weights[i] + v * wsize, lanes * wsize);
        scratch.joints[i] = joints[i];
        scratch.weights[i] = weights[i];
    }
    /* The block loop itself skins the block, into planar floats here (the
     * components the call does not write stay zeros, as apply's are). */
    SIMDE_ALIGN_TO_64 float block[SKIN_COMPONENTS][W];
    memset(block, 0, sizeof block);
    skin_job to_block = *job;
    to_block.soa = 1, to_block.streaming = 0, to_block.bounds = NULL, to_block.vector_format = SKIN_VECTOR_F32;
    for (int e = 0; e < SKIN_COMPONENTS; ++e) to_block.dst[e] = (char *)block[e];
    kctx block_c = *c;
    block_c.job = &to_block;
    writer block_wr;
    memset(&block_wr, 0, sizeof block_wr);
    const int moved = c->morph && morph_chunk(c, &scratch, 0, W);
    fns[active_slots(&scratch, 0, m->influence_count, m->weight_format) - 1](&block_c, &scratch, 0, W, &block_wr,
                                                                             moved);
    vf o[SKIN_COMPONENTS];
    for (int e = 0; e < SKIN_COMPONENTS; ++e) o[e] = v_loadu(block[e]);
    store_partial(job, wr, o, v, lo, hi);
}

/* The full blocks of [v, end), each run of blocks of one class through the
 * block function for that class.  The formats are constants (skin_runs
 * below picks the copy) and the streams a local copy, so classifying a
 * block reloads and tests neither after each run's call. */
ALWAYS_INLINE void skin_runs_as(const kctx *c, const blocks_fn *fns, const blocks_fn *uniform_fns, const inputs *in,
                                size_t v, size_t end, writer *wr, int moved, const skin_weight_format wf,
                                const int u8)
{
    const inputs streams = *in;
    const uint32_t k = c->job->mesh->influence_count;
    uint32_t cls = block_class(&streams, v, k, wf, u8);
    while (v < end) {
        size_t run_end = v + W;
        uint32_t next = 0;
        for (; run_end < end; run_end += W)
            if ((next = block_class(&streams, run_end, k, wf, u8)) != cls) break;
        (cls & 16u ? uniform_fns : fns)[(cls & 15u) - 1](c, in, v, run_end, wr, moved);
        v = run_end, cls = next;
    }
}

static void skin_runs(const kctx *c, const blocks_fn *fns, const blocks_fn *uniform_fns, const inputs *in, size_t v,
                      size_t end, writer *wr, int moved)
{
#define SKIN_RUNS_AS(wf)                                                                        \
    (c->joints_u8 ? skin_runs_as(c, fns, uniform_fns, in, v, end, wr, moved, wf, 1)             \
                  : skin_runs_as(c, fns, uniform_fns, in, v, end, wr, moved, wf, 0))
    switch (c->weight_format) {
    case SKIN_WEIGHT_UNORM16: SKIN_RUNS_AS(SKIN_WEIGHT_UNORM16); break;
    case SKIN_WEIGHT_UNORM8: SKIN_RUNS_AS(SKIN_WEIGHT_UNORM8); break;
    default: SKIN_RUNS_AS(SKIN_WEIGHT_F32); break;
    }
#undef SKIN_RUNS_AS
}

/* The same with morph targets: chunk by chunk, each morphed first, unless
 * no target touches it. */
static void skin_full(const kctx *c, const blocks_fn *fns, const blocks_fn *uniform_fns, const inputs *in, size_t v,
                      size_t end, writer *wr)
{
    if (!c->morph) {
        skin_runs(c, fns, uniform_fns, in, v, end, wr, 0);
        return;
    }
    while (v < end) {
        const size_t n = end - v < MORPH_CHUNK ? end - v : MORPH_CHUNK;
        skin_runs(c, fns, uniform_fns, in, v, v + n, wr, morph_chunk(c, in, v, n));
        v += n;
    }
}

/* ----------------------------------------------------------------- driver */

#if W == 16
/* Tables and palette copies are built per call: only worth it when the
 * range is long compared with the palette. */
static int fetch_kind(skin_method method, uint32_t joint_count, size_t count)
{
    if (count < 4 * (size_t)joint_count) return FETCH_ROWS;
    if (joint_count <= 32) return FETCH_TABLE2;
    if (joint_count <= 64) return FETCH_TABLE4;
    /* measured at 4 influences, 10k vertices: 100 joints 3.8 ns/vertex
     * against 4.9 by rows; at 64 joints the tables win (3.3 against 3.9) */
    return method == SKIN_LBS && joint_count <= 128 ? FETCH_AOS : FETCH_ROWS;
}

/* Per-component tables (64 floats each; s->stride components) for the
 * table kinds, 16 joints at a time: each whole 4-float row transposed as
 * FETCH_ROWS does, what is left of a joint one float at a time.  Joints
 * past the palette read zeros.  (Element by element, the tables of a
 * 24-joint palette cost 4% of a 1448-vertex call.) */
static void build_table(source *s, float *table, uint32_t joint_count, int kind)
{
    if (!s->base) return;
    static const float zero_row[4];
    const uint32_t width = kind == FETCH_TABLE2 ? 32 : 64, rows = s->stride / 4;
    for (uint32_t j0 = 0; j0 < width; j0 += W) {
        const float *joint[W];
        for (uint32_t l = 0; l < W; ++l)
            joint[l] = j0 + l < joint_count ? s->base + (size_t)(j0 + l) * s->stride : NULL;
        for (uint32_t row = 0; row < rows; ++row) {
            const float *r[W];
            vf out[4];
            for (int l = 0; l < W; ++l) r[l] = joint[l] ? joint[l] + 4 * row : zero_row;
            transpose_rows(r, out);
            for (int q = 0; q < 4; ++q) simde_mm512_store_ps(table + 64 * (4 * row + q) + j0, out[q]);
        }
        for (uint32_t e = 4 * rows; e < s->stride; ++e)
            for (int l = 0; l < W; ++l) table[64 * e + j0 + l] = joint[l] ? joint[l][e] : 0.0f;
    }
    s->table = table;
}

/* FETCH_AOS: the 3x4 matrices padded to 16 floats, 64-byte aligned. */
static void build_aos(source *s, float *copy, uint32_t joint_count)
{
    for (uint32_t j = 0; j < joint_count; ++j) {
        memcpy(copy + 16 * j, s->base + 12 * (size_t)j, 12 * sizeof(float));
        memset(copy + 16 * j + 12, 0, 4 * sizeof(float));
    }
    s->table = copy;
}
#endif

static int is_aligned(const void *p) { return ((uintptr_t)p % VEC_BYTES) == 0; }

/* Whether five or more of the attribute streams the call reads start
 * within 256 bytes of each other modulo 4 KiB (separate page-aligned
 * allocations do).  Vertex v of each then maps to the same L1 set, more
 * streams than it has ways, and a block, part of each line, loses the
 * lines before the next blocks read the rest.  Such streams are copied
 * chunk by chunk first, as morph targets' are.  LBS-4 p+n+t at 100k,
 * ns/vertex, aliased against apart:
 *  - 4 lanes: 10.5 against 7.6; copied, 8.7.
 *  - 8 lanes, streams 16 bytes past a 32-byte boundary (as malloc's large
 *    blocks are, so every other vector spans two lines): 7.7 against 5.3;
 *    copied, 6.1 (DQS 8.2 to 7.9).  With aligned streams the copy paid
 *    less than it cost (LBS 6.3 to 6.0, DQS 7.2 to 7.8), so only then.
 *  - 16 lanes (whole lines): slower copied, aligned or not. */
static int streams_alias(const skin_job *job)
{
    if (W == 16) return 0;
    const skin_mesh_desc *m = job->mesh;
    const float *s[SKIN_COMPONENTS] = {m->px, m->py, m->pz, m->nx, m->ny, m->nz, m->tx, m->ty, m->tz, m->tw};
    int count[16] = {0}, aligned = 1;
    for (int e = 0; e < SKIN_COMPONENTS; ++e)
        if (component_used(job, e)) ++count[((uintptr_t)s[e] >> 8) & 15], aligned &= is_aligned(s[e]);
    if (W == 8 && aligned) return 0;
    for (int b = 0; b < 16; ++b)
        if (count[b] >= 5) return 1;
    return 0;
}

void SKIN_KERNEL_NAME(const skin_job *job)
{
    const skin_mesh_desc *m = job->mesh;
    const skin_palette *pal = job->palette;
    kctx c;
    memset(&c, 0, sizeof c);
    c.job = job;
    c.joints_u8 = m->joint_format == SKIN_JOINT_U8;
    c.jlimit = v_joint_limit(job->joint_max, c.joints_u8);
    c.weight_format = m->weight_format;
    if (job->method == SKIN_LBS) {
        c.mat = (source){.base = pal->matrices, .stride = 12};
        c.nmat = (source){.base = pal->normal_matrices, .stride = 9};
    } else {
        c.dq = (source){.base = pal->dual_quats, .stride = 8};
        c.sc = (source){.base = pal->scales, .stride = 3};
    }
    c.kind = FETCH_ROWS;
    /* DQS: every sign + (then its own block functions, or on 4 lanes the flag) */
    const int signs_positive = job->method == SKIN_DQS && m->influence_count > 1 &&
                               signs_check_pays(job->count, pal->joint_count) &&
                               all_signs_positive(&c.dq, pal->joint_count);
    c.signs_positive = !SIGNS_FUNCTIONS && signs_positive;
#if W == 16
    /* 8 KiB of stack covers both: 21 tables of 64 floats, or 128 padded matrices */
    SIMDE_ALIGN_TO_64 float tables[128 * 16];
    SIMDE_ALIGN_TO_64 uint32_t signs[128];
    c.kind = fetch_kind(job->method, pal->joint_count, job->count);
    if (c.kind == FETCH_AOS) {
        build_aos(&c.mat, tables, pal->joint_count);
    } else if (IS_TABLE(c.kind)) {
        if (job->method == SKIN_LBS) {
            build_table(&c.mat, tables, pal->joint_count, c.kind);
            build_table(&c.nmat, tables + 12 * 64, pal->joint_count, c.kind);
        } else {
            build_table(&c.dq, tables, pal->joint_count, c.kind);
            build_table(&c.sc, tables + 8 * 64, pal->joint_count, c.kind);
            if (!signs_positive && signs_pay(job->count, pal->joint_count)) {
                build_signs(&c.dq, signs, pal->joint_count);
                c.signs = signs;
            }
        }
    }
#endif
    /* by active slot count */
    blocks_fn fns[SKIN_MAX_INFLUENCES], uniform_fns[SKIN_MAX_INFLUENCES];
    for (uint32_t k = 0; k < SKIN_MAX_INFLUENCES; ++k) {
        const blocks_fn *by_kind = signs_positive ? blocks_signs_positive[k] : blocks_table[k];
        fns[k] = by_kind[c.kind], uniform_fns[k] = by_kind[FETCH_UNIFORM];
    }

    inputs in = {{m->px, m->py, m->pz, m->nx, m->ny, m->nz, m->tx, m->ty, m->tz, m->tw}, {0}, {0}, 0};
    for (uint32_t i = 0; i < m->influence_count; ++i) in.joints[i] = m->joints[i], in.weights[i] = m->weights[i];

    writer wr;
    memset(&wr, 0, sizeof wr);
    wr.packed = packed_components(job);
    wr.xyz = separate_xyz(job);
    wr.tight = tight_packed_words(job);
    /* Streaming stores need every block's vectors aligned: blocks start at
     * multiples of W, so aligned bases are enough. */
    wr.stream = job->streaming;
    for (int e = 0; e < (wr.packed ? 1 : SKIN_COMPONENTS); ++e)
        if (component_used(job, e) && !is_aligned(job->dst[e])) wr.stream = 0;
    for (int e = 0; e < 3; ++e) wr.bmin[e] = v_set1(INFINITY), wr.bmax[e] = v_set1(-INFINITY);

    const size_t first = job->first, end = job->first + job->count;
    const size_t full_end = end - end % W;
    size_t v = first - first % W;
    morph_plan plan;
    if (job->morph_count || streams_alias(job)) morph_plan_init(&plan, job, v), c.morph = &plan;
    if (v < first) { /* head: the block holding `first` */
        int hi = end - v < W ? (int)(end - v) : W;
        skin_partial(&c, fns, &in, &wr, v, (int)(first - v), hi);
        v += W;
    }
    if (v < full_end) {
        skin_full(&c, fns, uniform_fns, &in, v, full_end, &wr);
        v = full_end;
    }
    if (v < end) skin_partial(&c, fns, &in, &wr, v, 0, (int)(end - v)); /* tail */

    if (job->streaming) simde_mm_sfence();
    if (job->bounds) {
        float lo[3][W], hi[3][W];
        for (int e = 0; e < 3; ++e) {
            v_storeu(lo[e], wr.bmin[e]);
            v_storeu(hi[e], wr.bmax[e]);
            for (int l = 0; l < W; ++l) {
                if (lo[e][l] < job->bounds[e]) job->bounds[e] = lo[e][l];
                if (hi[e][l] > job->bounds[3 + e]) job->bounds[3 + e] = hi[e][l];
            }
        }
    }
}
