/* SPDX-License-Identifier: MIT */
/* demo_render: the Vulkan side of skin-demo.  An offscreen colour + depth
 * target, the lit pipeline of shaders/demo.{vert,frag}, one host-visible
 * buffer for static data (indices, a per-vertex stripe coordinate), a
 * skin_vk stream ring for the skinned vertices, and readback to RGBA.  The
 * instance and device come from the shared bootstrap (tests/support/vk_boot).
 * Plus the picture helpers: framing camera, block-letter labels, the colour
 * map of the difference view, PNG write and check.  Single-threaded; one
 * demo_gpu at a time. */
#ifndef SKIN_DEMO_RENDER_H
#define SKIN_DEMO_RENDER_H

#include <skin/skin_vk.h>

#include <stddef.h>
#include <stdint.h>

enum { DEMO_SKIP = 77 }; /* exit status: no Vulkan device (outside CI) */

extern const uint8_t demo_background[3];

typedef struct demo_gpu demo_gpu;

/* Creates device, targets of width x height, pipeline, a static buffer of
 * static_bytes (mapped: *static_data, host-coherent, indices and floats) and
 * a ring whose frame holds slot_count slots of vertex_count vertices in all.  validation: the Khronos
 * layer, whose messages then fail demo_gpu_destroy.  Returns 0, DEMO_SKIP
 * (no device and CI is not "true") or 1 (error, printed); *out is NULL then. */
int demo_gpu_create(uint32_t width, uint32_t height, size_t static_bytes, size_t vertex_count, size_t slot_count,
                    int validation, demo_gpu **out, void **static_data);
/* Acquires the ring frame that the slots of demo_gpu_slot come from. 0 or 1. */
int demo_gpu_begin(demo_gpu *g);
/* A slot of vertex_count float positions + normals, ready for
 * skin_mesh_parallel into slot->output.  0, or 1 when the ring is full. */
int demo_gpu_slot(demo_gpu *g, size_t vertex_count, skin_vk_slot *slot);

typedef struct demo_draw {
    int x, y, width, height;     /* viewport in pixels */
    const skin_vk_slot *slot;    /* skinned vertices */
    size_t index_offset;         /* bytes into the static buffer, uint32 triangle list */
    uint32_t index_count;
    size_t coord_offset;         /* bytes into the static buffer: one float a vertex (stripes) */
    int vertex_colors;           /* 0: color[] with stripes; 1: RGBA8 a vertex at color_offset */
    size_t color_offset;         /* bytes into the static buffer (with vertex_colors) */
    float mvp[16];               /* column-major, see demo_camera */
    float color[3];
    float light[3], view[3];     /* world directions towards the light, the eye */
} demo_draw;

/* Commits the frame, draws every draw, reads the image back into rgba
 * (width x height x 4).  0 or 1. */
int demo_gpu_render(demo_gpu *g, const demo_draw *draws, size_t count, uint8_t *rgba);
/* Device name and the ring's memory mode, for the log. */
const char *demo_gpu_device(const demo_gpu *g);
const char *demo_gpu_memory_mode(const demo_gpu *g);
/* Frees everything (NULL: no-op); returns the validation message count. */
int demo_gpu_destroy(demo_gpu *g);

/* Orthographic camera that frames the box bounds (min xyz, max xyz) in a
 * width x height viewport, turned by yaw about y then tilted by tilt about x
 * (radians); fills d->mvp, d->light and d->view. */
void demo_camera(const float bounds[6], float yaw, float tilt, int width, int height, demo_draw *d);

/* Draws text in 5x7 block letters of `scale` pixels a dot, top-left at
 * (x, y), clipped to the image.  Only what the labels need exists: the
 * letters of "LBS" and "DQS", digits, ". % | -" and the space (a label, not a
 * font); others draw as a space. */
void demo_label(uint8_t *rgba, int width, int height, int x, int y, int scale, const char *text);

/* The colour map of the difference view (viridis: dark purple to yellow,
 * perceptually uniform), t in [0, 1] (clamped) to RGB. */
void demo_colormap(float t, uint8_t rgb[3]);
/* Its legend: a w x h bar from 0 (left) to 1, top-left at (x, y), clipped. */
void demo_colorbar(uint8_t *rgba, int width, int height, int x, int y, int w, int h);

/* Writes rgba (width x height) as PNG. 0 or 1 (printed). */
int demo_write_png(const char *path, const uint8_t *rgba, int width, int height);
/* Reads path back: it must be width x height; counts the pixels that differ
 * from the background (label pixels aside) in each of cols x rows panels
 * (covered[], row-major) and in the 16 middle columns of each (middle[]).
 * 0 or 1 (printed). */
int demo_read_png_coverage(const char *path, int width, int height, int cols, int rows, long *covered,
                           long *middle);

#endif
