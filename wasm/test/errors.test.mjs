// SPDX-License-Identifier: MIT
// Bad input: each case throws a SkinError with skin's status and its text,
// and leaves module memory as it was (nothing leaks on the error paths).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadScalar, loadSimd, randomRig, randomPalette, rng } from './support.mjs';

const builds = [await loadSimd(), await loadScalar()].filter(Boolean);

// skin_status values and their texts (src/skin.c).
const S = {
  NULL_ARGUMENT: -1, INVALID_COUNT: -2, INVALID_FORMAT: -5, INVALID_METHOD: -7, MISSING_ATTRIBUTE: -9,
  MISSING_PALETTE: -10, JOINT_OUT_OF_RANGE: -11, NON_FINITE: -14, UNSUPPORTED: -16,
};

for (const skin of builds) {
  test(`bad input throws skin's status, frees what it took (${skin.isa})`, () => {
    const rand = rng(7);
    const rig = randomRig(rand, { vertexCount: 37, influences: 3, jointCount: 5 });
    const palette = randomPalette(rand, 5);
    const before = skin.heapUsed;
    const throwsStatus = (f, status, text) => {
      assert.throws(f, (e) => {
        assert.equal(e.name, 'SkinError');
        assert.equal(e.status, status);
        assert.equal(e.statusText, skin.statusText(status));
        assert.ok(e.message.includes(e.statusText), e.message);
        if (text) assert.match(e.message, text);
        return true;
      });
      assert.equal(skin.heapUsed, before, `module memory back where it was after: ${f}`);
    };

    // createMesh
    throwsStatus(() => skin.createMesh({}), S.NULL_ARGUMENT);
    throwsStatus(() => skin.createMesh({ ...rig, positions: rig.positions.subarray(1) }), S.INVALID_COUNT);
    throwsStatus(() => skin.createMesh({ ...rig, positions: new Float32Array(0) }), S.INVALID_COUNT);
    throwsStatus(() => skin.createMesh({ ...rig, normals: rig.normals.subarray(3) }), S.INVALID_COUNT);
    throwsStatus(() => skin.createMesh({ ...rig, normals: Array.from(rig.normals) }), S.INVALID_FORMAT);
    throwsStatus(() => skin.createMesh({ ...rig, joints: new Int32Array(rig.joints) }), S.INVALID_FORMAT);
    throwsStatus(() => skin.createMesh({ ...rig, weights: new Float64Array(rig.weights) }), S.INVALID_FORMAT);
    throwsStatus(() => skin.createMesh({ ...rig, joints: rig.joints.subarray(4) }), S.INVALID_COUNT);
    throwsStatus(() => skin.createMesh({ ...rig, weights: rig.weights.subarray(0, 8) }), S.INVALID_COUNT);
    const nan = rig.positions.slice();
    nan[3 * 29 + 1] = NaN;
    throwsStatus(() => skin.createMesh({ ...rig, positions: nan }), S.NON_FINITE, /vertex 29\b/);
    const inf = rig.normals.slice();
    inf[3 * 4] = Infinity;
    throwsStatus(() => skin.createMesh({ ...rig, normals: inf }), S.NON_FINITE, /vertex 4\b/);

    // A mesh, then bad palettes and bad calls.
    const mesh = skin.createMesh(rig);
    const n = rig.positions.length;
    assert.throws(() => mesh.skin('lbs'), { status: S.MISSING_PALETTE });
    assert.throws(() => mesh.setPalette(palette, '4x3'), { status: S.INVALID_FORMAT });
    assert.throws(() => mesh.setPalette(Array.from(palette)), { status: S.INVALID_FORMAT });
    assert.throws(() => mesh.setPalette(palette.subarray(1)), { status: S.INVALID_COUNT });
    assert.throws(() => mesh.setPalette(palette.subarray(0, 16 * 2)), { status: S.JOINT_OUT_OF_RANGE });
    assert.throws(() => mesh.setPalette(new Float32Array(16 * 70000)), { status: S.INVALID_COUNT });
    mesh.setPalette(palette);
    mesh.setPalette(palette.subarray(0, 12 * 5), '3x4');
    assert.throws(() => mesh.skin('cor'), { status: S.INVALID_METHOD });
    assert.throws(() => mesh.skin('lbs', { positions: new Float32Array(n - 3) }), { status: S.INVALID_COUNT });
    assert.throws(() => mesh.skin('dqs', { normals: new Float64Array(n) }), { status: S.INVALID_COUNT });
    assert.throws(() => skin.setIsa('avx1024'), { status: S.INVALID_FORMAT });
    mesh.skin('dqs', { normals: new Float32Array(n) });
    const withMesh = skin.heapUsed;
    const bare = skin.createMesh({ ...rig, normals: undefined });
    bare.setPalette(palette);
    assert.throws(() => bare.skin('lbs', { normals: new Float32Array(n) }), { status: S.MISSING_ATTRIBUTE });
    bare.free();
    assert.equal(skin.heapUsed, withMesh, 'a mesh freed gives all its memory back');
    mesh.free();
    mesh.free(); // twice is harmless
    assert.throws(() => mesh.skin('lbs'), { status: S.NULL_ARGUMENT, message: /freed/ });
    assert.throws(() => mesh.setPalette(palette), { status: S.NULL_ARGUMENT });
    assert.equal(skin.heapUsed, before, 'module memory back where it was');
  });
}
