/* SPDX-License-Identifier: MIT */
/* skin-bench --gpu: the CPU path against the GPU path on one Vulkan device,
 * per frame, through skin_vk_choose_path's measurement (CPU: skin_mesh_parallel
 * into the ring, record, submit, fence, on the clock; GPU: palette upload,
 * dispatch and barrier by GPU timestamps). */
#include "bench_vk.h"

#include <stdlib.h>
#include <string.h>

#include "rig.h"
#include "skin/skin_vk.h"
#include "vk_boot.h"

#define FRAMES 21 /* medians over >= 20 frames */
#define WARMUP 3

typedef struct record {
    skin_method method;
    size_t vertices;
    skin_vk_path_report rep;
} record;

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        if ((unsigned char)*s >= 0x20) fputc(*s, f);
    }
    fputc('"', f);
}

static int write_json(const char *path, const record *r, int n)
{
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    fprintf(f, "[\n");
    for (int i = 0; i < n; ++i)
        for (int p = 0; p < 2; ++p) {
            fprintf(f, "  {\"path\": \"%s\", \"device_name\": ", p ? "gpu" : "cpu");
            json_string(f, r[i].rep.device_name);
            fprintf(f,
                    ", \"device_type\": \"%s\", \"method\": \"%s\", \"vertices\": %zu, "
                    "\"attributes\": \"p+n+t\", \"output_format\": \"f32\", "
                    "\"cpu_ns_per_frame\": %.0f, \"gpu_ns_per_frame\": %.0f, "
                    "\"gpu_timing\": \"%s\", \"gpu_submit_ns_per_frame\": %.0f, \"frames\": %u, "
                    "\"ring_mode\": \"%s\", \"recommended\": \"%s\"}%s\n",
                    vkb_device_type_name(r[i].rep.device_type),
                    r[i].method == SKIN_DQS ? "dqs" : "lbs", r[i].vertices, r[i].rep.cpu_ns_per_frame,
                    r[i].rep.gpu_ns_per_frame, r[i].rep.gpu_timestamps ? "timestamps" : "submit-to-fence",
                    r[i].rep.gpu_submit_ns_per_frame, r[i].rep.frames,
                    skin_vk_memory_mode_name(r[i].rep.ring_mode),
                    r[i].rep.recommended == SKIN_VK_PATH_GPU ? "gpu" : "cpu",
                    i == n - 1 && p == 1 ? "" : ",");
        }
    fprintf(f, "]\n");
    return fclose(f) == 0;
}

int skin_bench_gpu(int quick, const char *device, const char *json, FILE *out)
{
    if (!out) out = stdout;
    vkb vk;
    vkb_options o = {.app_name = "skin-bench", .queue_flags = VK_QUEUE_COMPUTE_BIT, .device = device};
    char why[128];
    int st = vkb_create(&o, &vk, why, sizeof why);
    if (st != VKB_OK) {
        fprintf(stderr, "skin-bench --gpu: %s\n", why);
        return st == VKB_NO_DEVICE ? 1 : -1;
    }
    static const size_t sizes[3] = {10000, 100000, 1000000};
    record rec[6];
    int n = 0, rc = 0;
    int cpu_type = vk.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    fprintf(out, "\nCPU path vs GPU path: %s (%s), LBS/DQS 4 influences p+n+t, float output, "
                 "median of %d frames after %d warm-up\n",
            vk.props.deviceName, cpu_type ? "software Vulkan (CPU)" : vkb_device_type_name(vk.props.deviceType),
            FRAMES, WARMUP);
    if (cpu_type)
        fprintf(out, "  (software Vulkan: its \"GPU\" path runs on this CPU's threads, sharing the cores\n"
                     "  with the CPU path, so no CPU-vs-GPU ratio is drawn from it)\n");
    fprintf(out, "  %-6s %9s %14s %14s %14s %9s  %s\n", "method", "vertices", "cpu ns/frame",
            "gpu ns/frame", "gpu submit", "cpu/gpu", "recommended");
    for (int s = quick ? 1 : 0; s < (quick ? 2 : 3) && rc == 0; ++s)
        for (int m = 0; m < 2 && rc == 0; ++m) {
            rig r;
            rig_options ro = {sizes[s], 64, 4, SKIN_JOINT_U16, SKIN_WEIGHT_F32, 0, 4242 + (uint64_t)s};
            if (rig_random(&r, &ro)) {
                rc = -1;
                break;
            }
            skin_vk_path_query q = {.physical_device = vk.phys, .device = vk.device,
                                    .queue_family_index = vk.family, .queue = vk.queue,
                                    .mesh = &r.mesh, .palette = &r.palette,
                                    .method = m ? SKIN_DQS : SKIN_LBS,
                                    .attributes = SKIN_VK_NORMAL | SKIN_VK_TANGENT,
                                    .frames = FRAMES, .warmup = WARMUP};
            record *c = &rec[n];
            c->method = q.method;
            c->vertices = sizes[s];
            VkResult vr = skin_vk_choose_path(&q, &c->rep);
            rig_free(&r);
            if (vr != VK_SUCCESS || !c->rep.measured) {
                fprintf(stderr, "skin-bench --gpu: %s at %zu vertices: %s (VkResult %d)\n",
                        m ? "DQS" : "LBS", sizes[s],
                        c->rep.gpu_reason ? c->rep.gpu_reason : "measurement failed", (int)vr);
                rc = -1;
                break;
            }
            char ratio[16] = "-";
            if (!cpu_type) snprintf(ratio, sizeof ratio, "%.2f", c->rep.cpu_ns_per_frame / c->rep.gpu_ns_per_frame);
            fprintf(out, "  %-6s %9zu %14.0f %14.0f %14.0f %9s  %s%s\n", m ? "DQS" : "LBS",
                    sizes[s], c->rep.cpu_ns_per_frame, c->rep.gpu_ns_per_frame,
                    c->rep.gpu_submit_ns_per_frame, ratio,
                    c->rep.recommended == SKIN_VK_PATH_GPU ? "GPU" : "CPU",
                    c->rep.gpu_timestamps ? "" : " (GPU by submit -> fence)");
            ++n;
        }
    if (rc == 0 && json && !write_json(json, rec, n)) {
        fprintf(stderr, "skin-bench --gpu: cannot write %s\n", json);
        rc = -1;
    }
    vkb_destroy(&vk);
    return rc;
}
