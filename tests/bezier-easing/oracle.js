// Evaluates cubic-bezier easings with the npm `bezier-easing` package (the
// independent oracle of tests/suite/bezier_oracle.rs).
// stdin: {"curves": [[x1, y1, x2, y2], ...], "xs": [x, ...]}
// stdout: [[y for each x] for each curve], JSON.
// The package is looked up in $SKELPAD_BEZIER_EASING_DIR/node_modules.
'use strict';
const path = require('path');
const dir = process.env.SKELPAD_BEZIER_EASING_DIR;
const BezierEasing = require(path.join(dir, 'node_modules', 'bezier-easing'));
let input = '';
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const { curves, xs } = JSON.parse(input);
  const out = curves.map(([x1, y1, x2, y2]) => {
    const ease = BezierEasing(x1, y1, x2, y2);
    return xs.map((x) => ease(x));
  });
  process.stdout.write(JSON.stringify(out));
});
