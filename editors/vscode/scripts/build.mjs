// Bundles the extension (dist/extension.js) or, with --tests, the unit tests
// (out/test/*.test.js) with esbuild. Usage: node scripts/build.mjs [--production] [--tests]
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--production');
const tests = process.argv.includes('--tests');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node18',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  absWorkingDir: root,
};

if (tests) {
  const dir = path.join(root, 'test', 'unit');
  const entryPoints = fs.readdirSync(dir).filter((f) => f.endsWith('.test.ts')).map((f) => path.join(dir, f));
  fs.rmSync(path.join(root, 'out', 'test'), { recursive: true, force: true });
  // The unit tests cover the glue modules that do not import "vscode";
  // marking it external makes an accidental import fail loudly at run time.
  await esbuild.build({ ...common, entryPoints, outdir: path.join(root, 'out', 'test'), external: ['vscode'] });
} else {
  await esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'src', 'extension.ts')],
    outfile: path.join(root, 'dist', 'extension.js'),
    external: ['vscode'],
  });
}
