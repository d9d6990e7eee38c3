// Builds the VSIX packages: one per platform with the Go binary bundled in
// bin/ (cross-compiled with CGO_ENABLED=0), plus a universal one without a
// binary that uses blueprint-ls from PATH (or the server.path setting).
//
// Usage: npm run package [-- --target linux-x64 ... | --universal-only] [--no-universal]
//                         [--binary FILE] [--out DIR]
// --binary bundles a binary built elsewhere (the release build, see
// .goreleaser.yaml) instead of compiling one; it needs exactly one --target.
// Output: out/vsix/blueprint-ls-<target>-<version>.vsix (default DIR)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repo = path.resolve(root, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

// VS Code target → Go GOOS/GOARCH.
const TARGETS = {
  'linux-x64': ['linux', 'amd64'],
  'linux-arm64': ['linux', 'arm64'],
  'darwin-x64': ['darwin', 'amd64'],
  'darwin-arm64': ['darwin', 'arm64'],
  'win32-x64': ['windows', 'amd64'],
  'win32-arm64': ['windows', 'arm64'],
};

const argv = process.argv.slice(2);
let targets = [];
let universal = true;
let outDir = path.join(root, 'out', 'vsix');
let prebuilt;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--target') {
    const t = argv[++i];
    if (!TARGETS[t]) {
      console.error(`unknown target ${t}; one of ${Object.keys(TARGETS).join(', ')}`);
      process.exit(2);
    }
    targets.push(t);
  } else if (a === '--universal-only') {
    targets = [];
    universal = true;
  } else if (a === '--no-universal') {
    universal = false;
  } else if (a === '--out') {
    outDir = path.resolve(argv[++i]);
  } else if (a === '--binary') {
    prebuilt = path.resolve(argv[++i]);
  } else {
    console.error(`unknown argument ${a}`);
    process.exit(2);
  }
}
if (targets.length === 0 && !argv.includes('--universal-only')) {
  targets = Object.keys(TARGETS);
}
if (prebuilt && targets.length !== 1) {
  console.error('--binary needs exactly one --target');
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });

const bin = path.join(root, 'bin');
const vsce = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: 'inherit', ...opts });

function vsix(target) {
  const file = path.join(outDir, `${pkg.name}-${target ?? 'universal'}-${pkg.version}.vsix`);
  const args = ['package', '--no-dependencies', '--skip-license', '--out', file];
  if (target) {
    args.push('--target', target);
  }
  run(vsce, args, { cwd: root });
  return file;
}

const built = [];
try {
  for (const target of targets) {
    const [goos, goarch] = TARGETS[target];
    fs.rmSync(bin, { recursive: true, force: true });
    fs.mkdirSync(bin);
    const exe = path.join(bin, goos === 'windows' ? 'blueprint-ls.exe' : 'blueprint-ls');
    if (prebuilt) {
      fs.copyFileSync(prebuilt, exe);
      fs.chmodSync(exe, 0o755);
      console.log(`bundled ${prebuilt} for ${goos}/${goarch}`);
    } else {
      const t0 = Date.now();
      run('go', ['build', '-trimpath', '-ldflags', `-s -w -X main.version=${pkg.version}`, '-o', exe, './cmd/blueprint-ls'], {
        cwd: repo,
        env: { ...process.env, GOOS: goos, GOARCH: goarch, CGO_ENABLED: '0' },
      });
      console.log(`built ${path.relative(root, exe)} for ${goos}/${goarch} in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    }
    built.push(vsix(target));
  }
  fs.rmSync(bin, { recursive: true, force: true });
  if (universal) {
    built.push(vsix(undefined));
  }
} finally {
  fs.rmSync(bin, { recursive: true, force: true });
}
console.log(`packaged:\n  ${built.map((f) => path.relative(process.cwd(), f)).join('\n  ')}`);
