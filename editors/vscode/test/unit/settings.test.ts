import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  DEFAULT_DEBOUNCE_MS,
  Platform,
  expandPath,
  findOnPath,
  needsRestart,
  resolveServerCommand,
  serverSettings,
} from '../../src/settings';

const ctx = { workspaceFolder: '/ws', home: '/home/u' };

function platform(files: string[], env: NodeJS.ProcessEnv = { PATH: '/usr/local/bin:/usr/bin' }, p: NodeJS.Platform = 'linux'): Platform {
  const set = new Set(files);
  return { platform: p, env, isFile: (f) => set.has(f) };
}

describe('expandPath', () => {
  const cases: [string, string][] = [
    ['', ''],
    ['providers', '/ws/providers'],
    ['./a/../b', '/ws/b'],
    ['/abs/dir', '/abs/dir'],
    ['~', '/home/u'],
    ['~/p', '/home/u/p'],
    ['${workspaceFolder}/x', '/ws/x'],
    ['${userHome}/y', '/home/u/y'],
    ['${env:PROVIDERS}/z', '/opt/prov/z'],
  ];
  for (const [input, want] of cases) {
    it(`expands ${JSON.stringify(input)}`, () => {
      assert.equal(expandPath(input, ctx, { PROVIDERS: '/opt/prov' }), want);
    });
  }
  it('keeps relative paths without a workspace folder', () => {
    assert.equal(expandPath('rel', { home: '/h' }, {}), 'rel');
  });
});

describe('serverSettings', () => {
  it('fills defaults', () => {
    assert.deepEqual(serverSettings({}, ctx, {}), {
      providerDirs: [],
      debounceMs: DEFAULT_DEBOUNCE_MS,
      inlayHints: true,
      severity: {},
      planInputs: [],
      planVariables: {},
      planDataFiles: [],
      planStateFile: '',
    });
  });
  it('normalises paths and values into the server keys', () => {
    const got = serverSettings(
      {
        providers: { directories: ['prov', '', '~/more'] },
        diagnostics: { debounce: 120.4, severity: { 'spec-unknown-field': 'warning', bad: 3 as unknown as string } },
        inlayHints: { enabled: false },
        plan: { variables: { environment: 'dev' }, variableFiles: ['vars.json'], dataFiles: ['/d.json'], stateFile: 'state.json' },
      },
      ctx,
      {},
    );
    assert.deepEqual(got, {
      providerDirs: ['/ws/prov', '/home/u/more'],
      debounceMs: 120,
      inlayHints: false,
      severity: { 'spec-unknown-field': 'warning' },
      planInputs: ['/ws/vars.json'],
      planVariables: { environment: 'dev' },
      planDataFiles: ['/d.json'],
      planStateFile: '/ws/state.json',
    });
  });
  it('rejects a negative debounce and non-object variables', () => {
    const got = serverSettings({ diagnostics: { debounce: -5 }, plan: { variables: [] as unknown as Record<string, unknown> } }, ctx, {});
    assert.equal(got.debounceMs, DEFAULT_DEBOUNCE_MS);
    assert.deepEqual(got.planVariables, {});
  });
});

describe('resolveServerCommand', () => {
  it('prefers the setting', () => {
    const got = resolveServerCommand({ server: { path: '~/bin/blueprint-ls', args: ['--log-level', 'debug'] } }, '/ext', ctx, platform(['/ext/bin/blueprint-ls']));
    assert.deepEqual(got, { command: '/home/u/bin/blueprint-ls', args: ['serve', '--log-level', 'debug'], source: 'setting' });
  });
  it('looks a bare setting up on PATH', () => {
    const got = resolveServerCommand({ server: { path: 'bls' } }, '/ext', ctx, platform(['/usr/bin/bls']));
    assert.equal(got?.command, '/usr/bin/bls');
  });
  it('uses the bundled binary next', () => {
    const got = resolveServerCommand({}, '/ext', ctx, platform(['/ext/bin/blueprint-ls', '/usr/bin/blueprint-ls']));
    assert.deepEqual(got, { command: '/ext/bin/blueprint-ls', args: ['serve'], source: 'bundled' });
  });
  it('falls back to PATH', () => {
    const got = resolveServerCommand({}, '/ext', ctx, platform(['/usr/bin/blueprint-ls']));
    assert.deepEqual(got, { command: '/usr/bin/blueprint-ls', args: ['serve'], source: 'path' });
  });
  it('reports nothing found', () => {
    assert.equal(resolveServerCommand({}, '/ext', ctx, platform([])), undefined);
  });
  it('uses .exe and PATHEXT on Windows', () => {
    const bundled = path.join('C:\\ext', 'bin', 'blueprint-ls.exe');
    const got = resolveServerCommand({}, 'C:\\ext', ctx, platform([bundled], { Path: 'C:\\tools' }, 'win32'));
    assert.equal(got?.source, 'bundled');
    const onPath = findOnPath('blueprint-ls', platform(['C:\\tools\\blueprint-ls.exe'], { Path: 'C:\\tools', PATHEXT: '.COM;.EXE' }, 'win32'));
    assert.equal(onPath, 'C:\\tools\\blueprint-ls.exe');
  });
});

describe('needsRestart', () => {
  it('restarts only for the server path or arguments', () => {
    assert.equal(needsRestart({ server: { path: '' } }, { server: { path: ' ' } }), false);
    assert.equal(needsRestart({ server: { path: 'a' } }, { server: { path: 'b' } }), true);
    assert.equal(needsRestart({ server: { args: [] } }, { server: { args: ['-v'] } }), true);
    assert.equal(needsRestart({ diagnostics: { debounce: 1 } }, { diagnostics: { debounce: 2 } }), false);
    assert.equal(needsRestart({ plan: { variables: { a: 1 } } }, { plan: { variables: { a: 2 } } }), false);
  });
});
