// Starts `kivl lsp` for .kbpl and .bpl files. Install: `npm install` here, then copy or link
// this folder into ~/.vscode/extensions/ (or run it with "Developer: Install Extension from
// Location...").
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate() {
  const config = vscode.workspace.getConfiguration("kivl");
  const server = { command: config.get("path"), args: ["lsp", ...config.get("args")] };
  client = new LanguageClient("kivl", "kivl", server, { documentSelector: [{ language: "kbpl" }] });
  client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
