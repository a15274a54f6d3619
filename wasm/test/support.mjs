// SPDX-License-Identifier: MIT
// What the tests (and bench/web) share: the two builds of the module, the
// characters as three.js loads them, seeded random rigs, and the comparisons.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { pathToFileURL, fileURLToPath } from 'node:url';
import path from 'node:path';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The module directories: SKIN_WASM_DIR (default build-wasm/wasm, the
// SIMD128 build) and SKIN_WASM_SCALAR_DIR (default build-wasm-scalar/wasm,
// the SKIN_SIMD=OFF build); null when that build is not there.
export async function loadBuild(variable, fallback) {
  const dir = process.env[variable] || path.join(root, fallback);
  try {
    const { loadSkin } = await import(pathToFileURL(path.join(dir, 'skin-wasm.mjs')));
    return await loadSkin();
  } catch (e) {
    if (e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'ENOENT') return null;
    throw e;
  }
}
export const loadSimd = () => loadBuild('SKIN_WASM_DIR', 'build-wasm/wasm');
export const loadScalar = () => loadBuild('SKIN_WASM_SCALAR_DIR', 'build-wasm-scalar/wasm');

export async function importThreeSkin() {
  const dir = process.env.SKIN_WASM_DIR || path.join(root, 'build-wasm/wasm');
  return import(pathToFileURL(path.join(dir, 'three-skin.mjs')));
}

export const MODELS = process.env.SKIN_MODELS_DIR || '/usr/share/assimp/models';

// The model as three.js loads it: .X -> .glb with assimp, then GLTFLoader.
export async function loadCharacter(file) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skin-wasm-'));
  try {
    const glb = path.join(dir, 'model.glb');
    execFileSync('assimp', ['export', path.join(MODELS, file), glb], { stdio: 'ignore' });
    const bytes = readFileSync(glb);
    return await new GLTFLoader().parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length), '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// mulberry32: small, seeded, good enough for test data.
export function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A 4x4 column-major matrix: rotation by a random unit quaternion, scale
// (uniform, near 1), translation.
export function randomMatrix(rand, scale = 1) {
  let [x, y, z, w] = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
  const n = Math.hypot(x, y, z, w);
  (x /= n), (y /= n), (z /= n), (w /= n);
  const s = scale;
  return [
    s * (1 - 2 * (y * y + z * z)), s * 2 * (x * y + z * w), s * 2 * (x * z - y * w), 0,
    s * 2 * (x * y - z * w), s * (1 - 2 * (x * x + z * z)), s * 2 * (y * z + x * w), 0,
    s * 2 * (x * z + y * w), s * 2 * (y * z - x * w), s * (1 - 2 * (x * x + y * y)), 0,
    4 * rand() - 2, 4 * rand() - 2, 4 * rand() - 2, 1,
  ];
}

// vertexCount vertices in [-1, 1]^3 with unit normals, `influences` (1..4)
// non-zero weights of 4 slots (the rest zero, as meshes store them), joints
// below jointCount.
export function randomRig(rand, { vertexCount, influences, jointCount, jointType = Uint8Array }) {
  const positions = new Float32Array(3 * vertexCount), normals = new Float32Array(3 * vertexCount);
  const joints = new jointType(4 * vertexCount), weights = new Float32Array(4 * vertexCount);
  for (let v = 0; v < vertexCount; ++v) {
    const n = [rand() - 0.5, rand() - 0.5, rand() - 0.5], len = Math.hypot(...n) || 1;
    for (let c = 0; c < 3; ++c) (positions[3 * v + c] = 2 * rand() - 1), (normals[3 * v + c] = n[c] / len);
    let sum = 0;
    for (let i = 0; i < influences; ++i) sum += weights[4 * v + i] = 0.05 + rand();
    for (let i = 0; i < 4; ++i) {
      if (i < influences) weights[4 * v + i] /= sum;
      joints[4 * v + i] = Math.floor(rand() * jointCount);
    }
  }
  return { positions, normals, joints, weights };
}

export function randomPalette(rand, jointCount, scale = () => 1) {
  const out = new Float32Array(16 * jointCount);
  for (let j = 0; j < jointCount; ++j) out.set(randomMatrix(rand, scale()), 16 * j);
  return out;
}

// The largest error of `got` against `want`, xyz per vertex, relative to
// max(1, the vertex's largest |component|) as tests/test_kernels.c measures.
export function worstError(got, want) {
  let worst = 0;
  for (let v = 0; v < want.length; v += 3) {
    const mag = Math.max(1, Math.abs(want[v]), Math.abs(want[v + 1]), Math.abs(want[v + 2]));
    for (let c = 0; c < 3; ++c) {
      const e = Math.abs(got[v + c] - want[v + c]) / mag;
      if (!(e <= worst)) worst = Number.isNaN(e) ? Infinity : e;
    }
  }
  return worst;
}
