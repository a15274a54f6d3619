/* SPDX-License-Identifier: MIT */
/* skin_assets: load skinned, animated models with assimp into skin's streams.
 *
 * An optional library (CMake target skin::assets, component "assets"), built
 * only when assimp is found; the core skin library never depends on it.
 *
 * What a loaded asset holds:
 *  - nodes: the file's node hierarchy in parent-first order (parents[i] < i,
 *    -1 for the root), with each node's rest local TRS;
 *  - meshes: every skinned mesh as SoA streams (px..tw) and planar influence
 *    slots (u16 joints into the mesh's own bone list, f32 weights), at most
 *    SKIN_MAX_INFLUENCES a vertex sorted by weight, normalised, plus triangle
 *    indices; each bone has its node and its inverse bind matrix.  assimp
 *    imports them triangulated, with smooth normals made for a mesh whose
 *    file has none (its morph targets then move no normals), tangents
 *    where it has texture coordinates, and identical vertices joined (see
 *    skin_asset_report.unjoined_vertices).  A mesh
 *    without bones but with morph targets is loaded too, as a rigid mesh:
 *    one bone, its own node (see skin_asset_mesh.rigid);
 *  - morph targets (blend shapes) of each mesh as skin_morph_target deltas
 *    in desc.morph_targets, with their names and default weights;
 *  - animations: sampled at any time into the local TRS of every node, in
 *    the layout skin_pose_to_matrices takes, and into the morph weights of
 *    each mesh (skin_asset_sample_morph_weights).
 *
 * Thread safety: a loaded asset is read-only and may be shared by threads;
 * a cursor belongs to one thread at a time.  */
#ifndef SKIN_ASSETS_H
#define SKIN_ASSETS_H

#include <skin/skin.h>

#if defined(_WIN32) && defined(SKIN_SHARED)
#  ifdef SKIN_ASSETS_BUILDING
#    define SKIN_ASSETS_API __declspec(dllexport)
#  else
#    define SKIN_ASSETS_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define SKIN_ASSETS_API __attribute__((visibility("default")))
#else
#  define SKIN_ASSETS_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum skin_asset_status {
    SKIN_ASSET_OK = 0,
    SKIN_ASSET_ERROR_NULL_ARGUMENT = -1,  /**< a required pointer is NULL */
    SKIN_ASSET_ERROR_FILE = -2,           /**< missing, unreadable or malformed file (assimp's import
                                               or its validation failed; see skin_asset_error) */
    SKIN_ASSET_ERROR_NO_SKINNED_MESH = -3,/**< the file has no mesh with bones or morph targets */
    SKIN_ASSET_ERROR_UNKNOWN_ANIMATION = -4, /**< no animation of that name or index */
    SKIN_ASSET_ERROR_TOO_MANY_JOINTS = -5,/**< a mesh has more bones than the limit */
    SKIN_ASSET_ERROR_OUT_OF_MEMORY = -6,
    SKIN_ASSET_ERROR_INVALID_ARGUMENT = -7,/**< an index or option out of range */
    SKIN_ASSET_ERROR_DEFECT = -8          /**< the file has a defect the options do not accept (see
                                               skin_asset_options.accept_defects; skin_asset_error
                                               names it) */
} skin_asset_status;

/** A constant English string for a status (never NULL). */
SKIN_ASSETS_API const char *skin_asset_status_string(skin_asset_status status);

/** The space assimp put aiBone::mOffsetMatrix in. */
typedef enum skin_asset_offset_space {
    /** Detect per mesh: the convention that puts the bones nearer the
     *  identity in the file's rest pose wins; glTF files (.gltf, .glb):
     *  MODEL, as the specification defines the joint matrices. */
    SKIN_ASSET_OFFSET_AUTO = 0,
    /** X, glTF: skinning = global(joint) x offset. */
    SKIN_ASSET_OFFSET_MODEL = 1,
    /** FBX, SMD: the mesh node's transform is baked in:
     *  skinning = inverse(global(mesh node)) x global(joint) x offset. */
    SKIN_ASSET_OFFSET_MESH_NODE = 2
} skin_asset_offset_space;

typedef struct skin_asset_options {
    skin_asset_offset_space offset_space; /**< SKIN_ASSET_OFFSET_AUTO by default */
    uint32_t max_joints; /**< bones a mesh may have; 0: 65536 (u16 joints) */
    /** 0 (default): a file with either defect below fails with
     *  SKIN_ASSET_ERROR_DEFECT; 1: it loads, and the report counts them.
     *  - A bone or animation channel whose name several nodes share
     *    (skin_asset_report.ambiguous_names): assimp binds by name, so the
     *    loader could only guess (it takes the first such node in
     *    parent-first order).  Formats that identify nodes otherwise
     *    (glTF: by index) lose that identity in assimp.
     *  - A weighted vertex whose raw weights sum outside [0.5, 2]
     *    (skin_asset_report.weight_sum_defects), which renormalising would
     *    hide: weights the importer misread (assimp 5.2 reads glTF's
     *    normalised byte or short WEIGHTS_0 as float bits: sums near 1e-40)
     *    or a broken export.  Sums within it are renormalised, as
     *    renormalised_vertices counts. */
    int accept_defects;
} skin_asset_options;

/** What loading changed or could not represent, summed over meshes. */
typedef struct skin_asset_report {
    size_t truncated_vertices;  /**< vertices with > 8 influences (8 largest kept, renormalised) */
    size_t renormalised_vertices; /**< vertices with at most 8 influences whose raw weight sum was off by > 1e-3 */
    size_t unweighted_vertices; /**< vertices with no weight (bound to bone 0 with weight 1) */
    float min_weight_sum, max_weight_sum; /**< raw sums over weighted vertices; both 1
                                               when no vertex is weighted */
    uint32_t nodeless_bones;    /**< bones without a node: identity joints */
    uint32_t max_influences;    /**< most influences a vertex had before truncation */
    /* (the counts above cover skinned meshes: a mesh without bones adds nothing) */
    uint32_t ambiguous_names;   /**< bones and animation channels named like two or more nodes */
    size_t weight_sum_defects;  /**< weighted vertices whose raw weight sum is outside [0.5, 2] */
    size_t unjoined_vertices;   /**< vertices (of any mesh) that assimp's join of identical vertices,
                                     which compares a vertex's own attributes only, would have made of
                                     vertices whose weights (those > 0) or morph targets differ; when
                                     not 0 the file is loaded without the join: more vertices, none
                                     merged */
} skin_asset_report;

/**
 * Morph targets of a mesh (assimp's aiMesh::mAnimMeshes, in their order, so
 * target k is the index animations use): desc.morph_target_count targets in
 * desc.morph_targets, owned by the asset.  assimp gives each target as
 * absolute attributes (base + delta: the glTF importer adds the file's
 * deltas to the mesh's); the loader stores the deltas target - base
 * (in float arithmetic, so each is the exact difference correctly rounded):
 *  - a group (positions, normals, tangents) is set only when the target
 *    has it, the mesh keeps that attribute (normals; tangents need normals
 *    and bitangents) and one of its deltas is not zero;
 *  - a target whose non-zero deltas (in any group; NaN counts as non-zero)
 *    touch fewer than half of the mesh's vertices is stored sparse (indices
 *    of the touched vertices), else dense.  Below half, a sparse target
 *    takes at most 2/3 of the dense memory (an index costs as much as one
 *    delta component, and a group has three), and the kernels skip the
 *    parts of the mesh it does not touch, where a dense target is read for
 *    every vertex; an edited region (a face's blend shape) is usually much
 *    smaller than that;
 *  - a target whose vertex count differs from the mesh's (a malformed
 *    file) has no groups: all its deltas are zero.
 * The deltas are checked by skin_validate like the rest of the mesh (a
 * non-finite value in the file stays non-finite).
 */
typedef struct skin_asset_mesh {
    skin_mesh_desc desc;      /**< streams owned by the asset; joints index bones */
    const char *name;
    uint32_t node;            /**< the node the mesh hangs from */
    uint32_t bone_count;
    const int32_t *bone_nodes;   /**< bone_count node indices; -1: no node (identity) */
    const float *inverse_bind;   /**< bone_count 3x4 row-major offset matrices */
    skin_asset_offset_space offset_space; /**< resolved: MODEL or MESH_NODE */
    size_t index_count;       /**< triangle list */
    const uint32_t *indices;
    /** 1: the file gives the mesh no bones (it has morph targets).  It then
     *  has one bone, its own node, with the identity as inverse bind
     *  matrix, every vertex bound to it with weight 1, and offset space
     *  MODEL unless the options force MESH_NODE: its palette is the node's
     *  model matrix (MESH_NODE: the identity), so the node's animation moves
     *  it and skinning places it where the file's node transforms do. */
    int rigid;
    /** desc.morph_target_count names (assimp's aiAnimMesh::mName; glTF:
     *  the mesh's extras.targetNames); "" where the file has none. */
    const char *const *morph_target_names;
    /** desc.morph_target_count weights the file gives the targets outside
     *  animations (aiAnimMesh::mWeight; glTF: the mesh's weights); 0 where
     *  it gives none or a non-finite one. */
    const float *morph_default_weights;
} skin_asset_mesh;

typedef struct skin_asset {
    uint32_t node_count;
    const int32_t *parents;      /**< parent-first; -1 for the root */
    const char *const *node_names;
    const float *rest_translations; /**< node_count x 3 */
    const float *rest_rotations;    /**< node_count x 4 (x y z w) */
    const float *rest_scales;       /**< node_count x 3 */
    uint32_t mesh_count;
    const skin_asset_mesh *meshes;
    uint32_t animation_count;
    const char *const *animation_names;
    const double *animation_durations; /**< seconds */
    skin_asset_report report;
    void *internal;
} skin_asset;

/** Loads path.  options may be NULL (defaults).  On success *out is a new
 *  asset to free with skin_asset_free; on error *out is NULL and
 *  skin_asset_error() may give assimp's message.  Errors: NULL_ARGUMENT,
 *  INVALID_ARGUMENT (options out of range), FILE, NO_SKINNED_MESH,
 *  TOO_MANY_JOINTS, DEFECT, OUT_OF_MEMORY. */
SKIN_ASSETS_API skin_asset_status skin_asset_load(const char *path, const skin_asset_options *options, skin_asset **out);

/** The loader's message for this thread's latest skin_asset_load call: ""
 *  when that call succeeded, or failed without one. */
SKIN_ASSETS_API const char *skin_asset_error(void);

/** Frees an asset (NULL is a no-op). */
SKIN_ASSETS_API void skin_asset_free(skin_asset *asset);

/** Index of the animation called name, or of "INDEX" given in decimal.
 *  Errors: NULL_ARGUMENT, UNKNOWN_ANIMATION. */
SKIN_ASSETS_API skin_asset_status skin_asset_find_animation(const skin_asset *asset, const char *name, uint32_t *index);

/** Per-thread sampling state of one animation: remembers each channel's
 *  last key so that sampling forward in time is O(1) a channel. */
typedef struct skin_asset_cursor skin_asset_cursor;

/** Errors: NULL_ARGUMENT, UNKNOWN_ANIMATION (index out of range), OUT_OF_MEMORY. */
SKIN_ASSETS_API skin_asset_status skin_asset_cursor_create(const skin_asset *asset, uint32_t animation, skin_asset_cursor **out);
SKIN_ASSETS_API void skin_asset_cursor_free(skin_asset_cursor *cursor);

/** Local TRS of every node at time seconds (clamped to the animation):
 *  keys interpolated linearly (rotations by shortest-arc slerp); nodes
 *  without a channel keep their rest TRS.  translations/scales node_count x 3,
 *  rotations node_count x 4, ready for skin_pose_to_matrices.  The key search
 *  starts at the previous call's key.  Errors: NULL_ARGUMENT. */
SKIN_ASSETS_API skin_asset_status skin_asset_sample(skin_asset_cursor *cursor, double seconds, float *translations,
                                    float *rotations, float *scales);

/**
 * The morph target weights of mesh at time seconds of the cursor's
 * animation (clamped to the animation, like skin_asset_sample), for
 * skin_palette.morph_weights: weights receives
 * meshes[mesh].desc.morph_target_count floats (weights may be NULL when the
 * mesh has none).
 *  - The animation's morph channel for the mesh (aiMeshMorphAnim) is the
 *    first one named like the mesh, else the first one named like the
 *    mesh's node (glTF: assimp names it after the node).  Without one, the
 *    weights are the mesh's morph_default_weights.
 *  - Each key gives (target index, weight) pairs; a target a key does not
 *    list has weight 0 at that key, indices past the targets are ignored
 *    (a repeated index: the last pair wins).  Between keys the weights are
 *    interpolated linearly; before the first key they are the first key's,
 *    after the last the last key's (assimp keeps no interpolation mode: a
 *    glTF STEP or CUBICSPLINE sampler arrives as its key values and is
 *    interpolated linearly too).
 *  - The weights are always finite (what skin_mesh accepts): a NaN or
 *    infinite key weight counts as 0 and the result is clamped to
 *    +-FLT_MAX.
 * Like skin_asset_sample, the key search starts at the previous call's key
 * (per mesh).  Errors: NULL_ARGUMENT, INVALID_ARGUMENT (mesh out of
 * range). */
SKIN_ASSETS_API skin_asset_status skin_asset_sample_morph_weights(skin_asset_cursor *cursor, uint32_t mesh,
                                                                  double seconds, float *weights);

/** Rest pose local TRS of every node (the file's node transforms). */
SKIN_ASSETS_API skin_asset_status skin_asset_rest_pose(const skin_asset *asset, float *translations, float *rotations,
                                       float *scales);

/** The skinning palette of mesh from node model matrices (node_count 3x4,
 *  from skin_pose_to_matrices): bone model matrix x inverse bind, with the
 *  mesh's offset space applied; nodeless bones give the identity.
 *  out: bone_count x 12 floats.  Errors: NULL_ARGUMENT, INVALID_ARGUMENT. */
SKIN_ASSETS_API skin_asset_status skin_asset_palette(const skin_asset *asset, uint32_t mesh, const float *node_model,
                                     float *out);

#ifdef __cplusplus
}
#endif
#endif
