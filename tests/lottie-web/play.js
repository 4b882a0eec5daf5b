// Plays a Lottie file in lottie-web (canvas renderer, under jsdom) and prints
// the world matrix of every null and image layer at every frame as JSON (its
// own matrix times its parents', as lottie-web's renderTransform composes
// them for visible layers, but in 64-bit floats; null layers are never
// rendered, so lottie-web leaves their finalTransform.mat alone):
//   { layers: [INDEX...], frames: [[[a, b, c, d, e, f] per layer] per frame],
//     opacity: [[OPACITY per layer of the file] per frame] }
// (INDEX: the layer's place in the file's `layers`; OPACITY: the layer's own
// transform opacity, 0 to 1). The frames are 0, 1, … op - 1, or the frame
// times (fractions too: lottie-web draws between frames) listed as a JSON
// array in the file named by a second argument.
// with x' = a·x + c·y + e, y' = b·x + d·y + f (lottie-web's finalTransform).
// lottie-web and jsdom come from $SKELPAD_LOTTIE_WEB_DIR/node_modules
// (.ci/run installs the pinned versions there).
'use strict';
const fs = require('fs');
const path = require('path');

const dir = process.env.SKELPAD_LOTTIE_WEB_DIR;
if (!dir) throw new Error('SKELPAD_LOTTIE_WEB_DIR is not set');
const { JSDOM } = require(path.join(dir, 'node_modules', 'jsdom'));
const dom = new JSDOM('<!DOCTYPE html><div id="stage"></div>', { pretendToBeVisual: true });
globalThis.window = dom.window;
globalThis.document = dom.window.document;
globalThis.navigator = dom.window.navigator;
// jsdom has no canvas: a context whose every method does nothing.
const noop = () => {};
const context = new Proxy({}, {
  get: (target, key) => (key in target ? target[key] : noop),
  set: (target, key, value) => { target[key] = value; return true; },
});
dom.window.HTMLCanvasElement.prototype.getContext = () => context;

const lottie = require(path.join(dir, 'node_modules', 'lottie-web', 'build', 'player', 'lottie_canvas.js'));
const data = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
// jsdom loads no pictures, and lottie-web waits for every image asset before
// it builds the layers: the image layers become empty (null) layers here. The
// bone layers stay as written; an image layer keeps its transform and parent,
// so where its picture's corners land is compared too (meshes).
data.layers.forEach((l) => {
  if (l.ty === 2) { l.ty = 3; delete l.refId; delete l.hasMask; delete l.masksProperties; }
});
data.assets = (data.assets || []).filter((a) => !(a.w && a.h && a.p));
const nulls = [];
data.layers.forEach((l, i) => { if (l.ty === 3) nulls.push(i); });
const anim = lottie.loadAnimation({
  container: document.getElementById('stage'),
  renderer: 'canvas',
  loop: false,
  autoplay: false,
  animationData: data,
});
const times = process.argv[3]
  ? JSON.parse(fs.readFileSync(process.argv[3], 'utf8'))
  : Array.from({ length: data.op }, (_, f) => f);
const frames = [];
const opacity = [];
for (const f of times) {
  anim.goToAndStop(f, true);
  opacity.push(anim.renderer.elements.map((el) => {
    const o = el && el.finalTransform && el.finalTransform.mProp.o;
    return o ? o.v : 1;
  }));
  frames.push(nulls.map((i) => {
    const el = anim.renderer.elements[i];
    if (!el) throw new Error(`no element for layer ${i} at frame ${f}`);
    // Each layer's own matrix as lottie-web computes it (32-bit floats),
    // composed down the parents in 64-bit floats (x' = a·x + c·y + e).
    const own = (props) => [props[0], props[1], props[4], props[5], props[12], props[13]];
    let m = own(el.finalTransform.mProp.v.props);
    (el.hierarchy || []).forEach((h) => {
      const [a, b, c, d, e, f] = own(h.finalTransform.mProp.v.props);
      m = [a * m[0] + c * m[1], b * m[0] + d * m[1], a * m[2] + c * m[3], b * m[2] + d * m[3],
        a * m[4] + c * m[5] + e, b * m[4] + d * m[5] + f];
    });
    return m;
  }));
}
process.stdout.write(JSON.stringify({ layers: nulls, frames, opacity }));
