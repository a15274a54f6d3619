// SPDX-License-Identifier: MIT
// A three.js SkinnedMesh skinned on the CPU by skin's WebAssembly module,
// in the mesh's local space: positions exactly as three.js's
// SkinnedMesh.applyBoneTransform gives them, normals as its vertex shader
// skins them (the blended matrix's 3x3, not renormalised), for a raycast,
// a BVH, physics or an export.
//
//   import { loadSkin } from './skin-wasm.mjs';
//   import { ThreeSkinnedMesh } from './three-skin.mjs';
//   const cpu = new ThreeSkinnedMesh(await loadSkin(), skinnedMesh);
//   scene.updateMatrixWorld();                  // bones posed
//   const { positions, normals } = cpu.update('lbs');
//
// Reads the objects' fields only, so it does not import three itself.

// out = a * b, 4x4 column-major.
function multiply(a, b, out) {
  for (let c = 0; c < 4; ++c)
    for (let r = 0; r < 4; ++r)
      out[4 * c + r] = a[r] * b[4 * c] + a[4 + r] * b[4 * c + 1] + a[8 + r] * b[4 * c + 2] + a[12 + r] * b[4 * c + 3];
  return out;
}

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

// An attribute's own array when skin takes it as it is (packed, one of
// `types`), else a copy as `Fallback` (interleaved attributes, other types;
// getComponent undoes normalisation).
function packed(attribute, types, Fallback) {
  const { array, count, itemSize } = attribute;
  if (!attribute.isInterleavedBufferAttribute && types.includes(array.constructor) &&
      array.length === count * itemSize)
    return array;
  const out = new Fallback(count * itemSize);
  for (let v = 0; v < count; ++v)
    for (let c = 0; c < itemSize; ++c) out[v * itemSize + c] = attribute.getComponent(v, c);
  return out;
}

export class ThreeSkinnedMesh {
  // skin: from loadSkin(); object: a THREE.SkinnedMesh with skinIndex and
  // skinWeight attributes (4 per vertex).  Copies the geometry once.
  constructor(skin, object) {
    const { position, normal, skinIndex, skinWeight } = object.geometry.attributes;
    this.object = object;
    this.mesh = skin.createMesh({
      positions: packed(position, [Float32Array], Float32Array),
      normals: normal ? packed(normal, [Float32Array], Float32Array) : undefined,
      joints: packed(skinIndex, [Uint8Array, Uint16Array], Uint16Array),
      // Normalised integer weights are what skin calls unorm.
      weights: packed(skinWeight, skinWeight.normalized ? [Uint16Array, Uint8Array] : [Float32Array],
        Float32Array),
    });
    this.palette = new Float32Array(16 * object.skeleton.bones.length);
    // Arrays, as Matrix4.elements are: multiply then sees one kind of
    // argument (a mix made the palette cost 3x more).
    this.scratch = [new Array(16).fill(0), new Array(16).fill(0)];
  }

  get vertexCount() {
    return this.mesh.vertexCount;
  }

  // Skins with the bones' current world matrices (call
  // scene.updateMatrixWorld() after posing them).  palette_i =
  // bindMatrixInverse * bone_i.matrixWorld * boneInverse_i * bindMatrix, in
  // double, as applyBoneTransform computes it; a missing bone counts as the
  // identity, as in Skeleton.update.  out: { positions, normals } as
  // SkinMesh.skin takes it (normals: pass a Float32Array to get them).
  update(method = 'lbs', out = {}) {
    const { skeleton, bindMatrix, bindMatrixInverse } = this.object;
    const [t, u] = this.scratch;
    skeleton.bones.forEach((bone, i) => {
      multiply(bone ? bone.matrixWorld.elements : IDENTITY, skeleton.boneInverses[i].elements, t);
      multiply(t, bindMatrix.elements, u);
      this.palette.set(multiply(bindMatrixInverse.elements, u, t), 16 * i);
    });
    this.mesh.setPalette(this.palette, '4x4');
    return this.mesh.skin(method, out);
  }

  free() {
    this.mesh.free();
  }
}
