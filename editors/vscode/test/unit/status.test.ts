import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServerState, statusView } from '../../src/status';

describe('statusView', () => {
  const states: [ServerState, RegExp, boolean][] = [
    ['starting', /sync~spin/, false],
    ['running', /\$\(check\)/, false],
    ['stopped', /circle-slash/, false],
    ['failed', /\$\(error\)/, true],
    ['missing', /\$\(error\)/, true],
  ];
  for (const [state, icon, error] of states) {
    it(state, () => {
      const v = statusView({ state, command: '/bin/blueprint-ls', source: 'bundled', version: '1.2.3', message: 'boom' });
      assert.match(v.text, icon);
      assert.match(v.text, /Blueprint$/);
      assert.equal(v.error, error);
    });
  }
  it('tells where the server came from and its version', () => {
    const v = statusView({ state: 'running', command: '/bin/blueprint-ls', source: 'bundled', version: '1.2.3' });
    assert.match(v.tooltip, /blueprint-ls 1.2.3: running/);
    assert.match(v.tooltip, /\/bin\/blueprint-ls \(bundled\)/);
  });
  it('tells how to fix a missing server', () => {
    assert.match(statusView({ state: 'missing' }).tooltip, /blueprint\.server\.path/);
  });
});
