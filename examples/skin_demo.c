/* SPDX-License-Identifier: MIT */
/* skin-demo: load, sample, skin, draw.
 *
 *   skin-demo [ASSET] [--anim NAME|INDEX] [--time T] [--frames N]
 *             [--method lbs|dqs|both] [--png OUT] [--size WxH]
 *             [--isa ISA] [--threads N] [--check]
 *
 * Without ASSET: the candy-wrapper rig (a twisted cylinder).  With ASSET: the
 * file through skin_assets, its animation sampled at T seconds, morph target
 * weights included (e.g. glTF2's AnimatedMorphCube: its blend shapes, applied
 * in the same skinning pass).  T defaults to the time, of 64 spread over the
 * animation, where LBS and DQS differ most: a character's differences are
 * small (about 1% of its size at its joints) and at many poses nearly none.
 * Every skinned mesh is skinned by skin_mesh_parallel straight into a skin_vk
 * stream ring and drawn by demo_render.c (Vulkan offscreen, lavapipe without
 * a GPU) into a PNG: the views side by side, or with --frames N one row a
 * view of N frames over the animation (the candy twists from 0 to its
 * angle).  --method both (the default) shows LBS, DQS and the difference
 * view: the DQS shape coloured by |LBS - DQS| per vertex, 0 to the largest
 * difference in the frames shown.  Every ring slot is skinned once untimed
 * (its pages fault in) before the skinning time of each frame is printed.
 * --check reads the PNG back: its size, every panel drawn, and for the candy
 * with both methods the LBS middle thinner than the DQS middle.
 * Exit: 0 ok, 1 failure, 2 bad option or asset, 77 no Vulkan device (1 when
 * CI=true); a failure prints one line.  SKIN_DEMO_VALIDATION=1 enables the
 * validation layer; any message then fails the run. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "demo_render.h"
#include "rig.h"
#ifdef SKIN_DEMO_ASSETS
#include <skin/skin_assets.h>
#endif

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_PARTS = 64, MAX_FRAMES = 32, MAX_VIEWS = 3, TIME_SAMPLES = 64 };
enum { VIEW_DIFF = 0 }; /* a view: SKIN_LBS, SKIN_DQS or the difference */
/* |LBS - DQS| under this fraction of the bounding-box diagonal is float
 * rounding (a rigid or morph-only mesh): the difference view shows it as 0. */
static const float ROUNDING = 1e-5f;

typedef struct options {
    const char *asset, *anim, *out;
    double time; /* < 0: where LBS and DQS differ most */
    int frames, methods[2], method_count, width, height, threads, check;
    int views[MAX_VIEWS], view_count; /* the methods, then with both the difference */
    skin_isa isa;
    uint32_t joints;
    float twist_deg;
} options;

/* One skinned mesh and its palette for the current frame. */
typedef struct part {
    const skin_mesh_desc *mesh;
    const uint32_t *indices;
    size_t index_count;
    size_t index_offset, coord_offset, color_offset; /* in the static buffer */
    skin_palette palette;
    float *dual_quats, *scales, *morph_weights; /* owned (asset parts) */
} part;

typedef struct scene {
    part parts[MAX_PARTS];
    uint32_t part_count;
    size_t vertex_count;       /* over parts */
    double duration;           /* of the animation (candy: 1) */
    float *lbs, *dqs;          /* positions of the largest part (the difference view) */
    float *distance;           /* |LBS - DQS| a vertex (parts in order) a frame */
    rig cyl;                   /* the candy wrapper */
    uint32_t *cyl_indices;
    float *cyl_coords, twist;
#ifdef SKIN_DEMO_ASSETS
    skin_asset *asset;
    skin_asset_cursor *cursor;
    float *trs, *model;        /* node TRS (10 floats a node), node matrices */
    float *matrices;           /* every part's palette matrices */
#endif
} scene;

/* A bad command line: one line, status 2. */
static int usage(const char *why)
{
    fprintf(stderr, "skin-demo: %s (try --help)\n", why);
    return 2;
}

static int number(const char *s, double lo, double hi, double *v)
{
    char *end;
    *v = s ? strtod(s, &end) : 0;
    return s && end != s && *end == '\0' && *v >= lo && *v <= hi;
}

/* --size WxH: both 16..8192, nothing after them. */
static int size(const char *s, int *width, int *height)
{
    int end = 0;
    return sscanf(s, "%dx%d%n", width, height, &end) == 2 && s[end] == '\0' && *width >= 16 && *height >= 16 &&
           *width <= 8192 && *height <= 8192;
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){.out = "skin-demo.png", .time = -1, .frames = 1, .methods = {SKIN_LBS, SKIN_DQS},
                   .method_count = 2, .joints = 2, .twist_deg = 170};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double x;
        int takes = 1; /* options with a value consume it */
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("usage: skin-demo [ASSET] [--anim NAME|INDEX] [--time T] [--frames 1..%d]\n"
                   "                 [--method lbs|dqs|both] [--png OUT] [--size WxH] [--isa ISA]\n"
                   "                 [--threads N] [--check] [--joints 2..255] [--twist DEGREES]\n",
                   MAX_FRAMES);
            exit(0);
        } else if (!strcmp(a, "--check")) {
            o->check = 1, takes = 0;
        } else if (a[0] != '-') {
            if (o->asset) return usage("more than one ASSET");
            o->asset = a, takes = 0;
        } else if (!v) {
            char why[256];
            snprintf(why, sizeof why, "%s: not an option, or its value is missing", a);
            return usage(why);
        } else if (!strcmp(a, "--anim")) {
            o->anim = v;
        } else if (!strcmp(a, "--time") && number(v, 0, 1e9, &x)) {
            o->time = x;
        } else if (!strcmp(a, "--frames") && number(v, 1, MAX_FRAMES, &x) && x == floor(x)) {
            o->frames = (int)x;
        } else if (!strcmp(a, "--method") && (!strcmp(v, "lbs") || !strcmp(v, "dqs") || !strcmp(v, "both"))) {
            o->method_count = strcmp(v, "both") ? 1 : 2;
            o->methods[0] = strcmp(v, "dqs") ? SKIN_LBS : SKIN_DQS; /* the last --method wins */
        } else if (!strcmp(a, "--png") || !strcmp(a, "-o")) {
            o->out = v;
        } else if (!strcmp(a, "--size") && size(v, &o->width, &o->height)) {
        } else if (!strcmp(a, "--threads") && number(v, 0, 1024, &x) && x == floor(x)) {
            o->threads = (int)x;
        } else if (!strcmp(a, "--joints") && number(v, 2, 255, &x) && x == floor(x)) {
            o->joints = (uint32_t)x;
        } else if (!strcmp(a, "--twist") && number(v, -720, 720, &x)) {
            o->twist_deg = (float)x;
        } else if (!strcmp(a, "--isa")) {
            int isa = -1;
            for (int k = SKIN_ISA_SCALAR; k <= SKIN_ISA_SIMD128; ++k)
                if (!strcmp(v, skin_isa_name((skin_isa)k))) isa = k;
            if (!strcmp(v, "auto")) isa = SKIN_ISA_AUTO;
            if (isa < 0) return usage("unknown --isa (auto|scalar|sse2|avx2|avx512|neon)");
            o->isa = (skin_isa)isa;
        } else {
            char why[256];
            snprintf(why, sizeof why, "bad option or value: %s %s", a, v);
            return usage(why);
        }
        i += takes;
    }
    if (!o->asset && (o->anim || o->time >= 0)) return usage("--anim and --time need an ASSET");
    o->view_count = o->method_count == 2 ? 3 : 1;
    for (int k = 0; k < o->view_count; ++k) o->views[k] = k < o->method_count ? o->methods[k] : VIEW_DIFF;
    /* each panel (columns: frames, or views side by side) at least 16 x 16 pixels */
    const int cols = o->frames > 1 ? o->frames : o->view_count, rows = o->frames > 1 ? o->view_count : 1;
    if (o->width && (o->width / cols < 16 || o->height / rows < 16)) return usage("--size too small for the panels");
    return 0;
}

/* ------------------------------------------------------------ load */

/* Triangle list over the cylinder grid (rig.c's layout: `around` vertices a ring). */
static size_t cylinder_indices(size_t n, size_t around, uint32_t *out)
{
    size_t count = 0, rings = n / around;
    for (size_t r = 0; r + 1 < rings; ++r)
        for (size_t s = 0; s < around; ++s, count += 6) {
            uint32_t a = (uint32_t)(r * around + s), b = (uint32_t)(r * around + (s + 1) % around);
            uint32_t c = a + (uint32_t)around, e = b + (uint32_t)around;
            if (out) memcpy(out + count, (uint32_t[6]){a, b, e, a, e, c}, sizeof(uint32_t[6]));
        }
    return count;
}

static int load_candy(scene *s, const options *o)
{
    rig_options ro = {.vertex_count = 200 * 201, /* 201 around x 200 rings */
                      .joint_count = o->joints,
                      .influence_count = 4,
                      .joint_format = SKIN_JOINT_U8,
                      .weight_format = SKIN_WEIGHT_F32,
                      .seed = 1};
    if (rig_candy_wrapper(&s->cyl, &ro)) return 1;
    size_t n = s->cyl.mesh.vertex_count, around = (size_t)sqrt((double)n) + 1;
    part *p = &s->parts[0];
    p->index_count = cylinder_indices(n, around, NULL);
    s->cyl_indices = malloc(p->index_count * sizeof(uint32_t));
    s->cyl_coords = malloc(n * sizeof(float));
    if (!s->cyl_indices || !s->cyl_coords) return 1;
    cylinder_indices(n, around, s->cyl_indices);
    for (size_t i = 0; i < n; ++i) s->cyl_coords[i] = (float)(i % around) / (float)around; /* stripes */
    p->mesh = &s->cyl.mesh, p->indices = s->cyl_indices, p->palette = s->cyl.palette;
    s->part_count = 1, s->vertex_count = n, s->duration = 1;
    s->twist = o->twist_deg * 3.14159265f / 180.0f;
    printf("candy wrapper: %zu vertices, %u joints, 4 influences, twisted %.0f degrees\n", n, o->joints,
           (double)o->twist_deg);
    return 0;
}

#ifdef SKIN_DEMO_ASSETS
static int load_asset(scene *s, const options *o)
{
    /* a file that cannot be opened says why (assimp's message names the path twice) */
    FILE *f = fopen(o->asset, "rb");
    if (!f) {
        fprintf(stderr, "skin-demo: cannot load %s: %s\n", o->asset, strerror(errno));
        return 2;
    }
    fclose(f);
    skin_asset_status st = skin_asset_load(o->asset, NULL, &s->asset);
    if (st != SKIN_ASSET_OK) {
        /* the loader's message starts with the path */
        const char *why = skin_asset_error();
        size_t n = strlen(o->asset);
        if (!strncmp(why, o->asset, n) && !strncmp(why + n, ": ", 2)) why += n + 2;
        fprintf(stderr, "skin-demo: cannot load %s: %s\n", o->asset, *why ? why : skin_asset_status_string(st));
        return 2;
    }
    const skin_asset *a = s->asset;
    if (a->mesh_count > MAX_PARTS) {
        fprintf(stderr, "skin-demo: %s has %u skinned meshes (at most %d)\n", o->asset, a->mesh_count, MAX_PARTS);
        return 2;
    }
    uint32_t anim = 0, bones = 0, targets = 0;
    if (o->anim && (st = skin_asset_find_animation(a, o->anim, &anim)) != SKIN_ASSET_OK) {
        fprintf(stderr, "skin-demo: %s: animation '%s': %s (it has %u)\n", o->asset, o->anim,
                skin_asset_status_string(st), a->animation_count);
        return 2;
    }
    if (a->animation_count && skin_asset_cursor_create(a, anim, &s->cursor) != SKIN_ASSET_OK) return 1;
    s->duration = a->animation_count ? a->animation_durations[anim] : 0;
    for (uint32_t m = 0; m < a->mesh_count; ++m) bones += a->meshes[m].bone_count;
    s->trs = malloc(a->node_count * 10 * sizeof(float));
    s->model = malloc(a->node_count * 12 * sizeof(float));
    s->matrices = malloc((size_t)bones * 12 * sizeof(float));
    if (!s->trs || !s->model || !s->matrices) return 1;
    for (uint32_t m = 0, b = 0; m < a->mesh_count; b += a->meshes[m++].bone_count) {
        const skin_asset_mesh *am = &a->meshes[m];
        part *p = &s->parts[m];
        p->mesh = &am->desc, p->indices = am->indices, p->index_count = am->index_count;
        p->dual_quats = malloc(am->bone_count * 8 * sizeof(float));
        p->scales = malloc(am->bone_count * 3 * sizeof(float));
        /* morph weights: the file's defaults until an animation samples them */
        const uint32_t nt = am->desc.morph_target_count;
        p->morph_weights = nt ? malloc(nt * sizeof(float)) : NULL;
        if (!p->dual_quats || !p->scales || (nt && !p->morph_weights)) return 1;
        if (nt) memcpy(p->morph_weights, am->morph_default_weights, nt * sizeof(float));
        /* scales: DQS keeps non-uniform bone scale (FBX mesh nodes) */
        p->palette = (skin_palette){am->bone_count, s->matrices + (size_t)b * 12, NULL, p->dual_quats, p->scales,
                                    p->morph_weights};
        s->vertex_count += am->desc.vertex_count;
        targets += nt;
    }
    s->part_count = a->mesh_count;
    printf("%s: %u skinned meshes, %zu vertices, %u bones, %u morph targets, animation %u '%s' of %u (%.3f s)\n",
           o->asset, a->mesh_count, s->vertex_count, bones, targets, anim,
           a->animation_count ? a->animation_names[anim] : "-", a->animation_count, s->duration);
    return 0;
}
#endif

/* ------------------------------------------------------------ sample */

/* Poses the scene at `t` (seconds; the candy: fraction of its twist).  0, or 1
 * (printed). */
static int pose(scene *s, double t)
{
    if (!s->part_count) {
        fprintf(stderr, "skin-demo: nothing to skin\n");
        return 1;
    }
#ifdef SKIN_DEMO_ASSETS
    if (s->asset) {
        const skin_asset *a = s->asset;
        uint32_t nc = a->node_count;
        float *tr = s->trs, *rot = tr + nc * 3, *sc = rot + nc * 4;
        int ok = s->cursor ? skin_asset_sample(s->cursor, t, tr, rot, sc) == SKIN_ASSET_OK
                           : skin_asset_rest_pose(a, tr, rot, sc) == SKIN_ASSET_OK;
        ok = ok && skin_pose_to_matrices(nc, a->parents, tr, rot, sc, s->model) == SKIN_OK;
        for (uint32_t m = 0; ok && m < s->part_count; ++m) {
            part *p = &s->parts[m];
            ok = skin_asset_palette(a, m, s->model, (float *)p->palette.matrices) == SKIN_ASSET_OK &&
                 skin_matrices_to_dual_quats(p->palette.joint_count, p->palette.matrices, p->dual_quats,
                                             p->scales, NULL) == SKIN_OK &&
                 (!s->cursor || skin_asset_sample_morph_weights(s->cursor, m, t, p->morph_weights) == SKIN_ASSET_OK);
        }
        if (!ok) fprintf(stderr, "skin-demo: cannot pose the scene at %g s\n", t);
        return !ok;
    }
#endif
    rig_candy_pose(&s->cyl, s->twist * (float)t);
    return 0;
}

/* Room for the difference view (and the choice of time): a frame's |LBS - DQS|
 * for `frames` frames, positions of the largest part for each method (+1:
 * never an allocation of 0 bytes). */
static int alloc_distance(scene *s, int frames)
{
    size_t most = 0;
    for (uint32_t m = 0; m < s->part_count; ++m)
        if (s->parts[m].mesh->vertex_count > most) most = s->parts[m].mesh->vertex_count;
    s->lbs = malloc((most + 1) * 3 * sizeof(float));
    s->dqs = malloc((most + 1) * 3 * sizeof(float));
    s->distance = malloc(((size_t)frames * s->vertex_count + 1) * sizeof(float));
    return !s->lbs || !s->dqs || !s->distance;
}

/* |LBS - DQS| of every vertex at the current pose into d (parts in order),
 * the LBS bounding box's diagonal into *diagonal; returns the largest, or -1
 * when skinning fails (printed).  Positions only, skinned again into host
 * memory: the ring may be write-combined, slow to read back. */
static float lbs_dqs_distance(const scene *s, float *d, float *diagonal)
{
    float largest = 0, box[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY}, part_box[6];
    for (uint32_t m = 0; m < s->part_count; ++m) {
        const part *p = &s->parts[m];
        const size_t n = p->mesh->vertex_count;
        skin_output lbs = {.layout = SKIN_LAYOUT_STRIDED, .position = s->lbs, .position_stride = 12};
        skin_output dqs = {.layout = SKIN_LAYOUT_STRIDED, .position = s->dqs, .position_stride = 12};
        lbs.bounds = part_box;
        skin_status st = skin_mesh(p->mesh, &p->palette, SKIN_LBS, &lbs, 0, n);
        if (st == SKIN_OK) st = skin_mesh(p->mesh, &p->palette, SKIN_DQS, &dqs, 0, n);
        if (st != SKIN_OK) {
            fprintf(stderr, "skin-demo: skin_mesh: %s\n", skin_status_string(st));
            return -1;
        }
        for (size_t i = 0; i < n; ++i, ++d) {
            const float *a = s->lbs + 3 * i, *b = s->dqs + 3 * i;
            const float x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
            *d = sqrtf(x * x + y * y + z * z);
            largest = fmaxf(largest, *d); /* a NaN is left out */
        }
        for (int c = 0; c < 3; ++c)
            box[c] = fminf(box[c], part_box[c]), box[c + 3] = fmaxf(box[c + 3], part_box[c + 3]);
    }
    const float x = box[3] - box[0], y = box[4] - box[1], z = box[5] - box[2];
    *diagonal = x > 0 || y > 0 || z > 0 ? sqrtf(x * x + y * y + z * z) : 0; /* no vertex: 0 */
    return largest;
}

/* The default time of one frame of an animation: of TIME_SAMPLES times spread
 * over it, the one where the mean |LBS - DQS| is largest; half the animation
 * where they differ by rounding only.  0, or 1 (printed). */
static int pick_time(scene *s, double *t)
{
    double best = -1;
    float largest = 0, diagonal = 0;
    for (int i = 0; i < TIME_SAMPLES; ++i) {
        const double ti = s->duration * i / (TIME_SAMPLES - 1);
        float l, dg;
        if (pose(s, ti) || (l = lbs_dqs_distance(s, s->distance, &dg)) < 0) return 1;
        double sum = 0;
        for (size_t v = 0; v < s->vertex_count; ++v) sum += s->distance[v];
        if (sum > best) best = sum, *t = ti;
        largest = fmaxf(largest, l), diagonal = fmaxf(diagonal, dg);
    }
    if (largest > ROUNDING * diagonal) {
        printf("t=%.3f: the largest mean |LBS-DQS| of %d times over the animation (--time T to choose)\n", *t,
               TIME_SAMPLES);
    } else {
        *t = 0.5 * s->duration;
        printf("t=%.3f: half the animation (LBS and DQS agree to rounding at %d times over it)\n", *t,
               TIME_SAMPLES);
    }
    return 0;
}

static void free_scene(scene *s)
{
#ifdef SKIN_DEMO_ASSETS
    for (uint32_t m = 0; s->asset && m < s->part_count; ++m)
        free(s->parts[m].dual_quats), free(s->parts[m].scales), free(s->parts[m].morph_weights);
    free(s->trs), free(s->model), free(s->matrices);
    skin_asset_cursor_free(s->cursor);
    skin_asset_free(s->asset);
#endif
    rig_free(&s->cyl); /* a zeroed rig too */
    free(s->cyl_indices), free(s->cyl_coords);
    free(s->lbs), free(s->dqs), free(s->distance);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* ------------------------------------------------------------ skin, draw */

/* Reads the PNG back: the requested size, every panel drawn, and for the
 * candy side by side the LBS middle under 70% of the DQS middle. */
static int check(const scene *s, const options *o, int width, int height, int cols, int rows)
{
    long cover[MAX_FRAMES * MAX_VIEWS], middle[MAX_FRAMES * MAX_VIEWS];
    if (demo_read_png_coverage(o->out, width, height, cols, rows, cover, middle)) return 1;
    int ok = 1;
    for (int i = 0; i < cols * rows; ++i) {
        printf("check: panel %d: %ld covered pixels, %ld in the middle 16 columns\n", i, cover[i], middle[i]);
        ok &= cover[i] * 100 >= (long)(width / cols) * (height / rows); /* at least 1% */
    }
    if (!ok) fprintf(stderr, "skin-demo: --check: a panel is (nearly) all background\n");
    if (ok && s->cyl_coords && o->frames == 1 && o->method_count == 2 && o->methods[0] == SKIN_LBS) {
        ok = middle[1] > 0 && middle[0] * 10 < middle[1] * 7;
        if (!ok) fprintf(stderr, "skin-demo: --check: the LBS middle must be under 70%% of the DQS middle\n");
    }
    return !ok;
}

static size_t align64(size_t bytes) { return (bytes + 63) & ~(size_t)63; }

/* Skins part m with the k-th method into out on the chosen threads.  0, or 1 (printed). */
static int skin_part(const scene *s, const options *o, uint32_t m, int k, const skin_output *out)
{
    skin_status st = skin_mesh_parallel(s->parts[m].mesh, &s->parts[m].palette, (skin_method)o->methods[k], out,
                                        o->threads);
    if (st != SKIN_OK) fprintf(stderr, "skin-demo: skin_mesh_parallel: %s\n", skin_status_string(st));
    return st != SKIN_OK;
}

/* The difference view's legend at the bottom of its panel: the colour bar
 * from 0 to the largest difference, as a percentage of the box's diagonal. */
static void legend(uint8_t *pixels, int width, int height, int x, int y, int pw, int ph, int scale, double percent)
{
    char text[32];
    snprintf(text, sizeof text, "%.2f%%", percent);
    const int bar_w = pw / 2, bar_h = 4 * scale, ty = y + ph - 6 - 7 * scale;
    demo_colorbar(pixels, width, height, x + 8, ty - 3 - bar_h, bar_w, bar_h);
    demo_label(pixels, width, height, x + 8, ty, scale, "0");
    demo_label(pixels, width, height, x + 8 + bar_w - (int)strlen(text) * 6 * scale + scale, ty, scale, text);
}

static int run(scene *s, const options *o)
{
    const int views = o->view_count, panels = o->frames * views, diff = views == 3;
    /* views side by side; a strip has one row a view */
    const int cols = o->frames > 1 ? o->frames : views, rows = o->frames > 1 ? views : 1;
    const int width = o->width ? o->width : cols * (s->cyl_coords ? 512 : 320);
    const int height = o->height ? o->height : rows * (s->cyl_coords ? 512 : 400);
    const int pw = width / cols, ph = height / rows;

    /* a strip spans the animation; one frame shows --time, by default where LBS and DQS differ most */
    double times[MAX_FRAMES];
    for (int f = 0; f < o->frames; ++f) times[f] = o->frames > 1 ? s->duration * f / (o->frames - 1) : 0;
    if (o->frames == 1 && o->time >= 0) times[0] = o->time;
    else if (o->frames == 1 && s->cyl_coords) times[0] = 1; /* the whole twist */
    else if (o->frames == 1 && s->duration > 0) {
        if (pick_time(s, &times[0])) return 1;
    }

    /* static buffer, a part after another: indices, stripe coordinates, and
     * the difference view's colours (RGBA8) of each frame */
    size_t static_bytes = 0;
    for (uint32_t m = 0; m < s->part_count; ++m) {
        part *p = &s->parts[m];
        const size_t per_vertex = align64(p->mesh->vertex_count * 4);
        p->index_offset = static_bytes, static_bytes += align64(p->index_count * 4);
        p->coord_offset = static_bytes, static_bytes += per_vertex;
        p->color_offset = static_bytes, static_bytes += diff ? (size_t)o->frames * per_vertex : 0;
    }
    const char *v = getenv("SKIN_DEMO_VALIDATION");
    const int validation = v && !strcmp(v, "1");
    const int skinned = o->frames * o->method_count; /* panels with a ring slot each part */
    demo_gpu *g = NULL;
    void *host = NULL;
    int rc = demo_gpu_create((uint32_t)width, (uint32_t)height, static_bytes, s->vertex_count * skinned,
                             (size_t)skinned * s->part_count, validation, &g, &host);
    if (rc) return rc;
    printf("device: %s%s; kernels: %s; threads: %s; ring memory: %s\n", demo_gpu_device(g),
           validation ? " (validation on)" : "", skin_isa_name(skin_get_isa()),
           skin_has_threads() ? "pool" : "caller only", demo_gpu_memory_mode(g));
    for (uint32_t m = 0; m < s->part_count; ++m) {
        const part *p = &s->parts[m];
        memcpy((char *)host + p->index_offset, p->indices, p->index_count * 4);
        float *c = (float *)((char *)host + p->coord_offset);
        for (size_t i = 0; i < p->mesh->vertex_count; ++i) c[i] = s->cyl_coords ? s->cyl_coords[i] : 0;
    }

    /* Every slot skinned once untimed first: the thread pool starts and the
     * ring's pages fault in, so no timing below pays for a first touch. */
    static skin_vk_slot slots[MAX_FRAMES][2][MAX_PARTS];
    rc = demo_gpu_begin(g);
    if (!rc) rc = pose(s, times[0]);
    for (int f = 0; f < o->frames; ++f)
        for (int k = 0; k < o->method_count; ++k)
            for (uint32_t m = 0; !rc && m < s->part_count; ++m) {
                skin_vk_slot *sl = &slots[f][k][m];
                rc = demo_gpu_slot(g, s->parts[m].mesh->vertex_count, sl) || skin_part(s, o, m, k, &sl->output);
            }

    /* Skin every frame into its slots; the union of the skinned bounds frames all panels alike. */
    float box[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY}, scale = 0;
    for (int f = 0; !rc && f < o->frames; ++f) {
        const double t = times[f];
        if ((rc = pose(s, t)) != 0) break;
        for (uint32_t m = 0; m < s->part_count; ++m) { /* the morph weights of the first few targets */
            const part *p = &s->parts[m];
            if (!p->palette.morph_weights) continue;
            printf("frame %d t=%.3f mesh %u morph weights:", f, t, m);
            for (uint32_t k = 0; k < p->mesh->morph_target_count && k < 8; ++k)
                printf(" %.3f", (double)p->palette.morph_weights[k]);
            printf("%s\n", p->mesh->morph_target_count > 8 ? " ..." : "");
        }
        for (int k = 0; !rc && k < o->method_count; ++k) {
            double ns = 0;
            for (uint32_t m = 0; !rc && m < s->part_count; ++m) {
                skin_vk_slot *sl = &slots[f][k][m];
                float b[6];
                sl->output.bounds = b;
                const double t0 = now_ns();
                rc = skin_part(s, o, m, k, &sl->output);
                ns += now_ns() - t0;
                sl->output.bounds = NULL;
                for (int c = 0; !rc && c < 3; ++c)
                    box[c] = fminf(box[c], b[c]), box[c + 3] = fmaxf(box[c + 3], b[c + 3]);
            }
            if (!rc)
                printf("frame %d t=%.3f %s: %.3f ms, %.2f ns/vertex (%zu vertices)\n", f, t,
                       o->methods[k] == SKIN_LBS ? "LBS" : "DQS", ns * 1e-6, ns / (double)s->vertex_count,
                       s->vertex_count);
        }
        if (!rc && diff) {
            float *d = s->distance + (size_t)f * s->vertex_count, lbs_diagonal;
            const float largest = lbs_dqs_distance(s, d, &lbs_diagonal);
            double sum = 0;
            for (size_t i = 0; i < s->vertex_count; ++i) sum += d[i];
            if (largest < 0) rc = 1;
            else printf("frame %d t=%.3f |LBS-DQS|: largest %.4g, mean %.4g\n", f, t, (double)largest,
                        sum / (double)(s->vertex_count ? s->vertex_count : 1));
            scale = fmaxf(scale, largest);
        }
    }

    /* The difference view: 0 (dark) to the largest difference of the frames shown (bright),
     * rounding left dark. */
    const float dx = box[3] - box[0], dy = box[4] - box[1], dz = box[5] - box[2];
    const float diagonal = rc ? 0 : sqrtf(dx * dx + dy * dy + dz * dz);
    if (!rc && diff && scale <= ROUNDING * diagonal) {
        printf("|LBS-DQS|: at most %.3g, rounding (under %g of the bounding-box diagonal %.4g): shown as 0\n",
               (double)scale, (double)ROUNDING, (double)diagonal);
        scale = INFINITY;
    } else if (!rc && diff) {
        printf("|LBS-DQS| colours: 0 to %.4g, the largest difference in the frames shown "
               "(%.2f%% of the bounding-box diagonal %.4g)\n", (double)scale, 100.0 * scale / diagonal,
               (double)diagonal);
    }
    const double percent = isfinite(scale) && diagonal > 0 ? 100.0 * scale / diagonal : 0;
    if (!rc && diff) {
        const float *d = s->distance;
        for (int f = 0; f < o->frames; ++f)
            for (uint32_t m = 0; m < s->part_count; ++m) {
                const part *p = &s->parts[m];
                uint8_t *c = (uint8_t *)host + p->color_offset + (size_t)f * align64(p->mesh->vertex_count * 4);
                for (size_t i = 0; i < p->mesh->vertex_count; ++i, ++d, c += 4)
                    demo_colormap(*d / scale, c), c[3] = 255;
            }
    }

    /* Draw: panel (frame f, view k); LBS orange, DQS blue, the difference on the DQS shape. */
    static demo_draw draws[MAX_FRAMES * MAX_VIEWS * MAX_PARTS];
    size_t count = 0;
    for (int i = 0; !rc && i < panels; ++i) {
        const int f = i / views, k = i % views, view = o->views[k];
        const int col = o->frames > 1 ? f : k, row = o->frames > 1 ? k : 0;
        for (uint32_t m = 0; m < s->part_count; ++m) {
            demo_draw *d = &draws[count++];
            const part *p = &s->parts[m];
            *d = (demo_draw){.x = col * pw, .y = row * ph, .width = pw, .height = ph,
                             .slot = &slots[f][view == VIEW_DIFF ? 1 : k][m],
                             .index_offset = p->index_offset, .index_count = (uint32_t)p->index_count,
                             .coord_offset = p->coord_offset, .vertex_colors = view == VIEW_DIFF,
                             .color_offset = p->color_offset + (size_t)f * align64(p->mesh->vertex_count * 4)};
            const float lbs[3] = {0.95f, 0.55f, 0.35f}, dqs[3] = {0.40f, 0.70f, 0.95f};
            memcpy(d->color, view == SKIN_LBS ? lbs : dqs, sizeof d->color);
            demo_camera(box, s->cyl_coords ? 0.0f : 0.5f, s->cyl_coords ? 0.45f : 0.2f, pw, ph, d);
        }
    }
    uint8_t *pixels = rc ? NULL : malloc((size_t)width * height * 4);
    if (!rc && !pixels) {
        fprintf(stderr, "skin-demo: out of memory\n");
        rc = 1;
    }
    if (!rc) rc = demo_gpu_render(g, draws, count, pixels);
    int messages = demo_gpu_destroy(g);
    if (!rc && messages) {
        fprintf(stderr, "skin-demo: %d validation message(s)\n", messages);
        rc = 1;
    }
    for (int i = 0; !rc && i < panels; ++i) {
        const int f = i / views, k = i % views, view = o->views[k];
        const int col = o->frames > 1 ? f : k, row = o->frames > 1 ? k : 0, sc = ph >= 300 ? 3 : 2;
        demo_label(pixels, width, height, col * pw + 8, row * ph + 8, sc,
                   view == SKIN_LBS ? "LBS" : view == SKIN_DQS ? "DQS" : "|LBS-DQS|");
        if (view == VIEW_DIFF) legend(pixels, width, height, col * pw, row * ph, pw, ph, sc - 1, percent);
    }
    if (!rc) rc = demo_write_png(o->out, pixels, width, height);
    free(pixels);
    if (!rc) printf("wrote %s (%dx%d, %d x %d panels)\n", o->out, width, height, cols, rows);
    if (!rc && o->check) rc = check(s, o, width, height, cols, rows);
    return rc;
}

int main(int argc, char **argv)
{
    options o;
    if (parse(argc, argv, &o)) return 2;
    if (o.isa != SKIN_ISA_AUTO && skin_set_isa(o.isa) != SKIN_OK) {
        fprintf(stderr, "skin-demo: --isa %s is not supported by this build or CPU\n", skin_isa_name(o.isa));
        return 2;
    }
    scene s;
    memset(&s, 0, sizeof s);
    int rc;
    if (!o.asset) {
        rc = load_candy(&s, &o);
    } else {
#ifdef SKIN_DEMO_ASSETS
        rc = load_asset(&s, &o);
#else
        fprintf(stderr, "skin-demo: built without skin_assets (assimp): cannot load %s\n", o.asset);
        rc = 2;
#endif
    }
    if (!rc && alloc_distance(&s, o.frames)) rc = 1;
    if (rc == 1) fprintf(stderr, "skin-demo: out of memory\n");
    if (!rc) rc = run(&s, &o);
    free_scene(&s);
    return rc;
}
