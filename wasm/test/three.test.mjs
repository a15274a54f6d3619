// SPDX-License-Identifier: MIT
// ThreeSkinnedMesh against three.js itself on real characters: assimp's
// test models (Debian's assimp-testmodels) converted to glTF binary with the
// assimp command line, loaded with GLTFLoader, posed by AnimationMixer at
// several times.  Positions against SkinnedMesh.applyBoneTransform, normals
// against what three.js's vertex shader computes; within 1e-5 of the
// model's bounding-box diagonal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { MODELS, importThreeSkin, loadCharacter, loadScalar, loadSimd } from './support.mjs';

const CHARACTERS = ['X/Testwuson.X', 'X/BCN_Epileptic.X'];
const TOLERANCE = 1e-5; // of the bounding-box diagonal

function haveAssimp() {
  try {
    execFileSync('assimp', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// Positions as applyBoneTransform gives them; normals as the vertex shader
// skins them (skinnormal_vertex: bindMatrixInverse * sum(w_i B_i) *
// bindMatrix, its 3x3 on the normal).
function threeReference(mesh) {
  const { position, normal, skinIndex, skinWeight } = mesh.geometry.attributes;
  const n = position.count;
  const positions = new Float32Array(3 * n), normals = new Float32Array(3 * n);
  const v = new THREE.Vector3(), blend = new THREE.Matrix4(), bone = new THREE.Matrix4();
  const m3 = new THREE.Matrix3();
  mesh.skeleton.update();
  for (let i = 0; i < n; ++i) {
    mesh.applyBoneTransform(i, v.fromBufferAttribute(position, i)).toArray(positions, 3 * i);
    blend.multiplyScalar(0);
    for (let k = 0; k < 4; ++k) {
      const w = skinWeight.getComponent(i, k);
      if (w === 0) continue;
      bone.fromArray(mesh.skeleton.boneMatrices, 16 * skinIndex.getComponent(i, k));
      for (let e = 0; e < 16; ++e) blend.elements[e] += w * bone.elements[e];
    }
    blend.premultiply(mesh.bindMatrixInverse).multiply(mesh.bindMatrix);
    v.fromBufferAttribute(normal, i).applyMatrix3(m3.setFromMatrix4(blend)).toArray(normals, 3 * i);
  }
  return { positions, normals };
}

function maxDifference(a, b) {
  let worst = 0;
  for (let i = 0; i < a.length; ++i) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

const simd = await loadSimd();
const scalar = await loadScalar();
const { ThreeSkinnedMesh } = simd ? await importThreeSkin() : {};
const missing = !simd ? 'no module build' : !haveAssimp() ? 'no assimp command (assimp-utils)' : null;

for (const file of CHARACTERS) {
  const skip = missing || (!existsSync(path.join(MODELS, file)) && `${file} not found (assimp-testmodels)`);
  test(`${file}: as three.js skins it`, { skip }, async (t) => {
    const gltf = await loadCharacter(file);
    const meshes = [];
    gltf.scene.traverse((o) => o.isSkinnedMesh && meshes.push(o));
    assert.ok(meshes.length > 0 && gltf.animations.length > 0, 'a skinned, animated character');
    const clip = gltf.animations.reduce((a, b) => (b.duration > a.duration ? b : a));
    const mixer = new THREE.AnimationMixer(gltf.scene);
    mixer.clipAction(clip).play();
    for (const skin of [simd, scalar].filter(Boolean)) {
      const cpus = meshes.map((m) => new ThreeSkinnedMesh(skin, m));
      let worst = 0, moved = 0;
      for (const time of [0, 0.3, 0.55, 0.8].map((f) => f * clip.duration)) {
        mixer.setTime(time);
        gltf.scene.updateMatrixWorld(true);
        meshes.forEach((mesh, k) => {
          const want = threeReference(mesh);
          const n = want.positions.length;
          const got = cpus[k].update('lbs', { positions: new Float32Array(n), normals: new Float32Array(n) });
          const box = new THREE.Box3().setFromArray(want.positions);
          const diagonal = box.max.distanceTo(box.min);
          const what = `${file} mesh ${k} t=${time.toFixed(3)} (${skin.isa})`;
          const ep = maxDifference(got.positions, want.positions) / diagonal;
          const en = maxDifference(got.normals, want.normals);
          assert.ok(ep <= TOLERANCE, `${what}: positions off by ${ep} of the diagonal`);
          assert.ok(en <= TOLERANCE, `${what}: normals off by ${en}`);
          worst = Math.max(worst, ep, en);
          // The pose must move the mesh, or the comparison says little.
          moved = Math.max(moved, maxDifference(want.positions, mesh.geometry.attributes.position.array) / diagonal);
        });
      }
      cpus.forEach((c) => c.free());
      assert.ok(moved > 0.01, `the animation moves ${file} (${moved} of the diagonal)`);
      t.diagnostic(`${skin.isa}: ${meshes.length} meshes, ${meshes.reduce((s, m) => s + m.geometry.attributes.position.count, 0)} vertices, worst error ${worst.toExponential(2)}`);
    }
  });
}
