#version 450
// SPDX-License-Identifier: MIT
// Skinned position and normal come from the skin_vk ring (binding 0); the
// static "around" coordinate (binding 1) paints stripes that show the twist;
// the difference view colours each vertex (binding 2).
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in float in_around;
layout(location = 3) in vec4 in_color;

layout(push_constant) uniform Push {
    mat4 mvp;
    vec4 color;  // a = 1: this colour, striped; a = 0: the vertex colours
    vec4 light;  // world-space direction towards the light
    vec4 view;   // world-space direction towards the camera
} pc;

layout(location = 0) out vec3 v_normal;
layout(location = 1) out float v_around;
layout(location = 2) out vec3 v_color;

void main()
{
    gl_Position = pc.mvp * vec4(in_position, 1.0);
    v_normal = in_normal;
    v_around = in_around;
    v_color = in_color.rgb;
}
