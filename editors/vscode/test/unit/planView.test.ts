import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PLAN_COMMAND, PLAN_PREVIEW, RENDER_COMMAND, RENDER_PREVIEW, escapeHtml, newNonce, parsePlanResult, planArguments, planHtml, previewForLens } from '../../src/planView';

const base = { title: 'app.blueprint.yaml', updated: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), nonce: 'N0NCE', cspSource: 'vscode-resource:' };

describe('plan command', () => {
  it('is blueprint.plan with the document uri', () => {
    assert.equal(PLAN_COMMAND, 'blueprint.plan');
    assert.deepEqual(planArguments('file:///w/a.blueprint.yaml'), [{ uri: 'file:///w/a.blueprint.yaml' }]);
  });
  it('accepts an answer with markdown', () => {
    assert.equal(parsePlanResult({ markdown: '# Plan', plan: {} }).markdown, '# Plan');
  });
  it('rejects anything else', () => {
    assert.throws(() => parsePlanResult(null), /unexpected answer to blueprint.plan/);
    assert.throws(() => parsePlanResult({ plan: {} }), /unexpected answer/);
  });
});

describe('planHtml', () => {
  it('embeds rendered markdown under a strict CSP', () => {
    const html = planHtml({ ...base, bodyHtml: '<h1>Plan</h1>' });
    assert.match(html, /<article class="plan markdown-body"><h1>Plan<\/h1><\/article>/);
    assert.match(html, /default-src 'none'/);
    assert.match(html, /style-src 'nonce-N0NCE'/);
    assert.doesNotMatch(html, /script-src/);
    assert.match(html, /updated 2026-01-02 03:04:05 UTC/);
  });
  it('escapes raw markdown and titles', () => {
    const html = planHtml({ ...base, title: '<x>.yaml', markdown: '<script>alert(1)</script>' });
    assert.match(html, /<pre>&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/pre>/);
    assert.match(html, /Plan for &lt;x&gt;.yaml/);
    assert.doesNotMatch(html, /<script>/);
  });
  it('shows errors', () => {
    const html = planHtml({ ...base, error: 'no such command "blueprint.plan"' });
    assert.match(html, /Could not compute the plan/);
    assert.match(html, /no such command &quot;blueprint.plan&quot;/);
  });
  it('escapes every special character', () => {
    assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
  it('makes distinct nonces', () => {
    assert.notEqual(newNonce(), newNonce());
    assert.match(newNonce(), /^[A-Za-z0-9]{32}$/);
  });
});

describe('previewForLens', () => {
  it('maps the plan and render lenses to their previews', () => {
    const uri = 'file:///w/blueprint.yaml';
    assert.equal(previewForLens(PLAN_COMMAND, [{ uri }])?.kind, PLAN_PREVIEW);
    assert.equal(previewForLens(RENDER_COMMAND, [{ uri }])?.kind, RENDER_PREVIEW);
    assert.equal(previewForLens(RENDER_COMMAND, [{ uri }])?.uri, uri);
    assert.equal(RENDER_PREVIEW.clientCommand, 'blueprint.previewRender');
  });

  it('leaves every other lens alone', () => {
    assert.equal(previewForLens('editor.action.showReferences', ['file:///w/a.yaml', { line: 1, character: 2 }]), undefined);
    assert.equal(previewForLens(PLAN_COMMAND, []), undefined);
    assert.equal(previewForLens(PLAN_COMMAND, [{ url: 'x' }]), undefined);
    assert.equal(previewForLens(undefined, undefined), undefined);
  });

  it('titles the render page as a render', () => {
    const html = planHtml({ title: 'blueprint.yaml', kind: 'Render', error: 'boom', updated: new Date(0), nonce: 'n', cspSource: 'c' });
    assert.match(html, /Render for blueprint\.yaml/);
    assert.match(html, /Could not compute the render\./);
  });
});
