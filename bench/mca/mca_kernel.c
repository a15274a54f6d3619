/* SPDX-License-Identifier: MIT */
/* llvm-mca harness for scripts/kernel-cost.sh (never part of a build): one
 * block of the kernel, and one of the arithmetic floor (bench/arith.h), for
 * a fixed case, with every run-time choice (formats, attributes, layout,
 * flags) a constant so the region between the markers is the straight-line
 * hot path.  Built with -DSKIN_W=4|8|16 and the ISA's flags.  The only
 * branch left is DQS's rare near-zero fallback, which llvm-mca counts as
 * taken: a slight overestimate for DQS. */
#define SKIN_KERNEL_NAME skin_kernel_mca
#define SKIN_KERNEL_METHOD SKIN_LBS /* the block tables; the cases call skin_block directly */
#include "../../simd/kernel.c"

/* llvm-mca reads its markers from assembler comments */
#if defined(__aarch64__)
#define MCA_COMMENT "//"
#else
#define MCA_COMMENT "#"
#endif

#define MCA_CASE(name, method_, k_)                                                            \
    void mca_##name(const skin_mesh_desc *in_mesh, const skin_palette *pal, float *out);        \
    void mca_##name(const skin_mesh_desc *in_mesh, const skin_palette *pal, float *out)         \
    {                                                                                           \
        skin_mesh_desc mesh = *in_mesh;                                                         \
        mesh.influence_count = k_;                                                              \
        mesh.joint_format = SKIN_JOINT_U16;                                                     \
        mesh.weight_format = SKIN_WEIGHT_F32;                                                   \
        skin_job job;                                                                           \
        memset(&job, 0, sizeof job);                                                            \
        job.mesh = &mesh, job.palette = pal, job.method = method_;                              \
        job.normals = job.tangents = 1, job.joint_max = 63;                                     \
        for (int e = 0; e < SKIN_COMPONENTS; ++e) job.dst[e] = (char *)(out + e), job.dst_stride[e] = 40; \
        kctx c;                                                                                 \
        memset(&c, 0, sizeof c);                                                                \
        c.job = &job, c.jlimit = v_joint_limit(63, 0), c.kind = FETCH_ROWS;                      \
        c.weight_format = SKIN_WEIGHT_F32;                                                      \
        /* only the method's palette, as the kernel's entry sets it */                        \
        if (method_ == SKIN_LBS) c.mat = (source){.base = pal->matrices, .stride = 12};        \
        if (method_ == SKIN_DQS) c.dq = (source){.base = pal->dual_quats, .stride = 8};        \
        inputs in = {{mesh.px, mesh.py, mesh.pz, mesh.nx, mesh.ny, mesh.nz, mesh.tx, mesh.ty, mesh.tz, mesh.tw}, \
                     {0}, {0}, 0};                                                              \
        for (int i = 0; i < k_; ++i) in.joints[i] = mesh.joints[i], in.weights[i] = mesh.weights[i]; \
        writer wr;                                                                              \
        memset(&wr, 0, sizeof wr);                                                              \
        wr.packed = 10;                                                                         \
        __asm__ volatile(MCA_COMMENT " LLVM-MCA-BEGIN " #name ::: "memory");                              \
        vf o[SKIN_COMPONENTS];                                                                  \
        staged st; /* the block's share of the staging pass */                                  \
        if (STAGED) stage_slots(&c, &in, 0, W, k_, &st, method_, 0, 1);                        \
        /* st escapes: stage() is out of line, so the block reads what it  */                  \
        /* staged from memory, not from registers the compiler forwards */                     \
        __asm__ volatile("" : : "r"(&st) : "memory");                                           \
        skin_block(&c, &in, in.a, 0, &st, 0, 0, o, method_, k_, FETCH_ROWS, 1);                   \
        store_packed(&job, wr.stream, o, 0, 10); /* the 40-byte vertex */              \
        __asm__ volatile(MCA_COMMENT " LLVM-MCA-END " #name ::: "memory");                                \
    }

MCA_CASE(lbs4, SKIN_LBS, 4)
MCA_CASE(dqs4, SKIN_DQS, 4)

/* The arithmetic floor's block: LBS-4's arithmetic alone (bench/arith.h). */
#define ARITH_WIDE 1 /* no arith_for */
#define ARITH_FN mca_arith_run
#include "../arith.c"

void mca_arith4(const arith_job *job);
void mca_arith4(const arith_job *job)
{
    __asm__ volatile(MCA_COMMENT " LLVM-MCA-BEGIN arith4" ::: "memory");
    arith_blocks(job, 0, W, 4);
    __asm__ volatile(MCA_COMMENT " LLVM-MCA-END arith4" ::: "memory");
}
