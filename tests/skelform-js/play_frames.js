// Plays a SkelForm armature.json in skelform-js (vendored beside this file)
// and prints each animation's constructed bones as JSON on stdout:
//   { fresh: [[BONES per frame 0..=last] per animation],
//     inorder: [[BONES per frame 0..=last] per animation] }
// BONES = [[x, y, rot] per bone]. `fresh` constructs each frame on a new
// copy of the armature; `inorder` plays frames 0..=last once on one copy
// (physics carries over from frame to frame, as a game playing from the start).
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const armature = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
console.log = () => {}; // SkfGenericConstruct logs the first bone's name
vm.runInThisContext(fs.readFileSync(path.join(__dirname, 'skelform-js.js'), 'utf8'), { filename: 'skelform-js.js' });
const bones = (list) => list.map((b) => [b.pos.x, b.pos.y, b.rot]);
const out = { fresh: [], inorder: [] };
for (let a = 0; a < armature.animations.length; a++) {
  const kfs = armature.animations[a].keyframes;
  const last = kfs[kfs.length - 1].frame;
  const fresh = [];
  const inorder = [];
  const played = structuredClone(armature);
  for (let f = 0; f <= last; f++) {
    const arm = structuredClone(armature);
    globalThis.anim = arm.animations[a]; // SkfGenericAnimate reads a global `anim`
    SkfGenericAnimate(arm.bones, [arm.animations[a]], [f], [0]);
    fresh.push(bones(SkfGenericConstruct(arm)));
    globalThis.anim = played.animations[a];
    SkfGenericAnimate(played.bones, [played.animations[a]], [f], [0]);
    inorder.push(bones(SkfGenericConstruct(played)));
  }
  out.fresh.push(fresh);
  out.inorder.push(inorder);
}
process.stdout.write(JSON.stringify(out));
