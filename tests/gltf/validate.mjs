// Validates glTF files with the Khronos validator (npm `gltf-validator`,
// validateBytes) and prints one JSON line per file:
//   {"file": PATH, "errors": N, "warnings": N, "messages": [...]}
// The package comes from $SKELPAD_GLTF_DIR/node_modules (.ci/run installs
// the pinned version there).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const dir = process.env.SKELPAD_GLTF_DIR;
if (!dir) throw new Error('SKELPAD_GLTF_DIR is not set');
const require = createRequire(path.join(dir, 'node_modules', 'x.js'));
const validator = require('gltf-validator');

for (const file of process.argv.slice(2)) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const report = await validator.validateBytes(bytes, { maxIssues: 50, writeTimestamp: false });
  const messages = report.issues.messages
    .filter((m) => m.severity <= 1)
    .map((m) => `${m.code} ${m.pointer || ''}: ${m.message}`);
  console.log(JSON.stringify({
    file,
    errors: report.issues.numErrors,
    warnings: report.issues.numWarnings,
    messages,
  }));
}
