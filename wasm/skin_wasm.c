/* SPDX-License-Identifier: MIT */
/* The WebAssembly module's exports over skin.h, for wasm/skin-wasm.mjs: a
 * mesh that owns planar copies of its streams, its palette (from 3x4 or 4x4
 * matrices, with dual quaternions made on demand for DQS) and its output
 * arrays, all in module memory.  JavaScript writes its inputs into memory
 * the module hands out and reads the skinned vertices from it. */
#include <emscripten.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skin/skin.h"

enum { INFLUENCES = 4, ALIGN = 64 };

typedef struct skin_wasm_mesh {
    skin_mesh_desc desc;
    void *block;           /* every stream, one allocation */
    float *positions;      /* the output: xyz per vertex */
    float *normals;        /* likewise, or NULL when the mesh has none */
    uint32_t max_joint;    /* the largest joint index a vertex uses */
    uint32_t joint_count;  /* palette entries set */
    uint32_t capacity;     /* palette entries the buffers below hold */
    float *input;          /* 16 floats per joint: what JavaScript writes */
    float *matrices;       /* 12 per joint, skin's 3x4 row-major */
    float *dual_quats;     /* 8 per joint, made from matrices when DQS asks */
    float *scales;         /* 3 per joint */
    int dual_quats_stale;
} skin_wasm_mesh;

/* The next ALIGN-aligned piece of `bytes` from *at. */
static void *carve(unsigned char **at, size_t bytes)
{
    unsigned char *p = (unsigned char *)(((uintptr_t)*at + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1));
    *at = p + bytes;
    return p;
}

/* Planar copies of interleaved positions (and normals), and of 4 joints and
 * 4 weights per vertex (joint_format SKIN_JOINT_U8/U16, weight_format
 * SKIN_WEIGHT_F32/UNORM16/UNORM8; weights normalised), then checked with
 * skin_validate.  On success *out is the mesh; on a validation error
 * *bad_vertex is the first offending vertex. */
EMSCRIPTEN_KEEPALIVE
int skin_wasm_mesh_create(size_t vertex_count, const float *positions, const float *normals,
                          int joint_format, const void *joints, int weight_format,
                          const void *weights, skin_wasm_mesh **out, size_t *bad_vertex)
{
    if (!out || !bad_vertex) return SKIN_ERROR_NULL_ARGUMENT;
    *out = NULL;
    *bad_vertex = 0;
    if (!positions || !joints || !weights) return SKIN_ERROR_NULL_ARGUMENT;
    if (joint_format != SKIN_JOINT_U8 && joint_format != SKIN_JOINT_U16) return SKIN_ERROR_INVALID_FORMAT;
    /* One block: planar p (and n), 4 joint and 4 weight slots and the
     * output, with room for each piece's alignment; a size that size_t
     * cannot count fails. */
    const size_t streams = normals ? 6 : 3, joint_bytes = joint_format == SKIN_JOINT_U8 ? 1 : 2;
    const size_t per_vertex = (streams + INFLUENCES) * sizeof(float) + INFLUENCES * joint_bytes;
    const size_t out_per_vertex = streams * sizeof(float);
    const size_t pieces = streams + 2 * INFLUENCES + 2; /* each with its alignment */
    if (vertex_count == 0 || vertex_count > (SIZE_MAX - pieces * ALIGN) / (per_vertex + out_per_vertex))
        return SKIN_ERROR_INVALID_COUNT;
    skin_wasm_mesh *m = calloc(1, sizeof *m);
    void *block = malloc(vertex_count * (per_vertex + out_per_vertex) + pieces * ALIGN);
    if (!m || !block) {
        free(m), free(block);
        return SKIN_ERROR_INVALID_COUNT; /* out of memory: too many vertices for the module */
    }
    unsigned char *at = block;
    float *soa[10] = {0};
    for (size_t c = 0; c < streams; ++c) soa[c] = carve(&at, vertex_count * sizeof(float));
    void *joints_out[INFLUENCES], *weights_out[INFLUENCES];
    for (int i = 0; i < INFLUENCES; ++i) joints_out[i] = carve(&at, vertex_count * joint_bytes);
    for (int i = 0; i < INFLUENCES; ++i) weights_out[i] = carve(&at, vertex_count * sizeof(float));
    m->positions = carve(&at, vertex_count * 3 * sizeof(float));
    m->normals = normals ? carve(&at, vertex_count * 3 * sizeof(float)) : NULL;
    m->block = block;

    skin_status s = skin_deinterleave_vertices(vertex_count, positions, 12, normals, 12, NULL, 0, soa);
    const void *joint_sets[1] = {joints}, *weight_sets[1] = {weights};
    if (s == SKIN_OK)
        s = skin_deinterleave_influences_typed(vertex_count, 1, (skin_joint_format)joint_format, joint_sets,
                                               (skin_weight_format)weight_format, weight_sets,
                                               (skin_joint_format)joint_format, SKIN_WEIGHT_F32,
                                               joints_out, weights_out);
    skin_mesh_desc *d = &m->desc;
    *d = (skin_mesh_desc){vertex_count, soa[0], soa[1], soa[2], soa[3], soa[4], soa[5],
                          .influence_count = INFLUENCES,
                          .joint_format = (skin_joint_format)joint_format,
                          .weight_format = SKIN_WEIGHT_F32};
    for (int i = 0; i < INFLUENCES; ++i) d->joints[i] = joints_out[i], d->weights[i] = weights_out[i];
    skin_validation_report report = {0};
    if (s == SKIN_OK) s = skin_validate(d, SKIN_MAX_JOINTS, &report);
    if (s != SKIN_OK) {
        *bad_vertex = report.vertex;
        free(block), free(m);
        return s;
    }
    /* The palette must cover every joint a vertex uses (skin would clamp
     * the others to its last entry, silently). */
    for (int i = 0; i < INFLUENCES; ++i)
        for (size_t v = 0; v < vertex_count; ++v) {
            const uint32_t j = joint_format == SKIN_JOINT_U8 ? ((const uint8_t *)joints_out[i])[v]
                                                            : ((const uint16_t *)joints_out[i])[v];
            if (j > m->max_joint && ((const float *)weights_out[i])[v] != 0.0f) m->max_joint = j;
        }
    *out = m;
    return SKIN_OK;
}

EMSCRIPTEN_KEEPALIVE
void skin_wasm_mesh_free(skin_wasm_mesh *m)
{
    if (!m) return;
    free(m->block);
    free(m->input), free(m->matrices), free(m->dual_quats), free(m->scales);
    free(m);
}

/* Where JavaScript writes joint_count matrices (16 floats each at most)
 * before skin_wasm_set_palette; NULL when memory runs out. */
EMSCRIPTEN_KEEPALIVE
float *skin_wasm_palette_input(skin_wasm_mesh *m, uint32_t joint_count)
{
    if (!m || joint_count == 0 || joint_count > SKIN_MAX_JOINTS) return NULL;
    if (joint_count > m->capacity) {
        float *in = malloc(joint_count * 16 * sizeof(float)), *mat = malloc(joint_count * 12 * sizeof(float));
        float *dq = malloc(joint_count * 8 * sizeof(float)), *sc = malloc(joint_count * 3 * sizeof(float));
        if (!in || !mat || !dq || !sc) {
            free(in), free(mat), free(dq), free(sc);
            return NULL;
        }
        free(m->input), free(m->matrices), free(m->dual_quats), free(m->scales);
        m->input = in, m->matrices = mat, m->dual_quats = dq, m->scales = sc;
        m->capacity = joint_count;
        m->joint_count = 0; /* the old palette is gone */
    }
    return m->input;
}

/* The palette from the input: floats_per_joint 16 (4x4 column-major, as
 * three.js's Matrix4.elements and glTF) or 12 (skin's 3x4 row-major). */
EMSCRIPTEN_KEEPALIVE
int skin_wasm_set_palette(skin_wasm_mesh *m, uint32_t joint_count, int floats_per_joint)
{
    if (!m) return SKIN_ERROR_NULL_ARGUMENT;
    if (joint_count == 0 || joint_count > m->capacity) return SKIN_ERROR_INVALID_COUNT;
    if (floats_per_joint != 16 && floats_per_joint != 12) return SKIN_ERROR_INVALID_FORMAT;
    if (joint_count <= m->max_joint) return SKIN_ERROR_JOINT_OUT_OF_RANGE;
    if (floats_per_joint == 16) {
        const skin_status s = skin_matrices_from_4x4(joint_count, m->input, m->matrices);
        if (s != SKIN_OK) return s;
    } else {
        memcpy(m->matrices, m->input, joint_count * 12 * sizeof(float));
    }
    m->joint_count = joint_count;
    m->dual_quats_stale = 1;
    return SKIN_OK;
}

/* Skins the whole mesh into its output arrays (normals too when
 * with_normals and the mesh has them). */
EMSCRIPTEN_KEEPALIVE
int skin_wasm_skin(skin_wasm_mesh *m, int method, int with_normals)
{
    if (!m) return SKIN_ERROR_NULL_ARGUMENT;
    if (m->joint_count == 0) return SKIN_ERROR_MISSING_PALETTE;
    skin_palette pal = {m->joint_count, m->matrices, NULL, NULL, NULL, NULL};
    if (method == SKIN_DQS) {
        if (m->dual_quats_stale) {
            const skin_status s =
                skin_matrices_to_dual_quats(m->joint_count, m->matrices, m->dual_quats, m->scales, NULL);
            if (s != SKIN_OK) return s;
            m->dual_quats_stale = 0;
        }
        pal.dual_quats = m->dual_quats, pal.scales = m->scales;
    }
    if (with_normals && !m->normals) return SKIN_ERROR_MISSING_ATTRIBUTE;
    skin_output out = {.layout = SKIN_LAYOUT_STRIDED, .position = m->positions, .position_stride = 12};
    if (with_normals) out.normal = m->normals, out.normal_stride = 12;
    const skin_status s = skin_mesh(&m->desc, &pal, (skin_method)method, &out, 0, m->desc.vertex_count);
    if (s != SKIN_OK) return s;
    return SKIN_OK;
}

EMSCRIPTEN_KEEPALIVE
float *skin_wasm_positions(const skin_wasm_mesh *m) { return m ? m->positions : NULL; }

EMSCRIPTEN_KEEPALIVE
float *skin_wasm_normals(const skin_wasm_mesh *m) { return m ? m->normals : NULL; }

/* Bytes of module memory in use by malloc: what the tests' leak checks read. */
EMSCRIPTEN_KEEPALIVE
size_t skin_wasm_heap_used(void) { return (size_t)mallinfo().uordblks; }
