// Plays an exported armature.json in skelform-js (vendored beside this file)
// and prints the constructed world bones as JSON on stdout:
//   { setup: FRAME, anims: [[FRAME per frame 0..=last] per animation],
//     played: [[FRAME per frame 0..=last] per animation] }
// FRAME = { b: [[x, y, rot, sx, sy] per bone], v: { visual_id: [[x, y] per vertex] } }
// `anims` plays each frame on a fresh copy of the armature; `played` plays
// the animation twice through on one copy, as a game does, and keeps the
// second loop (so values carried over from the previous frame show).
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node play.js armature.json\n');
  process.exit(2);
}
const armature = JSON.parse(fs.readFileSync(file, 'utf8'));
const log = console.log;
console.log = () => {}; // SkfGenericConstruct logs the first bone's name
vm.runInThisContext(fs.readFileSync(path.join(__dirname, 'skelform-js.js'), 'utf8'), { filename: 'skelform-js.js' });

function snapshot(arm, bones) {
  const v = {};
  (arm.visuals || []).forEach((vis, i) => {
    if (vis.vertices && vis.vertices.length > 0) {
      v[i] = vis.vertices.map((p) => [p.pos.x, p.pos.y]);
    }
  });
  return { b: bones.map((b) => [b.pos.x, b.pos.y, b.rot, b.scale.x, b.scale.y]), v };
}

function lastFrame(anim) {
  return anim.keyframes[anim.keyframes.length - 1].frame;
}

const out = { setup: null, anims: [], played: [] };
{
  const arm = structuredClone(armature);
  out.setup = snapshot(arm, SkfGenericConstruct(arm));
}
for (let a = 0; a < armature.animations.length; a++) {
  const frames = [];
  for (let f = 0; f <= lastFrame(armature.animations[a]); f++) {
    const arm = structuredClone(armature);
    globalThis.anim = arm.animations[a]; // SkfGenericAnimate reads a global `anim`
    SkfGenericAnimate(arm.bones, [arm.animations[a]], [f], [0]);
    frames.push(snapshot(arm, SkfGenericConstruct(arm)));
  }
  out.anims.push(frames);
  const played = [];
  const arm = structuredClone(armature);
  globalThis.anim = arm.animations[a];
  const last = lastFrame(arm.animations[a]);
  for (let loop = 0; loop < 2; loop++) {
    for (let f = 0; f <= last; f++) {
      SkfGenericAnimate(arm.bones, [arm.animations[a]], [f], [0]);
      const s = snapshot(arm, SkfGenericConstruct(arm));
      if (loop === 1) played.push(s);
    }
  }
  out.played.push(played);
}
console.log = log;
process.stdout.write(JSON.stringify(out));
