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
 * Usage: test_assets MODELS_DIR  */
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

static void test_model(const char *dir, const model_case *mc, skin_isa isa)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, mc->path);
    skin_asset *a = NULL;
    CHECK_STATUS((skin_status)skin_asset_load(path, NULL, &a), SKIN_OK);
    if (!a) return;
    const struct aiScene *scene = aiImportFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                                         aiProcess_CalcTangentSpace);
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
    uint32_t ai_mesh = 0;
    for (uint32_t mi = 0; mi < a->mesh_count; ++mi) {
        const skin_asset_mesh *am = &a->meshes[mi];
        while (ai_mesh < scene->mNumMeshes && !scene->mMeshes[ai_mesh]->mNumBones) ++ai_mesh;
        const struct aiMesh *m = scene->mMeshes[ai_mesh++];
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
    snprintf(path, sizeof path, "%s/X/Testwuson.X", dir);
    skin_asset_options opt = {SKIN_ASSET_OFFSET_AUTO, 36}; /* Testwuson has 37 bones */
    CHECK_INT(skin_asset_load(path, &opt, &a), SKIN_ASSET_ERROR_TOO_MANY_JOINTS);
    opt.max_joints = 70000;
    CHECK_INT(skin_asset_load(path, &opt, &a), SKIN_ASSET_ERROR_INVALID_ARGUMENT);
    opt = (skin_asset_options){(skin_asset_offset_space)7, 0};
    CHECK_INT(skin_asset_load(path, &opt, &a), SKIN_ASSET_ERROR_INVALID_ARGUMENT);
    opt = (skin_asset_options){SKIN_ASSET_OFFSET_MODEL, 37};
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
    float f[12];
    CHECK_INT(skin_asset_palette(a, 1, f, f), SKIN_ASSET_ERROR_INVALID_ARGUMENT);
    CHECK_INT(skin_asset_palette(a, 0, NULL, f), SKIN_ASSET_ERROR_NULL_ARGUMENT);
    CHECK_INT(skin_asset_sample(NULL, 0, f, f, f), SKIN_ASSET_ERROR_NULL_ARGUMENT);
    CHECK_INT(skin_asset_rest_pose(a, NULL, f, f), SKIN_ASSET_ERROR_NULL_ARGUMENT);
    CHECK(strcmp(skin_asset_status_string(SKIN_ASSET_ERROR_TOO_MANY_JOINTS), "unknown status") != 0);
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
    char path[] = "/tmp/skin-test-unweighted-XXXXXX.gltf";
    const int fd = mkstemps(path, 5);
    CHECK(fd >= 0);
    if (fd < 0) return;
    CHECK(write(fd, gltf, sizeof gltf - 1) == (ssize_t)(sizeof gltf - 1));
    close(fd);
    skin_asset *a = NULL;
    CHECK_INT(skin_asset_load(path, NULL, &a), SKIN_ASSET_OK);
    unlink(path);
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

int main(int argc, char **argv)
{
    const char *want = getenv("SKIN_ISA");
    skin_isa isa = skin_get_isa();
    if (want && strcmp(want, skin_isa_name(isa)) != 0) {
        printf("skipped: this CPU or build cannot run ISA %s\n", want);
        return 77;
    }
    if (argc != 2) return fprintf(stderr, "usage: test_assets MODELS_DIR\n"), 2;
    printf("kernels under test: %s\n", skin_isa_name(isa));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) test_model(argv[1], &cases[i], isa);
    test_bad_input(argv[1]);
    test_unweighted_vertex();
    return check_finish("test_assets");
}
