/* SPDX-License-Identifier: MIT */
/* Links against the installed skin and skins one vertex with
 * skin_mesh_parallel, which brings in what a static libskin needs
 * (the kernels, libm, pthreads). */
#include <skin/skin.h>

#include <stdint.h>
#include <stdio.h>

int main(void)
{
    static const float matrix[12] = {1, 0, 0, 2, 0, 1, 0, 0, 0, 0, 1, 0}; /* x + 2 */
    static const float px = 1, py = 2, pz = 3, weight = 1;
    static const uint8_t joint = 0;
    skin_mesh_desc mesh = {0};
    mesh.vertex_count = 1;
    mesh.px = &px;
    mesh.py = &py;
    mesh.pz = &pz;
    mesh.influence_count = 1;
    mesh.joint_format = SKIN_JOINT_U8;
    mesh.weight_format = SKIN_WEIGHT_F32;
    mesh.joints[0] = &joint;
    mesh.weights[0] = &weight;
    skin_palette palette = {0};
    palette.joint_count = 1;
    palette.matrices = matrix;
    float p[3] = {0, 0, 0};
    skin_output out = {0};
    out.position = p;
    out.position_stride = sizeof p;
    skin_status s = skin_mesh_parallel(&mesh, &palette, SKIN_LBS, &out, 2);
    printf("consumer: skin %s (threads %d, isa %d): %s, (1 2 3) -> (%g %g %g)\n",
           skin_version_string(), skin_has_threads(), (int)skin_get_isa(), skin_status_string(s),
           p[0], p[1], p[2]);
    return s == SKIN_OK && p[0] == 3 && p[1] == 2 && p[2] == 3 && skin_version() == SKIN_VERSION ? 0 : 1;
}
