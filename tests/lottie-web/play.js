// Plays a Lottie file in lottie-web (canvas renderer, under jsdom) and prints
// the world matrix of every null layer (ty 3) at every frame as JSON (its
// own matrix times its parents', composed as lottie-web's renderTransform
// does for visible layers; null layers are never rendered, so lottie-web
// leaves their finalTransform.mat alone):
//   { layers: [INDEX...], frames: [[[a, b, c, d, e, f] per layer] per frame] }
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
// bone layers, which are what is compared, stay as written.
data.layers.forEach((l) => { if (l.ty === 2) { l.ty = 3; delete l.refId; l.nm = `(image) ${l.nm}`; } });
data.assets = (data.assets || []).filter((a) => !(a.w && a.h && a.p));
const nulls = [];
data.layers.forEach((l, i) => { if (l.ty === 3 && !l.nm.startsWith('(image) ')) nulls.push(i); });
const anim = lottie.loadAnimation({
  container: document.getElementById('stage'),
  renderer: 'canvas',
  loop: false,
  autoplay: false,
  animationData: data,
});
const frames = [];
for (let f = 0; f < data.op; f++) {
  anim.goToAndStop(f, true);
  frames.push(nulls.map((i) => {
    const el = anim.renderer.elements[i];
    if (!el) throw new Error(`no element for layer ${i} at frame ${f}`);
    const m = new el.finalTransform.mat.constructor();
    m.cloneFromProps(el.finalTransform.mProp.v.props);
    (el.hierarchy || []).forEach((h) => m.multiply(h.finalTransform.mProp.v));
    const p = m.props;
    return [p[0], p[1], p[4], p[5], p[12], p[13]];
  }));
}
process.stdout.write(JSON.stringify({ layers: nulls, frames }));
