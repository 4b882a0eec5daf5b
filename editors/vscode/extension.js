// Starts `skelpad lsp` for *.skel2d files. The server speaks LSP over
// stdio; everything (diagnostics, completion, ...) comes from it.
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('skelpad').get('path') || 'skelpad';
  const server = { command, args: ['lsp'], transport: TransportKind.stdio };
  client = new LanguageClient(
    'skelpad',
    'skelpad',
    { run: server, debug: server },
    {
      documentSelector: [{ language: 'skel2d' }],
      // The lints: asked for at the start, and sent again (as
      // `{ skelpad: { lint } }`) whenever the `skelpad` settings change.
      initializationOptions: { lint: vscode.workspace.getConfiguration('skelpad').get('lint') === true },
      synchronize: { configurationSection: 'skelpad' },
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
