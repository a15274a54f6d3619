// SPDX-License-Identifier: MIT
// The SIMD128 module against the module built without SIMD (SKIN_SIMD=OFF)
// and against its own scalar kernels, on seeded random rigs: LBS and DQS,
// 1..4 influences, lengths that leave every tail of a 4-vertex block.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSimd, loadScalar, randomRig, randomPalette, rng, worstError } from './support.mjs';

const simd = await loadSimd();
const scalar = await loadScalar();
const LENGTHS = [1, 2, 3, 4, 5, 7, 8, 13, 64, 67, 1001];
const TOLERANCE = 1e-5; // relative, as tests/test_kernels.c

function skinAll(skin, rig, palette, method, isa) {
  if (isa) skin.setIsa(isa);
  const mesh = skin.createMesh(rig);
  try {
    mesh.setPalette(palette, '4x4');
    const n = rig.positions.length;
    return mesh.skin(method, { positions: new Float32Array(n), normals: new Float32Array(n) });
  } finally {
    mesh.free();
    if (isa) skin.setIsa('auto');
  }
}

test('the modules name their kernels', { skip: !simd && 'no SIMD128 build' }, () => {
  assert.equal(simd.isa, 'simd128');
  if (scalar) {
    assert.equal(scalar.isa, 'scalar');
    assert.throws(() => scalar.setIsa('simd128'), { name: 'SkinError', status: -16 });
  }
});

for (const method of ['lbs', 'dqs']) {
  test(`${method}: simd128 = scalar kernels = the no-SIMD module`, { skip: !simd && 'no SIMD128 build' }, (t) => {
    if (!scalar) t.diagnostic('no SKIN_SIMD=OFF build (SKIN_WASM_SCALAR_DIR): its comparison left out');
    const rand = rng(method === 'lbs' ? 11 : 12);
    let worst = 0, cases = 0;
    for (let influences = 1; influences <= 4; ++influences)
      for (const vertexCount of LENGTHS) {
        const jointCount = influences === 4 ? 300 : 24; // u16 joints and several palette sizes
        const rig = randomRig(rand, { vertexCount, influences, jointCount,
          jointType: jointCount > 255 ? Uint16Array : Uint8Array });
        const palette = randomPalette(rand, jointCount, () => 0.8 + 0.4 * rand());
        const want = skinAll(simd, rig, palette, method, 'scalar');
        const got = skinAll(simd, rig, palette, method, 'simd128');
        const what = `${method} k=${influences} n=${vertexCount}`;
        for (const key of ['positions', 'normals']) {
          const e = worstError(got[key], want[key]);
          assert.ok(e <= TOLERANCE, `${what} ${key}: simd128 vs scalar, relative error ${e}`);
          worst = Math.max(worst, e);
        }
        if (scalar) {
          // The same C code without SIMD128: the same bits.
          const plain = skinAll(scalar, rig, palette, method);
          assert.deepEqual(plain.positions, want.positions, `${what}: no-SIMD module vs scalar kernels`);
          assert.deepEqual(plain.normals, want.normals, `${what}: no-SIMD module vs scalar kernels`);
        }
        ++cases;
      }
    t.diagnostic(`${cases} rigs, worst relative error simd128 vs scalar ${worst.toExponential(2)}`);
  });
}
