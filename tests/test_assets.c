/* Real assets: skinned, animated models from Debian's assimp-testmodels,
 * loaded with assimp's C API.  For each skinned mesh:
 *  - the influences validate, after skin_normalize_weights;
 *  - at the bind pose (each bone's model matrix the inverse of its offset
 *    matrix; a file's node transforms need not be its bind pose) skinning
 *    returns the input, for LBS and DQS;
 *  - at sampled animation times the palette is built with the library's
 *    own helpers (skin_pose_to_matrices from the decomposed node
 *    transforms, skin_apply_inverse_bind with the bone offsets,
 *    skin_matrices_to_dual_quats), and the kernels of the ISA under test
 *    (SKIN_ISA) match the double-precision scalar reference.
 * Usage: test_assets MODEL...  */
#include "check.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_INFL = 4 };

typedef struct skeleton {
    uint32_t count;
    const struct aiNode **nodes; /* parent-first */
    int32_t *parents;
} skeleton;

static uint32_t count_nodes(const struct aiNode *n)
{
    uint32_t c = 1;
    for (unsigned i = 0; i < n->mNumChildren; ++i) c += count_nodes(n->mChildren[i]);
    return c;
}

static void collect(skeleton *s, const struct aiNode *n, int32_t parent)
{
    int32_t self = (int32_t)s->count++;
    s->nodes[self] = n;
    s->parents[self] = parent;
    for (unsigned i = 0; i < n->mNumChildren; ++i) collect(s, n->mChildren[i], self);
}

static int32_t find_node(const skeleton *s, const struct aiString *name)
{
    for (uint32_t i = 0; i < s->count; ++i)
        if (strcmp(s->nodes[i]->mName.data, name->data) == 0) return (int32_t)i;
    return -1;
}

static void to_3x4(const struct aiMatrix4x4 *m, float out[12])
{
    const float r[12] = {m->a1, m->a2, m->a3, m->a4, m->b1, m->b2,
                         m->b3, m->b4, m->c1, m->c2, m->c3, m->c4};
    memcpy(out, r, sizeof r);
}

/* Inverse of an affine 3x4 (double precision, cofactors). */
static void invert_3x4(const float *m, float *out)
{
    double a[3][3], c[3][3];
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) a[i][k] = m[4 * i + k];
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            c[i][k] = a[(i + 1) % 3][(k + 1) % 3] * a[(i + 2) % 3][(k + 2) % 3] -
                      a[(i + 1) % 3][(k + 2) % 3] * a[(i + 2) % 3][(k + 1) % 3];
    double det = a[0][0] * c[0][0] + a[0][1] * c[0][1] + a[0][2] * c[0][2];
    for (int i = 0; i < 3; ++i) { /* inverse = transpose(cofactors) / det */
        for (int k = 0; k < 3; ++k) out[4 * i + k] = (float)(c[k][i] / det);
        out[4 * i + 3] = (float)(-(c[0][i] * m[3] + c[1][i] * m[7] + c[2][i] * m[11]) / det);
    }
}

/* Linear key interpolation at time t (rotations normalised-lerped, on the
 * short arc): the test needs a plausible pose, not a particular one. */
static void sample_vec(const struct aiVectorKey *k, unsigned n, double t, float out[3])
{
    unsigned i = 0;
    while (i + 1 < n && k[i + 1].mTime <= t) ++i;
    const struct aiVectorKey *a = &k[i], *b = &k[i + 1 < n ? i + 1 : i];
    double f = b->mTime > a->mTime ? (t - a->mTime) / (b->mTime - a->mTime) : 0.0;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    out[0] = (float)(a->mValue.x + f * (b->mValue.x - a->mValue.x));
    out[1] = (float)(a->mValue.y + f * (b->mValue.y - a->mValue.y));
    out[2] = (float)(a->mValue.z + f * (b->mValue.z - a->mValue.z));
}

static void sample_quat(const struct aiQuatKey *k, unsigned n, double t, float out[4])
{
    unsigned i = 0;
    while (i + 1 < n && k[i + 1].mTime <= t) ++i;
    const struct aiQuatKey *a = &k[i], *b = &k[i + 1 < n ? i + 1 : i];
    double f = b->mTime > a->mTime ? (t - a->mTime) / (b->mTime - a->mTime) : 0.0;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    double qa[4] = {a->mValue.x, a->mValue.y, a->mValue.z, a->mValue.w};
    double qb[4] = {b->mValue.x, b->mValue.y, b->mValue.z, b->mValue.w};
    double d = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3], q[4], len = 0;
    for (int e = 0; e < 4; ++e) q[e] = qa[e] + f * ((d < 0 ? -qb[e] : qb[e]) - qa[e]), len += q[e] * q[e];
    for (int e = 0; e < 4; ++e) out[e] = (float)(q[e] / sqrt(len));
}

/* Local TRS of every node at time t of animation `anim` (NULL: the file's
 * node transforms), decomposed with assimp. */
static void local_pose(const skeleton *s, const struct aiAnimation *anim, double t, float *tr,
                       float *rot, float *sc)
{
    for (uint32_t i = 0; i < s->count; ++i) {
        struct aiVector3D S, T;
        struct aiQuaternion R;
        aiDecomposeMatrix(&s->nodes[i]->mTransformation, &S, &R, &T);
        float *ti = tr + 3 * i, *ri = rot + 4 * i, *si = sc + 3 * i;
        ti[0] = T.x, ti[1] = T.y, ti[2] = T.z;
        ri[0] = R.x, ri[1] = R.y, ri[2] = R.z, ri[3] = R.w;
        si[0] = S.x, si[1] = S.y, si[2] = S.z;
        for (unsigned c = 0; anim && c < anim->mNumChannels; ++c) {
            const struct aiNodeAnim *ch = anim->mChannels[c];
            if (strcmp(ch->mNodeName.data, s->nodes[i]->mName.data) != 0) continue;
            if (ch->mNumPositionKeys) sample_vec(ch->mPositionKeys, ch->mNumPositionKeys, t, ti);
            if (ch->mNumRotationKeys) sample_quat(ch->mRotationKeys, ch->mNumRotationKeys, t, ri);
            if (ch->mNumScalingKeys) sample_vec(ch->mScalingKeys, ch->mNumScalingKeys, t, si);
        }
    }
}

/* One skinned aiMesh as skin streams: SoA attributes, up to four influence
 * slots (u16 joints into the mesh's bones, f32 weights normalised). */
typedef struct asset_mesh {
    skin_mesh_desc desc;
    float *attr[10];
    uint16_t *joints[MAX_INFL];
    float *weights[MAX_INFL];
} asset_mesh;

static void asset_free(asset_mesh *a)
{
    for (int c = 0; c < 10; ++c) free(a->attr[c]);
    for (int i = 0; i < MAX_INFL; ++i) free(a->joints[i]), free(a->weights[i]);
}

static int asset_load(const struct aiMesh *m, asset_mesh *a)
{
    size_t n = m->mNumVertices;
    memset(a, 0, sizeof *a);
    int ok = 1;
    for (int c = 0; c < 10; ++c) ok &= (a->attr[c] = calloc(n, sizeof(float))) != NULL;
    for (int i = 0; i < MAX_INFL; ++i) {
        ok &= (a->joints[i] = calloc(n, sizeof(uint16_t))) != NULL;
        ok &= (a->weights[i] = calloc(n, sizeof(float))) != NULL;
    }
    if (!ok) return -1;
    for (size_t v = 0; v < n; ++v) {
        const struct aiVector3D *p = &m->mVertices[v];
        a->attr[0][v] = p->x, a->attr[1][v] = p->y, a->attr[2][v] = p->z;
        if (m->mNormals)
            a->attr[3][v] = m->mNormals[v].x, a->attr[4][v] = m->mNormals[v].y, a->attr[5][v] = m->mNormals[v].z;
        if (m->mTangents) {
            const struct aiVector3D *t = &m->mTangents[v], *b = &m->mBitangents[v], *nn = &m->mNormals[v];
            a->attr[6][v] = t->x, a->attr[7][v] = t->y, a->attr[8][v] = t->z;
            /* handedness: does n x t point along the bitangent? */
            double cx = nn->y * t->z - nn->z * t->y, cy = nn->z * t->x - nn->x * t->z, cz = nn->x * t->y - nn->y * t->x;
            a->attr[9][v] = cx * b->x + cy * b->y + cz * b->z < 0 ? -1.0f : 1.0f;
        }
    }
    /* aiProcess_LimitBoneWeights leaves at most four weights a vertex. */
    for (unsigned b = 0; b < m->mNumBones; ++b) {
        const struct aiBone *bone = m->mBones[b];
        for (unsigned k = 0; k < bone->mNumWeights; ++k) {
            unsigned v = bone->mWeights[k].mVertexId;
            for (int i = 0; i < MAX_INFL; ++i) {
                if (a->weights[i][v] == 0.0f) {
                    a->joints[i][v] = (uint16_t)b;
                    a->weights[i][v] = bone->mWeights[k].mWeight;
                    break;
                }
            }
        }
    }
    skin_mesh_desc *d = &a->desc;
    d->vertex_count = n;
    d->px = a->attr[0], d->py = a->attr[1], d->pz = a->attr[2];
    if (m->mNormals) d->nx = a->attr[3], d->ny = a->attr[4], d->nz = a->attr[5];
    if (m->mTangents) d->tx = a->attr[6], d->ty = a->attr[7], d->tz = a->attr[8], d->tw = a->attr[9];
    d->influence_count = MAX_INFL;
    d->joint_format = SKIN_JOINT_U16;
    d->weight_format = SKIN_WEIGHT_F32;
    for (int i = 0; i < MAX_INFL; ++i) d->joints[i] = a->joints[i], d->weights[i] = a->weights[i];
    return skin_normalize_weights(n, MAX_INFL, a->weights) == SKIN_OK ? 0 : -1;
}

/* The palette of a pose: model-space node matrices from the library's
 * hierarchy helper, times each bone's offset (inverse bind) matrix. */
typedef struct palette_buf {
    float *matrices, *dual_quats, *scales;
    skin_palette pal;
} palette_buf;

static int build_palette(const skeleton *s, const struct aiMesh *m, const float *model, palette_buf *p)
{
    uint32_t jc = m->mNumBones;
    float *nodes = malloc(12 * (size_t)jc * sizeof(float)), *offsets = malloc(12 * (size_t)jc * sizeof(float));
    if (!nodes || !offsets) return free(nodes), free(offsets), -1;
    int rc = 0;
    for (uint32_t b = 0; b < jc && !rc; ++b) {
        int32_t node = find_node(s, &m->mBones[b]->mName);
        if (node < 0) rc = -1;
        else memcpy(nodes + 12 * b, model + 12 * (size_t)node, 12 * sizeof(float));
        to_3x4(&m->mBones[b]->mOffsetMatrix, offsets + 12 * b);
    }
    uint32_t nonrigid = 0;
    if (!rc) CHECK_STATUS(skin_apply_inverse_bind(jc, nodes, offsets, p->matrices), SKIN_OK);
    if (!rc)
        CHECK_STATUS(skin_matrices_to_dual_quats(jc, p->matrices, p->dual_quats, p->scales, &nonrigid), SKIN_OK);
    if (!rc && nonrigid) printf("    %u of %u joints not representable as scaled dual quaternions\n", nonrigid, jc);
    p->pal = (skin_palette){jc, p->matrices, NULL, p->dual_quats, p->scales};
    free(nodes), free(offsets);
    return rc;
}

static skin_output soa_output(float **o, int normals, int tangents)
{
    skin_output out;
    memset(&out, 0, sizeof out);
    out.layout = SKIN_LAYOUT_SOA;
    for (int c = 0; c < 10; ++c)
        if (c < 3 || (c < 6 ? normals : tangents)) out.soa[c] = o[c];
    return out;
}

/* Kernels of the ISA under test against the scalar reference. */
static void compare_with_reference(const asset_mesh *a, const skin_palette *pal, skin_isa isa, float **want,
                                   float **got, const char *what)
{
    const int normals = a->desc.nx != NULL, tangents = a->desc.tx != NULL;
    skin_output ow = soa_output(want, normals, tangents), og = soa_output(got, normals, tangents);
    for (int method = SKIN_LBS; method <= SKIN_DQS; ++method) {
        skin_set_isa(SKIN_ISA_SCALAR);
        CHECK_STATUS(skin_mesh_parallel(&a->desc, pal, (skin_method)method, &ow, 0), SKIN_OK);
        skin_set_isa(isa);
        CHECK_STATUS(skin_mesh_parallel(&a->desc, pal, (skin_method)method, &og, 0), SKIN_OK);
        /* relative to the magnitude of each attribute vector */
        static const int first[4] = {0, 3, 6, 10};
        for (size_t v = 0; v < a->desc.vertex_count; ++v)
            for (int at = 0; at < 3; ++at) {
                if (!ow.soa[first[at]]) continue;
                double mag = 1.0;
                for (int c = first[at]; c < first[at + 1]; ++c) mag = fmax(mag, fabs(want[c][v]));
                for (int c = first[at]; c < first[at + 1]; ++c) CHECK_CLOSE(got[c][v] / mag, want[c][v] / mag, 1e-5);
            }
    }
    check_error_report(what);
}

static int test_model(const char *path, skin_isa isa)
{
    const struct aiScene *scene = aiImportFile(path, aiProcess_Triangulate | aiProcess_LimitBoneWeights |
                                                         aiProcess_CalcTangentSpace);
    if (!scene) {
        fprintf(stderr, "%s: %s\n", path, aiGetErrorString());
        CHECK(scene != NULL);
        return 0;
    }
    skeleton s = {0, NULL, NULL};
    uint32_t nodes = count_nodes(scene->mRootNode);
    s.nodes = malloc(nodes * sizeof *s.nodes);
    s.parents = malloc(nodes * sizeof *s.parents);
    float *tr = malloc(3 * (size_t)nodes * sizeof(float)), *rot = malloc(4 * (size_t)nodes * sizeof(float));
    float *sc = malloc(3 * (size_t)nodes * sizeof(float)), *model = malloc(12 * (size_t)nodes * sizeof(float));
    collect(&s, scene->mRootNode, -1);
    int skinned = 0;
    for (unsigned mi = 0; mi < scene->mNumMeshes; ++mi) {
        const struct aiMesh *m = scene->mMeshes[mi];
        if (!m->mNumBones) continue;
        ++skinned;
        asset_mesh a;
        CHECK(asset_load(m, &a) == 0);
        skin_validation_report report;
        CHECK_STATUS(skin_validate(&a.desc, m->mNumBones, &report), SKIN_OK);
        printf("  %s mesh %u: %u vertices, %u bones, %u animations%s%s\n", path, mi, m->mNumVertices,
               m->mNumBones, scene->mNumAnimations, a.desc.nx ? ", normals" : "", a.desc.tx ? ", tangents" : "");
        size_t n = m->mNumVertices;
        palette_buf p;
        p.matrices = malloc(12 * sizeof(float) * m->mNumBones);
        p.dual_quats = malloc(8 * sizeof(float) * m->mNumBones);
        p.scales = malloc(3 * sizeof(float) * m->mNumBones);
        float *want[10], *got[10];
        for (int c = 0; c < 10; ++c) want[c] = calloc(n, sizeof(float)), got[c] = calloc(n, sizeof(float));

        /* Bind pose: each bone's model matrix is the inverse of its offset,
         * so skinning must return the input (mesh space). */
        {
            float *bind = malloc(12 * sizeof(float) * m->mNumBones), *offset = malloc(12 * sizeof(float) * m->mNumBones);
            for (unsigned b = 0; b < m->mNumBones; ++b) {
                to_3x4(&m->mBones[b]->mOffsetMatrix, offset + 12 * b);
                invert_3x4(offset + 12 * b, bind + 12 * b);
            }
            CHECK_STATUS(skin_apply_inverse_bind(m->mNumBones, bind, offset, p.matrices), SKIN_OK);
            uint32_t nonrigid = 0;
            CHECK_STATUS(skin_matrices_to_dual_quats(m->mNumBones, p.matrices, p.dual_quats, p.scales, &nonrigid),
                         SKIN_OK);
            p.pal = (skin_palette){m->mNumBones, p.matrices, NULL, p.dual_quats, p.scales};
            double extent = 1e-6;
            for (size_t v = 0; v < n; ++v)
                for (int c = 0; c < 3; ++c) extent = fmax(extent, fabs(a.attr[c][v]));
            for (int method = SKIN_LBS; method <= SKIN_DQS; ++method) {
                skin_output out = soa_output(got, 0, 0);
                CHECK_STATUS(skin_mesh(&a.desc, &p.pal, (skin_method)method, &out, 0, n), SKIN_OK);
                for (size_t v = 0; v < n; ++v)
                    for (int c = 0; c < 3; ++c) CHECK_CLOSE(got[c][v] / extent, a.attr[c][v] / extent, 1e-5);
            }
            check_error_report("    bind pose vs input (relative to the mesh extent)");
            free(bind), free(offset);
        }

        /* Animation: a few sampled times of every animation. */
        for (unsigned ai = 0; ai < scene->mNumAnimations; ++ai) {
            const struct aiAnimation *anim = scene->mAnimations[ai];
            for (int k = 0; k < 5; ++k) {
                double t = anim->mDuration * k / 4.0;
                local_pose(&s, anim, t, tr, rot, sc);
                CHECK_STATUS(skin_pose_to_matrices(nodes, s.parents, tr, rot, sc, model), SKIN_OK);
                if (build_palette(&s, m, model, &p) != 0) continue;
                compare_with_reference(&a, &p.pal, isa, want, got, "    animated, kernels vs reference");
            }
        }
        for (int c = 0; c < 10; ++c) free(want[c]), free(got[c]);
        free(p.matrices), free(p.dual_quats), free(p.scales);
        asset_free(&a);
    }
    CHECK(skinned > 0);
    free(s.nodes), free(s.parents), free(tr), free(rot), free(sc), free(model);
    aiReleaseImport(scene);
    return skinned;
}

int main(int argc, char **argv)
{
    const char *want = getenv("SKIN_ISA");
    skin_isa isa = skin_get_isa();
    if (want && strcmp(want, skin_isa_name(isa)) != 0) {
        printf("skipped: this CPU or build cannot run ISA %s\n", want);
        return 77;
    }
    printf("kernels under test: %s\n", skin_isa_name(isa));
    for (int i = 1; i < argc; ++i) test_model(argv[i], isa);
    return check_finish("test_assets");
}
