// Reads a dotLottie file with @dotlottie/dotlottie-js (LottieFiles' own
// reader and writer of the format) and prints, as JSON, what a player gets
// from it: whether the reader's schema check passes, the format version, the
// manifest, and for every manifest entry the animation loaded by its id
// (ip, op, fr and its markers as [name, time, duration]).
//   node tests/lottie-web/dotlottie.mjs FILE.lottie
// The package comes from $SKELPAD_LOTTIE_WEB_DIR/node_modules (.ci/run
// installs the pinned version there).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = process.env.SKELPAD_LOTTIE_WEB_DIR;
if (!dir) throw new Error('SKELPAD_LOTTIE_WEB_DIR is not set');
const entry = join(dir, 'node_modules', '@dotlottie', 'dotlottie-js', 'dist', 'index.node.js');
const dl = await import(pathToFileURL(entry).href);

const bytes = new Uint8Array(readFileSync(process.argv[2]));
const valid = await dl.validateDotLottie(bytes);
const version = await dl.getDotLottieVersion(bytes);
const manifest = await dl.getManifest(bytes);
const animations = [];
for (const { id } of manifest?.animations ?? []) {
  const data = await dl.getAnimation(bytes, id);
  animations.push({
    id,
    ip: data?.ip ?? null,
    op: data?.op ?? null,
    fr: data?.fr ?? null,
    markers: (data?.markers ?? []).map((m) => [m.cm, m.tm, m.dr]),
  });
}
process.stdout.write(JSON.stringify({ valid: valid.success === true, version, manifest, animations }));
