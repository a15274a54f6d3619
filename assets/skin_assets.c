/* SPDX-License-Identifier: MIT */
/* skin_assets: assimp scenes to skin streams, palettes and sampled poses. */
#include <skin/skin_assets.h>

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct asset_store {
    const struct aiScene *scene;
    int owns_scene; /* released with the asset: scenes from aiImportFile */
    const struct aiNode **nodes;
    int32_t *parents;
    const char **node_names;
    float *rest; /* node_count x 10: t3 r4 s3 */
    float *rest_t, *rest_r, *rest_s;
    skin_asset_mesh *meshes;
    void **morph_blocks; /* per mesh: its targets' indices and deltas */
    const char **anim_names;
    double *anim_durations;
} asset_store;

struct skin_asset_cursor {
    const skin_asset *asset;
    const struct aiAnimation *anim;
    int32_t *channel_node; /* per channel, -1: no node of that name */
    unsigned *last;        /* 3 per channel: position, rotation, scale key */
    double ticks_per_second;
    int32_t *morph_channel; /* per asset mesh: its morph channel, -1: none */
    unsigned *morph_last;   /* per asset mesh: its channel's last key */
    double *morph_scratch;  /* 2 x the most targets a mesh has */
};

static _Thread_local char last_error[256];

const char *skin_asset_error(void) { return last_error; }

const char *skin_asset_status_string(skin_asset_status s)
{
    switch (s) {
    case SKIN_ASSET_OK: return "ok";
    case SKIN_ASSET_ERROR_NULL_ARGUMENT: return "a required pointer is NULL";
    case SKIN_ASSET_ERROR_FILE: return "the file is missing or cannot be imported";
    case SKIN_ASSET_ERROR_NO_SKINNED_MESH: return "the file has no skinned mesh";
    case SKIN_ASSET_ERROR_UNKNOWN_ANIMATION: return "unknown animation";
    case SKIN_ASSET_ERROR_TOO_MANY_JOINTS: return "a mesh has too many joints";
    case SKIN_ASSET_ERROR_OUT_OF_MEMORY: return "out of memory";
    case SKIN_ASSET_ERROR_INVALID_ARGUMENT: return "an index or option is out of range";
    case SKIN_ASSET_ERROR_DEFECT: return "the file has a defect (ambiguous node names or bad weight sums)";
    }
    return "unknown status";
}

static uint32_t count_nodes(const struct aiNode *n)
{
    uint32_t c = 1;
    for (unsigned i = 0; i < n->mNumChildren; ++i) c += count_nodes(n->mChildren[i]);
    return c;
}

static void collect(asset_store *s, uint32_t *count, const struct aiNode *n, int32_t parent)
{
    int32_t self = (int32_t)(*count)++;
    s->nodes[self] = n;
    s->parents[self] = parent;
    for (unsigned i = 0; i < n->mNumChildren; ++i) collect(s, count, n->mChildren[i], self);
}

static int32_t find_node(const asset_store *s, uint32_t count, const char *name)
{
    for (uint32_t i = 0; i < count; ++i)
        if (strcmp(s->nodes[i]->mName.data, name) == 0) return (int32_t)i;
    return -1;
}

/* Whether a node after the first one called name (at `first`) has it too. */
static int name_shared(const asset_store *s, uint32_t count, int32_t first, const char *name)
{
    for (uint32_t i = first < 0 ? count : (uint32_t)first + 1; i < count; ++i)
        if (strcmp(s->nodes[i]->mName.data, name) == 0) return 1;
    return 0;
}

static void to_3x4(const struct aiMatrix4x4 *m, float out[12])
{
    const float r[12] = {m->a1, m->a2, m->a3, m->a4, m->b1, m->b2, m->b3, m->b4, m->c1, m->c2, m->c3, m->c4};
    memcpy(out, r, sizeof r);
}

static const float identity_3x4[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};

/* A singular mesh node transform (never seen in practice) leaves the mesh
 * space as the model space. */
static void invert_3x4(const float *m, float *out)
{
    if (skin_matrix_invert(m, out) != SKIN_OK) memcpy(out, identity_3x4, sizeof identity_3x4);
}

static void free_store(asset_store *s, uint32_t mesh_count)
{
    for (uint32_t m = 0; s->meshes && m < mesh_count; ++m) {
        skin_asset_mesh *am = &s->meshes[m];
        for (int c = 0; c < 10; ++c) {
            const float *const streams[10] = {am->desc.px, am->desc.py, am->desc.pz, am->desc.nx, am->desc.ny,
                                              am->desc.nz, am->desc.tx, am->desc.ty, am->desc.tz, am->desc.tw};
            free((void *)streams[c]);
        }
        for (int i = 0; i < SKIN_MAX_INFLUENCES; ++i)
            free((void *)am->desc.joints[i]), free((void *)am->desc.weights[i]);
        free((void *)am->bone_nodes), free((void *)am->inverse_bind), free((void *)am->indices);
        free((void *)am->desc.morph_targets), free((void *)am->morph_target_names);
        free((void *)am->morph_default_weights);
        if (s->morph_blocks) free(s->morph_blocks[m]);
    }
    free(s->morph_blocks), free(s->meshes), free(s->nodes), free(s->parents), free(s->node_names), free(s->rest);
    free(s->anim_names), free(s->anim_durations);
    if (s->owns_scene) aiReleaseImport(s->scene);
}

void skin_asset_free(skin_asset *asset)
{
    if (!asset) return;
    asset_store *s = asset->internal;
    free_store(s, asset->mesh_count);
    free(s), free(asset);
}

/* Deviation of a 3x4 from the identity, relative to its translation scale. */
static double off_identity(const float *m, double extent)
{
    double d = 0;
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) d += fabs(m[4 * i + k] - (i == k));
    for (int i = 0; i < 3; ++i) d += fabs(m[4 * i + 3]) / extent;
    return d;
}

/* Influences of one mesh: the 8 largest a vertex, sorted, normalised. */
static skin_asset_status load_influences(const struct aiMesh *m, skin_asset_mesh *am, skin_asset_report *rep)
{
    const size_t n = m->mNumVertices;
    uint16_t *jt = malloc(n * SKIN_MAX_INFLUENCES * sizeof *jt);
    float *wt = calloc(n * SKIN_MAX_INFLUENCES, sizeof *wt);
    uint32_t *count = calloc(n, sizeof *count);
    double *sum = calloc(n, sizeof *sum);
    if (!jt || !wt || !count || !sum) return free(jt), free(wt), free(count), free(sum), SKIN_ASSET_ERROR_OUT_OF_MEMORY;
    uint32_t k_max = 1;
    for (unsigned b = 0; b < m->mNumBones; ++b) {
        const struct aiBone *bone = m->mBones[b];
        for (unsigned k = 0; k < bone->mNumWeights; ++k) {
            unsigned v = bone->mWeights[k].mVertexId;
            float w = bone->mWeights[k].mWeight;
            if (v >= n || !(w > 0.0f)) continue;
            sum[v] += w;
            uint32_t c = count[v]++;
            uint16_t *vj = jt + (size_t)v * SKIN_MAX_INFLUENCES;
            float *vw = wt + (size_t)v * SKIN_MAX_INFLUENCES;
            /* insertion into the sorted (descending) list, dropping the smallest */
            uint32_t len = c < SKIN_MAX_INFLUENCES ? c : SKIN_MAX_INFLUENCES;
            if (len == SKIN_MAX_INFLUENCES && w <= vw[len - 1]) continue;
            uint32_t pos = len < SKIN_MAX_INFLUENCES ? len : SKIN_MAX_INFLUENCES - 1;
            while (pos > 0 && vw[pos - 1] < w) {
                vw[pos] = vw[pos - 1], vj[pos] = vj[pos - 1];
                --pos;
            }
            vw[pos] = w, vj[pos] = (uint16_t)b;
        }
    }
    for (size_t v = 0; v < n; ++v) {
        uint16_t *vj = jt + v * SKIN_MAX_INFLUENCES;
        float *vw = wt + v * SKIN_MAX_INFLUENCES;
        uint32_t len = count[v] < SKIN_MAX_INFLUENCES ? count[v] : SKIN_MAX_INFLUENCES;
        if (count[v] > rep->max_influences) rep->max_influences = count[v];
        if (len > k_max) k_max = len;
        if (count[v] == 0) {
            ++rep->unweighted_vertices;
            vj[0] = 0, vw[0] = 1.0f, len = 1;
        } else {
            if (!(sum[v] >= 0.5 && sum[v] <= 2.0)) ++rep->weight_sum_defects;
            if (sum[v] < rep->min_weight_sum) rep->min_weight_sum = (float)sum[v];
            if (sum[v] > rep->max_weight_sum) rep->max_weight_sum = (float)sum[v];
            if (count[v] > SKIN_MAX_INFLUENCES) ++rep->truncated_vertices;
            else if (fabs(sum[v] - 1.0) > 1e-3) ++rep->renormalised_vertices;
        }
        /* unused slots: the first joint, weight 0 (jt is not zeroed) */
        for (uint32_t i = len; i < SKIN_MAX_INFLUENCES; ++i) vj[i] = vj[0], vw[i] = 0.0f;
    }
    am->desc.influence_count = k_max;
    am->desc.joint_format = SKIN_JOINT_U16;
    am->desc.weight_format = SKIN_WEIGHT_F32;
    skin_asset_status st = SKIN_ASSET_OK;
    float *wslots[SKIN_MAX_INFLUENCES] = {0};
    for (uint32_t i = 0; i < k_max; ++i) {
        uint16_t *js = malloc(n * sizeof *js + 1);
        float *ws = malloc(n * sizeof *ws + 1);
        am->desc.joints[i] = js, am->desc.weights[i] = ws, wslots[i] = ws;
        if (!js || !ws) {
            st = SKIN_ASSET_ERROR_OUT_OF_MEMORY;
            continue;
        }
        for (size_t v = 0; v < n; ++v)
            js[v] = jt[v * SKIN_MAX_INFLUENCES + i], ws[v] = wt[v * SKIN_MAX_INFLUENCES + i];
    }
    if (!st && n && skin_normalize_weights(n, k_max, wslots) != SKIN_OK) st = SKIN_ASSET_ERROR_INVALID_ARGUMENT;
    free(jt), free(wt), free(count), free(sum);
    return st;
}

/* A rigid mesh: every vertex on bone 0 with weight 1. */
static skin_asset_status rigid_influences(size_t n, skin_asset_mesh *am)
{
    uint16_t *js = calloc(n + 1, sizeof *js);
    float *ws = malloc((n + 1) * sizeof *ws);
    am->desc.joints[0] = js, am->desc.weights[0] = ws;
    am->desc.influence_count = 1;
    am->desc.joint_format = SKIN_JOINT_U16;
    am->desc.weight_format = SKIN_WEIGHT_F32;
    if (!js || !ws) return SKIN_ASSET_ERROR_OUT_OF_MEMORY;
    for (size_t v = 0; v < n; ++v) ws[v] = 1.0f;
    return SKIN_ASSET_OK;
}

/* Target and base arrays of delta group g (positions, normals, tangents)
 * of anim mesh t, or NULL where the group is not stored: the target lacks
 * it, its vertex count is not the mesh's, or the loader dropped that
 * attribute of the mesh (have_normals, have_tangents). */
static const struct aiVector3D *morph_group(const struct aiMesh *m, const struct aiAnimMesh *t, int g,
                                            int have_normals, int have_tangents, const struct aiVector3D **base)
{
    if (!t || t->mNumVertices != m->mNumVertices) return NULL;
    switch (g) {
    case 0: return *base = m->mVertices, t->mVertices;
    case 1: return *base = m->mNormals, have_normals ? t->mNormals : NULL;
    default: return *base = m->mTangents, have_tangents ? t->mTangents : NULL;
    }
}

/* Whether vertex v has a non-zero delta (NaN included) in group g. */
static int delta_nonzero(const struct aiVector3D *t, const struct aiVector3D *b, size_t v)
{
    const float d[3] = {t[v].x - b[v].x, t[v].y - b[v].y, t[v].z - b[v].z};
    return d[0] != 0.0f || d[1] != 0.0f || d[2] != 0.0f;
}

/* Morph targets of mesh m: deltas against the base mesh, sparse when they
 * touch fewer than half of the vertices (see skin_assets.h).  Two passes:
 * the first finds each target's non-zero groups and touched vertices, so
 * that one block holds every target's indices and deltas. */
static skin_asset_status load_morphs(const struct aiMesh *m, skin_asset_mesh *am, void **block_out)
{
    const uint32_t count = m->mAnimMeshes ? m->mNumAnimMeshes : 0;
    if (!count) return SKIN_ASSET_OK;
    const size_t n = m->mNumVertices;
    const int have_n = am->desc.nx != NULL, have_t = am->desc.tx != NULL;
    skin_morph_target *targets = calloc(count, sizeof *targets);
    const char **names = malloc(count * sizeof *names);
    float *defaults = malloc(count * sizeof *defaults);
    size_t *touched = calloc(count, sizeof *touched);
    uint8_t *groups = calloc(count, 1); /* bit g: group g has a non-zero delta */
    am->desc.morph_targets = targets, am->desc.morph_target_count = count;
    am->morph_target_names = names, am->morph_default_weights = defaults;
    if (!targets || !names || !defaults || !touched || !groups)
        return free(touched), free(groups), SKIN_ASSET_ERROR_OUT_OF_MEMORY;
    size_t total = 0; /* 4-byte words: indices and deltas */
    for (uint32_t k = 0; k < count; ++k) {
        const struct aiAnimMesh *t = m->mAnimMeshes[k];
        names[k] = t ? t->mName.data : "";
        defaults[k] = t && isfinite(t->mWeight) ? t->mWeight : 0.0f;
        const struct aiVector3D *tg[3], *bg[3] = {NULL, NULL, NULL};
        for (int g = 0; g < 3; ++g) tg[g] = morph_group(m, t, g, have_n, have_t, &bg[g]);
        for (size_t v = 0; v < n; ++v) {
            int any = 0;
            for (int g = 0; g < 3; ++g)
                if (tg[g] && delta_nonzero(tg[g], bg[g], v)) any = 1, groups[k] |= (uint8_t)(1u << g);
            touched[k] += (size_t)any;
        }
        const int sparse = touched[k] < n - touched[k]; /* fewer than half */
        size_t kept = 0;
        for (int g = 0; g < 3; ++g) kept += (groups[k] >> g) & 1u;
        total += (sparse ? touched[k] : n) * 3 * kept + (sparse ? touched[k] : 0);
    }
    float *block = malloc(total * sizeof(float) + 1);
    *block_out = block;
    if (!block) return free(touched), free(groups), SKIN_ASSET_ERROR_OUT_OF_MEMORY;
    float *at = block;
    for (uint32_t k = 0; k < count; ++k) {
        const struct aiAnimMesh *t = m->mAnimMeshes[k];
        skin_morph_target *mt = &targets[k];
        const int sparse = touched[k] < n - touched[k];
        const size_t len = sparse ? touched[k] : n;
        uint32_t *idx = NULL;
        if (sparse) { /* uint32_t and float share the block: both 4 bytes */
            idx = (uint32_t *)(void *)at, at += len;
            mt->indices = idx, mt->count = len;
        }
        float *d[9] = {NULL};
        const struct aiVector3D *tg[3], *bg[3] = {NULL, NULL, NULL};
        for (int g = 0; g < 3; ++g) {
            tg[g] = morph_group(m, t, g, have_n, have_t, &bg[g]);
            if (!((groups[k] >> g) & 1u)) {
                tg[g] = NULL;
                continue;
            }
            for (int c = 0; c < 3; ++c) d[3 * g + c] = at, at += len;
        }
        mt->dpx = d[0], mt->dpy = d[1], mt->dpz = d[2];
        mt->dnx = d[3], mt->dny = d[4], mt->dnz = d[5];
        mt->dtx = d[6], mt->dty = d[7], mt->dtz = d[8];
        size_t e = 0;
        for (size_t v = 0; v < n; ++v) {
            if (sparse) {
                int any = 0;
                for (int g = 0; g < 3; ++g) any |= tg[g] && delta_nonzero(tg[g], bg[g], v);
                if (!any) continue;
                idx[e] = (uint32_t)v;
            }
            for (int g = 0; g < 3; ++g) {
                if (!tg[g]) continue;
                d[3 * g][e] = tg[g][v].x - bg[g][v].x;
                d[3 * g + 1][e] = tg[g][v].y - bg[g][v].y;
                d[3 * g + 2][e] = tg[g][v].z - bg[g][v].z;
            }
            ++e;
        }
    }
    free(touched), free(groups);
    return SKIN_ASSET_OK;
}

static skin_asset_status load_mesh(asset_store *s, uint32_t node_count, const struct aiMesh *m, uint32_t mesh_node,
                                   const skin_asset_options *opt, const float *rest_model, skin_asset_mesh *am,
                                   void **morph_block, skin_asset_report *rep)
{
    const size_t n = m->mNumVertices;
    am->name = m->mName.data;
    am->node = mesh_node;
    am->rigid = m->mNumBones == 0;
    am->bone_count = am->rigid ? 1 : m->mNumBones;
    float *streams[10] = {0};
    int ok = 1;
    for (int c = 0; c < 10; ++c) {
        if ((c >= 3 && c < 6 && !m->mNormals) || (c >= 6 && (!m->mTangents || !m->mNormals || !m->mBitangents))) continue;
        ok &= (streams[c] = malloc(n * sizeof(float) + 1)) != NULL;
    }
    skin_mesh_desc *d = &am->desc;
    d->vertex_count = n;
    d->px = streams[0], d->py = streams[1], d->pz = streams[2];
    d->nx = streams[3], d->ny = streams[4], d->nz = streams[5];
    d->tx = streams[6], d->ty = streams[7], d->tz = streams[8], d->tw = streams[9];
    int32_t *bone_nodes = malloc(am->bone_count * sizeof *bone_nodes);
    float *ibm = malloc(12 * (size_t)am->bone_count * sizeof *ibm);
    uint32_t *idx = malloc(3 * (size_t)m->mNumFaces * sizeof *idx + 1);
    am->bone_nodes = bone_nodes, am->inverse_bind = ibm, am->indices = idx;
    if (!ok || !bone_nodes || !ibm || !idx) return SKIN_ASSET_ERROR_OUT_OF_MEMORY;
    for (size_t v = 0; v < n; ++v) {
        streams[0][v] = m->mVertices[v].x, streams[1][v] = m->mVertices[v].y, streams[2][v] = m->mVertices[v].z;
        if (streams[3]) streams[3][v] = m->mNormals[v].x, streams[4][v] = m->mNormals[v].y, streams[5][v] = m->mNormals[v].z;
        if (streams[6]) {
            const struct aiVector3D *t = &m->mTangents[v], *b = &m->mBitangents[v], *nn = &m->mNormals[v];
            streams[6][v] = t->x, streams[7][v] = t->y, streams[8][v] = t->z;
            /* handedness: does n x t point along the bitangent? */
            double cx = nn->y * t->z - nn->z * t->y, cy = nn->z * t->x - nn->x * t->z, cz = nn->x * t->y - nn->y * t->x;
            streams[9][v] = cx * b->x + cy * b->y + cz * b->z < 0 ? -1.0f : 1.0f;
        }
    }
    size_t ic = 0;
    for (unsigned f = 0; f < m->mNumFaces; ++f) {
        const struct aiFace *face = &m->mFaces[f];
        /* points and lines are not drawn; nor are faces past the vertices
         * (assimp does not validate the scenes it returns here) */
        if (face->mNumIndices != 3 || face->mIndices[0] >= n || face->mIndices[1] >= n || face->mIndices[2] >= n)
            continue;
        for (int k = 0; k < 3; ++k) idx[ic++] = face->mIndices[k];
    }
    am->index_count = ic;
    skin_asset_status st = load_morphs(m, am, morph_block);
    if (st) return st;
    if (am->rigid) { /* one bone: the mesh's own node */
        bone_nodes[0] = (int32_t)mesh_node;
        memcpy(ibm, identity_3x4, sizeof identity_3x4);
        am->offset_space = opt->offset_space == SKIN_ASSET_OFFSET_MESH_NODE ? SKIN_ASSET_OFFSET_MESH_NODE
                                                                             : SKIN_ASSET_OFFSET_MODEL;
        return rigid_influences(n, am);
    }
    for (unsigned b = 0; b < m->mNumBones; ++b) {
        bone_nodes[b] = find_node(s, node_count, m->mBones[b]->mName.data);
        if (bone_nodes[b] < 0) ++rep->nodeless_bones;
        rep->ambiguous_names += (uint32_t)name_shared(s, node_count, bone_nodes[b], m->mBones[b]->mName.data);
        to_3x4(&m->mBones[b]->mOffsetMatrix, ibm + 12 * b);
    }
    /* Offset space: which convention puts the bones nearer the identity at rest? */
    am->offset_space = opt->offset_space;
    if (am->offset_space == SKIN_ASSET_OFFSET_AUTO) {
        double extent = 1e-6;
        for (size_t v = 0; v < n; ++v)
            extent = fmax(extent, fmax(fabs(streams[0][v]), fmax(fabs(streams[1][v]), fabs(streams[2][v]))));
        float inv_mesh[12], a[12], b[12];
        invert_3x4(rest_model + 12 * (size_t)mesh_node, inv_mesh);
        double dm = 0, dn = 0;
        for (unsigned j = 0; j < m->mNumBones; ++j) {
            if (bone_nodes[j] < 0) continue;
            skin_matrix_multiply(rest_model + 12 * (size_t)bone_nodes[j], ibm + 12 * j, a);
            skin_matrix_multiply(inv_mesh, a, b);
            dm += off_identity(a, extent), dn += off_identity(b, extent);
        }
        am->offset_space = dn < dm ? SKIN_ASSET_OFFSET_MESH_NODE : SKIN_ASSET_OFFSET_MODEL;
    }
    return load_influences(m, am, rep);
}

static int find_mesh_node(const asset_store *s, uint32_t node_count, unsigned mesh)
{
    for (uint32_t i = 0; i < node_count; ++i)
        for (unsigned k = 0; k < s->nodes[i]->mNumMeshes; ++k)
            if (s->nodes[i]->mMeshes[k] == mesh) return (int)i;
    return 0;
}

/* The meshes the loader takes: skinned ones and morphed ones. */
static int loadable(const struct aiMesh *m) { return m->mNumBones || (m->mNumAnimMeshes && m->mAnimMeshes); }

/* The asset of an imported scene (path names it in errors); owns: the
 * asset releases the scene, also on error.  fuzz_assets calls this on
 * scenes it builds itself. */
static skin_asset_status asset_from_scene(const struct aiScene *scene, int owns, const char *path,
                                          skin_asset_options opt, skin_asset **out)
{
    *out = NULL;
    uint32_t skinned = 0;
    for (unsigned i = 0; i < scene->mNumMeshes; ++i) {
        if (!loadable(scene->mMeshes[i])) continue;
        ++skinned;
        if (scene->mMeshes[i]->mNumBones > opt.max_joints) {
            snprintf(last_error, sizeof last_error, "%s: mesh %u has %u bones (limit %u)", path, i,
                     scene->mMeshes[i]->mNumBones, opt.max_joints);
            if (owns) aiReleaseImport(scene);
            return SKIN_ASSET_ERROR_TOO_MANY_JOINTS;
        }
    }
    if (!skinned) {
        snprintf(last_error, sizeof last_error, "%s: no mesh has bones or morph targets", path);
        if (owns) aiReleaseImport(scene);
        return SKIN_ASSET_ERROR_NO_SKINNED_MESH;
    }
    skin_asset *a = calloc(1, sizeof *a);
    asset_store *s = calloc(1, sizeof *s);
    if (!a || !s) {
        if (owns) aiReleaseImport(scene);
        return free(a), free(s), SKIN_ASSET_ERROR_OUT_OF_MEMORY;
    }
    a->internal = s;
    s->scene = scene, s->owns_scene = owns;
    const uint32_t nc = count_nodes(scene->mRootNode);
    s->nodes = malloc(nc * sizeof *s->nodes);
    s->parents = malloc(nc * sizeof *s->parents);
    s->node_names = malloc(nc * sizeof *s->node_names);
    s->rest = malloc((10 + 12) * (size_t)nc * sizeof *s->rest);
    s->meshes = calloc(skinned, sizeof *s->meshes);
    s->morph_blocks = calloc(skinned, sizeof *s->morph_blocks);
    s->anim_names = malloc((scene->mNumAnimations + 1) * sizeof *s->anim_names);
    s->anim_durations = malloc((scene->mNumAnimations + 1) * sizeof *s->anim_durations);
    if (!s->nodes || !s->parents || !s->node_names || !s->rest || !s->meshes || !s->morph_blocks || !s->anim_names ||
        !s->anim_durations) {
        skin_asset_free(a);
        return SKIN_ASSET_ERROR_OUT_OF_MEMORY;
    }
    uint32_t count = 0;
    collect(s, &count, scene->mRootNode, -1);
    s->rest_t = s->rest, s->rest_r = s->rest + 3 * (size_t)nc, s->rest_s = s->rest + 7 * (size_t)nc;
    float *rest_model = s->rest + 10 * (size_t)nc;
    for (uint32_t i = 0; i < nc; ++i) {
        struct aiVector3D S, T;
        struct aiQuaternion R;
        aiDecomposeMatrix(&s->nodes[i]->mTransformation, &S, &R, &T);
        float *t = s->rest_t + 3 * i, *r = s->rest_r + 4 * i, *sc = s->rest_s + 3 * i;
        t[0] = T.x, t[1] = T.y, t[2] = T.z, r[0] = R.x, r[1] = R.y, r[2] = R.z, r[3] = R.w;
        sc[0] = S.x, sc[1] = S.y, sc[2] = S.z;
        s->node_names[i] = s->nodes[i]->mName.data;
    }
    /* Model matrices straight from the file's matrices (no TRS round trip). */
    for (uint32_t i = 0; i < nc; ++i) {
        float local[12];
        to_3x4(&s->nodes[i]->mTransformation, local);
        if (s->parents[i] < 0) memcpy(rest_model + 12 * i, local, sizeof local);
        else skin_matrix_multiply(rest_model + 12 * (size_t)s->parents[i], local, rest_model + 12 * i);
    }
    a->node_count = nc;
    a->parents = s->parents;
    a->node_names = s->node_names;
    a->rest_translations = s->rest_t, a->rest_rotations = s->rest_r, a->rest_scales = s->rest_s;
    a->meshes = s->meshes;
    a->report.min_weight_sum = INFINITY, a->report.max_weight_sum = -INFINITY;
    skin_asset_status st = SKIN_ASSET_OK;
    for (unsigned i = 0; i < scene->mNumMeshes && !st; ++i) {
        if (!loadable(scene->mMeshes[i])) continue;
        const uint32_t k = a->mesh_count++;
        st = load_mesh(s, nc, scene->mMeshes[i], (uint32_t)find_mesh_node(s, nc, i), &opt, rest_model,
                       &s->meshes[k], &s->morph_blocks[k], &a->report);
    }
    if (a->report.min_weight_sum > a->report.max_weight_sum) a->report.min_weight_sum = a->report.max_weight_sum = 1.0f;
    for (unsigned i = 0; i < scene->mNumAnimations; ++i) {
        const struct aiAnimation *an = scene->mAnimations[i];
        double tps = an->mTicksPerSecond > 0 ? an->mTicksPerSecond : 25.0;
        s->anim_names[i] = an->mName.data;
        s->anim_durations[i] = an->mDuration / tps;
        for (unsigned k = 0; k < an->mNumChannels; ++k) {
            const char *name = an->mChannels[k]->mNodeName.data;
            a->report.ambiguous_names += (uint32_t)name_shared(s, nc, find_node(s, nc, name), name);
        }
    }
    a->animation_count = scene->mNumAnimations;
    a->animation_names = s->anim_names;
    a->animation_durations = s->anim_durations;
    if (!st && !opt.accept_defects && (a->report.ambiguous_names || a->report.weight_sum_defects)) {
        snprintf(last_error, sizeof last_error,
                 "%s: %u bone or channel names shared by several nodes, %zu vertices with weight sums outside "
                 "[0.5, 2] (skin_asset_options.accept_defects loads it anyway)",
                 path, a->report.ambiguous_names, a->report.weight_sum_defects);
        st = SKIN_ASSET_ERROR_DEFECT;
    }
    if (st) {
        skin_asset_free(a);
        return st;
    }
    *out = a;
    return SKIN_ASSET_OK;
}

/* A vertex's data that assimp's join of identical vertices does not compare
 * (it looks at the vertex's own attributes only): its bone weights that
 * load_influences keeps (> 0; assimp's glTF importer gives a joint without
 * weights a weight 0 on vertex 0), bone and weight bits in bone order, and
 * every morph target's attributes, as FNV-1a of their 32-bit words.
 * n: m->mNumVertices entries. */
static uint64_t word_hash(uint64_t h, const void *p)
{
    uint32_t w;
    memcpy(&w, p, sizeof w);
    return (h ^ w) * 0x100000001b3ull;
}
static void unjoinable_hashes(const struct aiMesh *m, uint64_t *h)
{
    const size_t n = m->mNumVertices;
    for (size_t v = 0; v < n; ++v) h[v] = 0xcbf29ce484222325ull;
    for (unsigned b = 0; b < m->mNumBones; ++b)
        for (unsigned k = 0; k < m->mBones[b]->mNumWeights; ++k) {
            const struct aiVertexWeight *w = &m->mBones[b]->mWeights[k];
            if (w->mVertexId < n && w->mWeight > 0.0f)
                h[w->mVertexId] = word_hash(word_hash(h[w->mVertexId], &b), &w->mWeight);
        }
    for (unsigned a = 0; m->mAnimMeshes && a < m->mNumAnimMeshes; ++a) {
        const struct aiAnimMesh *t = m->mAnimMeshes[a];
        if (!t || t->mNumVertices != n) continue;
        const struct aiVector3D *attr[3] = {t->mVertices, t->mNormals, t->mTangents};
        for (int g = 0; g < 3; ++g)
            for (size_t v = 0; attr[g] && v < n; ++v)
                h[v] = word_hash(word_hash(word_hash(h[v], &attr[g][v].x), &attr[g][v].y), &attr[g][v].z);
    }
}

/* Joins identical vertices (assimp's aiProcess_JoinIdenticalVertices) in
 * an imported scene, and counts in *unjoinable the vertices it made of
 * vertices whose bone weights or morph targets differ (such a scene is to
 * be imported again without the join).  The join keeps faces in order, so
 * face corners pair each vertex with the one it became.  Errors:
 * OUT_OF_MEMORY (the scene unchanged), FILE (assimp failed, and released
 * the scene: *scene NULL). */
static skin_asset_status join_vertices(const struct aiScene **scene, size_t *unjoinable)
{
    *unjoinable = 0;
    const unsigned mesh_count = (*scene)->mNumMeshes;
    size_t corners = 0, vertices = 0;
    for (unsigned i = 0; i < mesh_count; ++i) {
        const struct aiMesh *m = (*scene)->mMeshes[i];
        vertices += m->mNumVertices;
        for (unsigned f = 0; f < m->mNumFaces; ++f) corners += m->mFaces[f].mNumIndices;
    }
    uint32_t *corner = malloc(corners * sizeof *corner + 1); /* the faces' indices before the join */
    uint64_t *before = malloc(vertices * sizeof *before + 1), *after = malloc(vertices * sizeof *after + 1);
    size_t *first = malloc((mesh_count + 1) * sizeof *first); /* mesh i's vertices: before[first[i] ..] */
    uint8_t *seen = malloc(vertices + 1); /* per vertex after the join: 1 hashed, 2 counted */
    if (!corner || !before || !after || !first || !seen) {
        free(corner), free(before), free(after), free(first), free(seen);
        return SKIN_ASSET_ERROR_OUT_OF_MEMORY;
    }
    size_t c = 0;
    first[0] = 0;
    for (unsigned i = 0; i < mesh_count; ++i) {
        const struct aiMesh *m = (*scene)->mMeshes[i];
        unjoinable_hashes(m, before + first[i]);
        first[i + 1] = first[i] + m->mNumVertices;
        for (unsigned f = 0; f < m->mNumFaces; ++f)
            for (unsigned k = 0; k < m->mFaces[f].mNumIndices; ++k) corner[c++] = m->mFaces[f].mIndices[k];
    }
    *scene = aiApplyPostProcessing(*scene, aiProcess_JoinIdenticalVertices);
    c = 0;
    for (unsigned i = 0; *scene && i < mesh_count; ++i) {
        const struct aiMesh *m = (*scene)->mMeshes[i];
        const uint64_t *h = before + first[i];
        const size_t raw = first[i + 1] - first[i];
        memset(seen, 0, m->mNumVertices);
        for (unsigned f = 0; f < m->mNumFaces && c < corners; ++f)
            for (unsigned k = 0; k < m->mFaces[f].mNumIndices && c < corners; ++k, ++c) {
                const uint32_t j = m->mFaces[f].mIndices[k];
                if (j >= m->mNumVertices || corner[c] >= raw) continue; /* (validated: not reached) */
                if (!seen[j]) {
                    seen[j] = 1, after[j] = h[corner[c]];
                } else if (seen[j] == 1 && after[j] != h[corner[c]]) {
                    seen[j] = 2, ++*unjoinable;
                }
            }
    }
    free(corner), free(before), free(after), free(first), free(seen);
    return *scene ? SKIN_ASSET_OK : SKIN_ASSET_ERROR_FILE;
}

/* Whether path names a glTF file (.gltf or .glb, any case). */
static int is_gltf(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot && (strcasecmp(dot, ".gltf") == 0 || strcasecmp(dot, ".glb") == 0);
}

skin_asset_status skin_asset_load(const char *path, const skin_asset_options *options, skin_asset **out)
{
    last_error[0] = 0;
    if (out) *out = NULL;
    if (!path || !out) return SKIN_ASSET_ERROR_NULL_ARGUMENT;
    skin_asset_options opt = {SKIN_ASSET_OFFSET_AUTO, 0, 0};
    if (options) opt = *options;
    if ((unsigned)opt.offset_space > SKIN_ASSET_OFFSET_MESH_NODE || opt.max_joints > SKIN_MAX_JOINTS)
        return SKIN_ASSET_ERROR_INVALID_ARGUMENT;
    if (opt.max_joints == 0) opt.max_joints = SKIN_MAX_JOINTS;
    /* glTF defines its joint matrices as global(joint) x inverseBindMatrix,
     * the skinned mesh node's transform ignored: the model space, whatever
     * the matrices look like at rest (assimp's own exports to glTF fold the
     * mesh node's transform into them). */
    if (opt.offset_space == SKIN_ASSET_OFFSET_AUTO && is_gltf(path)) opt.offset_space = SKIN_ASSET_OFFSET_MODEL;
    /* The scene validated before the other steps: on some malformed files
     * they stop the process by an assertion (assimp 5.2's triangulation on
     * its own invalid/OutOfMemory.off), where validation refuses the file. */
    const unsigned steps = aiProcess_ValidateDataStructure | aiProcess_Triangulate | aiProcess_GenSmoothNormals |
                           aiProcess_CalcTangentSpace;
    const struct aiScene *scene = aiImportFile(path, steps);
    size_t unjoinable = 0;
    if (scene && scene->mRootNode) {
        const skin_asset_status st = join_vertices(&scene, &unjoinable);
        if (st == SKIN_ASSET_ERROR_OUT_OF_MEMORY) {
            aiReleaseImport(scene);
            return st;
        }
        if (unjoinable) { /* the same file again, every vertex kept */
            aiReleaseImport(scene);
            scene = aiImportFile(path, steps);
        }
    }
    if (!scene || !scene->mRootNode) {
        snprintf(last_error, sizeof last_error, "%s: %s", path, aiGetErrorString());
        if (scene) aiReleaseImport(scene);
        /* Validation also refuses a scene without meshes, which a plain
         * import (no steps to stop in) tells apart from a broken file:
         * asset_from_scene reports it as it reports any unskinned scene. */
        const struct aiScene *plain = aiImportFile(path, 0);
        if (plain && plain->mRootNode && plain->mNumMeshes == 0) return asset_from_scene(plain, 1, path, opt, out);
        if (plain) aiReleaseImport(plain);
        return SKIN_ASSET_ERROR_FILE;
    }
    const skin_asset_status st = asset_from_scene(scene, 1, path, opt, out);
    if (!st) (*out)->report.unjoined_vertices = unjoinable;
    return st;
}

skin_asset_status skin_asset_find_animation(const skin_asset *asset, const char *name, uint32_t *index)
{
    if (!asset || !name || !index) return SKIN_ASSET_ERROR_NULL_ARGUMENT;
    for (uint32_t i = 0; i < asset->animation_count; ++i)
        if (strcmp(asset->animation_names[i], name) == 0) return *index = i, SKIN_ASSET_OK;
    char *end = NULL;
    unsigned long v = strtoul(name, &end, 10);
    if (*name >= '0' && *name <= '9' && end && *end == 0 && v < asset->animation_count)
        return *index = (uint32_t)v, SKIN_ASSET_OK;
    return SKIN_ASSET_ERROR_UNKNOWN_ANIMATION;
}

skin_asset_status skin_asset_cursor_create(const skin_asset *asset, uint32_t animation, skin_asset_cursor **out)
{
    if (out) *out = NULL;
    if (!asset || !out) return SKIN_ASSET_ERROR_NULL_ARGUMENT;
    if (animation >= asset->animation_count) return SKIN_ASSET_ERROR_UNKNOWN_ANIMATION;
    const asset_store *s = asset->internal;
    const struct aiAnimation *an = s->scene->mAnimations[animation];
    skin_asset_cursor *c = calloc(1, sizeof *c);
    if (!c) return SKIN_ASSET_ERROR_OUT_OF_MEMORY;
    c->channel_node = malloc((an->mNumChannels + 1) * sizeof *c->channel_node);
    c->last = calloc(3 * (size_t)an->mNumChannels + 1, sizeof *c->last);
    if (!c->channel_node || !c->last) return skin_asset_cursor_free(c), SKIN_ASSET_ERROR_OUT_OF_MEMORY;
    c->asset = asset, c->anim = an;
    c->ticks_per_second = an->mTicksPerSecond > 0 ? an->mTicksPerSecond : 25.0;
    for (unsigned k = 0; k < an->mNumChannels; ++k)
        c->channel_node[k] = find_node(s, asset->node_count, an->mChannels[k]->mNodeName.data);
    /* each mesh's morph channel: named like the mesh, else like its node */
    uint32_t most = 0;
    for (uint32_t m = 0; m < asset->mesh_count; ++m)
        if (asset->meshes[m].desc.morph_target_count > most) most = asset->meshes[m].desc.morph_target_count;
    c->morph_channel = malloc((asset->mesh_count + 1) * sizeof *c->morph_channel);
    c->morph_last = calloc(asset->mesh_count + 1, sizeof *c->morph_last);
    c->morph_scratch = malloc((2 * (size_t)most + 1) * sizeof *c->morph_scratch);
    if (!c->morph_channel || !c->morph_last || !c->morph_scratch)
        return skin_asset_cursor_free(c), SKIN_ASSET_ERROR_OUT_OF_MEMORY;
    const unsigned channels = an->mMorphMeshChannels ? an->mNumMorphMeshChannels : 0;
    for (uint32_t m = 0; m < asset->mesh_count; ++m) {
        const char *want[2] = {asset->meshes[m].name, asset->node_names[asset->meshes[m].node]};
        c->morph_channel[m] = -1;
        for (int w = 0; w < 2 && c->morph_channel[m] < 0; ++w)
            for (unsigned k = 0; k < channels && want[w][0]; ++k) {
                const struct aiMeshMorphAnim *mc = an->mMorphMeshChannels[k];
                if (mc && mc->mNumKeys && mc->mKeys && strcmp(mc->mName.data, want[w]) == 0) {
                    c->morph_channel[m] = (int32_t)k;
                    break;
                }
            }
    }
    *out = c;
    return SKIN_ASSET_OK;
}

void skin_asset_cursor_free(skin_asset_cursor *c)
{
    if (!c) return;
    free(c->channel_node), free(c->last), free(c->morph_channel), free(c->morph_last), free(c->morph_scratch);
    free(c);
}

/* The key i with time(i) <= t < time(i+1), searched from *last: forward
 * while later keys are due, backward when time went back. */
#define KEY_SEARCH(keys, n, t, last)                                                  \
    do {                                                                              \
        unsigned i_ = *(last) < (n) ? *(last) : 0;                                    \
        while (i_ > 0 && (keys)[i_].mTime > (t)) --i_;                                \
        while (i_ + 1 < (n) && (keys)[i_ + 1].mTime <= (t)) ++i_;                     \
        *(last) = i_;                                                                 \
    } while (0)

static double key_fraction(double ta, double tb, double t)
{
    double f = tb > ta ? (t - ta) / (tb - ta) : 0.0;
    return f > 0 ? (f < 1 ? f : 1) : 0; /* NaN (infinite key times): 0 */
}

static void sample_vec(const struct aiVectorKey *k, unsigned n, double t, unsigned *last, float out[3])
{
    KEY_SEARCH(k, n, t, last);
    const struct aiVectorKey *a = &k[*last], *b = &k[*last + 1 < n ? *last + 1 : *last];
    double f = key_fraction(a->mTime, b->mTime, t);
    out[0] = (float)(a->mValue.x + f * (b->mValue.x - a->mValue.x));
    out[1] = (float)(a->mValue.y + f * (b->mValue.y - a->mValue.y));
    out[2] = (float)(a->mValue.z + f * (b->mValue.z - a->mValue.z));
}

static void sample_quat(const struct aiQuatKey *k, unsigned n, double t, unsigned *last, float out[4])
{
    KEY_SEARCH(k, n, t, last);
    const struct aiQuatKey *a = &k[*last], *b = &k[*last + 1 < n ? *last + 1 : *last];
    double f = key_fraction(a->mTime, b->mTime, t);
    double qa[4] = {a->mValue.x, a->mValue.y, a->mValue.z, a->mValue.w};
    double qb[4] = {b->mValue.x, b->mValue.y, b->mValue.z, b->mValue.w};
    double d = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
    if (d < 0) /* shortest arc */
        for (int e = 0; e < 4; ++e) qb[e] = -qb[e];
    d = fabs(d);
    double wa = 1.0 - f, wb = f;
    if (d < 0.9995) { /* slerp; nearly parallel keys: lerp, then normalise */
        double th = acos(d), st = sin(th);
        wa = sin((1.0 - f) * th) / st, wb = sin(f * th) / st;
    }
    double q[4], len = 0;
    for (int e = 0; e < 4; ++e) q[e] = wa * qa[e] + wb * qb[e], len += q[e] * q[e];
    len = len > 0 ? sqrt(len) : 1.0;
    for (int e = 0; e < 4; ++e) out[e] = (float)(q[e] / len);
}

/* seconds as the animation's ticks, clamped to [0, duration] (NaN: 0). */
static double anim_ticks(const skin_asset_cursor *c, double seconds)
{
    double t = seconds * c->ticks_per_second;
    if (!(t >= 0)) t = 0;
    return t > c->anim->mDuration ? c->anim->mDuration : t;
}

skin_asset_status skin_asset_rest_pose(const skin_asset *asset, float *tr, float *rot, float *sc)
{
    if (!asset || !tr || !rot || !sc) return SKIN_ASSET_ERROR_NULL_ARGUMENT;
    memcpy(tr, asset->rest_translations, 3 * sizeof(float) * asset->node_count);
    memcpy(rot, asset->rest_rotations, 4 * sizeof(float) * asset->node_count);
    memcpy(sc, asset->rest_scales, 3 * sizeof(float) * asset->node_count);
    return SKIN_ASSET_OK;
}

skin_asset_status skin_asset_sample(skin_asset_cursor *c, double seconds, float *tr, float *rot, float *sc)
{
    if (!c || !tr || !rot || !sc) return SKIN_ASSET_ERROR_NULL_ARGUMENT;
    skin_asset_rest_pose(c->asset, tr, rot, sc);
    const double t = anim_ticks(c, seconds);
    for (unsigned k = 0; k < c->anim->mNumChannels; ++k) {
        int32_t node = c->channel_node[k];
        if (node < 0) continue;
        const struct aiNodeAnim *ch = c->anim->mChannels[k];
        unsigned *last = c->last + 3 * k;
        if (ch->mNumPositionKeys) sample_vec(ch->mPositionKeys, ch->mNumPositionKeys, t, last, tr + 3 * node);
        if (ch->mNumRotationKeys) sample_quat(ch->mRotationKeys, ch->mNumRotationKeys, t, last + 1, rot + 4 * node);
        if (ch->mNumScalingKeys) sample_vec(ch->mScalingKeys, ch->mNumScalingKeys, t, last + 2, sc + 3 * node);
    }
    return SKIN_ASSET_OK;
}

/* The weights key k gives n targets, into w: listed ones (the last pair of
 * an index wins; NaN and infinite count as 0), 0 for the rest. */
static void key_weights(const struct aiMeshMorphKey *k, uint32_t n, double *w)
{
    for (uint32_t j = 0; j < n; ++j) w[j] = 0.0;
    if (!k->mValues || !k->mWeights) return;
    for (unsigned p = 0; p < k->mNumValuesAndWeights; ++p)
        if (k->mValues[p] < n) w[k->mValues[p]] = isfinite(k->mWeights[p]) ? k->mWeights[p] : 0.0;
}

skin_asset_status skin_asset_sample_morph_weights(skin_asset_cursor *c, uint32_t mesh, double seconds, float *weights)
{
    if (!c) return SKIN_ASSET_ERROR_NULL_ARGUMENT;
    if (mesh >= c->asset->mesh_count) return SKIN_ASSET_ERROR_INVALID_ARGUMENT;
    const skin_asset_mesh *am = &c->asset->meshes[mesh];
    const uint32_t n = am->desc.morph_target_count;
    if (!n) return SKIN_ASSET_OK;
    if (!weights) return SKIN_ASSET_ERROR_NULL_ARGUMENT;
    if (c->morph_channel[mesh] < 0) {
        memcpy(weights, am->morph_default_weights, n * sizeof *weights);
        return SKIN_ASSET_OK;
    }
    const struct aiMeshMorphAnim *mc = c->anim->mMorphMeshChannels[c->morph_channel[mesh]];
    const double t = anim_ticks(c, seconds);
    unsigned *last = &c->morph_last[mesh];
    KEY_SEARCH(mc->mKeys, mc->mNumKeys, t, last);
    const struct aiMeshMorphKey *a = &mc->mKeys[*last], *b = &mc->mKeys[*last + 1 < mc->mNumKeys ? *last + 1 : *last];
    const double f = key_fraction(a->mTime, b->mTime, t);
    double *wa = c->morph_scratch, *wb = wa + n;
    key_weights(a, n, wa);
    key_weights(b, n, wb);
    for (uint32_t j = 0; j < n; ++j) {
        /* exact at the keys (f = 0 or 1); finite terms, so never NaN */
        const double w = (1.0 - f) * wa[j] + f * wb[j];
        weights[j] = w > FLT_MAX ? FLT_MAX : w < -FLT_MAX ? -FLT_MAX : (float)w;
    }
    return SKIN_ASSET_OK;
}

skin_asset_status skin_asset_palette(const skin_asset *asset, uint32_t mesh, const float *node_model, float *out)
{
    if (!asset || !node_model || !out) return SKIN_ASSET_ERROR_NULL_ARGUMENT;
    if (mesh >= asset->mesh_count) return SKIN_ASSET_ERROR_INVALID_ARGUMENT;
    const skin_asset_mesh *m = &asset->meshes[mesh];
    float inv_mesh[12], tmp[12];
    invert_3x4(node_model + 12 * (size_t)m->node, inv_mesh);
    for (uint32_t b = 0; b < m->bone_count; ++b) {
        float *o = out + 12 * (size_t)b;
        if (m->bone_nodes[b] < 0) {
            memcpy(o, identity_3x4, sizeof identity_3x4);
            continue;
        }
        if (m->offset_space == SKIN_ASSET_OFFSET_MESH_NODE) {
            skin_matrix_multiply(node_model + 12 * (size_t)m->bone_nodes[b], m->inverse_bind + 12 * b, tmp);
            skin_matrix_multiply(inv_mesh, tmp, o);
        } else {
            skin_matrix_multiply(node_model + 12 * (size_t)m->bone_nodes[b], m->inverse_bind + 12 * b, o);
        }
    }
    return SKIN_ASSET_OK;
}
