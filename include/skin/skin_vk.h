/* SPDX-License-Identifier: MIT */
/*
 * skin_vk — streams skinned vertices into Vulkan vertex buffers.
 *
 * Bring your own device: every function works on the VkPhysicalDevice,
 * VkDevice and queue family you pass; nothing here creates an instance or a
 * device, and only skin_vk_choose_path's measurement submits work (to the
 * queue you give it).
 *
 * The stream ring is one persistently mapped buffer split into region_count
 * regions (one per frame in flight), each with a command buffer and a fence
 * of the caller's (cmd[], fence[] below).  Per frame:
 *
 *   skin_vk_frame f;
 *   skin_vk_stream_acquire(ring, UINT64_MAX, &f);      // waits for the GPU if needed
 *   skin_vk_slot s;
 *   skin_vk_frame_alloc(ring, &f, mesh.vertex_count, &layout, &s);
 *   skin_mesh_parallel(&mesh, &palette, SKIN_LBS, &s.output, 0); // any layout
 *   //   or skin_vk_skin(&s, &mesh, &palette, SKIN_LBS, 0, n): range checked
 *   VkCommandBuffer c = cmd[f.region]; VkFence fe = fence[f.region];
 *   vkResetFences(dev, 1, &fe); vkBeginCommandBuffer(c, ...); // after acquire, see below
 *   skin_vk_stream_commit(ring, &f, c, fe);            // flush / record staging copy
 *   vkCmdBindVertexBuffers(c, 0, 1, &s.buffer, &s.offset); draw; end; submit(c, fe)
 *
 * Conventions:
 *  - Ring and GPU functions return VkResult (skin_vk_frame_alloc too, which
 *    calls no Vulkan function, so that "region full" reads like Vulkan's
 *    VK_ERROR_OUT_OF_POOL_MEMORY).  Bad arguments and misuse return
 *    VK_ERROR_VALIDATION_FAILED_EXT and change nothing.  Helpers that never
 *    touch Vulkan objects (layouts, skin_vk_skin) return skin_status.
 *  - Destroy functions accept NULL.
 *  - A skin_vk_stream is externally synchronised: one thread at a time may
 *    call the functions that take a non-const stream.  skin_vk_skin may run
 *    on any number of threads at once on disjoint vertex ranges.
 */
#ifndef SKIN_SKIN_VK_H
#define SKIN_SKIN_VK_H

#include <vulkan/vulkan.h>

#include "skin/skin.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(SKIN_SHARED)
#  ifdef SKIN_VK_BUILDING
#    define SKIN_VK_API __declspec(dllexport)
#  else
#    define SKIN_VK_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define SKIN_VK_API __attribute__((visibility("default")))
#else
#  define SKIN_VK_API
#endif

/* ---------------------------------------------------------- vertex layout */

/** Attributes written besides the position (always present). */
#define SKIN_VK_NORMAL (1u << 0)
#define SKIN_VK_TANGENT (1u << 1)

typedef enum skin_vk_packing {
    /** Normals R32G32B32_SFLOAT, tangents R32G32B32A32_SFLOAT (40 B/vertex
     *  with both).  skin_mesh / skin_mesh_parallel can write it directly. */
    SKIN_VK_PACK_FLOAT = 0,
    /** Normals and tangents A2B10G10R10_SNORM_PACK32 (x in the low bits; the
     *  tangent's w sign in the 2-bit alpha, 0 for normals): 20 B/vertex. */
    SKIN_VK_PACK_1010102 = 1,
    /** Normals and tangents R16G16B16A16_SNORM (normal w = 0): 28 B/vertex. */
    SKIN_VK_PACK_SNORM16 = 2
} skin_vk_packing;

/** One interleaved vertex: float3 position at offset 0, then the normal,
 *  then the tangent.  Use the formats and offsets for
 *  VkVertexInputAttributeDescription and stride for the binding. */
typedef struct skin_vk_vertex_layout {
    uint32_t attributes;       /**< SKIN_VK_NORMAL | SKIN_VK_TANGENT bits */
    skin_vk_packing packing;
    uint32_t stride;           /**< bytes per vertex */
    uint32_t normal_offset;    /**< bytes; 0 when there is no normal */
    uint32_t tangent_offset;   /**< bytes; 0 when there is no tangent */
    VkFormat position_format;  /**< always VK_FORMAT_R32G32B32_SFLOAT */
    VkFormat normal_format;    /**< VK_FORMAT_UNDEFINED when absent */
    VkFormat tangent_format;   /**< VK_FORMAT_UNDEFINED when absent */
} skin_vk_vertex_layout;

/** Fills *layout for the attribute bits and packing.  SKIN_ERROR_INVALID_FLAGS
 *  for unknown attribute bits, SKIN_ERROR_INVALID_FORMAT for an unknown
 *  packing.  Thread-safe; no Vulkan call. */
SKIN_VK_API skin_status skin_vk_vertex_layout_init(uint32_t attributes, skin_vk_packing packing,
                                                   skin_vk_vertex_layout *layout);

/* ------------------------------------------------------------ stream ring */

typedef enum skin_vk_memory_mode {
    /** Mapped DEVICE_LOCAL|HOST_VISIBLE memory: unified memory (mobile,
     *  integrated) or resizable BAR on desktop.  The GPU reads what the CPU
     *  wrote, no copy. */
    SKIN_VK_MEMORY_DEVICE_LOCAL = 1,
    /** Mapped HOST_VISIBLE|HOST_COHERENT system memory (not cached, where
     *  the device offers that kind): the GPU reads it over the bus. */
    SKIN_VK_MEMORY_HOST_COHERENT = 2,
    /** Mapped memory handled as non-coherent: commit flushes the written
     *  range (rounded to nonCoherentAtomSize). */
    SKIN_VK_MEMORY_HOST_NONCOHERENT = 3,
    /** Host-visible staging ring plus a DEVICE_LOCAL vertex buffer: commit
     *  records vkCmdCopyBuffer and a barrier into your command buffer
     *  (discrete GPUs without resizable BAR). */
    SKIN_VK_MEMORY_STAGING = 4
} skin_vk_memory_mode;

/** Lower-case name of a mode ("device-local", ...); never NULL. */
SKIN_VK_API const char *skin_vk_memory_mode_name(skin_vk_memory_mode mode);

/** Use the staging path even when mapped device memory exists. */
#define SKIN_VK_FORCE_STAGING (1u << 0)
/** Flush written ranges explicitly even if the memory is coherent. */
#define SKIN_VK_FORCE_NONCOHERENT (1u << 1)
#define SKIN_VK_ALL_FLAGS (SKIN_VK_FORCE_STAGING | SKIN_VK_FORCE_NONCOHERENT)

typedef struct skin_vk_stream_create_info {
    VkPhysicalDevice physical_device;
    VkDevice device;
    /** The family of the queue that submits the frames (reads the buffers
     *  and runs the staging copy): the buffers are VK_SHARING_MODE_EXCLUSIVE
     *  and first used there.  Must be a family of physical_device, else
     *  VK_ERROR_VALIDATION_FAILED_EXT. */
    uint32_t queue_family_index;
    /** Bytes per region, i.e. per frame; rounded up to the alignment. */
    VkDeviceSize region_size;
    /** Frames in flight; 0 means 2.  At most 16. */
    uint32_t region_count;
    uint32_t flags;                  /**< SKIN_VK_FORCE_* bits */
    /** Extra usage bits for the buffer the GPU reads (e.g. INDEX_BUFFER),
     *  given to vkCreateBuffer as they are.  With SHADER_DEVICE_ADDRESS
     *  (which needs the device's bufferDeviceAddress feature) its memory is
     *  allocated with VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT. */
    VkBufferUsageFlags extra_usage;
    /** Staging mode only: stage and access of the first use after the copy;
     *  both 0 means VK_PIPELINE_STAGE_VERTEX_INPUT_BIT and
     *  VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT; one of them 0 is
     *  VK_ERROR_VALIDATION_FAILED_EXT (a default access may not suit the
     *  stage given, or the reverse). */
    VkPipelineStageFlags staging_dst_stage;
    VkAccessFlags staging_dst_access;
    const VkAllocationCallbacks *allocator; /**< may be NULL */
    /** Optional loader: when set, every Vulkan function is fetched through
     *  it from `instance` (and vkGetDeviceProcAddr); when NULL, the functions
     *  of the linked Vulkan loader are called directly. */
    PFN_vkGetInstanceProcAddr get_instance_proc_addr;
    VkInstance instance;
} skin_vk_stream_create_info;

typedef struct skin_vk_stream skin_vk_stream;

/**
 * Creates the ring: buffer(s) of region_count * region_size bytes with usage
 * VERTEX_BUFFER | STORAGE_BUFFER | TRANSFER_SRC | TRANSFER_DST (+ extra_usage),
 * memory chosen in this order: DEVICE_LOCAL|HOST_VISIBLE when the ring needs
 * at most half of that heap (a 256 MiB BAR window is not exhausted);
 * HOST_VISIBLE|HOST_COHERENT system memory, not CACHED; any HOST_VISIBLE
 * system memory (flushed when not coherent); staging when forced or when none of these
 * suits the buffer, is large enough or can allocate it (an allocation
 * failing with out-of-memory falls through to the next choice).
 * skin_vk_stream_mode() reports the choice.  Test hook: the environment
 * variable SKIN_VK_TEST_BAR_HEAP=BYTES makes DEVICE_LOCAL|HOST_VISIBLE heaps
 * count as that small for this choice.  The memory
 * stays mapped until destroy.  Region offsets are multiples of
 * skin_vk_stream_alignment().
 *
 * Returns VK_SUCCESS; VK_ERROR_VALIDATION_FAILED_EXT for bad arguments;
 * VK_ERROR_INITIALIZATION_FAILED when get_instance_proc_addr cannot find a
 * function; VK_ERROR_OUT_OF_DEVICE_MEMORY when the size exceeds the memory heap (checked
 * before asking Vulkan) or the allocation fails; VK_ERROR_OUT_OF_HOST_MEMORY;
 * or the failing Vulkan call's error.  On failure *stream is NULL and nothing
 * is left allocated.
 * Thread safety: may run concurrently with anything; it only creates new
 * objects on the device (no queue or command buffer use).
 */
SKIN_VK_API VkResult skin_vk_stream_create(const skin_vk_stream_create_info *info,
                                           skin_vk_stream **stream);

/** Frees the buffers and memory.  The GPU must be done with every region
 *  (wait for their fences or vkDeviceWaitIdle first).  Accepts NULL.
 *  Thread safety: externally synchronised on stream. */
SKIN_VK_API void skin_vk_stream_destroy(skin_vk_stream *stream);

/** The chosen mode, whether commit flushes (non-coherent memory), the region
 *  size and count after rounding, and the sub-allocation alignment:
 *  max(nonCoherentAtomSize, minStorageBufferOffsetAlignment, 64).
 *  Thread-safe (reads only). */
SKIN_VK_API skin_vk_memory_mode skin_vk_stream_mode(const skin_vk_stream *stream);
SKIN_VK_API VkBool32 skin_vk_stream_flushes(const skin_vk_stream *stream);
SKIN_VK_API VkDeviceSize skin_vk_stream_region_size(const skin_vk_stream *stream);
SKIN_VK_API uint32_t skin_vk_stream_region_count(const skin_vk_stream *stream);
SKIN_VK_API VkDeviceSize skin_vk_stream_alignment(const skin_vk_stream *stream);

/** One acquired region.  Treat as read-only; pass it back to alloc/commit. */
typedef struct skin_vk_frame {
    uint32_t region;      /**< 0 .. region_count-1 */
    void *mapped;         /**< host pointer of the region (write-only memory) */
    VkBuffer buffer;      /**< the buffer the GPU reads (bind this) */
    VkDeviceSize offset;  /**< region start in buffer */
    VkDeviceSize size;    /**< region size */
} skin_vk_frame;

/**
 * Acquires the next region in round-robin order.  If the region was committed
 * with a fence, waits for that fence (up to timeout ns) and then forgets it:
 * reset and reuse your fence only after acquire has returned for that region,
 * and keep it alive until then (or until the stream is destroyed).
 * Returns VK_SUCCESS; VK_TIMEOUT (nothing changes; call again);
 * VK_ERROR_TOO_MANY_OBJECTS when that region is still acquired and not
 * committed (more regions acquired than exist); or the fence wait's error.
 * Thread safety: externally synchronised on stream.
 */
SKIN_VK_API VkResult skin_vk_stream_acquire(skin_vk_stream *stream, uint64_t timeout,
                                            skin_vk_frame *frame);

/**
 * Where one mesh's vertices go in an acquired region: an interleaved block of
 * vertex_count * layout->stride bytes at an aligned offset.
 * output is ready for skin_mesh / skin_mesh_parallel for every packing
 * (strided layout, SKIN_OUTPUT_STREAMING set, vector_format matching the
 * packing; you may add SKIN_OUTPUT_NORMALIZE or bounds).
 */
typedef struct skin_vk_slot { /* filled in by the ring: change none of it */
    VkBuffer buffer;       /**< bind this ... */
    VkDeviceSize offset;   /**< ... at this offset (vkCmdBindVertexBuffers) */
    void *mapped;          /**< host address of vertex 0 */
    size_t vertex_count;
    skin_vk_vertex_layout layout;
    skin_output output;
} skin_vk_slot;

/**
 * Sub-allocates a slot for vertex_count vertices from the acquired frame.
 * A slot of 0 vertices is empty: its offset may be the buffer's end, so
 * bind nothing for it.
 * Returns VK_SUCCESS; VK_ERROR_OUT_OF_POOL_MEMORY if the region has no room
 * left (nothing is allocated); VK_ERROR_FORMAT_NOT_SUPPORTED if the device
 * cannot read the layout's formats as vertex attributes;
 * VK_ERROR_VALIDATION_FAILED_EXT for bad arguments or a frame that is not
 * acquired now (committed already, or a frame of another stream).  No
 * Vulkan call.
 * Thread safety: externally synchronised on stream (allocate the slots on one
 * thread, then skin them from many).
 */
SKIN_VK_API VkResult skin_vk_frame_alloc(skin_vk_stream *stream, const skin_vk_frame *frame,
                                         size_t vertex_count, const skin_vk_vertex_layout *layout,
                                         skin_vk_slot *slot);

/**
 * Finishes the frame after the CPU wrote it: flushes the written part of the
 * region when the memory is non-coherent; in staging mode records into cmd
 * (required then, ignored otherwise; must be recording, outside a render
 * pass) a vkCmdCopyBuffer of the written part into the device-local buffer
 * and a TRANSFER_WRITE -> staging_dst_access barrier.  Submit the command
 * buffer that draws from the region with `fence`; the next acquire of this
 * region waits for it.  fence may be VK_NULL_HANDLE if you guarantee the GPU
 * is done before the region comes round again.
 * Returns VK_SUCCESS, the flush's error, or VK_ERROR_VALIDATION_FAILED_EXT
 * (nothing done) for bad arguments, a staging ring without cmd, or a frame
 * that is not acquired now: committed twice, or a frame of another stream.
 * Thread safety: externally synchronised on stream and on cmd (like any
 * vkCmd* call); every skinning call into the frame must have returned.
 */
SKIN_VK_API VkResult skin_vk_stream_commit(skin_vk_stream *stream, const skin_vk_frame *frame,
                                           VkCommandBuffer cmd, VkFence fence);

/**
 * Skins vertices [first, first+count) of mesh into slot, for any packing:
 * one skin_mesh call into the slot's layout, the core packing normals and
 * tangents in its store step (the mapped memory is never read), honouring
 * SKIN_OUTPUT_NORMALIZE and bounds from slot->output.  Unlike calling
 * skin_mesh on slot->output directly, it checks the range against the slot
 * and refuses a slot whose layout was changed after allocation (its
 * vertex_count and mapped it trusts: a slot changed there is not checked).
 * mesh->vertex_count must equal slot->vertex_count.
 * Returns skin_mesh's status, or SKIN_ERROR_INVALID_RANGE, or
 * SKIN_ERROR_INVALID_STRIDE if slot->layout was changed after allocation.
 * A slot does not know its frame: skinning into a slot after its frame was
 * committed is the caller's error that no status reports (it writes only
 * the slot's own bytes, which the GPU may be reading).
 * Thread-safe on disjoint ranges; no Vulkan call.
 */
SKIN_VK_API skin_status skin_vk_skin(const skin_vk_slot *slot, const skin_mesh_desc *mesh,
                                     const skin_palette *palette, skin_method method,
                                     size_t first, size_t count);

/* ------------------------------------------------------ GPU compute path */

/*
 * The same math on the GPU, for comparison with the CPU path and as its
 * fallback or replacement where the GPU is faster: compute shaders (built
 * from vk_upload/shaders/skin_lbs.comp and skin_dqs.comp, embedded as SPIR-V)
 * write into slots of the same ring what skin_mesh would write: LBS (with
 * optional normal matrices) and DQS (largest-weight pivot, antipodality,
 * near-zero fallback, optional per-joint scale) as in the CPU kernels; 1..8
 * influences; u8/u16 joints and f32/unorm16/unorm8 weights read as uploaded
 * (never widened); NORMALIZE; float, snorm16 or 1010102 normals/tangents;
 * interleaved or SoA output; any vertex range; morph targets (dense and
 * sparse, applied before skinning as skin_mesh applies them).  The mesh
 * streams and morph targets are uploaded once; each call uploads its
 * palette and its active morph targets into its frame's region and records
 * one dispatch.
 */
typedef struct skin_vk_gpu_create_info {
    VkPhysicalDevice physical_device;
    VkDevice device;
    /** Stage and access of the first use of the output after the dispatch;
     *  both 0 means VK_PIPELINE_STAGE_VERTEX_INPUT_BIT and
     *  VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT; one of them 0 is
     *  VK_ERROR_VALIDATION_FAILED_EXT. */
    VkPipelineStageFlags dst_stage;
    VkAccessFlags dst_access;
    const VkAllocationCallbacks *allocator; /**< may be NULL */
    PFN_vkGetInstanceProcAddr get_instance_proc_addr; /**< as for the ring */
    VkInstance instance;
    /** SKIN_VK_FORCE_STAGING: upload meshes through a staging buffer even
     *  when their device-local memory is host-visible (tests that path). */
    uint32_t flags;
} skin_vk_gpu_create_info;

typedef struct skin_vk_gpu skin_vk_gpu;           /**< pipeline and layouts */
typedef struct skin_vk_gpu_mesh skin_vk_gpu_mesh; /**< one uploaded mesh */

/** Creates the pipeline layout and shader modules.  VK_ERROR_VALIDATION_FAILED_EXT
 *  for bad arguments (including unknown flags), else the failing Vulkan call's error (nothing left behind).
 *  Thread safety: may run concurrently with anything (creates objects). */
SKIN_VK_API VkResult skin_vk_gpu_create(const skin_vk_gpu_create_info *info, skin_vk_gpu **gpu);
/** Destroys the pipeline; every mesh must be destroyed first.  Accepts NULL.
 *  Thread safety: externally synchronised on gpu. */
SKIN_VK_API void skin_vk_gpu_destroy(skin_vk_gpu *gpu);

/**
 * Uploads mesh (positions, and normals/tangents when present, influences in
 * their own formats, not widened, and its morph targets) for palettes of
 * joint_count joints, once,
 * into device-local memory: written in place when that memory is
 * host-visible, else (or with SKIN_VK_FORCE_STAGING) into a host staging
 * buffer whose copy (and a TRANSFER -> COMPUTE_SHADER barrier) the mesh's
 * first skin_vk_gpu_skin call records into its command buffer; that command
 * buffer must be submitted before or with any later use of the mesh.  Palettes are not stored with the mesh: each
 * skin_vk_gpu_skin call takes its own from the frame.
 *
 * Morph targets (mesh->morph_targets) are uploaded as floats, as given, into
 * a storage-buffer binding of their own after the streams: 24 header bytes
 * per target, then per target the delta groups it has for attributes the
 * mesh has (a normal group of a mesh without normals is not uploaded), each
 * 3 planes (x, y, z): dense, 3 * 4 * vertex_count bytes per group; sparse,
 * its index list (4 * count bytes, when it has a group) and 3 * 4 * count
 * bytes per group.  Sparse lists are taken as they are, like skin_mesh takes
 * them: skin_validate checks them; an unsorted or out-of-range list never
 * makes the shader read out of bounds, but its deltas may be applied in
 * part.  The weights come with each call's palette (skin_palette.morph_weights).
 *
 * Returns VK_SUCCESS,
 * VK_ERROR_VALIDATION_FAILED_EXT for a bad mesh (skin_mesh's checks: a
 * partly set delta group, morph_target_count without morph_targets, ...; or
 * no vertices) or arguments (NULL pointers, joint_count 0 or above
 * SKIN_MAX_JOINTS), VK_ERROR_FEATURE_NOT_PRESENT when the device's limits
 * (maxComputeWorkGroupCount[0] * 64 vertices, maxStorageBufferRange for the
 * streams, for the morph targets' bytes above, or for joint_count * 84
 * palette bytes, + 512 when the mesh has morph targets) or the shaders'
 * (2^27 vertices: 32-bit offsets) are too small for the mesh, or an
 * allocation error.  Thread
 * safety: any number of meshes may be created at once from one gpu (it is
 * only read).
 */
SKIN_VK_API VkResult skin_vk_gpu_mesh_create(skin_vk_gpu *gpu, const skin_mesh_desc *mesh,
                                             uint32_t joint_count, skin_vk_gpu_mesh **mesh_out);
/** Frees the mesh's buffers and set; the GPU must be done with them.
 *  Accepts NULL.  Thread safety: externally synchronised on mesh. */
SKIN_VK_API void skin_vk_gpu_mesh_destroy(skin_vk_gpu_mesh *mesh);

/** One GPU skinning call. */
typedef struct skin_vk_gpu_call {
    skin_method method;           /**< SKIN_LBS or SKIN_DQS */
    /** joint_count as at upload; LBS: matrices (and optional
     *  normal_matrices); DQS: dual_quats (and optional scales).
     *  morph_weights: as for skin_mesh (one per morph target of the mesh;
     *  NULL: unmorphed). */
    const skin_palette *palette;
    uint32_t attributes;          /**< SKIN_VK_NORMAL / SKIN_VK_TANGENT; must be in the mesh */
    skin_vk_packing packing;      /**< normals/tangents: float, 1010102 or snorm16 */
    /** SKIN_LAYOUT_STRIDED: one interleaved vertex per element, as
     *  skin_vk_vertex_layout_init(attributes, packing) describes.
     *  SKIN_LAYOUT_SOA (packing must be SKIN_VK_PACK_FLOAT): float planes
     *  px py pz [nx ny nz] [tx ty tz tw] of `count` floats each, plane i at
     *  byte slot->offset + 4 * i * count (same total size). */
    skin_layout layout;
    uint32_t flags;               /**< SKIN_OUTPUT_NORMALIZE (STREAMING is accepted and ignored) */
    size_t first, count;          /**< mesh vertices [first, first+count); count >= 1 */
} skin_vk_gpu_call;

/**
 * Skins vertices [first, first+count) of the uploaded mesh on the GPU into a
 * new slot of the acquired frame: output element i is vertex first + i.
 * The palette (and normal matrices or scales when given, and the active
 * morph targets) is copied into this
 * call's own sub-allocation of the frame's region (joint_count * 48 (+36)
 * bytes for LBS, * 32 (+12) for DQS, + 8 bytes per active morph target,
 * rounded up to the ring's alignment,
 * flushed when the ring flushes), so any number of meshes and instances of
 * one mesh may be skinned in one frame, each with its own palette, until the
 * region is full.  Records into cmd (recording, outside a render pass) the
 * dispatch and a SHADER_WRITE -> dst_access barrier, and binds its compute
 * pipeline, push constants and a descriptor set of the call's own (from
 * descriptor pools the ring keeps per region, created on demand, reset at
 * acquire; at most 2048 calls per frame) covering exactly its palette and
 * slot: rebind your own compute state in cmd afterwards.  The mesh's
 * pipeline for the method is created on the first call that uses it.  GPU
 * slots and palettes are taken from the end of the region, so in staging
 * mode the commit's copy (of the CPU-written start) never covers them; in
 * staging mode the shader reads the palette from the mapped staging buffer.  *slot receives buffer, offset,
 * vertex_count = count and the interleaved layout; slot->mapped is NULL (the
 * GPU writes it).
 *
 * Morph targets, as skin_mesh applies them: the active targets are those
 * whose weight in palette->morph_weights is not zero (at most
 * SKIN_MAX_ACTIVE_MORPH_TARGETS; targets of weight 0 cost nothing, and
 * NULL weights skin unmorphed); each is uploaded as a (target index,
 * weight) pair.  Per vertex the shader adds, in target order, w * delta of
 * each active target to the position, and to the normal and tangent xyz
 * when the call writes them (tangent w untouched), before skinning (LBS
 * and DQS alike): a dense target indexed by vertex, a sparse one at the
 * entry a binary search of the vertex in its index list finds (none: no
 * delta).  The results match skin_mesh's within float rounding (the CPU
 * reference sums in double).
 *
 * Returns VK_SUCCESS, VK_ERROR_OUT_OF_POOL_MEMORY when the region is full or
 * the frame already has 2048 GPU calls (nothing is taken),
 * VK_ERROR_FEATURE_NOT_PRESENT when the slot is larger than
 * maxStorageBufferRange, VK_ERROR_VALIDATION_FAILED_EXT for bad arguments
 * (NULL pointers, a missing palette array, a joint_count mismatch, attributes
 * the mesh lacks, unknown method/packing/layout/flags, SoA with packing, an
 * empty or out-of-range vertex range, a NaN or infinite morph weight, more
 * than SKIN_MAX_ACTIVE_MORPH_TARGETS non-zero morph weights, a frame not
 * acquired now or of another stream), or a flush, pipeline or descriptor error such as
 * VK_ERROR_OUT_OF_HOST_MEMORY.  On any error nothing is taken from the
 * frame and nothing is recorded into cmd.
 * Thread safety: externally synchronised on the stream, the mesh and cmd.
 */
SKIN_VK_API VkResult skin_vk_gpu_skin(skin_vk_gpu_mesh *mesh, skin_vk_stream *stream,
                                      const skin_vk_frame *frame, VkCommandBuffer cmd,
                                      const skin_vk_gpu_call *call, skin_vk_slot *slot);

/* ------------------------------------------------------------ path choice */

typedef enum skin_vk_path {
    SKIN_VK_PATH_CPU = 1, /**< skin_mesh_parallel into the ring */
    SKIN_VK_PATH_GPU = 2  /**< skin_vk_gpu_skin */
} skin_vk_path;

/** What to decide for: a device, a queue to measure on, a mesh and a pose. */
typedef struct skin_vk_path_query {
    VkPhysicalDevice physical_device;
    VkDevice device;
    uint32_t queue_family_index;  /**< the family of queue (needs compute) */
    VkQueue queue;                /**< used only when frames > 0 */
    const skin_mesh_desc *mesh;
    const skin_palette *palette;  /**< as skin_mesh takes it for method */
    skin_method method;
    uint32_t attributes;          /**< SKIN_VK_NORMAL / SKIN_VK_TANGENT (float output) */
    /** 0: only check whether the GPU path can run; else measure this many
     *  frames of each path after `warmup` untimed ones (warmup + frames at
     *  most 2^31 - 1). */
    uint32_t frames, warmup;
    const VkAllocationCallbacks *allocator;            /**< may be NULL */
    PFN_vkGetInstanceProcAddr get_instance_proc_addr; /**< as for the ring */
    VkInstance instance;
} skin_vk_path_query;

typedef struct skin_vk_path_report {
    char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    VkPhysicalDeviceType device_type;
    /** A CPU-type device (lavapipe, SwiftShader): its "GPU" path is threads
     *  on the same CPU. */
    VkBool32 cpu_type_device;
    VkBool32 gpu_supported;   /**< the limits, formats and queue allow the GPU path */
    const char *gpu_reason;   /**< why not (static string), else NULL */
    /** The measured (or, without a measurement, the default) choice:
     *  unmeasured, GPU when supported on a non-CPU device, else CPU;
     *  measured, the path with the smaller median frame time. */
    skin_vk_path recommended;
    VkBool32 measured;
    uint32_t frames;
    /** CPU path: skin_mesh_parallel into the ring, record, submit, fence, on
     *  the CPU clock (median ns per frame). */
    double cpu_ns_per_frame;
    /** GPU path: the dispatch and its barrier by GPU timestamps when the
     *  queue has them (gpu_timestamps), else submit -> fence.  The palette's
     *  copy into the mapped region is a host memcpy, outside the timestamps. */
    double gpu_ns_per_frame;
    double gpu_submit_ns_per_frame; /**< GPU path, submit -> fence, CPU clock */
    VkBool32 gpu_timestamps;
    skin_vk_memory_mode ring_mode;  /**< the measuring ring's memory */
} skin_vk_path_report;

/**
 * Decides between the CPU and the GPU skinning path for this device and
 * mesh.  Always reports the device and whether the GPU path can run
 * (skin_vk_gpu_mesh_create's limits: at least one vertex, workgroup
 * count, 2^27 vertices, storage-buffer ranges for the streams the mesh
 * has, morph targets and palette; and the output's range, push constants,
 * descriptor sets, a compute queue family).  When frames > 0
 * and the GPU path can run, measures both paths on `queue` (a ring of 2
 * regions, a GPU mesh and a command pool of its own, all freed before
 * return) and recommends the faster with its figures.  This submits work to
 * queue and waits for it.
 * Returns VK_SUCCESS (also when the GPU path cannot run: see the report),
 * VK_ERROR_VALIDATION_FAILED_EXT for bad arguments (NULL pointers, frames >
 * 0 without a queue, warmup + frames above 2^31 - 1, an unknown method, a
 * mesh or palette skin_mesh refuses), or the failing Vulkan call's error.
 * Thread safety: externally synchronised on queue; uses no other shared
 * state.
 */
SKIN_VK_API VkResult skin_vk_choose_path(const skin_vk_path_query *query,
                                         skin_vk_path_report *report);

#ifdef __cplusplus
}
#endif

#endif /* SKIN_SKIN_VK_H */
