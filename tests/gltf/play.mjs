// Plays a glTF file in three.js under node (no browser, no GPU) and prints
// what it computes, as JSON. `node play.mjs FILE [TIMES]`: TIMES, a JSON
// file with one list of seconds per animation, the times each animation is
// set to (default: every frame, `extras.skelpad.frames` of them); a looping
// animation (`extras.skelpad.loop` not false) plays with LoopRepeat, so a
// time past its clip's end wraps as in a game, else LoopOnce, clamped.
//   { bones: [NODE...], meshes: [NODE...],
//     animations: [{ name, frames: [{ bones: [[16 numbers] per bone node],
//                                     meshes: [[x, y, ... per visible triangle corner] per mesh],
//                                     depths: [[least z, greatest z] or null per mesh] }] }] }
// Bone nodes are the nodes whose extras carry `skelpad_bone`, in file
// order; a bone's matrix is three's matrixWorld (column-major). Mesh
// triangles are three's skinned positions (SkinnedMesh.getVertexPosition,
// then matrixWorld), x and y of each corner, for the triangles whose three
// corners follow joints of non-zero scale (hidden ones collapse to points).
// three comes from $SKELPAD_GLTF_DIR/node_modules (.ci/run installs the
// pinned version there).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = process.env.SKELPAD_GLTF_DIR;
if (!dir) throw new Error('SKELPAD_GLTF_DIR is not set');
const three = path.join(dir, 'node_modules', 'three');
const THREE = await import(pathToFileURL(path.join(three, 'build', 'three.module.js')));
const { GLTFLoader } = await import(pathToFileURL(path.join(three, 'examples', 'jsm', 'loaders', 'GLTFLoader.js')));

// No pictures are decoded here (no DOM): every texture is an empty one,
// through a loader plugin; geometry and animation do not depend on them.
console.warn = () => {};
// A .gltf's embedded buffer (a data: URI) goes through three's FileLoader,
// which reports progress with the browser's ProgressEvent.
if (typeof globalThis.ProgressEvent === 'undefined') {
  globalThis.ProgressEvent = class ProgressEvent extends Event {
    constructor(type, init = {}) { super(type); Object.assign(this, init); }
  };
}
const noPictures = () => ({ name: 'skelpad_no_pictures', loadTexture: () => Promise.resolve(new THREE.Texture()) });

const bytes = fs.readFileSync(process.argv[2]);
const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
const gltf = await new Promise((resolve, reject) => new GLTFLoader().register(noPictures).parse(buf, '', resolve, reject));
const scene = gltf.scene;
const json = gltf.parser.json;
const nodeOf = new Map();
scene.traverse((o) => {
  const a = gltf.parser.associations.get(o);
  if (a && a.nodes !== undefined && !nodeOf.has(a.nodes)) nodeOf.set(a.nodes, o);
});
const boneNodes = json.nodes.map((n, i) => i).filter((i) => json.nodes[i].extras && json.nodes[i].extras.skelpad_bone !== undefined);
const meshNodes = json.nodes.map((n, i) => i).filter((i) => json.nodes[i].mesh !== undefined);
const bones = boneNodes.map((i) => nodeOf.get(i));
// A mesh node with one primitive is the SkinnedMesh; with several, a Group of them.
const meshes = meshNodes.map((i) => {
  const o = nodeOf.get(i);
  const parts = [];
  o.traverse((c) => { if (c.isSkinnedMesh) parts.push(c); });
  return parts;
});

const v = new THREE.Vector3();
function visibleTriangles(part, out, depth) {
  const geo = part.geometry;
  const idx = geo.index.array;
  const sj = geo.attributes.skinIndex;
  const sw = geo.attributes.skinWeight;
  const live = (i) => {
    for (let k = 0; k < 4; k++) {
      if (sw.getComponent(i, k) > 0 && Math.abs(part.skeleton.bones[sj.getComponent(i, k)].matrixWorld.determinant()) < 1e-12) return false;
    }
    return true;
  };
  for (let t = 0; t < idx.length; t += 3) {
    if (!live(idx[t]) || !live(idx[t + 1]) || !live(idx[t + 2])) continue;
    for (let k = 0; k < 3; k++) {
      part.getVertexPosition(idx[t + k], v);
      v.applyMatrix4(part.matrixWorld);
      out.push(v.x, v.y);
      depth[0] = Math.min(depth[0], v.z);
      depth[1] = Math.max(depth[1], v.z);
    }
  }
}

function snapshot() {
  scene.updateMatrixWorld(true);
  return {
    bones: bones.map((b) => Array.from(b.matrixWorld.elements)),
    meshes: meshes.map((parts) => { const out = []; const d = [Infinity, -Infinity]; parts.forEach((p) => visibleTriangles(p, out, d)); return out; }),
    depths: meshes.map((parts) => { const out = []; const d = [Infinity, -Infinity]; parts.forEach((p) => visibleTriangles(p, out, d)); return out.length ? d : null; }),
  };
}

const asked = process.argv[3] ? JSON.parse(fs.readFileSync(process.argv[3], 'utf8')) : null;
const mixer = new THREE.AnimationMixer(scene);
const animations = gltf.animations.map((clip, ai) => {
  const x = (json.animations[ai].extras || {}).skelpad || {};
  const fps = x.fps;
  const action = mixer.clipAction(clip);
  if (x.loop === false) {
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
  } else {
    action.setLoop(THREE.LoopRepeat, Infinity);
  }
  action.play();
  const times = asked ? asked[ai] : Array.from({ length: x.frames }, (_, f) => f / fps);
  const frames = [];
  for (const t of times) {
    mixer.setTime(t);
    frames.push(snapshot());
  }
  mixer.stopAllAction();
  return { name: clip.name, duration: clip.duration, frames };
});
const setup = snapshot();
process.stdout.write(JSON.stringify({ bones: boneNodes, meshes: meshNodes, setup, animations }));
