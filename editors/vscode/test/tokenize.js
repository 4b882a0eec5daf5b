// Tokenizes Skel2D texts with the TextMate grammar the way VS Code does
// (vscode-textmate + vscode-oniguruma, the engine VS Code itself uses).
// Used by tests/grammar.rs: reads {"grammar": PATH, "texts": [TEXT, ...]}
// as JSON on stdin and prints, for every text, its tokens as
// [line, start, end, [scope, ...]] (columns in UTF-16 units of the line).
// The two packages are looked up in SKELPAD_TEXTMATE_MODULES (a
// node_modules folder), else the usual way (editors/vscode/node_modules).
'use strict';
const fs = require('fs');
const path = require('path');

function load(name) {
  const dir = process.env.SKELPAD_TEXTMATE_MODULES;
  return require(dir ? path.join(dir, name) : name);
}

async function main() {
  const tm = load('vscode-textmate');
  const onig = load('vscode-oniguruma');
  const input = JSON.parse(fs.readFileSync(0, 'utf8'));
  const wasmPath = path.join(path.dirname(require.resolve(
    process.env.SKELPAD_TEXTMATE_MODULES
      ? path.join(process.env.SKELPAD_TEXTMATE_MODULES, 'vscode-oniguruma')
      : 'vscode-oniguruma')), 'onig.wasm');
  const wasm = fs.readFileSync(wasmPath).buffer;
  await onig.loadWASM(wasm);
  const registry = new tm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new onig.OnigScanner(sources),
      createOnigString: (s) => new onig.OnigString(s),
    }),
    loadGrammar: async () => tm.parseRawGrammar(fs.readFileSync(input.grammar, 'utf8'), input.grammar),
  });
  const grammar = await registry.loadGrammar('source.skel2d');
  const out = [];
  for (const text of input.texts) {
    const tokens = [];
    let state = tm.INITIAL;
    // VS Code splits lines on \r\n, \r or \n and tokenizes them one by one.
    text.split(/\r\n|\r|\n/).forEach((line, i) => {
      const r = grammar.tokenizeLine(line, state);
      for (const t of r.tokens) {
        tokens.push([i, t.startIndex, Math.min(t.endIndex, line.length), t.scopes]);
      }
      state = r.ruleStack;
    });
    out.push(tokens);
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
