// SPDX-License-Identifier: MIT
// skin's WebAssembly module on typed arrays.  Lives beside skin.mjs and
// skin.wasm (the build copies it there):
//
//   import { loadSkin } from './skin-wasm.mjs';
//   const skin = await loadSkin();
//   const mesh = skin.createMesh({ positions, normals, joints, weights });
//   mesh.setPalette(matrices, '4x4');           // 16 floats per joint, column-major
//   mesh.skin('lbs', { positions: outP, normals: outN });
//   mesh.free();
//
// Inputs are as three.js's BufferAttributes hold them: xyz per vertex
// interleaved, 4 joints (Uint8Array or Uint16Array) and 4 weights
// (Float32Array, or normalised Uint16Array / Uint8Array) per vertex.  They
// are copied into module memory once, as skin's planar streams.  Errors
// throw a SkinError carrying skin's status and its text; module memory is
// freed on every path.
import createSkinModule from './skin.mjs';

// skin_status values (include/skin/skin.h) the wrapper reports itself.
const NULL_ARGUMENT = -1, INVALID_COUNT = -2, INVALID_FORMAT = -5, INVALID_METHOD = -7,
  MISSING_ATTRIBUTE = -9;
const METHODS = { lbs: 1, dqs: 2 };
const JOINT_FORMATS = new Map([[Uint8Array, 1], [Uint16Array, 2]]);
const WEIGHT_FORMATS = new Map([[Float32Array, 1], [Uint16Array, 2], [Uint8Array, 3]]);
const ISAS = ['auto', 'scalar', 'sse2', 'avx2', 'avx512', 'neon', 'simd128'];

export class SkinError extends Error {
  constructor(status, text, what) {
    super(`skin: ${what}: ${text}`);
    this.name = 'SkinError';
    this.status = status;
    this.statusText = text;
  }
}

const isNode = typeof process === 'object' && !!process.versions?.node;

// Loads the module.  options.wasmUrl: where skin.wasm is (default: beside
// this file).  Under node the bytes are read from disk (the module is built
// for the web, and node's fetch takes no file URLs).
export async function loadSkin(options = {}) {
  const wasmUrl = options.wasmUrl ?? new URL('./skin.wasm', import.meta.url);
  const args = {};
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    args.wasmBinary = await readFile(wasmUrl);
  } else {
    args.locateFile = (path, dir) => (path.endsWith('.wasm') ? String(wasmUrl) : dir + path);
  }
  return new Skin(await createSkinModule(args));
}

export class Skin {
  constructor(module) {
    this.module = module;
  }

  statusText(status) {
    return this.module.UTF8ToString(this.module._skin_status_string(status));
  }

  check(status, what) {
    if (status !== 0) throw new SkinError(status, this.statusText(status), what);
  }

  fail(status, what) {
    throw new SkinError(status, this.statusText(status), what);
  }

  // The kernel set in use: 'simd128' or 'scalar'.
  get isa() {
    return ISAS[this.module._skin_get_isa()] ?? 'unknown';
  }

  // Forces a kernel set ('scalar', 'simd128', or 'auto' for the best).
  setIsa(name) {
    const isa = ISAS.indexOf(name);
    this.check(isa < 0 ? INVALID_FORMAT : this.module._skin_set_isa(isa), `setIsa('${name}')`);
  }

  get version() {
    return this.module.UTF8ToString(this.module._skin_version_string());
  }

  // Bytes of module memory malloc has handed out and not taken back.
  get heapUsed() {
    return this.module._skin_wasm_heap_used();
  }

  createMesh({ positions, normals, joints, weights }) {
    const what = 'createMesh';
    if (!(positions instanceof Float32Array) || !(joints && weights)) this.fail(NULL_ARGUMENT, what);
    const vertexCount = positions.length / 3;
    if (!Number.isInteger(vertexCount) || vertexCount === 0) this.fail(INVALID_COUNT, `${what}: positions`);
    if (normals != null && !(normals instanceof Float32Array)) this.fail(INVALID_FORMAT, `${what}: normals`);
    if (normals != null && normals.length !== positions.length) this.fail(INVALID_COUNT, `${what}: normals`);
    const jointFormat = JOINT_FORMATS.get(joints.constructor);
    const weightFormat = WEIGHT_FORMATS.get(weights.constructor);
    if (!jointFormat) this.fail(INVALID_FORMAT, `${what}: joints (Uint8Array or Uint16Array)`);
    if (!weightFormat) this.fail(INVALID_FORMAT, `${what}: weights (Float32Array, Uint16Array or Uint8Array)`);
    if (joints.length !== 4 * vertexCount) this.fail(INVALID_COUNT, `${what}: joints (4 per vertex)`);
    if (weights.length !== 4 * vertexCount) this.fail(INVALID_COUNT, `${what}: weights (4 per vertex)`);

    // One staging block: the out-parameters, then each input 16-byte aligned.
    const M = this.module;
    const pieces = [8, positions.byteLength, normals ? normals.byteLength : 0, weights.byteLength,
      joints.byteLength];
    const offsets = [];
    let bytes = 0;
    for (const n of pieces) offsets.push(bytes), (bytes += (n + 15) & ~15);
    const stage = M._malloc(bytes);
    if (!stage) this.fail(INVALID_COUNT, `${what}: out of module memory`);
    try {
      const at = (i) => stage + offsets[i];
      M.HEAPU8.set(new Uint8Array(positions.buffer, positions.byteOffset, positions.byteLength), at(1));
      if (normals) M.HEAPU8.set(new Uint8Array(normals.buffer, normals.byteOffset, normals.byteLength), at(2));
      M.HEAPU8.set(new Uint8Array(weights.buffer, weights.byteOffset, weights.byteLength), at(3));
      M.HEAPU8.set(new Uint8Array(joints.buffer, joints.byteOffset, joints.byteLength), at(4));
      const status = M._skin_wasm_mesh_create(vertexCount, at(1), normals ? at(2) : 0, jointFormat, at(4),
        weightFormat, at(3), stage, stage + 4);
      const badVertex = M.HEAPU32[(stage + 4) >> 2];
      // skin_validate's statuses (-11 .. -14) name the first vertex at fault.
      this.check(status, status <= -11 && status >= -14 ? `${what}: vertex ${badVertex}` : what);
      return new SkinMesh(this, M.HEAPU32[stage >> 2], vertexCount, !!normals);
    } finally {
      M._free(stage);
    }
  }
}

export class SkinMesh {
  constructor(skin, handle, vertexCount, hasNormals) {
    this.owner = skin;
    this.handle = handle;
    this.vertexCount = vertexCount;
    this.hasNormals = hasNormals;
  }

  live(what) {
    if (!this.handle) this.owner.fail(NULL_ARGUMENT, `${what}: the mesh was freed`);
    return this.owner.module;
  }

  // matrices: per joint 16 floats, 4x4 column-major (three.js's
  // Matrix4.elements, glTF), or 12 floats, 3x4 row-major (skin's own).
  setPalette(matrices, layout = '4x4') {
    const M = this.live('setPalette');
    const per = layout === '4x4' ? 16 : layout === '3x4' ? 12 : 0;
    if (!per) this.owner.fail(INVALID_FORMAT, `setPalette: layout '${layout}' ('4x4' or '3x4')`);
    if (!(matrices instanceof Float32Array)) this.owner.fail(INVALID_FORMAT, 'setPalette: a Float32Array');
    const joints = matrices.length / per;
    if (!Number.isInteger(joints) || joints === 0) this.owner.fail(INVALID_COUNT, `setPalette: ${layout}`);
    const input = M._skin_wasm_palette_input(this.handle, joints);
    if (!input) this.owner.fail(INVALID_COUNT, `setPalette: ${joints} joints`);
    M.HEAPF32.set(matrices, input >> 2);
    this.owner.check(M._skin_wasm_set_palette(this.handle, joints, per), `setPalette: ${joints} joints`);
  }

  // Skins every vertex with the palette set last; writes interleaved xyz
  // into out.positions (and out.normals when given), Float32Arrays of
  // 3 * vertexCount, made when absent.  Returns out.
  skin(method = 'lbs', out = {}) {
    const M = this.live('skin');
    const code = METHODS[method];
    if (!code) this.owner.fail(INVALID_METHOD, `skin: method '${method}' ('lbs' or 'dqs')`);
    const n = 3 * this.vertexCount;
    const wantNormals = out.normals != null;
    if (wantNormals && !this.hasNormals) this.owner.fail(MISSING_ATTRIBUTE, 'skin: normals');
    for (const key of ['positions', 'normals']) {
      const a = out[key];
      if (a != null && (!(a instanceof Float32Array) || a.length !== n))
        this.owner.fail(INVALID_COUNT, `skin: out.${key} (a Float32Array of ${n})`);
    }
    this.owner.check(M._skin_wasm_skin(this.handle, code, wantNormals ? 1 : 0), `skin('${method}')`);
    out.positions ??= new Float32Array(n);
    const p = M._skin_wasm_positions(this.handle) >> 2;
    out.positions.set(M.HEAPF32.subarray(p, p + n));
    if (wantNormals) {
      const q = M._skin_wasm_normals(this.handle) >> 2;
      out.normals.set(M.HEAPF32.subarray(q, q + n));
    }
    return out;
  }

  free() {
    if (this.handle) this.owner.module._skin_wasm_mesh_free(this.handle);
    this.handle = 0;
  }
}
