/* SPDX-License-Identifier: MIT */
/* skin-demo: load, sample, skin, draw.
 *
 *   skin-demo [ASSET] [--anim NAME|INDEX] [--time T] [--frames N]
 *             [--method lbs|dqs|both] [--png OUT] [--size WxH]
 *             [--isa ISA] [--threads N] [--check]
 *
 * Without ASSET: the candy-wrapper rig (a twisted cylinder).  With ASSET: the
 * file through skin_assets, its animation sampled at T seconds (default: half
 * its duration), morph target weights included (e.g. glTF2's
 * AnimatedMorphCube: its blend shapes, applied in the same skinning pass).  Every skinned mesh is skinned by skin_mesh_parallel straight
 * into a skin_vk stream ring and drawn by demo_render.c (Vulkan offscreen,
 * lavapipe without a GPU) into a PNG: methods side by side, or with
 * --frames N one row a method of N frames over the animation (the candy
 * twists from 0 to its angle).  The skinning time of each frame is printed.
 * --check reads the PNG back: its size, every panel drawn, and for the candy
 * with both methods the LBS middle thinner than the DQS middle.
 * Exit: 0 ok, 1 failure, 2 bad option or asset, 77 no Vulkan device (1 when
 * CI=true).  SKIN_DEMO_VALIDATION=1 enables the validation layer; any message
 * then fails the run. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "demo_render.h"
#include "rig.h"
#ifdef SKIN_DEMO_ASSETS
#include <skin/skin_assets.h>
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_PARTS = 64, MAX_FRAMES = 32 };

typedef struct options {
    const char *asset, *anim, *out;
    double time; /* < 0: half the animation */
    int frames, methods[2], method_count, width, height, threads, check;
    skin_isa isa;
    uint32_t joints;
    float twist_deg;
} options;

/* One skinned mesh and its palette for the current frame. */
typedef struct part {
    const skin_mesh_desc *mesh;
    const uint32_t *indices;
    size_t index_count;
    size_t index_offset, coord_offset; /* in the static buffer */
    skin_palette palette;
    float *dual_quats, *scales, *morph_weights; /* owned (asset parts) */
} part;

typedef struct scene {
    part parts[MAX_PARTS];
    uint32_t part_count;
    size_t vertex_count;       /* over parts */
    double duration;           /* of the animation (candy: 1) */
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

static int usage(const char *why)
{
    if (why) fprintf(stderr, "skin-demo: %s (try --help)\n", why);
    FILE *f = why ? stderr : stdout;
    fprintf(f, "usage: skin-demo [ASSET] [--anim NAME|INDEX] [--time T] [--frames 1..%d]\n"
               "                 [--method lbs|dqs|both] [--png OUT] [--size WxH] [--isa ISA]\n"
               "                 [--threads N] [--check] [--joints 2..255] [--twist DEGREES]\n",
            MAX_FRAMES);
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
            usage(NULL);
            exit(0);
        } else if (!strcmp(a, "--check")) {
            o->check = 1, takes = 0;
        } else if (a[0] != '-') {
            if (o->asset) return usage("more than one ASSET");
            o->asset = a, takes = 0;
        } else if (!v) {
            fprintf(stderr, "skin-demo: %s: not an option, or its value is missing\n", a);
            return usage("bad option");
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
            for (int k = SKIN_ISA_SCALAR; k <= SKIN_ISA_NEON; ++k)
                if (!strcmp(v, skin_isa_name((skin_isa)k))) isa = k;
            if (!strcmp(v, "auto")) isa = SKIN_ISA_AUTO;
            if (isa < 0) return usage("unknown --isa (auto|scalar|sse2|avx2|avx512|neon)");
            o->isa = (skin_isa)isa;
        } else {
            fprintf(stderr, "skin-demo: bad option or value: %s %s\n", a, v);
            return usage("bad option");
        }
        i += takes;
    }
    if (!o->asset && (o->anim || o->time >= 0)) return usage("--anim and --time need an ASSET");
    /* each panel (columns: frames, or methods side by side) at least 16 x 16 pixels */
    const int cols = o->frames > 1 ? o->frames : o->method_count, rows = o->frames > 1 ? o->method_count : 1;
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
    skin_asset_status st = skin_asset_load(o->asset, NULL, &s->asset);
    if (st != SKIN_ASSET_OK) {
        fprintf(stderr, "skin-demo: cannot load %s: %s %s\n", o->asset, skin_asset_status_string(st),
                skin_asset_error());
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

/* Poses the scene at `t` (seconds; the candy: fraction of its twist). */
static int pose(scene *s, double t)
{
    if (!s->part_count) return 1;
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
        return !ok;
    }
#endif
    rig_candy_pose(&s->cyl, s->twist * (float)t);
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
    long cover[MAX_FRAMES * 2], middle[MAX_FRAMES * 2];
    if (demo_read_png_coverage(o->out, width, height, cols, rows, cover, middle)) return 1;
    int ok = 1;
    for (int i = 0; i < cols * rows; ++i) {
        printf("check: panel %d: %ld covered pixels, %ld in the middle 16 columns\n", i, cover[i], middle[i]);
        ok &= cover[i] * 100 >= (long)(width / cols) * (height / rows); /* at least 1% */
    }
    if (!ok) fprintf(stderr, "skin-demo: --check: a panel is (nearly) all background\n");
    if (ok && s->cyl_coords && cols == 2 && rows == 1 && o->methods[0] == SKIN_LBS) {
        ok = middle[1] > 0 && middle[0] * 10 < middle[1] * 7;
        if (!ok) fprintf(stderr, "skin-demo: --check: the LBS middle must be under 70%% of the DQS middle\n");
    }
    return !ok;
}

static int run(scene *s, const options *o)
{
    const int panels = o->frames * o->method_count;
    /* methods side by side; a strip has one row a method */
    const int cols = o->frames > 1 ? o->frames : o->method_count, rows = o->frames > 1 ? o->method_count : 1;
    const int width = o->width ? o->width : cols * (s->cyl_coords ? 512 : 320);
    const int height = o->height ? o->height : rows * (s->cyl_coords ? 512 : 400);
    const int pw = width / cols, ph = height / rows;
    size_t static_bytes = 0;
    for (uint32_t m = 0; m < s->part_count; ++m) {
        part *p = &s->parts[m];
        p->index_offset = static_bytes;
        p->coord_offset = static_bytes += (p->index_count * 4 + 63) & ~(size_t)63;
        static_bytes += (p->mesh->vertex_count * 4 + 63) & ~(size_t)63;
    }
    const char *v = getenv("SKIN_DEMO_VALIDATION");
    const int validation = v && !strcmp(v, "1");
    demo_gpu *g = NULL;
    void *host = NULL;
    int rc = demo_gpu_create((uint32_t)width, (uint32_t)height, static_bytes, s->vertex_count * panels,
                             (size_t)panels * s->part_count, validation, &g, &host);
    if (rc) return rc;
    printf("device: %s%s; kernels: %s; ring memory: %s\n", demo_gpu_device(g),
           validation ? " (validation on)" : "", skin_isa_name(skin_get_isa()), demo_gpu_memory_mode(g));
    for (uint32_t m = 0; m < s->part_count; ++m) {
        const part *p = &s->parts[m];
        memcpy((char *)host + p->index_offset, p->indices, p->index_count * 4);
        float *c = (float *)((char *)host + p->coord_offset);
        for (size_t i = 0; i < p->mesh->vertex_count; ++i) c[i] = s->cyl_coords ? s->cyl_coords[i] : 0;
    }

    /* Skin every panel into the ring; the union of the skinned bounds frames them all alike. */
    static skin_vk_slot slots[MAX_FRAMES * 2][MAX_PARTS];
    float box[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
    rc = demo_gpu_begin(g);
    for (int f = 0; !rc && f < o->frames; ++f) {
        /* a strip spans the animation; one frame shows --time (default: the middle) */
        double t = o->frames > 1 ? s->duration * f / (o->frames - 1)
                   : o->time >= 0 ? o->time : s->cyl_coords ? 1.0 : 0.5 * s->duration;
        if ((rc = pose(s, t)) != 0) {
            fprintf(stderr, "skin-demo: cannot pose the scene at %g\n", t);
            break;
        }
        for (uint32_t m = 0; m < s->part_count; ++m) { /* the morph weights of the first few targets */
            const part *p = &s->parts[m];
            if (!p->palette.morph_weights) continue;
            printf("frame %d t=%.3f mesh %u morph weights:", f, t, m);
            for (uint32_t k = 0; k < p->mesh->morph_target_count && k < 8; ++k)
                printf(" %.3f", (double)p->palette.morph_weights[k]);
            printf("%s\n", p->mesh->morph_target_count > 8 ? " ..." : "");
        }
        for (int k = 0; !rc && k < o->method_count; ++k) {
            skin_vk_slot *sl = slots[f * o->method_count + k];
            double ns = 0;
            for (uint32_t m = 0; !rc && m < s->part_count; ++m) {
                float b[6];
                if ((rc = demo_gpu_slot(g, s->parts[m].mesh->vertex_count, &sl[m])) != 0) break;
                sl[m].output.bounds = b;
                /* untimed first call: OpenMP starts its threads, the ring's pages fault in */
                if (f == 0 && k == 0)
                    skin_mesh_parallel(s->parts[m].mesh, &s->parts[m].palette, (skin_method)o->methods[k],
                                       &sl[m].output, o->threads);
                double t0 = now_ns();
                skin_status st = skin_mesh_parallel(s->parts[m].mesh, &s->parts[m].palette,
                                                    (skin_method)o->methods[k], &sl[m].output, o->threads);
                ns += now_ns() - t0;
                sl[m].output.bounds = NULL;
                if (st != SKIN_OK) {
                    fprintf(stderr, "skin-demo: skin_mesh_parallel: %s\n", skin_status_string(st));
                    rc = 1;
                    break;
                }
                for (int c = 0; c < 3; ++c) box[c] = fminf(box[c], b[c]), box[c + 3] = fmaxf(box[c + 3], b[c + 3]);
            }
            if (!rc)
                printf("frame %d t=%.3f %s: %.3f ms, %.2f ns/vertex (%zu vertices)\n", f, t,
                       o->methods[k] == SKIN_LBS ? "LBS" : "DQS", ns * 1e-6, ns / (double)s->vertex_count,
                       s->vertex_count);
        }
    }

    /* Draw: panel (frame f, method k); LBS orange, DQS blue. */
    static demo_draw draws[MAX_FRAMES * 2 * MAX_PARTS];
    size_t count = 0;
    for (int i = 0; !rc && i < panels; ++i) {
        int f = i / o->method_count, k = i % o->method_count;
        int col = o->frames > 1 ? f : k, row = o->frames > 1 ? k : 0;
        for (uint32_t m = 0; m < s->part_count; ++m) {
            demo_draw *d = &draws[count++];
            const part *p = &s->parts[m];
            *d = (demo_draw){.x = col * pw, .y = row * ph, .width = pw, .height = ph, .slot = &slots[i][m],
                             .index_offset = p->index_offset, .index_count = (uint32_t)p->index_count,
                             .coord_offset = p->coord_offset};
            const float lbs[3] = {0.95f, 0.55f, 0.35f}, dqs[3] = {0.40f, 0.70f, 0.95f};
            memcpy(d->color, o->methods[k] == SKIN_LBS ? lbs : dqs, sizeof d->color);
            demo_camera(box, s->cyl_coords ? 0.0f : 0.5f, s->cyl_coords ? 0.45f : 0.2f, pw, ph, d);
        }
    }
    uint8_t *pixels = rc ? NULL : malloc((size_t)width * height * 4);
    if (!rc && !pixels) rc = 1;
    if (!rc) rc = demo_gpu_render(g, draws, count, pixels);
    int messages = demo_gpu_destroy(g);
    if (!rc && messages) {
        fprintf(stderr, "skin-demo: %d validation message(s)\n", messages);
        rc = 1;
    }
    for (int i = 0; !rc && i < panels; ++i) {
        int f = i / o->method_count, k = i % o->method_count;
        int col = o->frames > 1 ? f : k, row = o->frames > 1 ? k : 0;
        demo_label(pixels, width, height, col * pw + 8, row * ph + 8, ph >= 300 ? 3 : 2,
                   o->methods[k] == SKIN_LBS ? "LBS" : "DQS");
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
    if (rc == 1) fprintf(stderr, "skin-demo: out of memory\n");
    if (!rc) rc = run(&s, &o);
    free_scene(&s);
    return rc;
}
