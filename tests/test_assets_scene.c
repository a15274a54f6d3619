/* SPDX-License-Identifier: MIT */
/* The asset loader on scene data that none of the test models has, in a
 * scene built here and handed to the loader's scene entry point (compiled
 * in, as fuzz_assets does): a vertex with 9 influences (the 8 largest kept,
 * renormalised, reported), zero, negative and out-of-range bone weights
 * (skipped), line faces and faces past the vertices (dropped), rotation
 * keys on opposite hemispheres (sampled along the shortest arc), an
 * animation without a tick rate (25 a second), a morph target of another
 * vertex count (no deltas) and morph weight keys past float's range or
 * infinite (clamped to FLT_MAX, counted as 0), a raw weight sum of 45 and
 * a bone named like two nodes (defects: refused unless accepted). */
#include "../assets/skin_assets.c"

#include "check.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum { BONES = 9 };

static void set_name(struct aiString *s, const char *n) { s->length = (uint32_t)snprintf(s->data, sizeof s->data, "%s", n); }

static void set_identity(struct aiMatrix4x4 *m)
{
    memset(m, 0, sizeof *m);
    m->a1 = m->b2 = m->c3 = m->d4 = 1;
}

int main(void)
{
    /* nodes: root, the mesh's node, bones b0..b8, all children of root */
    struct aiNode root = {0}, holder = {0}, bone_nodes[BONES];
    struct aiNode *children[BONES + 1] = {&holder};
    memset(bone_nodes, 0, sizeof bone_nodes);
    set_name(&root.mName, "root"), set_identity(&root.mTransformation);
    set_name(&holder.mName, "holder"), set_identity(&holder.mTransformation), holder.mParent = &root;
    unsigned mesh_index = 0;
    holder.mNumMeshes = 1, holder.mMeshes = &mesh_index;
    char bn[BONES][8];
    for (int b = 0; b < BONES; ++b) {
        snprintf(bn[b], sizeof bn[b], "b%d", b);
        set_name(&bone_nodes[b].mName, bn[b]), set_identity(&bone_nodes[b].mTransformation);
        bone_nodes[b].mParent = &root;
        children[1 + b] = &bone_nodes[b];
    }
    root.mNumChildren = BONES + 1, root.mChildren = children;

    /* one triangle (and a line and a face past the vertices); vertex 0
     * weighted 1..9 by bones 0..8, the others by b0, which also gives
     * weights the loader skips */
    struct aiVector3D verts[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, moved[3] = {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}};
    unsigned tri[3] = {0, 1, 2}, line[2] = {0, 1}, past[3] = {0, 1, 7};
    struct aiFace faces[3] = {{2, line}, {3, tri}, {3, past}};
    struct aiVertexWeight weights[BONES][6];
    struct aiBone bones[BONES];
    struct aiBone *bone_list[BONES];
    memset(bones, 0, sizeof bones);
    for (int b = 0; b < BONES; ++b) {
        set_name(&bones[b].mName, bn[b]), set_identity(&bones[b].mOffsetMatrix);
        weights[b][0] = (struct aiVertexWeight){0, (float)(b + 1)};
        weights[b][1] = (struct aiVertexWeight){1, 1.0f}, weights[b][2] = (struct aiVertexWeight){2, 1.0f};
        weights[b][3] = (struct aiVertexWeight){1, 0.0f}, weights[b][4] = (struct aiVertexWeight){2, -1.0f};
        weights[b][5] = (struct aiVertexWeight){99, 0.5f};
        bones[b].mWeights = weights[b], bones[b].mNumWeights = b == 0 ? 6 : 1;
        bone_list[b] = &bones[b];
    }
    struct aiAnimMesh target = {0}, short_target = {0};
    set_name(&target.mName, "up"), set_name(&short_target.mName, "short");
    target.mVertices = moved, target.mNumVertices = 3;
    short_target.mVertices = moved, short_target.mNumVertices = 2;
    struct aiAnimMesh *targets[2] = {&target, &short_target};
    struct aiMesh mesh = {0};
    set_name(&mesh.mName, "m");
    mesh.mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh.mNumVertices = 3, mesh.mVertices = verts, mesh.mNumFaces = 3, mesh.mFaces = faces;
    mesh.mNumBones = BONES, mesh.mBones = bone_list;
    mesh.mNumAnimMeshes = 2, mesh.mAnimMeshes = targets;
    struct aiMesh *meshes[1] = {&mesh};

    /* one second at one tick a second: b0 turns from the identity to -(a
     * quarter turn about z), the same rotation on the far hemisphere; the
     * morph weight goes from 1e39 to infinity */
    const double h = sqrt(0.5);
    struct aiQuatKey rot[2] = {{0.0, {1, 0, 0, 0}}, {1.0, {(float)-h, 0, 0, (float)-h}}}; /* (w, x, y, z) */
    struct aiNodeAnim channel = {0};
    set_name(&channel.mNodeName, "b0");
    channel.mNumRotationKeys = 2, channel.mRotationKeys = rot;
    struct aiNodeAnim *channels[1] = {&channel};
    unsigned which[1] = {0};
    double w0[1] = {1e39}, w1[1] = {INFINITY};
    struct aiMeshMorphKey keys[2] = {{0.0, which, w0, 1}, {1.0, which, w1, 1}};
    struct aiMeshMorphAnim morph = {0};
    set_name(&morph.mName, "m");
    morph.mNumKeys = 2, morph.mKeys = keys;
    struct aiMeshMorphAnim *morphs[1] = {&morph};
    struct aiAnimation anim = {0};
    set_name(&anim.mName, "turn");
    anim.mDuration = 1.0, anim.mTicksPerSecond = 1.0;
    anim.mNumChannels = 1, anim.mChannels = channels;
    anim.mNumMorphMeshChannels = 1, anim.mMorphMeshChannels = morphs;
    struct aiAnimation still = {0}; /* no tick rate: 25 a second */
    set_name(&still.mName, "still");
    still.mDuration = 50.0;
    struct aiAnimation *anims[2] = {&anim, &still};

    struct aiScene scene = {0};
    scene.mRootNode = &root;
    scene.mNumMeshes = 1, scene.mMeshes = meshes;
    scene.mNumAnimations = 2, scene.mAnimations = anims;

    /* Vertex 0's raw weights sum to 45: a defect, which fails the load
     * unless the options accept it. */
    skin_asset *a = (skin_asset *)&scene;
    skin_asset_options opt = {SKIN_ASSET_OFFSET_AUTO, 65536, 0}; /* (skin_asset_load turns 0 into 65536) */
    CHECK_INT(asset_from_scene(&scene, 0, "built", opt, &a), SKIN_ASSET_ERROR_DEFECT);
    CHECK(a == NULL);
    CHECK(strstr(skin_asset_error(), "1 vertices with weight sums outside [0.5, 2]") != NULL);
    /* The mesh's node named like bone b1: the bone's name is ambiguous
     * (bound to the first such node in parent-first order, the holder). */
    set_name(&holder.mName, "b1");
    opt.accept_defects = 1;
    CHECK_INT(asset_from_scene(&scene, 0, "built", opt, &a), SKIN_ASSET_OK);
    if (a) {
        CHECK_INT(a->report.ambiguous_names, 1);
        CHECK_INT(a->report.weight_sum_defects, 1);
        CHECK_INT(a->meshes[0].bone_nodes[1], 1);
        skin_asset_free(a);
    }
    set_name(&holder.mName, "holder");
    CHECK_INT(asset_from_scene(&scene, 0, "built", opt, &a), SKIN_ASSET_OK);
    if (!a) return check_finish("test_assets_scene");
    CHECK_INT(a->report.ambiguous_names, 0);
    CHECK_INT(a->report.weight_sum_defects, 1);

    /* 9 influences: the 8 largest kept, largest first, renormalised */
    CHECK_INT(a->report.truncated_vertices, 1);
    CHECK_INT(a->report.max_influences, BONES);
    const skin_mesh_desc *d = &a->meshes[0].desc;
    CHECK_INT(d->influence_count, SKIN_MAX_INFLUENCES);
    CHECK_INT(d->joint_format, SKIN_JOINT_U16);
    CHECK_INT(d->weight_format, SKIN_WEIGHT_F32);
    for (uint32_t i = 0; i < d->influence_count; ++i) {
        const uint16_t j = ((const uint16_t *)d->joints[i])[0];
        const float w = ((const float *)d->weights[i])[0];
        CHECK_INT(j, BONES - 1 - i); /* bone b weighs b + 1: b8 first, b0 dropped */
        CHECK_CLOSE(w, (float)(BONES - i) / 44.0f, 1e-6);
    }

    /* the other vertices: b0 alone, the skipped weights left out */
    for (int v = 1; v < 3; ++v) {
        CHECK_INT(((const uint16_t *)d->joints[0])[v], 0);
        CHECK(((const float *)d->weights[0])[v] == 1.0f);
        for (uint32_t i = 1; i < d->influence_count; ++i) CHECK(((const float *)d->weights[i])[v] == 0.0f);
    }
    CHECK_INT(a->report.unweighted_vertices, 0);
    CHECK_INT(a->meshes[0].index_count, 3); /* the triangle alone */
    CHECK_INT(a->meshes[0].indices[0], 0), CHECK_INT(a->meshes[0].indices[2], 2);
    CHECK_INT(a->animation_count, 2);
    CHECK(a->animation_durations[0] == 1.0 && a->animation_durations[1] == 2.0);
    /* target 0 moves vertex 0 up (sparse: one vertex of three); target 1,
     * of two vertices, has no deltas */
    CHECK_INT(d->morph_target_count, 2);
    if (d->morph_target_count == 2) {
        const skin_morph_target *t = d->morph_targets;
        CHECK(t[0].indices && t[0].count == 1 && t[0].indices[0] == 0 && t[0].dpz && t[0].dpz[0] == 1.0f);
        CHECK(!t[1].dpx && !t[1].dnx && !t[1].dtx);
    }

    /* halfway: the shortest arc, an eighth of a turn about z */
    uint32_t b0 = a->node_count;
    for (uint32_t n = 0; n < a->node_count; ++n)
        if (strcmp(a->node_names[n], "b0") == 0) b0 = n;
    CHECK(b0 < a->node_count);
    skin_asset_cursor *c = NULL;
    CHECK_INT(skin_asset_cursor_create(a, 0, &c), SKIN_ASSET_OK);
    float tr[3 * (BONES + 2)], ro[4 * (BONES + 2)], sc[3 * (BONES + 2)];
    CHECK(a->node_count <= BONES + 2);
    if (c && b0 < a->node_count && a->node_count <= BONES + 2) {
        CHECK_INT(skin_asset_sample(c, 0.5, tr, ro, sc), SKIN_ASSET_OK);
        const float *q = ro + 4 * b0; /* x y z w */
        CHECK_CLOSE(fabsf(q[2]), 0.38268343f, 1e-6);
        CHECK_CLOSE(fabsf(q[3]), 0.92387953f, 1e-6);
        CHECK(q[2] * q[3] > 0); /* about +z: the same rotation as the keys */

        /* morph weights: 1e39 and beyond clamped to FLT_MAX, infinity as 0 */
        float mw[2];
        CHECK_INT(skin_asset_sample_morph_weights(c, 0, 0.0, mw), SKIN_ASSET_OK);
        CHECK(mw[0] == FLT_MAX && mw[1] == 0.0f);
        CHECK_INT(skin_asset_sample_morph_weights(c, 0, 0.5, mw), SKIN_ASSET_OK);
        CHECK(mw[0] == FLT_MAX);
        CHECK_INT(skin_asset_sample_morph_weights(c, 0, 1.0, mw), SKIN_ASSET_OK);
        CHECK(mw[0] == 0.0f);
    }
    skin_asset_cursor_free(c);
    skin_asset_free(a);
    return check_finish("test_assets_scene");
}
