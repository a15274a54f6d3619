/* SPDX-License-Identifier: MIT */
/* Test and benchmark rigs: seeded random meshes and a twisted-cylinder
 * "candy wrapper", with their influence streams and palettes. */
#ifndef SKIN_TEST_RIG_H
#define SKIN_TEST_RIG_H

#include "skin/skin.h"

typedef struct rig {
    skin_mesh_desc mesh;    /* points into the arrays below */
    skin_palette palette;   /* matrices, dual_quats (and scales if asked) */
    float *streams[10];     /* px py pz nx ny nz tx ty tz tw */
    void *joints[SKIN_MAX_INFLUENCES];
    void *weights[SKIN_MAX_INFLUENCES];
    float *matrices, *dual_quats, *scales;
    uint64_t seed;
} rig;

typedef struct rig_options {
    size_t vertex_count;
    uint32_t joint_count;      /* 1..65536 */
    uint32_t influence_count;  /* 1..8 */
    skin_joint_format joint_format;
    skin_weight_format weight_format;
    int with_scales;           /* also fill palette.scales (random, 0.5..1.5) */
    uint64_t seed;
} rig_options;

/* Random positions in [-1,1]^3, unit normals/tangents, tw = +-1, random
 * joints and weights normalised to sum to one (unorm sums exact), and a
 * random rigid palette (rig_random_pose).  Returns 0, or -1 if out of memory. */
int rig_random(rig *r, const rig_options *o);

/* A cylinder along x (radius 0.5, length 4) bound to a chain of joint_count
 * joints along its axis, weights falling off with distance to each joint
 * (influence_count nearest), normals radial, tangents along the axis.
 * rig_candy_pose(r, angle) then twists the last joint by `angle` radians
 * about x, the others in proportion: LBS collapses, DQS keeps volume. */
int rig_candy_wrapper(rig *r, const rig_options *o);
void rig_candy_pose(rig *r, float angle);

/* A rig like a real mesh, for benchmarks: joints vary smoothly along the
 * vertex order (slot 0 walks from joint 0 to joint_count - 1 over the mesh,
 * the other slots are its next joints, so neighbouring vertices share
 * joints), and runs of 4..32 vertices share an influence count: about 50%
 * of vertices use 1 influence, 30% 2, 10% 3 and 10% 4 (capped at
 * influence_count), with zero weights (and slot 0's joint) in the trailing
 * slots.  Random positions, normals and tangents and a random rigid palette
 * as rig_random.  Returns 0, or -1 if out of memory. */
int rig_coherent(rig *r, const rig_options *o);

/* Morph targets for a mesh of vertex_count vertices, for tests and
 * benchmarks: `count` (<= RIG_MORPH_MAX) targets with random position and
 * normal deltas in [-0.05, 0.05], weights 0.1, 0.2, ...  Dense when
 * sparse_fraction is 0; else sparse, every target touching 80% of one
 * region of sparse_fraction / 0.8 of the mesh around its middle (a face:
 * blend shapes move one part of a mesh, and all of them the same part), so
 * each touches about sparse_fraction of the vertices.  Returns 0, or -1 if
 * out of memory. */
enum { RIG_MORPH_MAX = 16 };
typedef struct rig_morphs {
    uint32_t count;
    skin_morph_target targets[RIG_MORPH_MAX];
    float weights[RIG_MORPH_MAX];
    float *deltas[RIG_MORPH_MAX][6];
    uint32_t *indices[RIG_MORPH_MAX];
} rig_morphs;
int rig_morph_targets(rig_morphs *m, size_t vertex_count, uint32_t count, double sparse_fraction, uint64_t seed);
void rig_morphs_free(rig_morphs *m);

/* Each vertex of [first, first + count) with its influence slots ordered
 * by weight, largest first (stable), as skin_assets and most exporters
 * store them; rig_swap_slots swaps slots a and b (joint and weight) of
 * vertex v. */
void rig_sort_influences(rig *r, size_t first, size_t count);
void rig_swap_slots(rig *r, size_t v, uint32_t a, uint32_t b);

/* New random rigid palette (rotation, translation in [-2,2]^3) from seed;
 * matrices and dual quaternions describe the same transforms. */
void rig_random_pose(rig *r, uint64_t seed);

void rig_free(rig *r);

/* The ISA the environment's SKIN_ISA asks for (else the best) into *isa.
 * Returns 0; 77 (CTest's skip code, after saying why) when this CPU or
 * build cannot run the requested ISA; 1 when SKIN_ISA names none. */
int rig_isa_under_test(skin_isa *isa);

/* Small deterministic generator (splitmix64). */
uint64_t rig_next(uint64_t *state);
float rig_uniform(uint64_t *state, float lo, float hi);

#endif
