/* SPDX-License-Identifier: MIT */
/*
 * skin — CPU mesh skinning (linear blend and dual quaternion) over SoA streams.
 *
 * Conventions used throughout this header:
 *  - "Stream" means a planar array with one entry per vertex, indexed by the
 *    absolute vertex index 0 .. vertex_count-1.
 *  - Matrices are 3x4 row-major affine transforms: 12 floats
 *    m[0..3] = row 0 (x), m[4..7] = row 1 (y), m[8..11] = row 2 (z);
 *    column 3 holds the translation.  p' = M * (p, 1).
 *  - Quaternions are stored x, y, z, w.  A dual quaternion is 8 floats:
 *    real x y z w, then dual x y z w.
 *  - Every function is thread-safe and reentrant unless its comment says
 *    otherwise.  None allocates memory itself; the one exception is
 *    skin_mesh_parallel, which starts (and keeps) its thread pool on
 *    first use.
 *  - No function asserts on user input: bad arguments return a negative
 *    skin_status and leave every output untouched.  The two helpers that
 *    return no skin_status (skin_matrix_to_dual_quat, which returns flags,
 *    and skin_matrix_multiply) say in their comment what they do with bad
 *    arguments.
 *  - Palette helpers index joints with size_t offsets: any uint32_t
 *    joint_count works, given buffers that large.
 */
#ifndef SKIN_SKIN_H
#define SKIN_SKIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(SKIN_SHARED)
#  ifdef SKIN_BUILDING
#    define SKIN_API __declspec(dllexport)
#  else
#    define SKIN_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define SKIN_API __attribute__((visibility("default")))
#else
#  define SKIN_API
#endif

/* ---------------------------------------------------------------- version */

#define SKIN_VERSION_MAJOR 0
#define SKIN_VERSION_MINOR 1
#define SKIN_VERSION_PATCH 0
/** Compile-time version as one number: (major << 16) | (minor << 8) | patch. */
#define SKIN_VERSION \
    ((SKIN_VERSION_MAJOR << 16) | (SKIN_VERSION_MINOR << 8) | SKIN_VERSION_PATCH)

/** Version of the library linked at run time, encoded like SKIN_VERSION. */
SKIN_API uint32_t skin_version(void);
/** The same as a string "major.minor.patch"; static storage. */
SKIN_API const char *skin_version_string(void);

/* ----------------------------------------------------------------- status */

typedef enum skin_status {
    SKIN_OK = 0,
    SKIN_ERROR_NULL_ARGUMENT = -1,     /**< a required pointer is NULL */
    SKIN_ERROR_INVALID_COUNT = -2,     /**< a count is zero or too large */
    SKIN_ERROR_INVALID_RANGE = -3,     /**< first + count exceeds vertex_count */
    SKIN_ERROR_INVALID_INFLUENCES = -4,/**< influence_count not in 1..8 */
    SKIN_ERROR_INVALID_FORMAT = -5,    /**< unknown joint, weight or output layout */
    SKIN_ERROR_INVALID_STRIDE = -6,    /**< output stride smaller than its element,
                                            not a multiple of 4, or so large that
                                            stride * vertex_count > PTRDIFF_MAX; or an
                                            output pointer not 4-byte aligned */
    SKIN_ERROR_INVALID_METHOD = -7,    /**< unknown skin_method */
    SKIN_ERROR_INVALID_FLAGS = -8,     /**< unknown bits in skin_output.flags */
    SKIN_ERROR_MISSING_ATTRIBUTE = -9, /**< output asks for an attribute the input lacks */
    SKIN_ERROR_MISSING_PALETTE = -10,  /**< the palette lacks what the method needs */
    SKIN_ERROR_JOINT_OUT_OF_RANGE = -11,/**< (validation) a joint >= joint_count */
    SKIN_ERROR_INVALID_WEIGHT = -12,   /**< (validation) negative or non-finite weight */
    SKIN_ERROR_WEIGHT_SUM = -13,       /**< (validation) weights do not sum to one */
    SKIN_ERROR_NON_FINITE = -14,       /**< (validation) non-finite vertex attribute */
    SKIN_ERROR_INVALID_HIERARCHY = -15,/**< a parent index does not precede its child */
    SKIN_ERROR_UNSUPPORTED = -16,      /**< the CPU cannot run the requested ISA */
    SKIN_ERROR_MORPH_INDEX_ORDER = -17,/**< (validation) sparse morph indices not
                                            strictly increasing */
    SKIN_ERROR_MORPH_INDEX_RANGE = -18,/**< (validation) a sparse morph index >= vertex_count */
    SKIN_ERROR_MORPH_WEIGHT = -19,     /**< a morph weight is NaN or infinite */
    SKIN_ERROR_INDEX_RANGE = -20,      /**< a triangle's vertex index >= vertex_count */
    SKIN_ERROR_INVALID_VALUE = -21,    /**< a parameter outside its domain (e.g. a negative sigma) */
    SKIN_ERROR_OUT_OF_MEMORY = -22     /**< an allocation failed (load-time helpers only) */
} skin_status;

/** A short English description of a status; never NULL, static storage. */
SKIN_API const char *skin_status_string(skin_status status);

/* ------------------------------------------------------------------ input */

/** Maximum number of influences (joint/weight slots) per vertex. */
#define SKIN_MAX_INFLUENCES 8
/** The most joints a palette may have. */
#define SKIN_MAX_JOINTS 65536u

typedef enum skin_joint_format {
    SKIN_JOINT_U8 = 1,  /**< uint8_t joint indices */
    SKIN_JOINT_U16 = 2  /**< uint16_t joint indices */
} skin_joint_format;

typedef enum skin_weight_format {
    SKIN_WEIGHT_F32 = 1,     /**< float weights, used as given */
    SKIN_WEIGHT_UNORM16 = 2, /**< uint16_t, weight = value * (1.0f / 65535) in float:
                                  exact at 0 and 65535, within 1 ulp of the quotient */
    SKIN_WEIGHT_UNORM8 = 3   /**< uint8_t,  weight = value * (1.0f / 255), likewise */
} skin_weight_format;

/**
 * One morph target (blend shape): per-vertex deltas added to the mesh's
 * attributes, scaled by the target's weight, before skinning:
 *   p = p + sum_k w_k dp_k,  n = n + sum_k w_k dn_k,  t.xyz = t.xyz + sum_k w_k dt_k
 * (t.w is never morphed; nothing is renormalised except by
 * SKIN_OUTPUT_NORMALIZE).  Each attribute's deltas are optional: all three
 * pointers of a group or none (NULL: that attribute has no delta in this
 * target); a partly set group is SKIN_ERROR_NULL_ARGUMENT.  Deltas of an
 * attribute the call does not write are ignored.
 *  - Dense (indices NULL): every non-NULL delta array holds vertex_count
 *    floats, indexed by vertex.
 *  - Sparse (indices set): the target touches `count` vertices, listed in
 *    indices in strictly increasing order, all < vertex_count; delta arrays
 *    hold `count` floats, entry e belonging to vertex indices[e].  Vertices
 *    not listed have zero deltas.  skin_validate checks the list (once, at
 *    load).  Skinning with an unsorted or out-of-range list never reads or
 *    writes out of bounds, but what it adds is unspecified: some deltas
 *    may be left out, or added to another listed vertex of the same
 *    block, and the result may differ between ISAs and splits.
 */
typedef struct skin_morph_target {
    const uint32_t *indices; /**< NULL: dense */
    size_t count;            /**< sparse: entries in indices and each delta array */
    const float *dpx, *dpy, *dpz;
    const float *dnx, *dny, *dnz;
    const float *dtx, *dty, *dtz;
} skin_morph_target;

/** At most this many morph targets may have a non-zero weight in one call
 *  (any number may have weight zero): SKIN_ERROR_INVALID_COUNT beyond. */
#define SKIN_MAX_ACTIVE_MORPH_TARGETS 64

/**
 * A mesh as structure-of-arrays streams.  Every non-NULL stream holds
 * vertex_count entries.  The structure only points at user memory; skin never
 * keeps the pointers past a call.
 *
 * Positions px/py/pz are required.  Normals nx/ny/nz are optional (all three
 * or none).  Tangents tx/ty/tz/tw are optional (all four or none; tw is the
 * bitangent sign and is copied through unchanged).
 *
 * influence_count slots (1..SKIN_MAX_INFLUENCES): slot i has joints[i]
 * (elements of joint_format) and weights[i] (elements of weight_format).
 * Slots beyond influence_count are ignored.  Joints >= the palette's
 * joint_count are clamped to joint_count - 1 when skinning (never read out of
 * bounds); skin_validate() reports them.
 *
 * Placement: streams that start at the same address modulo 4 KiB (each a
 * separate large allocation: malloc returns memory 16 bytes past a page
 * boundary from about 128 KiB, 32k float vertices) compete for the same L1
 * cache sets.  One allocation holding every stream back to back avoids
 * that.  The 4-lane kernels detect such streams and copy them through cache
 * chunk by chunk (same bits), and so do the 8-lane ones when the streams
 * are not 32-byte aligned; aligned, the 8-lane kernels read them in place
 * (LBS-4, 100k vertices: about 20% slower than with the streams apart), as
 * the 16-lane ones always do (about 14% slower).
 */
typedef struct skin_mesh_desc {
    size_t vertex_count;
    const float *px, *py, *pz;
    const float *nx, *ny, *nz;
    const float *tx, *ty, *tz, *tw;
    uint32_t influence_count;
    skin_joint_format joint_format;
    skin_weight_format weight_format;
    const void *joints[SKIN_MAX_INFLUENCES];
    const void *weights[SKIN_MAX_INFLUENCES];
    /** Morph targets (optional): morph_target_count entries.  Their weights
     *  come with each frame's palette (skin_palette.morph_weights). */
    uint32_t morph_target_count;
    const skin_morph_target *morph_targets;
} skin_mesh_desc;

/**
 * The bone palette for one frame.  1 <= joint_count <= SKIN_MAX_JOINTS entries of:
 *  - matrices: 12 floats per joint (3x4 row-major), the joint's model-space
 *    transform already multiplied by its inverse bind matrix.  Needed by LBS.
 *  - normal_matrices (optional, LBS): 9 floats per joint, row-major 3x3
 *    inverse-transpose of the matrix's 3x3 part; blended with the same weights
 *    and used for normals instead of the matrix's 3x3 (tangents, being
 *    surface directions, always use the matrix).  Only needed under
 *    non-uniform scale or shear.
 *  - dual_quats: 8 floats per joint (real xyzw, dual xyzw), real part of unit
 *    length.  Needed by DQS.
 *  - scales (optional, DQS): 3 floats per joint, per-axis scale applied in
 *    bind space before the rigid transform (see skin_matrix_to_dual_quat).
 *  - morph_weights (optional): the frame's morph target weights, one per
 *    target of the mesh (mesh->morph_target_count floats), any finite value
 *    (negative and above 1 included; NaN or infinite:
 *    SKIN_ERROR_MORPH_WEIGHT, whatever the active count).  Targets whose
 *    weight is 0 cost nothing.
 *    NULL: the mesh is skinned unmorphed.
 * Unused pointers may be NULL.
 */
typedef struct skin_palette {
    uint32_t joint_count;
    const float *matrices;
    const float *normal_matrices;
    const float *dual_quats;
    const float *scales;
    const float *morph_weights;
} skin_palette;

typedef enum skin_method {
    /** Linear blend: M = sum w_i M_i; p' = M (p,1); n' = R n; t' = R t, with R
     *  M's 3x3 (for n: the blended normal matrix when the palette has them). */
    SKIN_LBS = 1,
    /**
     * Dual quaternion (Kavan et al., DLB).  The pivot is the influence with
     * the largest weight (the lowest slot on ties), so a zero-weight slot
     * never decides the signs; b = sum s_i w_i dq_i with s_i = -1 if
     * dot(real_i, real_pivot) < 0, else +1; b is divided by |b.real|.  Since
     * the pivot's own term adds at least its weight along real_pivot,
     * |b.real| < 1e-6 happens only when every weight is (about) zero; then
     * the pivot joint's own transform (its dual quaternion and scale,
     * unblended) is used instead, so the result is deterministic.
     * Normals and tangents are rotated only.  With per-joint scales, the
     * blended scale s = sum w_i scale_i multiplies p and t and divides n
     * before the rigid part.
     */
    SKIN_DQS = 2
} skin_method;

/* ----------------------------------------------------------------- output */

typedef enum skin_layout {
    /**
     * Default.  position/normal/tangent point at vertex 0's element of
     * each attribute; element v starts at base + v * stride bytes.
     * Positions and normals are 3 floats, tangents 4 (w copied).  One call can
     * fill an interleaved vertex buffer (same base block, shared stride) or
     * separate arrays.  Pointers need only float (4-byte) alignment.
     */
    SKIN_LAYOUT_STRIDED = 0,
    /** Planar output: soa[0..9] = px py pz nx ny nz tx ty tz tw streams. */
    SKIN_LAYOUT_SOA = 1
} skin_layout;

/** Non-temporal stores for write-combined memory (mapped GPU buffers): every
 *  output byte of the range is written once, in order, never read back, and
 *  the stores are fenced before skin_mesh returns.  The SIMD kernels stream
 *  whole vectors when the output is SoA, or a tightly interleaved vertex
 *  (position; position+normal; position+normal+tangent, stride 12/24/40),
 *  with bases aligned to the vector width (64 bytes covers every ISA);
 *  other layouts and the ends of a range use ordinary stores. */
#define SKIN_OUTPUT_STREAMING (1u << 0)
/** Renormalise skinned normals (and tangent xyz) to unit length, at any
 *  finite length (those too short or long to square in float included); a
 *  zero vector stays zero.  The SIMD kernels skin in float, so a vector
 *  whose skinned components overflow float is not finite there and comes
 *  out non-finite (the scalar reference, in double, may still normalise it). */
#define SKIN_OUTPUT_NORMALIZE (1u << 1)
#define SKIN_OUTPUT_ALL_FLAGS (SKIN_OUTPUT_STREAMING | SKIN_OUTPUT_NORMALIZE)

/**
 * How normals and tangents are written in the strided layout.  Vulkan's
 * float-to-snorm rule: each component is clamped to [-1, 1] (NaN becomes 1),
 * scaled by 2^(bits-1) - 1 and rounded to nearest, ties to even.
 */
typedef enum skin_vector_format {
    SKIN_VECTOR_F32 = 0,     /**< floats: normal 12 bytes (x y z), tangent 16 (x y z w) */
    /** 4 x int16 snorm, 8 bytes: x y z w; normals get w = 0, tangents their w
     *  (VK_FORMAT_R16G16B16A16_SNORM). */
    SKIN_VECTOR_SNORM16 = 1,
    /** One uint32, 4 bytes: 10-bit snorm x in bits 0-9, y in 10-19, z in
     *  20-29, and a 2-bit snorm w in bits 30-31: 0 for normals, the tangent's
     *  w (the handedness sign) for tangents (VK_FORMAT_A2B10G10R10_SNORM_PACK32). */
    SKIN_VECTOR_1010102 = 2
} skin_vector_format;

/**
 * Where skinned vertices go.  Positions are required.  Normals (tangents) are
 * written when the output's normal (tangent) pointer is set, and then the mesh
 * must have normals (tangents): otherwise SKIN_ERROR_MISSING_ATTRIBUTE (none
 * of the group's pointers set) or SKIN_ERROR_NULL_ARGUMENT (some).
 * Output element v always belongs to vertex v: skinning the range
 * [first, first+count) writes exactly elements first .. first+count-1 and
 * nothing else (for the strided layout: exactly the bytes of each element,
 * 12/12/16 for floats, fewer for packed vectors, never the bytes between
 * elements).
 *
 * bounds (optional): if not NULL (4-byte aligned, like every output
 * pointer), receives the axis-aligned box of the skinned positions of the
 * range as min x y z, max x y z; a zero bound is +0, whatever the sign of
 * the zeros it came from, so the box does not depend on how the range is
 * split.  NaN coordinates are left out.  For an empty range it receives
 * min = +inf, max = -inf.
 */
typedef struct skin_output {
    skin_layout layout;     /**< unknown values: SKIN_ERROR_INVALID_FORMAT */
    uint32_t flags; /**< SKIN_OUTPUT_* bits */
    /* SKIN_LAYOUT_STRIDED */
    float *position;
    size_t position_stride; /**< bytes, >= 12, multiple of 4; no upper limit
                                 but stride * vertex_count <= PTRDIFF_MAX */
    float *normal;
    size_t normal_stride;   /**< bytes, >= the element (12 as floats; see
                                 vector_format), same rules */
    float *tangent;
    size_t tangent_stride;  /**< bytes, >= the element (16 as floats), same rules */
    /* SKIN_LAYOUT_SOA: px py pz [nx ny nz] [tx ty tz tw]; normals (tangents)
     * are written iff soa[3] (soa[6]) is not NULL, and then the rest of that
     * attribute's streams must be set too.  Streams at the same address
     * modulo 4 KiB (separate large allocations) compete for L1 sets: LBS-4
     * p+n+t at 100k ran about 20% slower on 4 and 8 lanes than with the
     * streams 64 bytes apart in one allocation. */
    float *soa[10];
    float *bounds;          /**< optional, 6 floats */
    /** Normals and tangents of the strided layout (zero: floats).  A packed
     *  format shrinks the elements (normal_stride and tangent_stride >= 8
     *  for SNORM16, >= 4 for 1010102); the SoA layout takes only
     *  SKIN_VECTOR_F32.  Unknown values: SKIN_ERROR_INVALID_FORMAT.  The
     *  kernels pack in their store step, in the same pass. */
    skin_vector_format vector_format;
} skin_output;

/* --------------------------------------------------------------- skinning */

/**
 * Skins vertices [first, first + count) of mesh with palette into out.
 *
 * Argument checks are O(1), plus O(morph_target_count) for a morphed mesh
 * (data is checked by skin_validate, once).  Returns
 * SKIN_OK, or an error status with nothing written.  count == 0 is valid and
 * writes nothing (except bounds).  Reentrant and allocation-free; never starts
 * threads.  Any number of threads may call it at once on disjoint ranges of
 * the same output.  For a given ISA and finite inputs (positions, normals,
 * tangents, weights, palette), the output of a vertex does not depend on how
 * the mesh is split into ranges.  With a NaN input the output is NaN
 * wherever it would be with any split, but which NaN payload (bits) it
 * carries may differ: two paths may pick different NaN operands.
 *
 * The SIMD kernels work on blocks of W vertices (W = 4, 8 or 16 by ISA, at
 * absolute indices that are multiples of W) and skip the trailing influence
 * slots whose weights are zero in the whole block, as real meshes store
 * their unused slots.  With a finite palette and non-negative weights this
 * changes no bit.  A non-finite palette entry reached only with weight zero
 * (0 * inf = NaN) may or may not reach the output, depending on the other
 * vertices of the block; with negative weights DQS may pick another pivot.
 * Either way the result stays the same for any split into ranges (up to NaN
 * payloads, as above).
 *
 * Morph targets are applied in the same pass, a few hundred vertices at a
 * time: their attributes plus the active targets' deltas (per vertex the
 * dense targets in target order, then the sparse ones in target order; a
 * sparse target only at the vertices it lists) go to a buffer on the stack,
 * and the blocks skin them from there.  A vertex's bits do not depend on
 * the split.  The SIMD kernels use under 64 KiB of stack (56 KiB at most
 * in tests/test_stack.c, on AVX-512).  The SKIN_PORTABLE_KERNELS test
 * build, whose x86 kernels SIMDe emulates, uses more (242 KiB measured on
 * AVX-512 DQS with SIMDE_NO_NATIVE at -O1).
 */
SKIN_API skin_status skin_mesh(const skin_mesh_desc *mesh, const skin_palette *palette,
                               skin_method method, const skin_output *out,
                               size_t first, size_t count);

/**
 * Skins the whole mesh on `threads` threads (threads <= 0: one per online
 * CPU): the calling thread and up to threads - 1 workers of a pool that the
 * library starts on first use and keeps, sleeping, for later calls.  A small
 * mesh uses fewer: one thread per 8192 vertices at most, so it never runs
 * slower for having more cores.  Work is split into chunks of whole
 * multiples of 64 vertices (at least 1024, about four per thread, claimed
 * dynamically), so when each output base is 64-byte aligned no two threads
 * write the same cache line.  The caller skins chunks too and waits only for
 * the chunks a worker has claimed: when other work keeps every core busy and
 * a worker is not scheduled, the caller does its share instead of waiting
 * for it.  The result is bit-identical to one skin_mesh call over the whole
 * mesh (NaN payloads aside, as for skin_mesh).
 *
 * Thread-safe: one call at a time uses the pool; a call made while another
 * is using it runs on its own thread alone.  This and the pool's start are
 * the only allocations skin makes.  Built without threads (SKIN_THREADS=OFF,
 * or no pthreads), it runs serially.  Engines with a job system of their own
 * should use it instead: see skin_split_range.
 */
SKIN_API skin_status skin_mesh_parallel(const skin_mesh_desc *mesh, const skin_palette *palette,
                                        skin_method method, const skin_output *out, int threads);

/** True (1) if the library was built with its thread pool, else 0
 *  (skin_mesh_parallel then runs on the calling thread). */
SKIN_API int skin_has_threads(void);

/**
 * Part `index` of `parts` near-equal ranges of [0, vertex_count), for a job
 * system of the user's own: each job calls skin_mesh(mesh, palette, method,
 * out, *first, *count) with its part.  Boundaries are multiples of 64
 * vertices, so jobs never write the same cache line of an output whose base
 * is 64-byte aligned, and every SIMD block is whole; the parts cover the
 * range exactly once, in order, and differ in size by at most 64 vertices.
 * A part may be empty (*count = 0) when there are more parts than blocks of
 * 64.  The output of any split is bit-identical to one call.  Errors:
 * NULL_ARGUMENT (first or count NULL), INVALID_RANGE (parts 0 or
 * index >= parts), with nothing written.
 */
SKIN_API skin_status skin_split_range(size_t vertex_count, uint32_t parts, uint32_t index,
                                      size_t *first, size_t *count);

/* ------------------------------------------------------------- validation */

typedef struct skin_validation_report {
    skin_status status; /**< SKIN_OK or what is wrong with the first offender */
    size_t vertex;      /**< first offending vertex (0 when status is SKIN_OK); for
                             SKIN_ERROR_MORPH_INDEX_ORDER/RANGE the offending
                             index's value (the first entry not above the one
                             before it, or not below vertex_count) */
    uint32_t slot;      /**< offending influence slot, or attribute index for
                             SKIN_ERROR_NON_FINITE (0..9 = px..tw; in a morph
                             target 0..8 = dpx..dtz) */
    int32_t morph_target; /**< the morph target at fault, or -1 */
} skin_validation_report;

/**
 * O(vertex_count) check of the data, meant to run once at load time.  Checks
 * the descriptor like skin_mesh, then per vertex in order: non-finite
 * positions/normals/tangents; slot by slot, a joint >= joint_count, then a
 * negative or non-finite weight; the weight sum (f32: |sum - 1| > 1e-3;
 * unorm16/unorm8: the integer sum must equal exactly 65535/255).  Then each
 * morph target in order: sparse indices strictly increasing
 * (SKIN_ERROR_MORPH_INDEX_ORDER) and below vertex_count
 * (SKIN_ERROR_MORPH_INDEX_RANGE), deltas finite (SKIN_ERROR_NON_FINITE;
 * report->vertex is the vertex the delta belongs to).  Stops at the first
 * offender.  report may be NULL.  Returns report->status.
 */
SKIN_API skin_status skin_validate(const skin_mesh_desc *mesh, uint32_t joint_count,
                                   skin_validation_report *report);

/* -------------------------------------------------------- palette helpers */

/**
 * Local joint transforms to model-space 3x4 matrices.  For each joint j:
 * local = T(translation[j]) * R(rotation[j]) * S(scale[j]);
 * model[j] = parents[j] < 0 ? local : model[parents[j]] * local.
 * translations: 3 floats/joint (NULL = zero), rotations: 4 floats/joint
 * (unit quaternion xyzw; NULL = identity), scales: 3 floats/joint
 * (NULL = one).  Joints must be parent-first: parents[j] < j, or negative for
 * a root; otherwise SKIN_ERROR_INVALID_HIERARCHY and nothing is written.
 * model_out: 12 floats per joint.  Errors: NULL_ARGUMENT (parents or
 * model_out NULL), INVALID_COUNT (joint_count 0), INVALID_HIERARCHY.
 */
SKIN_API skin_status skin_pose_to_matrices(uint32_t joint_count, const int32_t *parents,
                                           const float *translations, const float *rotations,
                                           const float *scales, float *model_out);

/**
 * Skinning matrices: out[j] = model[j] * inverse_bind[j] (all 3x4, 12 floats
 * per joint).  out may alias model but not inverse_bind.  Errors:
 * NULL_ARGUMENT, INVALID_COUNT (joint_count 0).
 */
SKIN_API skin_status skin_apply_inverse_bind(uint32_t joint_count, const float *model,
                                             const float *inverse_bind, float *out);

/** Bits reported by skin_matrix_to_dual_quat for transforms that a rigid
 *  dual quaternion cannot represent exactly. */
#define SKIN_NONRIGID_SCALE (1u << 0)  /**< scale not 1 (uniform or not) */
#define SKIN_NONRIGID_NONUNIFORM (1u << 1) /**< per-axis scales differ */
#define SKIN_NONRIGID_SHEAR (1u << 2)  /**< axes not orthogonal */
#define SKIN_NONRIGID_MIRROR (1u << 3) /**< negative determinant */
#define SKIN_NONRIGID_DEGENERATE (1u << 4) /**< an axis has (near) zero length */

/**
 * One 3x4 matrix to a unit dual quaternion (8 floats) plus per-axis scale
 * (3 floats, may be NULL).  The matrix is read as M = [R*S | t]: the scale of
 * each column is its length, R is extracted from the column-normalised 3x3
 * with the largest-diagonal branch (robust near 180 degrees), and
 * dual = 0.5 * (t, 0) * real.  The real part's w is made non-negative.
 * Returns SKIN_NONRIGID_* bits describing what the dual quaternion (with the
 * scale, if requested) leaves out; 0 for a rigid matrix.  Tolerance 1e-4.
 * A mirrored matrix has its x scale negated to recover a rotation.
 * A matrix with a NaN or infinite element returns SKIN_NONRIGID_DEGENERATE
 * and the identity (dq = 0 0 0 1  0 0 0 0, scale = 1 1 1).  matrix or dq
 * NULL: returns SKIN_NONRIGID_DEGENERATE and writes nothing.
 */
SKIN_API uint32_t skin_matrix_to_dual_quat(const float matrix[12], float dq[8], float scale[3]);

/**
 * Palette form: converts joint_count matrices (12 floats each) into
 * dual_quats (8 floats each) and, if scales is not NULL, scales (3 floats
 * each).  *nonrigid_count (may be NULL) receives the number of joints whose
 * transform the output cannot represent: any SKIN_NONRIGID_* bit, except that
 * SCALE, NONUNIFORM and MIRROR are representable when scales are returned
 * (a mirror becomes a negative x scale).  Errors: NULL_ARGUMENT (matrices
 * or dual_quats NULL), INVALID_COUNT (joint_count 0).
 */
SKIN_API skin_status skin_matrices_to_dual_quats(uint32_t joint_count, const float *matrices,
                                                 float *dual_quats, float *scales,
                                                 uint32_t *nonrigid_count);

/** Dual quaternion (+ optional per-axis scale, NULL = 1) to a 3x4 matrix
 *  M = [R*diag(scale) | t].  The real part need not be unit length: it is
 *  normalised first.  A zero real part gives the identity, translation
 *  included; a non-finite component (NaN, inf), a matrix with non-finite
 *  elements (still SKIN_OK).  dq or matrix NULL: SKIN_ERROR_NULL_ARGUMENT,
 *  nothing written. */
SKIN_API skin_status skin_dual_quat_to_matrix(const float dq[8], const float scale[3], float matrix[12]);

/**
 * Load-time weight normalisation of float weights in place: each vertex's
 * weights over influence_count slots are divided by their sum; a vertex whose
 * sum is zero gets weight 1 on slot 0 and 0 elsewhere.  Negative and
 * non-finite weights are set to zero first.  Errors: NULL_ARGUMENT (weights
 * or a slot NULL), INVALID_INFLUENCES (influence_count not 1..8).
 */
SKIN_API skin_status skin_normalize_weights(size_t vertex_count, uint32_t influence_count,
                                            float *const *weights);

/**
 * Converts glTF-style interleaved influences into planar slots, normalised.
 * set_count (1 or 2) sets of JOINTS_n (4 joints per vertex, in_joint_format)
 * and WEIGHTS_n (4 floats per vertex) become 4 * set_count planar slots:
 * joints_out[s] (out_joint_format) and weights_out[s] (out_weight_format),
 * each of vertex_count entries.  Weights are normalised to sum to one; unorm
 * outputs are rounded so that the integer sum is exactly 65535 (255), the
 * rounding remainder going to the largest weight.  A u16 joint that does not
 * fit a u8 output returns SKIN_ERROR_INVALID_FORMAT; every joint is checked
 * before anything is written, so then no output is touched.
 * vertex_count > SIZE_MAX / 16: SKIN_ERROR_INVALID_COUNT; set_count not 1
 * or 2: SKIN_ERROR_INVALID_INFLUENCES.
 */
SKIN_API skin_status skin_deinterleave_influences(size_t vertex_count, uint32_t set_count,
                                                  skin_joint_format in_joint_format,
                                                  const void *const *joint_sets,
                                                  const float *const *weight_sets,
                                                  skin_joint_format out_joint_format,
                                                  skin_weight_format out_weight_format,
                                                  void *const *joints_out,
                                                  void *const *weights_out);

/**
 * Load-time conversion of interleaved (strided) vertex attributes, as glTF
 * buffers and engines' vertex structs hold them, into the planar streams
 * skin_mesh_desc takes: soa[0..9] = px py pz nx ny nz tx ty tz tw, each of
 * vertex_count floats.  Positions are 3 floats at position + v *
 * position_stride bytes, normals 3 floats, tangents 4 (x y z w); normal and
 * tangent may be NULL (their soa entries are then not used and may be
 * NULL).  Any byte alignment is accepted.  Strides are in bytes, at least
 * the element's size (12, 12, 16).  Errors: NULL_ARGUMENT (position, soa,
 * or an soa entry that is needed), INVALID_STRIDE (a stride below its
 * element), INVALID_COUNT (vertex_count * stride past PTRDIFF_MAX), with
 * nothing written.
 */
SKIN_API skin_status skin_deinterleave_vertices(size_t vertex_count, const void *position,
                                                size_t position_stride, const void *normal,
                                                size_t normal_stride, const void *tangent,
                                                size_t tangent_stride, float *const soa[10]);

/* ------------------------------------------------- centers of rotation */

/** Index width of a triangle list. */
typedef enum skin_index_format {
    SKIN_INDEX_U16 = 0,
    SKIN_INDEX_U32 = 1
} skin_index_format;

/** What skin_cor_compute found. */
typedef struct skin_cor_report {
    size_t undefined_vertices;   /**< vertices no triangle shares two weighted joints with (every
                                      single-joint vertex among them): their center is their own
                                      position, which makes CoR skinning of their position LBS */
    size_t degenerate_triangles; /**< triangles of zero (or non-finite) area: left out */
    size_t unique_influences;    /**< distinct weight sets: vertices that share one share its sum */
} skin_cor_report;

/**
 * Optimized centers of rotation (Le and Hodgins, "Real-time Skeletal
 * Skinning with Optimized Centers of Rotation", SIGGRAPH 2016), once per
 * mesh at load time.  Vertex i's center is the area-weighted mean of the
 * triangles' centroids, each triangle t weighted by the similarity of its
 * skinning weights (the mean of its three corners') to the vertex's:
 *   s(a, b) = sum over joints j != k of a_j a_k b_j b_k exp(-(a_j b_k - a_k b_j)^2 / sigma^2)
 *   p*_i = sum_t s(w_i, w_t) area_t centroid_t / sum_t s(w_i, w_t) area_t.
 * A vertex that no triangle shares a pair of weighted joints with has no
 * such mean: its center is its rest position (report->undefined_vertices).
 *
 * mesh: its positions and influences (any joint and weight format; the
 * weights as given, unorm ones as value / 65535 or / 255; other attributes
 * are not read).  indices: index_count (a multiple of 3) triangle corners.
 * sigma: the similarity's width, 0 for the paper's 0.1.  threads: how many
 * threads share the work, the calling one among them (0 or 1: the calling
 * thread only; without thread support always 1).  centers: three planar
 * float arrays of vertex_count entries (x, y, z), every entry written on
 * success, none on error.  report may be NULL.
 *
 * Cost: only triangles sharing a pair of weighted joints with a vertex are
 * visited, and vertices with equal weight sets share one sum; memory is
 * allocated for the work (about 100 bytes a vertex and 150 a triangle).
 * Errors: NULL_ARGUMENT, INVALID_FORMAT (index, joint or weight format),
 * INVALID_COUNT (index_count not a multiple of 3, or more than 2^32
 * vertices or triangles), INVALID_INFLUENCES, INVALID_VALUE (sigma negative,
 * NaN or infinite), NON_FINITE (a position), INVALID_WEIGHT (a negative or
 * non-finite float weight), INDEX_RANGE (an index >= vertex_count),
 * OUT_OF_MEMORY.
 */
SKIN_API skin_status skin_cor_compute(const skin_mesh_desc *mesh, const void *indices,
                                      skin_index_format index_format, size_t index_count, float sigma,
                                      uint32_t threads, float *const centers[3], skin_cor_report *report);

/* -------------------------------------------------------------------- ISA */

typedef enum skin_isa {
    SKIN_ISA_AUTO = 0,  /**< the best the CPU supports */
    SKIN_ISA_SCALAR = 1,/**< the plain C reference kernels */
    SKIN_ISA_SSE2 = 2,
    SKIN_ISA_AVX2 = 3,  /**< AVX2 + FMA */
    SKIN_ISA_AVX512 = 4,/**< AVX-512 F/VL/BW/DQ */
    SKIN_ISA_NEON = 5,  /**< Advanced SIMD: aarch64, and armv7-a with NEON and VFPv4 */
    SKIN_ISA_SIMD128 = 6/**< WebAssembly SIMD128 */
} skin_isa;

/**
 * The kernel set in use.  The first skinning call (or ISA query) picks it
 * once, thread-safely: the environment variable SKIN_ISA
 * (scalar|sse2|avx2|avx512|neon|simd128) if set and supported, else the best one.
 */
SKIN_API skin_isa skin_get_isa(void);
/** Lower-case name of an ISA ("scalar", "avx512", ...); "unknown" otherwise. */
SKIN_API const char *skin_isa_name(skin_isa isa);
/** 1 if this build contains the ISA's kernels and the CPU can run them. */
SKIN_API int skin_isa_supported(skin_isa isa);
/**
 * Forces a kernel set for all later calls (SKIN_ISA_AUTO: the best).
 * SKIN_ERROR_UNSUPPORTED if skin_isa_supported(isa) is 0.  Not meant to be
 * called while other threads are skinning (they may use either set).
 */
SKIN_API skin_status skin_set_isa(skin_isa isa);

/* ------------------------------------------- glTF and engine helpers
 * Load-time conversions for data as glTF files and engines hold it.  All are
 * pure functions of their arguments: thread-safe, no allocation. */

/**
 * Like skin_deinterleave_influences, with the weight format of the input:
 * in_weight_format SKIN_WEIGHT_F32, UNORM16 or UNORM8 (glTF WEIGHTS_n may be
 * float, unsigned short or unsigned byte normalised); weight_sets then point
 * to float, uint16_t or uint8_t data, 4 per vertex.  Errors as
 * skin_deinterleave_influences (an unknown in_weight_format:
 * SKIN_ERROR_INVALID_FORMAT).
 */
SKIN_API skin_status skin_deinterleave_influences_typed(size_t vertex_count, uint32_t set_count,
                                                        skin_joint_format in_joint_format,
                                                        const void *const *joint_sets,
                                                        skin_weight_format in_weight_format,
                                                        const void *const *weight_sets,
                                                        skin_joint_format out_joint_format,
                                                        skin_weight_format out_weight_format,
                                                        void *const *joints_out,
                                                        void *const *weights_out);

/**
 * Quantises planar float weights (influence_count slots of vertex_count) to
 * planar unorm16 or unorm8 slots out[i] (uint16_t / uint8_t arrays).  Each
 * vertex is normalised first (negative and non-finite weights count as 0; a
 * zero sum puts everything on slot 0), then rounded so that the integer sum
 * is exactly 65535 (255): the rounding remainder goes to the largest weight
 * (the lowest slot on ties), the same rule as skin_deinterleave_influences.
 * Errors: NULL_ARGUMENT (weights, out or a slot NULL), INVALID_INFLUENCES
 * (influence_count not 1..8), INVALID_FORMAT (format not UNORM16/UNORM8).
 */
SKIN_API skin_status skin_quantize_weights(size_t vertex_count, uint32_t influence_count,
                                           const float *const *weights, skin_weight_format format,
                                           void *const *out);

/**
 * count 4x4 column-major matrices (16 floats each: glTF inverseBindMatrices,
 * most math libraries) to 3x4 row-major palette matrices (12 floats each).
 * The bottom row is dropped (it must be 0 0 0 1 for an affine matrix).  out
 * must not overlap column_major.  Errors: NULL_ARGUMENT.
 */
SKIN_API skin_status skin_matrices_from_4x4(uint32_t count, const float *column_major, float *out);

/** out = a x b for affine 3x4 row-major matrices; out may alias a or b.
 *  Returns nothing: with a, b or out NULL it writes nothing. */
SKIN_API void skin_matrix_multiply(const float a[12], const float b[12], float out[12]);

/**
 * Inverse of an affine 3x4 row-major matrix (computed in double precision);
 * out may alias m.  Errors: NULL_ARGUMENT; SKIN_ERROR_NON_FINITE when the
 * matrix is singular (determinant 0 or not finite) or an element of its
 * inverse is not a finite float (a determinant so small that the inverse
 * overflows, a NaN or infinite translation), nothing written.
 */
SKIN_API skin_status skin_matrix_invert(const float m[12], float out[12]);

/**
 * Normal matrices of count palette matrices (12 floats each): the
 * inverse-transpose of each 3x3 part, written as 9 floats row-major.  What
 * normals need under non-uniform scale.  A singular matrix, or one whose
 * inverse-transpose leaves float's range (a determinant near 1e-40), gives its
 * cofactor matrix (normal directions kept, lengths not); one with a
 * non-finite element gives non-finite elements.  Errors: NULL_ARGUMENT.
 */
SKIN_API skin_status skin_normal_matrices(uint32_t count, const float *palette, float *out);

/**
 * The "remainder to identity" weight rule, as a load-time helper: the weight
 * a vertex leaves unused (1 - sum) applies the identity, so vertices with
 * small or no weights stay in place instead of collapsing towards the
 * origin.  Give one spare slot: slots 0..influence_count-2 hold the vertex's
 * weights (as loaded, not normalised; negative and non-finite ones are set
 * to zero), and the last slot receives joint identity_joint with weight
 * max(0, 1 - sum); sums above one are normalised.
 * The caller's palette must hold the identity matrix (dual quaternion
 * 0 0 0 1 0 0 0 0) at identity_joint, e.g. one entry appended after the
 * joints.  joints/weights: influence_count planar slots of vertex_count.
 * Errors: NULL_ARGUMENT, INVALID_INFLUENCES (influence_count not 2..8),
 * INVALID_FORMAT (unknown joint_format or identity_joint does not fit it).
 */
SKIN_API skin_status skin_add_identity_remainder(size_t vertex_count, uint32_t influence_count,
                                                 skin_joint_format joint_format, void *const *joints,
                                                 float *const *weights, uint32_t identity_joint);

#ifdef __cplusplus
}
#endif

#endif /* SKIN_SKIN_H */
