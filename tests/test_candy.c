/* SPDX-License-Identifier: MIT */
/* The candy-wrapper artefact, measured: a two-joint cylinder whose second
 * joint is twisted 180 degrees about the axis.  At the middle cross-section
 * (equal weights) LBS blends opposite rotations and collapses the radius;
 * DQS blends to a 90-degree rotation and keeps it.  Checks, for every ring of
 * vertices nearest the middle: DQS radius within 2% of the rest radius,
 * LBS radius below 10% of it. */
#include "check.h"
#include "rig.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    rig r;
    rig_options o = {4096, 2, 2, SKIN_JOINT_U16, SKIN_WEIGHT_F32, 0, 1};
    if (rig_candy_wrapper(&r, &o)) return 1;
    const size_t n = r.mesh.vertex_count;
    /* Plain compares, not fmin/fmax reductions: those hit an internal error
     * in the aarch64 cross gcc 12's vectoriser at -O3. */
    double lo = INFINITY, hi = -INFINITY;
    for (size_t v = 0; v < n; ++v) {
        if (r.mesh.px[v] < lo) lo = r.mesh.px[v];
        if (r.mesh.px[v] > hi) hi = r.mesh.px[v];
    }
    const double mid = 0.5 * (lo + hi);
    double nearest = INFINITY; /* the ring closest to the middle */
    for (size_t v = 0; v < n; ++v)
        if (fabs(r.mesh.px[v] - mid) < nearest) nearest = fabs(r.mesh.px[v] - mid);
    rig_candy_pose(&r, 3.14159265358979f);
    float *o3 = malloc(3 * n * sizeof(float));
    skin_output out;
    memset(&out, 0, sizeof out);
    out.layout = SKIN_LAYOUT_SOA, out.soa[0] = o3, out.soa[1] = o3 + n, out.soa[2] = o3 + 2 * n;
    for (int method = SKIN_LBS; method <= SKIN_DQS; ++method) {
        CHECK_STATUS(skin_mesh(&r.mesh, &r.palette, (skin_method)method, &out, 0, n), SKIN_OK);
        double smallest = INFINITY, largest = 0, rest = 0;
        size_t ring = 0;
        for (size_t v = 0; v < n; ++v) {
            if (fabs(r.mesh.px[v] - mid) > nearest + 1e-6) continue;
            rest = hypot(r.mesh.py[v], r.mesh.pz[v]);
            double rad = hypot(o3[n + v], o3[2 * n + v]) / rest;
            smallest = fmin(smallest, rad), largest = fmax(largest, rad);
            ++ring;
        }
        CHECK(ring >= 8);
        printf("  %s: mid cross-section radius %.4f..%.4f of rest (%zu vertices, rest radius %.3f)\n",
               method == SKIN_DQS ? "DQS" : "LBS", smallest, largest, ring, rest);
        if (method == SKIN_DQS) CHECK(smallest >= 0.98 && largest <= 1.02);
        else CHECK(largest < 0.10);
    }
    free(o3);
    rig_free(&r);
    return check_finish("test_candy");
}
