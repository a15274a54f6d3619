/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the asset loader (skin_assets) on scenes decoded from
 * the input.  The loader's own code starts where assimp hands over a scene,
 * so this target builds that scene itself (nodes with duplicate or missing
 * names and special-valued transforms; meshes with or without normals and
 * tangents, faces of any size with indices past the vertices, bones naming
 * no node, weights for vertices that do not exist or that are NaN, negative,
 * infinite or huge; morph targets (aiAnimMesh) with or without each
 * attribute, mostly the base values with some changed (NaN, infinite or
 * huge among them), NULL entries and vertex counts that are not the mesh's,
 * meshes with morph targets and no bones; animations with unsorted, NaN or
 * missing keys and odd tick rates, morph weight channels named after
 * meshes, nodes or nothing, with keys listing targets past the mesh's,
 * NaN or infinite weights, no or NULL pairs) and calls the loader's scene
 * entry point, compiled in here.
 * Fuzzing through assimp's file parsers instead tests assimp: assimp 5.2
 * crashes, hangs or leaks within seconds on mutated X, SMD and glTF files.
 * Oracles on every asset that loads: each mesh passes skin_validate with its
 * own bone count (NON_FINITE only if the scene's vertex data, or a morph
 * delta target - base, was), indices and bone nodes are in range, parents
 * are parent-first; each mesh has one target per anim mesh, complete delta
 * groups, sparse lists sorted, in range and under half the vertices,
 * finite default weights; the rest pose and animations sampled before, at
 * and past their ends give palettes and finite morph weights that
 * skin_mesh takes (LBS and DQS).  An error leaves *out NULL, and every
 * status is a documented one. */
#include "../assets/skin_assets.c"

#include "fuzz_input.h"
#include "skin/skin.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Every allocation of one scene, freed together. */
typedef struct arena {
    void *p[4096];
    size_t n;
} arena;

static void *alloc(arena *a, size_t count, size_t size)
{
    FZ_CHECK(a->n < sizeof a->p / sizeof a->p[0]);
    void *p = calloc(count ? count : 1, size);
    FZ_CHECK(p != NULL);
    return a->p[a->n++] = p;
}

/* Mostly plausible values, sometimes NaN, infinities, huge or denormal. */
static float value(fz_in *in) { return fz_u8(in) < 224 ? fz_small(in) : fz_float(in); }

static void name(struct aiString *s, uint32_t id) { s->length = (uint32_t)snprintf(s->data, sizeof s->data, "n%u", id); }

static void matrix(fz_in *in, struct aiMatrix4x4 *m)
{
    float *r = &m->a1; /* row-major a1..d4 */
    for (int i = 0; i < 12; ++i) r[i] = value(in);
    m->d1 = m->d2 = m->d3 = 0.0f, m->d4 = 1.0f;
}

static void vectors(fz_in *in, struct aiVector3D *v, size_t n, int *nonfinite)
{
    for (size_t i = 0; i < n; ++i) {
        v[i].x = value(in), v[i].y = value(in), v[i].z = value(in);
        *nonfinite |= !isfinite(v[i].x) || !isfinite(v[i].y) || !isfinite(v[i].z);
    }
}

/* n vectors for a morph target: the base's (where it has n) mostly, some
 * values of their own. */
static struct aiVector3D *target_vectors(fz_in *in, arena *a, const struct aiVector3D *base, unsigned base_n, unsigned n)
{
    struct aiVector3D *v = alloc(a, n, sizeof *v);
    for (unsigned i = 0; i < n; ++i) {
        if (base && i < base_n && fz_u8(in) < 192) v[i] = base[i];
        else v[i].x = value(in), v[i].y = value(in), v[i].z = value(in);
    }
    return v;
}

/* Whether a delta target - base of n vectors is not finite (the loader
 * subtracts in float, so huge finite values overflow too). */
static int delta_nonfinite(const struct aiVector3D *t, const struct aiVector3D *b, unsigned n)
{
    int bad = 0;
    for (unsigned i = 0; i < n; ++i)
        bad |= !isfinite(t[i].x - b[i].x) || !isfinite(t[i].y - b[i].y) || !isfinite(t[i].z - b[i].z);
    return bad;
}

/* Up to 3 morph targets of mesh m; *nonfinite when a delta the loader
 * keeps is not finite. */
static void anim_meshes(fz_in *in, arena *a, struct aiMesh *m, int *nonfinite)
{
    const unsigned n = m->mNumVertices;
    m->mNumAnimMeshes = fz_u8(in) % 4;
    m->mAnimMeshes = alloc(a, m->mNumAnimMeshes, sizeof *m->mAnimMeshes);
    const int keeps_normals = m->mNormals != NULL, keeps_tangents = m->mNormals && m->mTangents && m->mBitangents;
    for (unsigned k = 0; k < m->mNumAnimMeshes; ++k) {
        if (fz_u8(in) % 16 == 0) continue; /* a NULL entry */
        struct aiAnimMesh *t = m->mAnimMeshes[k] = alloc(a, 1, sizeof *t);
        const uint8_t flags = fz_u8(in);
        const unsigned nv = flags & 0x80 ? fz_u8(in) % (n + 2) : n; /* sometimes not the mesh's count */
        t->mNumVertices = nv;
        t->mWeight = value(in);
        name(&t->mName, k);
        if (flags & 1) t->mVertices = target_vectors(in, a, m->mVertices, n, nv);
        if (flags & 2) t->mNormals = target_vectors(in, a, m->mNormals, n, nv);
        if (flags & 4) {
            t->mTangents = target_vectors(in, a, m->mTangents, n, nv);
            t->mBitangents = target_vectors(in, a, m->mBitangents, n, nv);
        }
        if (nv != n) continue; /* the loader reads none of it */
        if (t->mVertices) *nonfinite |= delta_nonfinite(t->mVertices, m->mVertices, n);
        if (t->mNormals && keeps_normals) *nonfinite |= delta_nonfinite(t->mNormals, m->mNormals, n);
        if (t->mTangents && keeps_tangents) *nonfinite |= delta_nonfinite(t->mTangents, m->mTangents, n);
    }
}

static struct aiMesh *mesh(fz_in *in, arena *a, uint32_t node_count, int *nonfinite)
{
    struct aiMesh *m = alloc(a, 1, sizeof *m);
    const unsigned n = fz_u8(in) % 16 == 0 ? 0 : 1 + fz_u8(in) % 48;
    const uint8_t flags = fz_u8(in);
    m->mNumVertices = n;
    m->mVertices = alloc(a, n, sizeof *m->mVertices);
    vectors(in, m->mVertices, n, nonfinite);
    if (flags & 1) {
        m->mNormals = alloc(a, n, sizeof *m->mNormals);
        vectors(in, m->mNormals, n, nonfinite);
    }
    if (flags & 2) {
        m->mTangents = alloc(a, n, sizeof *m->mTangents);
        m->mBitangents = alloc(a, n, sizeof *m->mBitangents);
        int tangents_nonfinite = 0; /* counts only where the loader keeps tangents */
        vectors(in, m->mTangents, n, &tangents_nonfinite);
        vectors(in, m->mBitangents, n, &tangents_nonfinite);
        if (m->mNormals) *nonfinite |= tangents_nonfinite;
    }
    m->mNumFaces = fz_u8(in) % 16;
    m->mFaces = alloc(a, m->mNumFaces, sizeof *m->mFaces);
    for (unsigned f = 0; f < m->mNumFaces; ++f) {
        struct aiFace *face = &m->mFaces[f];
        face->mNumIndices = fz_u8(in) % 8 < 6 ? 3 : 1 + fz_u8(in) % 4;
        face->mIndices = alloc(a, face->mNumIndices, sizeof *face->mIndices);
        for (unsigned k = 0; k < face->mNumIndices; ++k) face->mIndices[k] = fz_u8(in) % (n + 2);
    }
    name(&m->mName, fz_u8(in) % (node_count + 2)); /* like a node, or like none */
    if (flags & 4) anim_meshes(in, a, m, nonfinite);
    m->mNumBones = fz_u8(in) % 6;
    m->mBones = alloc(a, m->mNumBones, sizeof *m->mBones);
    for (unsigned b = 0; b < m->mNumBones; ++b) {
        struct aiBone *bone = m->mBones[b] = alloc(a, 1, sizeof *bone);
        name(&bone->mName, fz_u8(in) % (node_count + 2)); /* past the nodes: no node */
        matrix(in, &bone->mOffsetMatrix);
        bone->mNumWeights = fz_u8(in) % 40;
        bone->mWeights = alloc(a, bone->mNumWeights, sizeof *bone->mWeights);
        for (unsigned k = 0; k < bone->mNumWeights; ++k) {
            bone->mWeights[k].mVertexId = fz_u8(in) % (n + 2);
            bone->mWeights[k].mWeight = fz_u8(in) < 240 ? fz_u8(in) / 255.0f : fz_float(in);
        }
    }
    return m;
}

static void vector_keys(fz_in *in, arena *a, struct aiVectorKey **keys, unsigned *count)
{
    *count = fz_u8(in) % 4;
    *keys = alloc(a, *count, sizeof **keys);
    for (unsigned k = 0; k < *count; ++k) {
        (*keys)[k].mTime = value(in);
        (*keys)[k].mValue.x = value(in), (*keys)[k].mValue.y = value(in), (*keys)[k].mValue.z = value(in);
    }
}

static struct aiAnimation *animation(fz_in *in, arena *a, uint32_t node_count)
{
    struct aiAnimation *an = alloc(a, 1, sizeof *an);
    an->mDuration = value(in);
    const uint8_t tps = fz_u8(in);
    an->mTicksPerSecond = tps < 64 ? 0.0 : tps < 128 ? 25.0 : tps < 192 ? -1.0 : value(in);
    an->mNumChannels = fz_u8(in) % 5;
    an->mChannels = alloc(a, an->mNumChannels, sizeof *an->mChannels);
    for (unsigned c = 0; c < an->mNumChannels; ++c) {
        struct aiNodeAnim *ch = an->mChannels[c] = alloc(a, 1, sizeof *ch);
        name(&ch->mNodeName, fz_u8(in) % (node_count + 1));
        vector_keys(in, a, &ch->mPositionKeys, &ch->mNumPositionKeys);
        vector_keys(in, a, &ch->mScalingKeys, &ch->mNumScalingKeys);
        ch->mNumRotationKeys = fz_u8(in) % 4;
        ch->mRotationKeys = alloc(a, ch->mNumRotationKeys, sizeof *ch->mRotationKeys);
        for (unsigned k = 0; k < ch->mNumRotationKeys; ++k) {
            struct aiQuatKey *key = &ch->mRotationKeys[k];
            key->mTime = value(in);
            key->mValue.x = value(in), key->mValue.y = value(in), key->mValue.z = value(in), key->mValue.w = value(in);
        }
    }
    /* morph weight channels, named like a node or mesh (n<id>) or like none */
    an->mNumMorphMeshChannels = fz_u8(in) % 3;
    an->mMorphMeshChannels = alloc(a, an->mNumMorphMeshChannels, sizeof *an->mMorphMeshChannels);
    for (unsigned c = 0; c < an->mNumMorphMeshChannels; ++c) {
        struct aiMeshMorphAnim *mc = an->mMorphMeshChannels[c] = alloc(a, 1, sizeof *mc);
        name(&mc->mName, fz_u8(in) % (node_count + 2));
        mc->mNumKeys = fz_u8(in) % 4;
        mc->mKeys = alloc(a, mc->mNumKeys, sizeof *mc->mKeys);
        for (unsigned k = 0; k < mc->mNumKeys; ++k) {
            struct aiMeshMorphKey *key = &mc->mKeys[k];
            key->mTime = value(in);
            key->mNumValuesAndWeights = fz_u8(in) % 5;
            if (fz_u8(in) % 16 == 0) continue; /* NULL pairs */
            key->mValues = alloc(a, key->mNumValuesAndWeights, sizeof *key->mValues);
            key->mWeights = alloc(a, key->mNumValuesAndWeights, sizeof *key->mWeights);
            for (unsigned p = 0; p < key->mNumValuesAndWeights; ++p) {
                key->mValues[p] = fz_u8(in) % 5; /* past the targets too */
                key->mWeights[p] = fz_u8(in) < 224 ? fz_u8(in) / 128.0 : (double)fz_float(in);
            }
        }
    }
    return an;
}

/* A scene of up to 12 nodes (node i's parent is an earlier node, so the
 * tree is parent-first; names may repeat), up to 3 meshes hung from random
 * nodes, up to 2 animations.  nonfinite[m]: mesh m's vertex data is. */
static struct aiScene *scene(fz_in *in, arena *a, int nonfinite[3])
{
    struct aiScene *sc = alloc(a, 1, sizeof *sc);
    const uint32_t node_count = 1 + fz_u8(in) % 12;
    struct aiNode **nodes = alloc(a, node_count, sizeof *nodes);
    uint32_t *parent = alloc(a, node_count, sizeof *parent);
    for (uint32_t i = 0; i < node_count; ++i) {
        nodes[i] = alloc(a, 1, sizeof *nodes[i]);
        name(&nodes[i]->mName, fz_u8(in) % 8 == 0 ? fz_u8(in) % node_count : i);
        matrix(in, &nodes[i]->mTransformation);
        parent[i] = i ? fz_u8(in) % i : 0;
        if (i) ++nodes[parent[i]]->mNumChildren;
    }
    for (uint32_t i = 0; i < node_count; ++i) nodes[i]->mChildren = alloc(a, nodes[i]->mNumChildren, sizeof *nodes[i]->mChildren);
    for (uint32_t i = 1; i < node_count; ++i) {
        struct aiNode *p = nodes[parent[i]];
        unsigned k = 0;
        while (p->mChildren[k]) ++k;
        p->mChildren[k] = nodes[i], nodes[i]->mParent = p;
    }
    sc->mRootNode = nodes[0];
    sc->mNumMeshes = fz_u8(in) % 4;
    sc->mMeshes = alloc(a, sc->mNumMeshes, sizeof *sc->mMeshes);
    for (unsigned m = 0; m < sc->mNumMeshes; ++m) {
        sc->mMeshes[m] = mesh(in, a, node_count, &nonfinite[m]);
        struct aiNode *holder = nodes[fz_u8(in) % node_count];
        unsigned *list = alloc(a, holder->mNumMeshes + 1, sizeof *list);
        if (holder->mNumMeshes) memcpy(list, holder->mMeshes, holder->mNumMeshes * sizeof *list);
        list[holder->mNumMeshes++] = m;
        holder->mMeshes = list;
    }
    sc->mNumAnimations = fz_u8(in) % 3;
    sc->mAnimations = alloc(a, sc->mNumAnimations, sizeof *sc->mAnimations);
    for (unsigned an = 0; an < sc->mNumAnimations; ++an) sc->mAnimations[an] = animation(in, a, node_count);
    return sc;
}

/* The targets of a loaded mesh: one per anim mesh, complete groups, sparse
 * lists sorted, in range and under half the vertices, finite defaults.
 * (skin_validate checks the lists too, but stops at bad vertex data.) */
static void check_targets(const skin_asset_mesh *am, const struct aiMesh *m)
{
    const skin_mesh_desc *d = &am->desc;
    FZ_CHECK(d->morph_target_count == (m->mAnimMeshes ? m->mNumAnimMeshes : 0));
    FZ_CHECK(am->rigid == (m->mNumBones == 0) && (!am->rigid || am->bone_count == 1));
    for (uint32_t k = 0; k < d->morph_target_count; ++k) {
        const skin_morph_target *t = &d->morph_targets[k];
        FZ_CHECK(am->morph_target_names[k] != NULL && isfinite(am->morph_default_weights[k]));
        FZ_CHECK((!t->dpx) == (!t->dpy) && (!t->dpx) == (!t->dpz));
        FZ_CHECK((!t->dnx) == (!t->dny) && (!t->dnx) == (!t->dnz) && (!t->dnx || d->nx));
        FZ_CHECK((!t->dtx) == (!t->dty) && (!t->dtx) == (!t->dtz) && (!t->dtx || d->tx));
        if (!t->indices) continue;
        FZ_CHECK(2 * t->count < d->vertex_count);
        for (size_t e = 0; e < t->count; ++e) FZ_CHECK(t->indices[e] < d->vertex_count && (!e || t->indices[e] > t->indices[e - 1]));
    }
}

static void check_mesh(const skin_asset *a, uint32_t mi, int nonfinite, const float *tr, const float *rot, const float *sc,
                       const float *morph_weights)
{
    const skin_asset_mesh *am = &a->meshes[mi];
    const skin_mesh_desc *d = &am->desc;
    FZ_CHECK(am->bone_count >= 1 && d->influence_count >= 1 && d->influence_count <= SKIN_MAX_INFLUENCES);
    for (uint32_t k = 0; k < d->morph_target_count; ++k) FZ_CHECK(isfinite(morph_weights[k]));
    const skin_status valid = skin_validate(d, am->bone_count, NULL);
    FZ_CHECK(valid == SKIN_OK || (nonfinite && valid == SKIN_ERROR_NON_FINITE));
    for (uint32_t b = 0; b < am->bone_count; ++b)
        FZ_CHECK(am->bone_nodes[b] >= -1 && am->bone_nodes[b] < (int32_t)a->node_count);
    FZ_CHECK(am->node < a->node_count && am->index_count % 3 == 0);
    for (size_t i = 0; i < am->index_count; ++i) FZ_CHECK(am->indices[i] < d->vertex_count);
    if (d->vertex_count == 0) return;

    const size_t n = d->vertex_count, bones = am->bone_count;
    float *model = malloc(12 * sizeof(float) * a->node_count), *mats = malloc(12 * sizeof(float) * bones);
    float *dqs = malloc(8 * sizeof(float) * bones), *scales = malloc(3 * sizeof(float) * bones);
    float *out = malloc(3 * sizeof(float) * n);
    FZ_CHECK(model && mats && dqs && scales && out);
    FZ_CHECK(skin_pose_to_matrices(a->node_count, a->parents, tr, rot, sc, model) == SKIN_OK);
    FZ_CHECK(skin_asset_palette(a, mi, model, mats) == SKIN_ASSET_OK);
    FZ_CHECK(skin_matrices_to_dual_quats(am->bone_count, mats, dqs, scales, NULL) == SKIN_OK);
    const skin_palette pal = {am->bone_count, mats, NULL, dqs, scales, morph_weights};
    skin_mesh_desc positions = *d; /* positions only: the output holds them */
    positions.nx = positions.ny = positions.nz = NULL;
    positions.tx = positions.ty = positions.tz = positions.tw = NULL;
    skin_output o = {.layout = SKIN_LAYOUT_STRIDED, .position = out, .position_stride = 12};
    FZ_CHECK(skin_mesh(&positions, &pal, SKIN_LBS, &o, 0, n) == SKIN_OK);
    FZ_CHECK(skin_mesh(&positions, &pal, SKIN_DQS, &o, 0, n) == SKIN_OK);
    free(model), free(mats), free(dqs), free(scales), free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size, 0, size};
    arena *ar = calloc(1, sizeof *ar);
    FZ_CHECK(ar != NULL);
    int nonfinite[3] = {0, 0, 0};
    skin_asset_options opt = {(skin_asset_offset_space)(fz_u8(&in) % 3), 65536, 0};
    if (fz_u8(&in) % 4 == 0) opt.max_joints = 1 + fz_u8(&in) % 4;
    opt.accept_defects = fz_u8(&in) % 4 != 0; /* mostly: the scenes' weights are random */
    const struct aiScene *sc = scene(&in, ar, nonfinite);

    skin_asset *a = (skin_asset *)(uintptr_t)1;
    const skin_asset_status st = asset_from_scene(sc, 0, "fuzz", opt, &a);
    FZ_CHECK(st == SKIN_ASSET_OK || st == SKIN_ASSET_ERROR_NO_SKINNED_MESH || st == SKIN_ASSET_ERROR_TOO_MANY_JOINTS ||
             (st == SKIN_ASSET_ERROR_DEFECT && !opt.accept_defects));
    if (st == SKIN_ASSET_OK) {
        FZ_CHECK(a != NULL && a->node_count >= 1 && a->mesh_count >= 1);
        for (uint32_t i = 0; i < a->node_count; ++i) FZ_CHECK(a->parents[i] < (int32_t)i);
        /* which scene mesh each asset mesh came from: the skinned or morphed ones, in order */
        int from[3];
        const struct aiMesh *source[3];
        for (unsigned m = 0, k = 0; m < sc->mNumMeshes; ++m)
            if (loadable(sc->mMeshes[m])) source[k] = sc->mMeshes[m], from[k++] = nonfinite[m];
        const uint32_t nc = a->node_count;
        float *tr = malloc(3 * sizeof(float) * nc), *rot = malloc(4 * sizeof(float) * nc), *scl = malloc(3 * sizeof(float) * nc);
        float *weights = malloc(4 * sizeof(float)); /* at most 3 targets a mesh */
        FZ_CHECK(tr && rot && scl && weights);
        FZ_CHECK(skin_asset_rest_pose(a, tr, rot, scl) == SKIN_ASSET_OK);
        for (uint32_t mi = 0; mi < a->mesh_count; ++mi) {
            check_targets(&a->meshes[mi], source[mi]);
            check_mesh(a, mi, from[mi], tr, rot, scl, a->meshes[mi].morph_default_weights);
        }
        for (uint32_t an = 0; an < a->animation_count; ++an) {
            skin_asset_cursor *cur = NULL;
            FZ_CHECK(skin_asset_cursor_create(a, an, &cur) == SKIN_ASSET_OK);
            const double d = a->animation_durations[an];
            const double times[] = {-1.0, 0.0, 0.5 * d, d, d + 1.0, 0.25 * d, NAN};
            for (size_t k = 0; k < sizeof times / sizeof times[0]; ++k) {
                FZ_CHECK(skin_asset_sample(cur, times[k], tr, rot, scl) == SKIN_ASSET_OK);
                for (uint32_t mi = 0; mi < a->mesh_count; ++mi) {
                    FZ_CHECK(skin_asset_sample_morph_weights(cur, mi, times[k], weights) == SKIN_ASSET_OK);
                    check_mesh(a, mi, from[mi], tr, rot, scl, weights);
                }
            }
            FZ_CHECK(skin_asset_sample_morph_weights(cur, a->mesh_count, 0.0, weights) == SKIN_ASSET_ERROR_INVALID_ARGUMENT);
            skin_asset_cursor_free(cur);
        }
        free(tr), free(rot), free(scl), free(weights);
        skin_asset_free(a);
    } else {
        FZ_CHECK(a == NULL);
    }
    for (size_t i = 0; i < ar->n; ++i) free(ar->p[i]);
    free(ar);
    return 0;
}
