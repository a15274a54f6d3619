// SPDX-License-Identifier: MIT
// skin on the web against three.js, in node, in one run: three.js's own
// per-vertex CPU skinning (fromBufferAttribute + applyBoneTransform per
// vertex, as its raycast and bounding volumes do), skin.wasm built without
// SIMD (SKIN_SIMD=OFF) and skin.wasm with SIMD128, LBS, on a real character
// (assimp's Testwuson.X, through the assimp command line and GLTFLoader) and
// on a random 100k-vertex rig with 4 influences.
//
//   node bench/web/bench.mjs [--quick]
//
// Needs both Emscripten builds (scripts/run-tests.sh makes them; or
// SKIN_WASM_DIR / SKIN_WASM_SCALAR_DIR name their wasm/ directories) and
// three from wasm/ (npm ci there).  skin.wasm's times include computing the
// palette from the bones and copying the result out of module memory.
// three.js has no CPU path for normals: its time is for positions only, so
// the positions+normals ratios compare skin doing more work.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fromRoot = (p) => pathToFileURL(path.join(root, p));
const THREE = await import(fromRoot('wasm/node_modules/three/build/three.module.js'));
const { importThreeSkin, loadCharacter, loadScalar, loadSimd } = await import(fromRoot('wasm/test/support.mjs'));
const quick = process.argv.includes('--quick');
const MIN_MS = quick ? 250 : 1000; // per function measured
const RANDOM_VERTICES = 100000, RANDOM_JOINTS = 64;

const { ThreeSkinnedMesh } = await importThreeSkin();
const builds = {
  simd128: { skin: await loadSimd(), ThreeSkinnedMesh },
  scalar: { skin: await loadScalar(), ThreeSkinnedMesh },
};
if (builds.simd128.skin?.isa !== 'simd128' || builds.scalar.skin?.isa !== 'scalar')
  throw new Error(`expected a simd128 and a scalar build, got ${builds.simd128.skin?.isa} and ${builds.scalar.skin?.isa}`);

// Each function's median and minimum milliseconds: ROUNDS rounds, each
// running every function in turn for MIN_MS / ROUNDS, so that load from
// other work falls on all of them alike; a first round warms up (the JIT
// settles).  The ratios use the minima, the least disturbed by other work.
const ROUNDS = 10;
function race(fns) {
  const runs = fns.map(() => []);
  for (let round = 0; round <= ROUNDS; ++round)
    fns.forEach((fn, k) => {
      const start = performance.now();
      do {
        const t0 = performance.now();
        fn();
        if (round > 0) runs[k].push(performance.now() - t0);
      } while (performance.now() - start < MIN_MS / ROUNDS);
    });
  return runs.map((r) => r.sort((a, b) => a - b)).map((r) => ({ median: r[r.length >> 1], min: r[0] }));
}

// three.js's loop: each vertex through applyBoneTransform, into out.
function threeSkin(mesh, out) {
  const position = mesh.geometry.attributes.position, v = new THREE.Vector3();
  for (let i = 0, n = position.count; i < n; ++i)
    mesh.applyBoneTransform(i, v.fromBufferAttribute(position, i)).toArray(out, 3 * i);
}

function maxDifference(a, b) {
  let worst = 0;
  for (let i = 0; i < a.length; ++i) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

// The Testwuson character, posed a third into its longest clip.
async function character() {
  const gltf = await loadCharacter('X/Testwuson.X');
  const clip = gltf.animations.reduce((a, b) => (b.duration > a.duration ? b : a));
  const mixer = new THREE.AnimationMixer(gltf.scene);
  mixer.clipAction(clip).play();
  mixer.setTime(clip.duration / 3);
  gltf.scene.updateMatrixWorld(true);
  let mesh;
  gltf.scene.traverse((o) => (mesh ??= o.isSkinnedMesh ? o : undefined));
  return mesh;
}

// A THREE.SkinnedMesh of n random vertices, 4 influences each, on J bones
// posed away from their bind pose.
function randomRig(n, J) {
  let seed = 1;
  const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296);
  const p = new Float32Array(3 * n), nrm = new Float32Array(3 * n);
  const joints = new Uint16Array(4 * n), weights = new Float32Array(4 * n);
  for (let v = 0; v < n; ++v) {
    const d = [rand() - 0.5, rand() - 0.5, rand() - 0.5], len = Math.hypot(...d);
    let sum = 0;
    for (let c = 0; c < 3; ++c) (p[3 * v + c] = 2 * rand() - 1), (nrm[3 * v + c] = d[c] / len);
    for (let i = 0; i < 4; ++i) (joints[4 * v + i] = Math.floor(rand() * J)), (sum += weights[4 * v + i] = 0.05 + rand());
    for (let i = 0; i < 4; ++i) weights[4 * v + i] /= sum;
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(p, 3));
  geometry.setAttribute('normal', new THREE.BufferAttribute(nrm, 3));
  geometry.setAttribute('skinIndex', new THREE.BufferAttribute(joints, 4));
  geometry.setAttribute('skinWeight', new THREE.BufferAttribute(weights, 4));
  const group = new THREE.Group(), bones = [];
  for (let j = 0; j < J; ++j) {
    const bone = new THREE.Bone();
    bone.position.set(rand() - 0.5, rand() - 0.5, rand() - 0.5);
    bones.push(bone), group.add(bone);
  }
  const mesh = new THREE.SkinnedMesh(geometry, new THREE.MeshBasicMaterial());
  group.add(mesh);
  group.updateMatrixWorld(true);
  mesh.bind(new THREE.Skeleton(bones));
  for (const bone of bones) bone.rotation.set(rand() * 2, rand() * 2, rand() * 2), bone.position.x += rand();
  group.updateMatrixWorld(true);
  return mesh;
}

const rows = [];
function bench(name, mesh) {
  const n = mesh.geometry.attributes.position.count;
  const want = new Float32Array(3 * n), positions = new Float32Array(3 * n), normals = new Float32Array(3 * n);
  const cpus = Object.entries(builds).map(([isa, { skin, ThreeSkinnedMesh }]) => [isa, new ThreeSkinnedMesh(skin, mesh)]);
  threeSkin(mesh, want);
  const row = { name, n };
  for (const [isa, cpu] of cpus) row[`${isa} error`] = maxDifference(cpu.update('lbs', { positions }).positions, want);
  const names = ['three'], fns = [() => threeSkin(mesh, want)];
  for (const [isa, cpu] of cpus) {
    names.push(`${isa} p`, `${isa} p+n`);
    fns.push(() => cpu.update('lbs', { positions }), () => cpu.update('lbs', { positions, normals }));
  }
  race(fns).forEach(({ median, min }, k) => {
    row[names[k]] = (min * 1e6) / n;
    row[`${names[k]} median`] = (median * 1e6) / n;
  });
  cpus.forEach(([, cpu]) => cpu.free());
  rows.push(row);
  const three = row.three;
  const f = (key) => `${row[key].toFixed(1).padStart(6)} ${`(${row[`${key} median`].toFixed(1)})`.padStart(8)}`;
  const r = (a, b) => `${(a / b).toFixed(1)}x`.padStart(7);
  console.log(`${name}: ${n} vertices, LBS, ns/vertex: minimum (median)`);
  console.log(`  three.js applyBoneTransform loop, positions   ${f('three')}`);
  for (const what of ['p', 'p+n']) {
    const s = row[`simd128 ${what}`], c = row[`scalar ${what}`];
    const label = what === 'p' ? 'positions          ' : 'positions + normals';
    console.log(`  skin.wasm no SIMD, ${label}        ${f(`scalar ${what}`)}`);
    console.log(`  skin.wasm SIMD128, ${label}        ${f(`simd128 ${what}`)}   vs three.js ${r(three, s)}   vs no-SIMD ${r(c, s)}`);
  }
  console.log(`  largest difference from three.js: ${row['simd128 error'].toExponential(1)} (simd128), ` +
    `${row['scalar error'].toExponential(1)} (no SIMD)`);
}

console.log(`node ${process.version}, skin ${builds.simd128.skin.version}${quick ? ', --quick' : ''}`);
bench('Testwuson', await character());
bench(`random rig, 4 influences, ${RANDOM_JOINTS} joints`, randomRig(RANDOM_VERTICES, RANDOM_JOINTS));
const big = rows[rows.length - 1];
console.log(`bench-web: 100k LBS-4 positions+normals: simd128 ${big['simd128 p+n'].toFixed(1)} ns/vertex (minimum), ` +
  `${(big.three / big['simd128 p+n']).toFixed(1)}x three.js (its positions only), ` +
  `${(big['scalar p+n'] / big['simd128 p+n']).toFixed(1)}x skin.wasm without SIMD`);
