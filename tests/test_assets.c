/* SPDX-License-Identifier: MIT */
/* Real assets through the loader (skin::assets): Debian's assimp-testmodels.
 * For each listed model:
 *  - it loads with the expected mesh, vertex, bone and animation counts and
 *    the influences validate;
 *  - in the file's rest pose skinning reproduces the input positions within
 *    1e-5 of the extent where the rest pose is the bind pose (the table says
 *    where it is not, and by how much it differs);
 *  - at sampled animation times the kernels of the ISA under test (SKIN_ISA)
 *    match the scalar reference for LBS and DQS, and LBS matches a
 *    double-precision skinning computed here from assimp's own bone weights
 *    and offset matrices (all raw weights, normalised by their sum);
 *  - every bad input of the loader returns its error;
 *  - a vertex without weights gets valid influences.
 * With --morph (test assets_morph, label morph), on every ISA the CPU runs:
 *  - AnimatedMorphCube (bone-less: one rigid bone, its node) loads with its
 *    2 targets, validates, its targets are sparse exactly where they touch
 *    under half the vertices, and the sampled weights match the file's
 *    animation keys (at, between, before and after them);
 *  - a small skinned glTF with a 1-vertex target (sparse, with normals)
 *    and a dense one: names, default weights, deltas, sparse indices;
 *  - for both, at several times, skin_mesh (LBS and DQS) with the sampled
 *    weights matches morph-then-skin: the morph computed here in double
 *    from assimp's aiAnimMesh and aiMesh data, then skinned by the
 *    unmorphed kernels, and for LBS also a double-precision skinning from
 *    assimp's bones.
 * Usage: test_assets MODELS_DIR [--morph]  */
#define _DEFAULT_SOURCE /* mkstemps */
#include "check.h"

#include <skin/skin_assets.h>

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The loader's import steps, for the tests that read the same file with
 * assimp itself (the loader joins identical vertices as a second step). */
#define ASSET_FLAGS                                                                                        \
    (aiProcess_Triangulate | aiProcess_GenSmoothNormals | aiProcess_JoinIdenticalVertices |               \
     aiProcess_CalcTangentSpace)

typedef struct model_case {
    const char *path;
    uint32_t meshes, vertices0, bones0, animations;
    double rest_error; /* 0: rest pose == bind pose; else the largest known deviation / extent */
    const char *why;
} model_case;

static const model_case cases[] = {
    {"X/Testwuson.X", 1, 4637, 37, 3, 0, NULL},
    {"X/BCN_Epileptic.X", 3, 1448, 24, 1, 0, NULL},
    {"X/anim_test.x", 1, 497, 4, 1, 0.05, "rest pose is 1.5 degrees off the bind pose on one joint"},
    {"FBX/animation_with_skeleton.fbx", 1, 2464, 14, 1, 0.15,
     "the node transforms at load are not the clusters' bind pose (measured 0.13 LBS, 0.14 DQS "
     "of the extent)"},
    {"FBX/huesitos.fbx", 1, 128, 9, 1, 0, NULL},
    {"SMD/WusonSMD.smd", 1, 6311, 1, 1, 0, NULL},
    {"glTF2/simple_skin/simple_skin.gltf", 1, 10, 2, 1, 0.26,
     "both joints rest at (0,1,0) but both inverse bind matrices translate by (-0.5,-1,0): "
     "0.5 units of a 2-unit extent"},
};

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
static void compare_with_reference(const skin_mesh_desc *d, const skin_palette *pal, skin_isa isa, float **want,
                                   float **got)
{
    const int normals = d->nx != NULL, tangents = d->tx != NULL;
    skin_output ow = soa_output(want, normals, tangents), og = soa_output(got, normals, tangents);
    for (int method = SKIN_LBS; method <= SKIN_DQS; ++method) {
        skin_set_isa(SKIN_ISA_SCALAR);
        CHECK_STATUS(skin_mesh_parallel(d, pal, (skin_method)method, &ow, 0), SKIN_OK);
        skin_set_isa(isa);
        CHECK_STATUS(skin_mesh_parallel(d, pal, (skin_method)method, &og, 0), SKIN_OK);
        static const int first[4] = {0, 3, 6, 10};
        for (size_t v = 0; v < d->vertex_count; ++v)
            for (int at = 0; at < 3; ++at) {
                if (!ow.soa[first[at]]) continue;
                double mag = 1.0;
                for (int c = first[at]; c < first[at + 1]; ++c) mag = fmax(mag, fabs(want[c][v]));
                for (int c = first[at]; c < first[at + 1]; ++c) CHECK_CLOSE(got[c][v] / mag, want[c][v] / mag, 1e-5);
            }
    }
}

/* Double-precision affine 3x4 helpers for the independent check. */
static void dmul(const double *a, const double *b, double *o)
{
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 4; ++k)
            o[4 * i + k] = a[4 * i] * b[k] + a[4 * i + 1] * b[4 + k] + a[4 * i + 2] * b[8 + k] + (k == 3 ? a[4 * i + 3] : 0);
}

static void dtrs(const float *t, const float *q, const float *s, double *m)
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
                   2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                   2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)};
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) m[4 * i + k] = r[3 * i + k] * s[k];
        m[4 * i + 3] = t[i];
    }
}

static void dinv(const double *m, double *out)
{
    double c[3][3];
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
            c[i][k] = m[4 * ((i + 1) % 3) + (k + 1) % 3] * m[4 * ((i + 2) % 3) + (k + 2) % 3] -
                      m[4 * ((i + 1) % 3) + (k + 2) % 3] * m[4 * ((i + 2) % 3) + (k + 1) % 3];
    double det = m[0] * c[0][0] + m[1] * c[0][1] + m[2] * c[0][2];
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) out[4 * i + k] = c[k][i] / det;
        out[4 * i + 3] = -(c[0][i] * m[3] + c[1][i] * m[7] + c[2][i] * m[11]) / det;
    }
}

/* LBS positions of aiMesh m in double from assimp's bones, given the
 * loader's local TRS and node hierarchy. */
static void double_lbs(const skin_asset *a, const skin_asset_mesh *am, const struct aiMesh *m, const float *tr,
                       const float *rot, const float *sc, double *out)
{
    double *model = malloc(12 * sizeof(double) * a->node_count), local[12];
    for (uint32_t i = 0; i < a->node_count; ++i) {
        dtrs(tr + 3 * i, rot + 4 * i, sc + 3 * i, local);
        if (a->parents[i] < 0) memcpy(model + 12 * i, local, sizeof local);
        else dmul(model + 12 * (size_t)a->parents[i], local, model + 12 * i);
    }
    double inv_mesh[12], ident[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    dinv(model + 12 * (size_t)am->node, inv_mesh);
    double *sum = calloc(m->mNumVertices, sizeof(double));
    memset(out, 0, 3 * sizeof(double) * m->mNumVertices);
    for (unsigned b = 0; b < m->mNumBones; ++b) {
        const struct aiBone *bone = m->mBones[b];
        const struct aiMatrix4x4 *o = &bone->mOffsetMatrix;
        double off[12] = {o->a1, o->a2, o->a3, o->a4, o->b1, o->b2, o->b3, o->b4, o->c1, o->c2, o->c3, o->c4};
        int32_t node = -1;
        for (uint32_t i = 0; i < a->node_count; ++i)
            if (strcmp(a->node_names[i], bone->mName.data) == 0) node = (int32_t)i;
        double g[12], s[12];
        if (node < 0) memcpy(s, ident, sizeof s);
        else {
            dmul(model + 12 * (size_t)node, off, g);
            if (am->offset_space == SKIN_ASSET_OFFSET_MESH_NODE) dmul(inv_mesh, g, s);
            else memcpy(s, g, sizeof s);
        }
        for (unsigned k = 0; k < bone->mNumWeights; ++k) {
            unsigned v = bone->mWeights[k].mVertexId;
            double w = bone->mWeights[k].mWeight;
            const struct aiVector3D *p = &m->mVertices[v];
            for (int i = 0; i < 3; ++i)
                out[3 * v + i] += w * (s[4 * i] * p->x + s[4 * i + 1] * p->y + s[4 * i + 2] * p->z + s[4 * i + 3]);
            sum[v] += w;
        }
    }
    for (unsigned v = 0; v < m->mNumVertices; ++v)
        for (int i = 0; i < 3; ++i) out[3 * v + i] = sum[v] > 0 ? out[3 * v + i] / sum[v] : 0;
    free(sum), free(model);
}

/* The aiMesh of asset mesh i: the loader takes the meshes with bones or
 * morph targets, in the scene's order. */
static const struct aiMesh *scene_mesh(const struct aiScene *scene, uint32_t i)
{
    for (unsigned k = 0; k < scene->mNumMeshes; ++k) {
        const struct aiMesh *m = scene->mMeshes[k];
        if ((m->mNumBones || m->mNumAnimMeshes) && i-- == 0) return m;
    }
    return NULL;
}

static void test_model(const char *dir, const model_case *mc, skin_isa isa)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, mc->path);
    skin_asset *a = NULL;
    CHECK_STATUS((skin_status)skin_asset_load(path, NULL, &a), SKIN_OK);
    if (!a) return;
    const struct aiScene *scene = aiImportFile(path, ASSET_FLAGS);
    CHECK(scene != NULL);
    CHECK_INT(a->mesh_count, mc->meshes);
    CHECK_INT(a->meshes[0].desc.vertex_count, mc->vertices0);
    CHECK_INT(a->meshes[0].bone_count, mc->bones0);
    CHECK_INT(a->animation_count, mc->animations);
    printf("%s: %u meshes, %u nodes, %u animations; nodeless bones %u, max influences %u, "
           "renormalised %zu, truncated %zu, raw sums %.3f..%.3f\n",
           mc->path, a->mesh_count, a->node_count, a->animation_count, a->report.nodeless_bones,
           a->report.max_influences, a->report.renormalised_vertices, a->report.truncated_vertices,
           a->report.min_weight_sum, a->report.max_weight_sum);
    const uint32_t nc = a->node_count;
    float *tr = malloc(3 * sizeof(float) * nc), *rot = malloc(4 * sizeof(float) * nc);
    float *sc = malloc(3 * sizeof(float) * nc), *model = malloc(12 * sizeof(float) * nc);
    for (uint32_t mi = 0; mi < a->mesh_count; ++mi) {
        const skin_asset_mesh *am = &a->meshes[mi];
        const struct aiMesh *m = scene_mesh(scene, mi);
        const size_t n = am->desc.vertex_count;
        CHECK_INT(m->mNumVertices, n);
        skin_validation_report rep;
        CHECK_STATUS(skin_validate(&am->desc, am->bone_count, &rep), SKIN_OK);
        float *mats = malloc(12 * sizeof(float) * am->bone_count), *dqs = malloc(8 * sizeof(float) * am->bone_count);
        float *scl = malloc(3 * sizeof(float) * am->bone_count);
        skin_palette pal = {am->bone_count, mats, NULL, dqs, scl, NULL};
        float *want[10], *got[10];
        for (int c = 0; c < 10; ++c) want[c] = calloc(n + 1, sizeof(float)), got[c] = calloc(n + 1, sizeof(float));
        double *ref = malloc(3 * sizeof(double) * (n + 1));
        double extent = 1e-6;
        for (size_t v = 0; v < n; ++v)
            extent = fmax(extent, fmax(fabs(am->desc.px[v]), fmax(fabs(am->desc.py[v]), fabs(am->desc.pz[v]))));
        uint32_t nonrigid = 0;

        /* rest pose */
        CHECK_STATUS((skin_status)skin_asset_rest_pose(a, tr, rot, sc), SKIN_OK);
        CHECK_STATUS(skin_pose_to_matrices(nc, a->parents, tr, rot, sc, model), SKIN_OK);
        CHECK_STATUS((skin_status)skin_asset_palette(a, mi, model, mats), SKIN_OK);
        CHECK_STATUS(skin_matrices_to_dual_quats(am->bone_count, mats, dqs, scl, &nonrigid), SKIN_OK);
        for (int method = SKIN_LBS; method <= SKIN_DQS; ++method) {
            skin_output out = soa_output(got, 0, 0);
            CHECK_STATUS(skin_mesh(&am->desc, &pal, (skin_method)method, &out, 0, n), SKIN_OK);
            const float *in[3] = {am->desc.px, am->desc.py, am->desc.pz};
            double worst = 0;
            for (size_t v = 0; v < n; ++v)
                for (int c = 0; c < 3; ++c) worst = fmax(worst, fabs(got[c][v] - in[c][v]) / extent);
            if (mc->rest_error == 0) CHECK_CLOSE_AT(worst, 0, 1e-5, "%s mesh %u rest %s", mc->path, mi, method == SKIN_DQS ? "dqs" : "lbs");
            else {
                /* documented: the rest pose differs from the bind pose */
                CHECK(worst > 1e-5 && worst < mc->rest_error);
                printf("  mesh %u rest pose vs input (%s): %.3g of the extent: %s\n", mi, method == SKIN_DQS ? "dqs" : "lbs",
                       worst, mc->why);
            }
        }

        /* animations: kernels vs reference, LBS vs double precision */
        for (uint32_t an = 0; an < a->animation_count; ++an) {
            skin_asset_cursor *cur = NULL;
            CHECK_STATUS((skin_status)skin_asset_cursor_create(a, an, &cur), SKIN_OK);
            for (int k = 0; k <= 4 && cur; ++k) {
                double t = a->animation_durations[an] * k / 4.0;
                CHECK_STATUS((skin_status)skin_asset_sample(cur, t, tr, rot, sc), SKIN_OK);
                CHECK_STATUS(skin_pose_to_matrices(nc, a->parents, tr, rot, sc, model), SKIN_OK);
                CHECK_STATUS((skin_status)skin_asset_palette(a, mi, model, mats), SKIN_OK);
                CHECK_STATUS(skin_matrices_to_dual_quats(am->bone_count, mats, dqs, scl, &nonrigid), SKIN_OK);
                compare_with_reference(&am->desc, &pal, isa, want, got);
                double_lbs(a, am, m, tr, rot, sc, ref);
                double anim_extent = 1e-6;
                for (size_t v = 0; v < 3 * n; ++v) anim_extent = fmax(anim_extent, fabs(ref[v]));
                /* got holds DQS from the last comparison: LBS again for the double check */
                skin_output out = soa_output(got, 0, 0);
                CHECK_STATUS(skin_mesh(&am->desc, &pal, SKIN_LBS, &out, 0, n), SKIN_OK);
                for (size_t v = 0; v < n; ++v)
                    for (int c = 0; c < 3; ++c) CHECK_CLOSE(got[c][v] / anim_extent, ref[3 * v + c] / anim_extent, 1e-5);
            }
            skin_asset_cursor_free(cur);
        }
        char what[200];
        snprintf(what, sizeof what, "  mesh %u animated (kernels vs reference, LBS vs double)", mi);
        check_error_report(what);
        for (int c = 0; c < 10; ++c) free(want[c]), free(got[c]);
        free(ref), free(mats), free(dqs), free(scl);
    }
    free(tr), free(rot), free(sc), free(model);
    aiReleaseImport(scene);
    skin_asset_free(a);
}

/* Every loader error. */
static void test_bad_input(const char *dir)
{
    char path[1024];
    skin_asset *a = (skin_asset *)&a;
    CHECK_INT(skin_asset_load(NULL, NULL, &a), SKIN_ASSET_ERROR_NULL_ARGUMENT);
    CHECK(a == NULL);
    CHECK_INT(skin_asset_load("x", NULL, NULL), SKIN_ASSET_ERROR_NULL_ARGUMENT);
    CHECK_INT(skin_asset_load("/nonexistent/model.fbx", NULL, &a), SKIN_ASSET_ERROR_FILE);
    CHECK(a == NULL && strlen(skin_asset_error()) > 0);
    snprintf(path, sizeof path, "%s/X/test.x", dir);
    CHECK_INT(skin_asset_load(path, NULL, &a), SKIN_ASSET_ERROR_NO_SKINNED_MESH);
    /* A scene without meshes (which assimp's validation refuses too), and a
     * truncated OFF file (3000 vertices and 6 faces declared, 2 and 1
     * there), whose triangulation stops the process by an assertion unless
     * the scene is validated first (assimp's invalid/OutOfMemory.off does
     * the same, but allocates gigabytes first). */
    snprintf(path, sizeof path, "%s/M3D/cube_normals.m3d", dir);
    CHECK_INT(skin_asset_load(path, NULL, &a), SKIN_ASSET_ERROR_NO_SKINNED_MESH);
    const char *truncated = "test_assets_truncated.off";
    FILE *off = fopen(truncated, "w");
    CHECK(off != NULL);
    if (off) {
        fputs("OFF\n3000 6 0\n-0.5 -0.5 0.5\n0.5 -0.5 0.5\n4 0 1 3 2\n", off);
        fclose(off);
        CHECK_INT(skin_asset_load(truncated, NULL, &a), SKIN_ASSET_ERROR_FILE);
        CHECK(a == NULL && strstr(skin_asset_error(), truncated) != NULL);
        remove(truncated);
    }
    snprintf(path, sizeof path, "%s/X/Testwuson.X", dir);
    skin_asset_options opt = {SKIN_ASSET_OFFSET_AUTO, 36, 0}; /* Testwuson has 37 bones */
    CHECK_INT(skin_asset_load(path, &opt, &a), SKIN_ASSET_ERROR_TOO_MANY_JOINTS);
    opt.max_joints = 70000;
    CHECK_INT(skin_asset_load(path, &opt, &a), SKIN_ASSET_ERROR_INVALID_ARGUMENT);
    opt = (skin_asset_options){(skin_asset_offset_space)7, 0, 0};
    CHECK_INT(skin_asset_load(path, &opt, &a), SKIN_ASSET_ERROR_INVALID_ARGUMENT);
    opt = (skin_asset_options){SKIN_ASSET_OFFSET_MODEL, 37, 0};
    CHECK_INT(skin_asset_load(path, &opt, &a), SKIN_ASSET_OK);
    CHECK_INT(a->meshes[0].offset_space, SKIN_ASSET_OFFSET_MODEL);
    uint32_t idx = 99;
    CHECK_INT(skin_asset_find_animation(a, "no such animation", &idx), SKIN_ASSET_ERROR_UNKNOWN_ANIMATION);
    CHECK_INT(skin_asset_find_animation(a, "3", &idx), SKIN_ASSET_ERROR_UNKNOWN_ANIMATION);
    CHECK_INT(skin_asset_find_animation(a, "2", &idx), SKIN_ASSET_OK);
    CHECK_INT(idx, 2);
    CHECK_INT(skin_asset_find_animation(a, a->animation_names[1], &idx), SKIN_ASSET_OK);
    CHECK_INT(idx, 1);
    CHECK_INT(skin_asset_find_animation(NULL, "0", &idx), SKIN_ASSET_ERROR_NULL_ARGUMENT);
    skin_asset_cursor *c = NULL;
    CHECK_INT(skin_asset_cursor_create(a, 3, &c), SKIN_ASSET_ERROR_UNKNOWN_ANIMATION);
    CHECK_INT(skin_asset_cursor_create(NULL, 0, &c), SKIN_ASSET_ERROR_NULL_ARGUMENT);
    CHECK_INT(skin_asset_cursor_create(a, 0, &c), SKIN_ASSET_OK);
    CHECK_INT(a->meshes[0].desc.morph_target_count, 0); /* no targets: weights may be NULL */
    CHECK_INT(skin_asset_sample_morph_weights(c, 0, 0.5, NULL), SKIN_ASSET_OK);
    skin_asset_cursor_free(c);
    float f[12];
    CHECK_INT(skin_asset_palette(a, 1, f, f), SKIN_ASSET_ERROR_INVALID_ARGUMENT);
    CHECK_INT(skin_asset_palette(a, 0, NULL, f), SKIN_ASSET_ERROR_NULL_ARGUMENT);
    CHECK_INT(skin_asset_sample(NULL, 0, f, f, f), SKIN_ASSET_ERROR_NULL_ARGUMENT);
    CHECK_INT(skin_asset_rest_pose(a, NULL, f, f), SKIN_ASSET_ERROR_NULL_ARGUMENT);
    /* every status its own string, never NULL; others "unknown status" */
    for (int st = SKIN_ASSET_ERROR_DEFECT; st <= SKIN_ASSET_OK; ++st) {
        const char *str = skin_asset_status_string((skin_asset_status)st);
        CHECK(str && strcmp(str, "unknown status") != 0);
        for (int other = SKIN_ASSET_ERROR_DEFECT; other < st; ++other)
            CHECK(strcmp(str, skin_asset_status_string((skin_asset_status)other)) != 0);
    }
    CHECK(strcmp(skin_asset_status_string((skin_asset_status)1), "unknown status") == 0);
    CHECK(strcmp(skin_asset_status_string((skin_asset_status)-9), "unknown status") == 0);
    skin_asset_free(a);
    skin_asset_free(NULL);
    skin_asset_cursor_free(NULL);
    /* the FBX convention is detected; forcing X's convention moves the bind pose */
    snprintf(path, sizeof path, "%s/FBX/animation_with_skeleton.fbx", dir);
    CHECK_INT(skin_asset_load(path, NULL, &a), SKIN_ASSET_OK);
    CHECK_INT(a->meshes[0].offset_space, SKIN_ASSET_OFFSET_MESH_NODE);
    skin_asset_free(a);
    check_error_report("loader bad input");
}

/* Writes text to a new temporary .gltf file; path receives its name. */
static int write_temp(const char *text, char path[64])
{
    snprintf(path, 64, "/tmp/skin-test-XXXXXX.gltf");
    const int fd = mkstemps(path, 5);
    CHECK(fd >= 0);
    if (fd < 0) return 0;
    const size_t len = strlen(text);
    CHECK(write(fd, text, len) == (ssize_t)len);
    close(fd);
    return 1;
}

/* Loads text as a .gltf file with default options, the file removed again;
 * *a as skin_asset_load leaves it (NULL if the file could not be written). */
static skin_asset_status load_text(const char *text, skin_asset **a)
{
    char path[64];
    *a = NULL;
    if (!write_temp(text, path)) return SKIN_ASSET_ERROR_FILE;
    const skin_asset_status st = skin_asset_load(path, NULL, a);
    unlink(path);
    return st;
}

/* A vertex without weights in a mesh whose others have two: the loader binds
 * it to bone 0 and every other slot of it to bone 0 with weight 0 (its
 * slots were left uninitialised, so skin_validate failed on the asset;
 * found by fuzz_assets).  A 3-vertex glTF, 2 joints; vertex 2 unweighted. */
static void test_unweighted_vertex(void)
{
    static const char gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,1]}],\"nodes\":[{\"mesh\":0,\"skin\":0},{\"c"
    "hildren\":[2]},{\"translation\":[0,1,0]}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":1,\"JOI"
    "NTS_0\":2,\"WEIGHTS_0\":3},\"indices\":0}]}],\"skins\":[{\"inverseBindMatrices\":4,\"joints\":[1,2]}],\"buff"
    "ers\":[{\"byteLength\":232,\"uri\":\"data:application/octet-stream;base64,AAABAAIAAAAAAAAAAAAAAAAAAAAA"
    "AIA/AAAAAAAAAAAAAAAAAACAPwAAAAAAAQAAAQAAAAAAAAAAAAA/AAAAPwAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAA"
    "AIA/AACAPwAAAAAAAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAACAPw==\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":6},{\"buffer\":0,\"byteOffset\":8,\"byteLength"
    "\":36},{\"buffer\":0,\"byteOffset\":44,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":56,\"byteLength\":48},"
    "{\"buffer\":0,\"byteOffset\":104,\"byteLength\":128}],\"accessors\":[{\"bufferView\":0,\"componentType\":512"
    "3,\"count\":3,\"type\":\"SCALAR\"},{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":"
    "[0,0,0],\"max\":[1,1,0]},{\"bufferView\":2,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},{\"bufferVie"
    "w\":3,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},{\"bufferView\":4,\"componentType\":5126,\"count\":"
    "2,\"type\":\"MAT4\"}]}";
    skin_asset *a = NULL;
    CHECK_INT(load_text(gltf, &a), SKIN_ASSET_OK);
    if (!a) return;
    CHECK_INT(a->mesh_count, 1);
    const skin_asset_mesh *am = &a->meshes[0];
    CHECK_INT(am->desc.vertex_count, 3);
    CHECK_INT(am->desc.influence_count, 2);
    CHECK_INT(a->report.unweighted_vertices, 1);
    CHECK_STATUS(skin_validate(&am->desc, am->bone_count, NULL), SKIN_OK);
    for (uint32_t i = 0; i < am->desc.influence_count; ++i) {
        const uint16_t *j = am->desc.joints[i];
        const float *w = am->desc.weights[i];
        CHECK_INT(j[2], 0);
        CHECK(w[2] == (i == 0 ? 1.0f : 0.0f));
    }
    skin_asset_free(a);
    check_error_report("unweighted vertex");
}

/* A glTF whose inverse bind matrix includes the skinned mesh node's
 * transform (translation 3 along x), as assimp's exports to glTF write
 * them: the specification's joint matrix, global(joint) x inverse bind,
 * moves vertex 0 from the origin to (3, 0, 0); the mesh node's own
 * transform does not count.  (Detected by the rest pose, the mesh-node
 * convention would have put it at the origin.) */
static void test_gltf_offset_space(void)
{
    static const char gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,1]}],\"nodes\":[{\"mesh\":0,"
    "\"skin\":0,\"translation\":[3,0,0]},{\"name\":\"j0\"}],\"skins\":[{\"joints\":[1],\"inverseBindMatri"
    "ces\":4}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":2,\"WEIGHTS_0\":"
    "3},\"indices\":1}]}],\"buffers\":[{\"byteLength\":168,\"uri\":\"data:application/octet-stream;base64"
    ",AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAABAAIAAAAAAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAAC"
    "APwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAACAPwA"
    "AAAAAAEBAAAAAAAAAAAAAAIA/\"}],\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36},{\""
    "buffer\":0,\"byteOffset\":36,\"byteLength\":6},{\"buffer\":0,\"byteOffset\":44,\"byteLength\":12},{"
    "\"buffer\":0,\"byteOffset\":56,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":104,\"byteLength\":64"
    "}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,"
    "0,0],\"max\":[1,1,0]},{\"bufferView\":1,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"},{\"b"
    "ufferView\":2,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},{\"bufferView\":3,\"componentTyp"
    "e\":5126,\"count\":3,\"type\":\"VEC4\"},{\"bufferView\":4,\"componentType\":5126,\"count\":1,\"type"
    "\":\"MAT4\"}]}";

    skin_asset *a = NULL;
    CHECK_INT(load_text(gltf, &a), SKIN_ASSET_OK);
    if (!a) return;
    CHECK_INT(a->mesh_count, 1);
    CHECK_INT(a->meshes[0].offset_space, SKIN_ASSET_OFFSET_MODEL);
    float tr[3 * 4], rot[4 * 4], sc[3 * 4], model[12 * 4], pal[12];
    CHECK(a->node_count <= 4);
    if (a->node_count <= 4) {
        CHECK_INT(skin_asset_rest_pose(a, tr, rot, sc), SKIN_ASSET_OK);
        CHECK_STATUS(skin_pose_to_matrices(a->node_count, a->parents, tr, rot, sc, model), SKIN_OK);
        CHECK_INT(skin_asset_palette(a, 0, model, pal), SKIN_ASSET_OK);
        /* every vertex on the one joint: vertex 0, the origin, lands on the
         * palette's translation */
        CHECK(pal[3] == 3.0f && pal[7] == 0.0f && pal[11] == 0.0f);
    }
    skin_asset_free(a);
    check_error_report("glTF offset space");
}

/* ------------------------------------------------------------ morph targets */




/* Two triangles of six vertices, vertex 4 at vertex 2's position with its
 * normal: in join_weights_gltf bound to the other joint, in
 * join_morph_gltf the only vertex its target moves (dz = 1).  Vertex 5
 * repeats vertex 1 in everything, and stays too: the file is read again
 * without the join. */
/* The skinned glTF of two triangles on joints j0 and j1, its buffer (base64) given. */
#define JOIN_SKIN_GLTF(BUFFER) \
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,1,2]}],\"nodes\":[{\"mes" \
    "h\":0,\"skin\":0},{\"name\":\"j0\"},{\"name\":\"j1\",\"translation\":[0,0,5]}],\"skins\":[{\"joi" \
    "nts\":[1,2],\"inverseBindMatrices\":5}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"PO" \
    "SITION\":0,\"NORMAL\":1,\"JOINTS_0\":3,\"WEIGHTS_0\":4},\"indices\":2}]}],\"buffers\":[{\"by" \
    "teLength\":404,\"uri\":\"data:application/octet-stream;base64," \
    BUFFER \
    "\"}],\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":72},{\"buffer\":0,\"byte" \
    "Offset\":72,\"byteLength\":72},{\"buffer\":0,\"byteOffset\":144,\"byteLength\":12},{\"buff" \
    "er\":0,\"byteOffset\":156,\"byteLength\":24},{\"buffer\":0,\"byteOffset\":180,\"byteLength" \
    "\":96},{\"buffer\":0,\"byteOffset\":276,\"byteLength\":128}],\"accessors\":[{\"bufferView\"" \
    ":0,\"componentType\":5126,\"count\":6,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]},{\"b" \
    "ufferView\":1,\"componentType\":5126,\"count\":6,\"type\":\"VEC3\"},{\"bufferView\":2,\"comp" \
    "onentType\":5123,\"count\":6,\"type\":\"SCALAR\"},{\"bufferView\":3,\"componentType\":5121," \
    "\"count\":6,\"type\":\"VEC4\"},{\"bufferView\":4,\"componentType\":5126,\"count\":6,\"type\":\"" \
    "VEC4\"},{\"bufferView\":5,\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"}]}"
static const char join_weights_gltf[] = JOIN_SKIN_GLTF(
    "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAACAPwAAgD8AAAAAAAAAAAAAgD8AAAAA"
    "AACAPwAAAAAAAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/"
    "AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAABAAIAAwAEAAUAAAAAAAAAAAAAAAAAAAAAAAEAAAAAAAAA"
    "AACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAA"
    "AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAAAIA/"
    "AAAAAAAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAACAPwAAgD8AAAAAAAAAAAAAAAAAAAAA"
    "AACAPwAAAAAAAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAAAAAAAAgD8=");

static const char join_morph_gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0"
    "}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},\"indices\":2,"
    "\"targets\":[{\"POSITION\":3}]}],\"weights\":[1.0]}],\"buffers\":[{\"byteLength\":228,\"uri"
    "\":\"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAA"
    "gD8AAAAAAACAPwAAgD8AAAAAAAAAAAAAgD8AAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAAAIA/AAAAAAAA"
    "AAAAAIA/AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAABAAIA"
    "AwAEAAUAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAIA/AAAAAAAAAAAAAAAA\"}],\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLengt"
    "h\":72},{\"buffer\":0,\"byteOffset\":72,\"byteLength\":72},{\"buffer\":0,\"byteOffset\":144"
    ",\"byteLength\":12},{\"buffer\":0,\"byteOffset\":156,\"byteLength\":72}],\"accessors\":[{\""
    "bufferView\":0,\"componentType\":5126,\"count\":6,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":["
    "1,1,0]},{\"bufferView\":1,\"componentType\":5126,\"count\":6,\"type\":\"VEC3\"},{\"bufferVi"
    "ew\":2,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"},{\"bufferView\":3,\"component"
    "Type\":5126,\"count\":6,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[0,0,1]}]}";

/* The skinned file of join_weights_gltf with every vertex on joint 0 and
 * vertex 5 at vertex 0 (normal too): joint 1 has no weights, which assimp's
 * glTF importer lists as weight 0 on vertex 0; both twins join. */
static const char join_unweighted_joint_gltf[] = JOIN_SKIN_GLTF(
    "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAACAPwAAgD8AAAAAAAAAAAAAgD8AAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/"
    "AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAABAAIAAwAEAAUAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAA"
    "AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAAAIA/"
    "AAAAAAAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAACAPwAAgD8AAAAAAAAAAAAAAAAAAAAA"
    "AACAPwAAAAAAAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAAAAAAAAgD8=");

/* assimp's join compares a vertex's own attributes only: a vertex that
 * differs from its twin in its weights or morph deltas keeps its own. */
static void test_join_keeps_distinct_vertices(void)
{
    const struct {
        const char *gltf;
        size_t vertices, unjoined;
    } files[3] = {{join_weights_gltf, 6, 1}, {join_morph_gltf, 6, 1}, {join_unweighted_joint_gltf, 4, 0}};
    for (int i = 0; i < 3; ++i) {
        skin_asset *a = NULL;
        CHECK_STATUS((skin_status)load_text(files[i].gltf, &a), SKIN_OK);
        if (!a) continue;
        const skin_mesh_desc *d = &a->meshes[0].desc;
        CHECK_INT(d->vertex_count, files[i].vertices);
        CHECK_INT(a->report.unjoined_vertices, files[i].unjoined);
        if (i == 0) {
            const uint16_t *j = d->joints[0];
            CHECK(j[2] == 0 && j[4] == 1);
        } else if (i == 1) {
            CHECK_INT(d->morph_target_count, 1);
            const skin_morph_target *t = &d->morph_targets[0];
            CHECK(t->indices && t->count == 1 && t->indices[0] == 4 && t->dpz && t->dpz[0] == 1.0f);
        }
        skin_asset_free(a);
    }
}

/* A mesh whose file has no normals gets smooth ones (glTF's simple_skin). */
static void test_generated_normals(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/glTF2/simple_skin/simple_skin.gltf", dir);
    skin_asset *a = NULL;
    CHECK_STATUS((skin_status)skin_asset_load(path, NULL, &a), SKIN_OK);
    if (!a) return;
    const skin_mesh_desc *d = &a->meshes[0].desc;
    CHECK(d->nx && d->ny && d->nz);
    for (size_t v = 0; d->nx && v < d->vertex_count; ++v)
        CHECK(fabs(sqrt(d->nx[v] * d->nx[v] + d->ny[v] * d->ny[v] + d->nz[v] * d->nz[v]) - 1.0) < 1e-5);
    skin_asset_free(a);
}

/* Target j's weight at key k, straight from assimp (0 if the key does not list it). */
static double key_weight(const struct aiMeshMorphKey *k, unsigned j)
{
    double w = 0;
    for (unsigned p = 0; p < k->mNumValuesAndWeights; ++p)
        if (k->mValues[p] == j) w = k->mWeights[p];
    return w;
}

/* The sampled weights of asset mesh `mesh` against the keys of animation
 * `anim`'s morph channel (its only one, named after the mesh's node): at
 * each key, halfway between keys (linear), before the start and after the
 * end (clamped), and at a key again after the end (the search goes back). */
static void check_morph_keys(const skin_asset *a, const struct aiScene *scene, uint32_t mesh, uint32_t anim)
{
    const struct aiAnimation *an = scene->mAnimations[anim];
    CHECK_INT(an->mNumMorphMeshChannels, 1);
    if (an->mNumMorphMeshChannels != 1) return;
    const struct aiMeshMorphAnim *mc = an->mMorphMeshChannels[0];
    CHECK(strcmp(mc->mName.data, a->node_names[a->meshes[mesh].node]) == 0);
    const double tps = an->mTicksPerSecond > 0 ? an->mTicksPerSecond : 25.0;
    const uint32_t n = a->meshes[mesh].desc.morph_target_count;
    skin_asset_cursor *cur = NULL;
    CHECK_INT(skin_asset_cursor_create(a, anim, &cur), SKIN_ASSET_OK);
    float *w = malloc((n + 1) * sizeof *w);
    if (!cur || !w || mc->mNumKeys == 0) {
        free(w), skin_asset_cursor_free(cur);
        return;
    }
    const unsigned last = mc->mNumKeys - 1;
    int checked = 0;
    for (unsigned k = 0; k <= last; ++k) {
        const struct aiMeshMorphKey *ka = &mc->mKeys[k], *kb = &mc->mKeys[k < last ? k + 1 : k];
        CHECK_INT(skin_asset_sample_morph_weights(cur, mesh, ka->mTime / tps, w), SKIN_ASSET_OK);
        for (uint32_t j = 0; j < n; ++j) CHECK_CLOSE_AT(w[j], key_weight(ka, j), 1e-6, "key %u target %u", k, j);
        CHECK_INT(skin_asset_sample_morph_weights(cur, mesh, 0.5 * (ka->mTime + kb->mTime) / tps, w), SKIN_ASSET_OK);
        for (uint32_t j = 0; j < n; ++j)
            CHECK_CLOSE_AT(w[j], 0.5 * (key_weight(ka, j) + key_weight(kb, j)), 1e-6, "after key %u target %u", k, j);
        checked += 2;
    }
    CHECK_INT(skin_asset_sample_morph_weights(cur, mesh, -1.0, w), SKIN_ASSET_OK);
    for (uint32_t j = 0; j < n; ++j) CHECK_CLOSE(w[j], key_weight(&mc->mKeys[0], j), 1e-6);
    CHECK_INT(skin_asset_sample_morph_weights(cur, mesh, an->mDuration / tps + 1.0, w), SKIN_ASSET_OK);
    for (uint32_t j = 0; j < n; ++j) CHECK_CLOSE(w[j], key_weight(&mc->mKeys[last], j), 1e-6);
    const struct aiMeshMorphKey *k1 = &mc->mKeys[last / 2];
    CHECK_INT(skin_asset_sample_morph_weights(cur, mesh, k1->mTime / tps, w), SKIN_ASSET_OK);
    for (uint32_t j = 0; j < n; ++j) CHECK_CLOSE(w[j], key_weight(k1, j), 1e-6);
    printf("  morph weights of mesh %u at %d times of %u keys, before and after them match the keys\n", mesh,
           checked, mc->mNumKeys);
    free(w);
    skin_asset_cursor_free(cur);
}

/* Morph of vertex v's group g (0 positions, 1 normals, 2 tangents) in
 * double from assimp: base + sum_k w_k (target_k - base), over the
 * targets that have the group. */
static void double_morph(const struct aiMesh *m, int g, size_t v, const float *w, double out[3])
{
    const struct aiVector3D *base = g == 0 ? m->mVertices : g == 1 ? m->mNormals : m->mTangents;
    out[0] = base[v].x, out[1] = base[v].y, out[2] = base[v].z;
    for (unsigned k = 0; k < m->mNumAnimMeshes; ++k) {
        const struct aiAnimMesh *t = m->mAnimMeshes[k];
        const struct aiVector3D *tv = g == 0 ? t->mVertices : g == 1 ? t->mNormals : t->mTangents;
        if (!tv || t->mNumVertices != m->mNumVertices) continue;
        out[0] += w[k] * ((double)tv[v].x - base[v].x);
        out[1] += w[k] * ((double)tv[v].y - base[v].y);
        out[2] += w[k] * ((double)tv[v].z - base[v].z);
    }
}

/* LBS in double of morphed attributes (3 doubles a vertex each; normals
 * and tangents may be NULL) with assimp's bones and offsets, the loader's
 * TRS and hierarchy; a rigid mesh has one bone, its node.  Normals and
 * tangents by the blended 3x3, like the kernels without normal matrices. */
static void double_lbs_all(const skin_asset *a, const skin_asset_mesh *am, const struct aiMesh *m, const float *tr,
                           const float *rot, const float *sc, const double *in[3], double *out[3])
{
    const size_t n = m->mNumVertices;
    double *model = malloc(12 * sizeof(double) * a->node_count), local[12];
    for (uint32_t i = 0; i < a->node_count; ++i) {
        dtrs(tr + 3 * i, rot + 4 * i, sc + 3 * i, local);
        if (a->parents[i] < 0) memcpy(model + 12 * i, local, sizeof local);
        else dmul(model + 12 * (size_t)a->parents[i], local, model + 12 * i);
    }
    double inv_mesh[12];
    dinv(model + 12 * (size_t)am->node, inv_mesh);
    double *sum = calloc(n + 1, sizeof(double));
    for (int at = 0; at < 3; ++at)
        if (out[at]) memset(out[at], 0, 3 * sizeof(double) * n);
    const unsigned bones = am->rigid ? 1 : m->mNumBones;
    for (unsigned b = 0; b < bones; ++b) {
        double s[12], g[12], off[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
        int32_t node = (int32_t)am->node;
        if (!am->rigid) {
            const struct aiMatrix4x4 *o = &m->mBones[b]->mOffsetMatrix;
            const double ob[12] = {o->a1, o->a2, o->a3, o->a4, o->b1, o->b2, o->b3, o->b4, o->c1, o->c2, o->c3, o->c4};
            memcpy(off, ob, sizeof off);
            node = -1;
            for (uint32_t i = 0; i < a->node_count; ++i)
                if (strcmp(a->node_names[i], m->mBones[b]->mName.data) == 0) node = (int32_t)i;
        }
        CHECK(node >= 0);
        if (node < 0) continue;
        dmul(model + 12 * (size_t)node, off, g);
        if (am->offset_space == SKIN_ASSET_OFFSET_MESH_NODE) dmul(inv_mesh, g, s);
        else memcpy(s, g, sizeof s);
        const unsigned count = am->rigid ? (unsigned)n : m->mBones[b]->mNumWeights;
        for (unsigned k = 0; k < count; ++k) {
            const unsigned v = am->rigid ? k : m->mBones[b]->mWeights[k].mVertexId;
            const double w = am->rigid ? 1.0 : m->mBones[b]->mWeights[k].mWeight;
            for (int at = 0; at < 3; ++at) {
                if (!out[at]) continue;
                const double *p = in[at] + 3 * v;
                for (int i = 0; i < 3; ++i)
                    out[at][3 * v + i] += w * (s[4 * i] * p[0] + s[4 * i + 1] * p[1] + s[4 * i + 2] * p[2] +
                                               (at == 0 ? s[4 * i + 3] : 0.0));
            }
            sum[v] += w;
        }
    }
    for (size_t v = 0; v < n; ++v)
        for (int at = 0; at < 3; ++at)
            for (int i = 0; out[at] && i < 3; ++i) out[at][3 * v + i] = sum[v] > 0 ? out[at][3 * v + i] / sum[v] : 0;
    free(sum), free(model);
}

/* Differences of got against want, vectors of vertex v: positions relative
 * to extent, normals and tangents to max(1, |want|). */
static void compare_soa(const char *what, const skin_mesh_desc *d, float **got, float **want, const double *ref[3],
                        double extent)
{
    static const int first[3] = {0, 3, 6};
    for (size_t v = 0; v < d->vertex_count; ++v)
        for (int at = 0; at < 3; ++at) {
            if ((at == 1 && !d->nx) || (at == 2 && !d->tx)) continue;
            double mag = at == 0 ? extent : 1.0;
            for (int c = 0; c < 3 && at; ++c) mag = fmax(mag, fabs(want ? want[first[at] + c][v] : ref[at][3 * v + c]));
            for (int c = 0; c < 3; ++c) {
                const double e = want ? want[first[at] + c][v] : ref[at][3 * v + c];
                if (!check_close(got[first[at] + c][v] / mag, e / mag, 1e-5, __FILE__, __LINE__, "skinned"))
                    fprintf(stderr, "  (%s, vertex %zu, attribute %d.%d)\n", what, v, at, c);
            }
            if (at == 2 && want) CHECK(got[9][v] == want[9][v]);
        }
}

/* Every mesh of the asset at 5 times of animation anim, on every ISA:
 * skin_mesh with the sampled morph weights against morph-then-skin. */
static void check_morph_two_pass(const skin_asset *a, const struct aiScene *scene, uint32_t anim, const char *what)
{
    const uint32_t nc = a->node_count;
    float *tr = malloc(3 * sizeof(float) * nc), *rot = malloc(4 * sizeof(float) * nc);
    float *sc = malloc(3 * sizeof(float) * nc), *model = malloc(12 * sizeof(float) * nc);
    skin_asset_cursor *cur = NULL;
    CHECK_INT(skin_asset_cursor_create(a, anim, &cur), SKIN_ASSET_OK);
    for (uint32_t mi = 0; cur && mi < a->mesh_count; ++mi) {
        const skin_asset_mesh *am = &a->meshes[mi];
        const struct aiMesh *m = scene_mesh(scene, mi);
        const size_t n = am->desc.vertex_count;
        const uint32_t nt = am->desc.morph_target_count;
        CHECK_INT(m->mNumVertices, n);
        float *mats = malloc(12 * sizeof(float) * am->bone_count), *dqs = malloc(8 * sizeof(float) * am->bone_count);
        float *scl = malloc(3 * sizeof(float) * am->bone_count), *w = malloc((nt + 1) * sizeof(float));
        const skin_palette plain = {am->bone_count, mats, NULL, dqs, scl, NULL};
        const skin_palette morphed = {am->bone_count, mats, NULL, dqs, scl, w};
        float *got[10], *want[10], *streams[10];
        double *in[3], *ref[3];
        for (int c = 0; c < 10; ++c)
            got[c] = calloc(n + 1, sizeof(float)), want[c] = calloc(n + 1, sizeof(float)), streams[c] = calloc(n + 1, sizeof(float));
        for (int at = 0; at < 3; ++at) in[at] = calloc(3 * n + 1, sizeof(double)), ref[at] = calloc(3 * n + 1, sizeof(double));
        /* the two-pass input: the mesh with morphed streams, no targets */
        skin_mesh_desc flat = am->desc;
        flat.morph_target_count = 0, flat.morph_targets = NULL;
        flat.px = streams[0], flat.py = streams[1], flat.pz = streams[2];
        if (flat.nx) flat.nx = streams[3], flat.ny = streams[4], flat.nz = streams[5];
        if (flat.tx) flat.tx = streams[6], flat.ty = streams[7], flat.tz = streams[8], flat.tw = am->desc.tw;
        const int normals = flat.nx != NULL, tangents = flat.tx != NULL;
        const skin_output og = soa_output(got, normals, tangents), ow = soa_output(want, normals, tangents);
        const double fractions[5] = {0.0, 0.2, 0.45, 0.7, 1.0};
        int nonzero_times = 0;
        for (int k = 0; k < 5; ++k) {
            const double t = a->animation_durations[anim] * fractions[k];
            CHECK_INT(skin_asset_sample(cur, t, tr, rot, sc), SKIN_ASSET_OK);
            CHECK_INT(skin_asset_sample_morph_weights(cur, mi, t, w), SKIN_ASSET_OK);
            CHECK_STATUS(skin_pose_to_matrices(nc, a->parents, tr, rot, sc, model), SKIN_OK);
            CHECK_INT(skin_asset_palette(a, mi, model, mats), SKIN_ASSET_OK);
            CHECK_STATUS(skin_matrices_to_dual_quats(am->bone_count, mats, dqs, scl, NULL), SKIN_OK);
            int any = 0;
            for (uint32_t j = 0; j < nt; ++j) any |= w[j] != 0.0f;
            nonzero_times += any;
            for (size_t v = 0; v < n; ++v)
                for (int g = 0; g < 3; ++g) {
                    if ((g == 1 && !normals) || (g == 2 && !tangents)) continue;
                    double *o = in[g] + 3 * v;
                    double_morph(m, g, v, w, o);
                    for (int c = 0; c < 3; ++c) streams[3 * g + c][v] = (float)o[c];
                }
            const double *cin[3] = {in[0], in[1], in[2]};
            double *outs[3] = {ref[0], normals ? ref[1] : NULL, tangents ? ref[2] : NULL};
            double_lbs_all(a, am, m, tr, rot, sc, cin, outs);
            double extent = 1e-6;
            for (size_t v = 0; v < 3 * n; ++v) extent = fmax(extent, fabs(ref[0][v]));
            const double *cref[3] = {ref[0], ref[1], ref[2]};
            for (int isa = SKIN_ISA_SCALAR; isa <= SKIN_ISA_SIMD128; ++isa) {
                if (!skin_isa_supported((skin_isa)isa)) continue;
                CHECK_STATUS(skin_set_isa((skin_isa)isa), SKIN_OK);
                for (int method = SKIN_LBS; method <= SKIN_DQS; ++method) {
                    char label[160];
                    snprintf(label, sizeof label, "%s mesh %u t=%.3f %s %s", what, mi, t, skin_isa_name((skin_isa)isa),
                             method == SKIN_LBS ? "lbs" : "dqs");
                    CHECK_STATUS(skin_mesh(&am->desc, &morphed, (skin_method)method, &og, 0, n), SKIN_OK);
                    CHECK_STATUS(skin_mesh(&flat, &plain, (skin_method)method, &ow, 0, n), SKIN_OK);
                    compare_soa(label, &am->desc, got, want, NULL, extent);
                    if (method == SKIN_LBS) compare_soa(label, &am->desc, got, NULL, cref, extent);
                }
            }
            CHECK_STATUS(skin_set_isa(SKIN_ISA_AUTO), SKIN_OK);
        }
        CHECK(nt == 0 || nonzero_times >= 2); /* the morph is exercised */
        char line[200];
        snprintf(line, sizeof line, "  %s mesh %u: fused morph+skin vs two-pass, every ISA", what, mi);
        check_error_report(line);
        for (int c = 0; c < 10; ++c) free(got[c]), free(want[c]), free(streams[c]);
        for (int at = 0; at < 3; ++at) free(in[at]), free(ref[at]);
        free(mats), free(dqs), free(scl), free(w);
    }
    skin_asset_cursor_free(cur);
    free(tr), free(rot), free(sc), free(model);
}

/* Each target's touched vertices straight from assimp (any position,
 * normal or tangent the target changes, where the loader keeps that
 * attribute): the loader stores the target sparse iff they are under half
 * the vertices, with exactly those indices.  Returns the sparse count. */
static uint32_t check_sparse_choice(const skin_asset_mesh *am, const struct aiMesh *m)
{
    const size_t n = m->mNumVertices;
    uint32_t sparse_targets = 0;
    for (uint32_t k = 0; k < am->desc.morph_target_count; ++k) {
        const struct aiAnimMesh *t = m->mAnimMeshes[k];
        const skin_morph_target *mt = &am->desc.morph_targets[k];
        size_t touched = 0, e = 0;
        int in_order = 1;
        for (size_t v = 0; v < n; ++v) {
            int any = t->mVertices && memcmp(&t->mVertices[v], &m->mVertices[v], sizeof(struct aiVector3D)) != 0;
            if (am->desc.nx && t->mNormals) any |= memcmp(&t->mNormals[v], &m->mNormals[v], sizeof(struct aiVector3D)) != 0;
            if (am->desc.tx && t->mTangents) any |= memcmp(&t->mTangents[v], &m->mTangents[v], sizeof(struct aiVector3D)) != 0;
            if (!any) continue;
            ++touched;
            if (mt->indices) in_order &= e < mt->count && mt->indices[e++] == v;
        }
        const int sparse = 2 * touched < n;
        printf("  target %u '%s': %zu of %zu vertices touched: %s%s%s%s\n", k, am->morph_target_names[k], touched, n,
               mt->indices ? "sparse" : "dense", mt->dpx ? ", positions" : "", mt->dnx ? ", normals" : "",
               mt->dtx ? ", tangents" : "");
        CHECK_INT(mt->indices != NULL, sparse);
        if (mt->indices) CHECK(in_order && mt->count == touched);
        sparse_targets += (uint32_t)sparse;
    }
    return sparse_targets;
}

/* (a) AnimatedMorphCube: no bones (one rigid bone, its node), 2 targets
 * (target 0 moves 12 of 24 vertices: dense; target 1 moves 6 and turns
 * normals, 8 vertices in all: sparse), keys, and the two-pass comparison. */
static void test_morph_cube(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf", dir);
    skin_asset *a = NULL;
    CHECK_INT(skin_asset_load(path, NULL, &a), SKIN_ASSET_OK);
    const struct aiScene *scene = aiImportFile(path, ASSET_FLAGS);
    CHECK(scene != NULL);
    if (!a || !scene) {
        skin_asset_free(a), aiReleaseImport(scene);
        return;
    }
    printf("AnimatedMorphCube: %u meshes, %u nodes, %u animations\n", a->mesh_count, a->node_count, a->animation_count);
    CHECK_INT(a->mesh_count, 1);
    CHECK_INT(a->animation_count, 1);
    const skin_asset_mesh *am = &a->meshes[0];
    CHECK(am->rigid);
    CHECK_INT(am->bone_count, 1);
    CHECK_INT(am->bone_nodes[0], am->node);
    CHECK_INT(am->offset_space, SKIN_ASSET_OFFSET_MODEL);
    CHECK(strcmp(a->node_names[am->node], "AnimatedMorphCube") == 0);
    CHECK_INT(am->desc.vertex_count, 24);
    CHECK_INT(am->desc.influence_count, 1);
    CHECK(am->desc.nx != NULL && am->desc.tx != NULL);
    CHECK_INT(am->desc.morph_target_count, 2);
    CHECK_INT(a->report.unweighted_vertices, 0);
    skin_validation_report rep;
    CHECK_STATUS(skin_validate(&am->desc, am->bone_count, &rep), SKIN_OK);
    for (uint32_t k = 0; k < am->desc.morph_target_count; ++k) {
        CHECK(am->morph_target_names[k] != NULL && am->morph_target_names[k][0] == 0); /* no targetNames */
        CHECK(am->morph_default_weights[k] == 0.0f); /* the mesh's weights: 0 0 */
    }
    const struct aiMesh *m = scene_mesh(scene, 0);
    if (am->desc.morph_target_count == 2) {
        CHECK_INT(check_sparse_choice(am, m), 1);
        CHECK(am->desc.morph_targets[0].indices == NULL);
        CHECK(am->desc.morph_targets[1].indices != NULL && am->desc.morph_targets[1].count == 8);
    }
    check_morph_keys(a, scene, 0, 0);
    check_morph_two_pass(a, scene, 0, "AnimatedMorphCube");
    aiReleaseImport(scene);
    skin_asset_free(a);
    check_error_report("AnimatedMorphCube");
}

/* (b, c) A strip of 8 vertices (4 x 2, z = 0, normals +z, tangents +x) on
 * 2 joints (j1 at x = 1.5 bends about z in animation "bend"); target
 * "bump" moves vertex 5 by (0, 0, 0.5), its normal by (0.25, 0, -0.125)
 * and its tangent by (0, 0.25, 0); target
 * "wave" moves vertex v by (0, v/8, 0.25).  Mesh weights 0.25 0.5; "bend"
 * keys the weights (0 1) (1 0.5) (0.25 0.75) at 0, 1, 2 s; animation
 * "still" has no weight channel.  Generated by a script from these
 * numbers (base64 buffer). */
static const char strip_gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,1]}],\"nodes\":[{\"name\":\"s"
    "trip_node\",\"mesh\":0,\"skin\":0},{\"name\":\"j0\",\"children\":[2]},{\"name\":\"j1\",\"translation"
    "\":[1.5,0,0]}],\"meshes\":[{\"name\":\"strip\",\"primitives\":[{\"attributes\":{\"POSITION\":1,\"NOR"
    "MAL\":2,\"TANGENT\":8,\"JOINTS_0\":3,\"WEIGHTS_0\":4},\"indices\":0,\"targets\":[{\"POSITION\":6,\"N"
    "ORMAL\":7,\"TANGENT\":9},{\"POSITION\":10}]}],\"weights\":[0.25,0.5],\"extras\":{\"targetNames\":[\""
    "bump\",\"wave\"]}}],\"skins\":[{\"inverseBindMatrices\":5,\"joints\":[1,2]}],\"animations\":[{\"name"
    "\":\"bend\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"rotation\"}},{\"sampler\""
    ":1,\"target\":{\"node\":0,\"path\":\"weights\"}}],\"samplers\":[{\"input\":11,\"output\":12,\"interp"
    "olation\":\"LINEAR\"},{\"input\":11,\"output\":13,\"interpolation\":\"LINEAR\"}]},{\"name\":\"still"
    "\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"rotation\"}}],\"samplers\":[{\"inpu"
    "t\":11,\"output\":12,\"interpolation\":\"LINEAR\"}]}],\"buffers\":[{\"byteLength\":1112,\"uri\":\"da"
    "ta:application/octet-stream;base64,AAABAAUAAAAFAAQAAQACAAYAAQAGAAUAAgADAAcAAgAHAAYAAAAAAAAAAAAAAAAAA"
    "ACAPwAAAAAAAAAAAAAAQAAAAAAAAAAAAABAQAAAAAAAAAAAAAAAAAAAgD8AAAAAAACAPwAAgD8AAAAAAAAAQAAAgD8AAAAAAABAQ"
    "AAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAAAAAAAA"
    "AAAAIA/AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAEAAAABAAAAAQAAAAEAAAABAAAAAQAAAAEAAAABAAAAAIA/AAAAAAAAAAAAA"
    "AAAAABAPwAAgD4AAAAAAAAAAAAAgD4AAEA/AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAQD8AAIA+A"
    "AAAAAAAAAAAAIA+AABAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAA"
    "AAAAAAAAIA/AAAAAAAAAAAAAAAAAAAAAAAAgD8AAIA/AAAAAAAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAACAPwAAA"
    "AAAAMC/AAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAA/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACAPgAAAAAAAAC+AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAACAP"
    "wAAgD8AAAAAAAAAAAAAgD8AAIA/AAAAAAAAAAAAAIA/AACAPwAAAAAAAAAAAACAPwAAgD8AAAAAAAAAAAAAgD8AAIA/AAAAAAAAA"
    "AAAAIA/AACAPwAAAAAAAAAAAACAPwAAgD8AAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACAPgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgD4AAAAAA"
    "AAAPgAAgD4AAAAAAACAPgAAgD4AAAAAAADAPgAAgD4AAAAAAAAAPwAAgD4AAAAAAAAgPwAAgD4AAAAAAABAPwAAgD4AAAAAAABgP"
    "wAAgD4AAAAAAACAPwAAAEAAAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAV78M+XoNsPwAAAAAAAAAA8wQ1P/MENT8AAAAAAACAPwAAg"
    "D8AAAA/AACAPgAAQD8=\"}],\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36},{\"buffer"
    "\":0,\"byteOffset\":36,\"byteLength\":96},{\"buffer\":0,\"byteOffset\":132,\"byteLength\":96},{\"buf"
    "fer\":0,\"byteOffset\":228,\"byteLength\":32},{\"buffer\":0,\"byteOffset\":260,\"byteLength\":128},{"
    "\"buffer\":0,\"byteOffset\":388,\"byteLength\":128},{\"buffer\":0,\"byteOffset\":516,\"byteLength\":"
    "96},{\"buffer\":0,\"byteOffset\":612,\"byteLength\":96},{\"buffer\":0,\"byteOffset\":708,\"byteLengt"
    "h\":128},{\"buffer\":0,\"byteOffset\":836,\"byteLength\":96},{\"buffer\":0,\"byteOffset\":932,\"byte"
    "Length\":96},{\"buffer\":0,\"byteOffset\":1028,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":1040,"
    "\"byteLength\":48},{\"buffer\":0,\"byteOffset\":1088,\"byteLength\":24}],\"accessors\":[{\"bufferVie"
    "w\":0,\"componentType\":5123,\"count\":18,\"type\":\"SCALAR\"},{\"bufferView\":1,\"componentType\":5"
    "126,\"count\":8,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[3,1,0]},{\"bufferView\":2,\"componentType"
    "\":5126,\"count\":8,\"type\":\"VEC3\"},{\"bufferView\":3,\"componentType\":5121,\"count\":8,\"type\""
    ":\"VEC4\"},{\"bufferView\":4,\"componentType\":5126,\"count\":8,\"type\":\"VEC4\"},{\"bufferView\":5"
    ",\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"},{\"bufferView\":6,\"componentType\":5126,\"co"
    "unt\":8,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[0,0,0.5]},{\"bufferView\":7,\"componentType\":512"
    "6,\"count\":8,\"type\":\"VEC3\"},{\"bufferView\":8,\"componentType\":5126,\"count\":8,\"type\":\"VEC"
    "4\"},{\"bufferView\":9,\"componentType\":5126,\"count\":8,\"type\":\"VEC3\"},{\"bufferView\":10,\"co"
    "mponentType\":5126,\"count\":8,\"type\":\"VEC3\",\"min\":[0,0,0.25],\"max\":[0,0.875,0.25]},{\"buffe"
    "rView\":11,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\",\"min\":[0],\"max\":[2]},{\"buffer"
    "View\":12,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},{\"bufferView\":13,\"componentType\""
    ":5126,\"count\":6,\"type\":\"SCALAR\"}]}";

static void test_morph_strip(void)
{
    char path[64];
    if (!write_temp(strip_gltf, path)) return;
    skin_asset *a = NULL;
    CHECK_INT(skin_asset_load(path, NULL, &a), SKIN_ASSET_OK);
    const struct aiScene *scene = aiImportFile(path, ASSET_FLAGS);
    unlink(path);
    CHECK(scene != NULL);
    if (!a || !scene) {
        skin_asset_free(a), aiReleaseImport(scene);
        return;
    }
    CHECK_INT(a->mesh_count, 1);
    CHECK_INT(a->animation_count, 2);
    const skin_asset_mesh *am = &a->meshes[0];
    const skin_mesh_desc *d = &am->desc;
    CHECK(!am->rigid);
    CHECK_INT(am->bone_count, 2);
    CHECK_INT(d->vertex_count, 8);
    CHECK_INT(d->morph_target_count, 2);
    CHECK_STATUS(skin_validate(d, am->bone_count, NULL), SKIN_OK);
    if (d->morph_target_count != 2 || d->vertex_count != 8) {
        skin_asset_free(a), aiReleaseImport(scene);
        return;
    }
    CHECK(strcmp(am->morph_target_names[0], "bump") == 0 && strcmp(am->morph_target_names[1], "wave") == 0);
    CHECK(am->morph_default_weights[0] == 0.25f && am->morph_default_weights[1] == 0.5f);
    CHECK_INT(check_sparse_choice(am, scene_mesh(scene, 0)), 1);
    const skin_morph_target *bump = &d->morph_targets[0], *wave = &d->morph_targets[1];
    CHECK(d->px[5] == 1.0f && d->py[5] == 1.0f && d->pz[5] == 0.0f); /* vertex order kept */
    CHECK(bump->indices && bump->count == 1 && bump->indices[0] == 5);
    CHECK(bump->dpx && bump->dpx[0] == 0.0f && bump->dpy[0] == 0.0f && bump->dpz[0] == 0.5f);
    CHECK(bump->dnx && bump->dnx[0] == 0.25f && bump->dny[0] == 0.0f && bump->dnz[0] == -0.125f);
    CHECK(bump->dtx && bump->dtx[0] == 0.0f && bump->dty[0] == 0.25f && bump->dtz[0] == 0.0f);
    CHECK(d->tx != NULL);
    CHECK(wave->indices == NULL && wave->dpx && wave->dnx == NULL && wave->dtx == NULL);
    for (size_t v = 0; wave->dpx && v < 8; ++v)
        CHECK(wave->dpx[v] == 0.0f && wave->dpy[v] == 0.125f * (float)v && wave->dpz[v] == 0.25f);
    check_morph_keys(a, scene, 0, 0);
    /* "still" has no weight channel: the defaults */
    skin_asset_cursor *cur = NULL;
    float w[2] = {-1, -1};
    CHECK_INT(skin_asset_cursor_create(a, 1, &cur), SKIN_ASSET_OK);
    CHECK_INT(skin_asset_sample_morph_weights(cur, 0, 0.5, w), SKIN_ASSET_OK);
    CHECK(w[0] == 0.25f && w[1] == 0.5f);
    CHECK_INT(skin_asset_sample_morph_weights(cur, 1, 0.5, w), SKIN_ASSET_ERROR_INVALID_ARGUMENT);
    CHECK_INT(skin_asset_sample_morph_weights(cur, 0, 0.5, NULL), SKIN_ASSET_ERROR_NULL_ARGUMENT);
    CHECK_INT(skin_asset_sample_morph_weights(NULL, 0, 0.5, w), SKIN_ASSET_ERROR_NULL_ARGUMENT);
    skin_asset_cursor_free(cur);
    check_morph_two_pass(a, scene, 0, "strip");
    aiReleaseImport(scene);
    skin_asset_free(a);
    check_error_report("strip (skinned, sparse and dense targets)");
}

int main(int argc, char **argv)
{
    const char *want = getenv("SKIN_ISA");
    skin_isa isa = skin_get_isa();
    if (want && strcmp(want, skin_isa_name(isa)) != 0) {
        printf("skipped: this CPU or build cannot run ISA %s\n", want);
        return 77;
    }
    if (argc == 3 && strcmp(argv[2], "--morph") == 0) { /* every ISA, within */
        test_morph_cube(argv[1]);
        test_morph_strip();
        return check_finish("test_assets --morph");
    }
    if (argc != 2) return fprintf(stderr, "usage: test_assets MODELS_DIR [--morph]\n"), 2;
    printf("kernels under test: %s\n", skin_isa_name(isa));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) test_model(argv[1], &cases[i], isa);
    test_bad_input(argv[1]);
    test_unweighted_vertex();
    test_gltf_offset_space();
    test_join_keeps_distinct_vertices();
    test_generated_normals(argv[1]);
    return check_finish("test_assets");
}
