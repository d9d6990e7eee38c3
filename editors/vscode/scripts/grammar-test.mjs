// Runs the TextMate grammar tests (test/grammar/*.test.*) with
// vscode-tmgrammar-test. Our grammars embed VS Code's built-in YAML and JSON
// grammars, which are not ours to copy: they are taken from a VS Code
// install at test time, by default the code-server of the e2e tests
// (override with BLUEPRINT_VSCODE_EXTENSIONS=<vscode>/extensions).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtins = process.env.BLUEPRINT_VSCODE_EXTENSIONS
  ?? path.join(root, 'e2e', 'node_modules', 'code-server', 'lib', 'vscode', 'extensions');
const outDir = path.join(root, 'out', 'grammar-test');
fs.mkdirSync(outDir, { recursive: true });

const rel = (p) => path.relative(outDir, p);
const grammars = [];
for (const ext of ['yaml', 'json']) {
  const manifest = path.join(builtins, ext, 'package.json');
  if (!fs.existsSync(manifest)) {
    console.error(`grammar tests: VS Code's built-in ${ext} grammar not found at ${manifest}.\n` +
      'Run `npm ci` in editors/vscode/e2e (installs code-server) or set BLUEPRINT_VSCODE_EXTENSIONS.');
    process.exit(2);
  }
  const seen = new Set();
  for (const g of JSON.parse(fs.readFileSync(manifest, 'utf8')).contributes.grammars) {
    if (seen.has(g.scopeName)) continue;
    seen.add(g.scopeName);
    grammars.push({ scopeName: g.scopeName, path: rel(path.join(builtins, ext, g.path)) });
  }
}
const own = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).contributes;
for (const g of own.grammars) {
  grammars.push({ ...g, path: rel(path.join(root, g.path)) });
}
const languages = own.languages.map((l) => ({ id: l.id, configuration: rel(path.join(root, l.configuration)) }));
const config = path.join(outDir, 'package.json');
fs.writeFileSync(config, JSON.stringify({ name: 'blueprint-grammar-test', contributes: { languages, grammars } }, null, 2));

const tests = fs.readdirSync(path.join(root, 'test', 'grammar')).filter((f) => /\.test\./.test(f)).map((f) => path.join('test', 'grammar', f));
const bin = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'vscode-tmgrammar-test.cmd' : 'vscode-tmgrammar-test');
const r = spawnSync(bin, ['--config', config, ...tests], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
