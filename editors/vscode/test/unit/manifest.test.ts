import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { LANGUAGE_IDS } from '../../src/settings';

// The bundled test runs from out/test; package.json is two folders up.
const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8'));
const contributes = manifest.contributes;

describe('package.json', () => {
  it('declares exactly the languages the client serves', () => {
    assert.deepEqual(contributes.languages.map((l: { id: string }) => l.id), [...LANGUAGE_IDS]);
  });

  it('gives every language a grammar and a configuration file that exist', () => {
    for (const id of LANGUAGE_IDS) {
      const lang = contributes.languages.find((l: { id: string }) => l.id === id);
      const grammar = contributes.grammars.find((g: { language?: string }) => g.language === id);
      assert.ok(grammar, `no grammar for ${id}`);
      for (const file of [lang.configuration, grammar.path]) {
        assert.ok(fs.existsSync(path.resolve(__dirname, '..', '..', file)), `${id}: ${file} is missing`);
      }
    }
  });

  it('opens .bp and .blueprint files as the blueprint language', () => {
    const lang = contributes.languages.find((l: { id: string }) => l.id === 'blueprint-lang');
    assert.deepEqual(lang.extensions, ['.bp', '.blueprint']);
    const grammar = contributes.grammars.find((g: { language?: string }) => g.language === 'blueprint-lang');
    assert.equal(grammar.scopeName, 'source.blueprint.lang');
  });

  it('offers the plan preview on every blueprint language and nothing else', () => {
    const whens: string[] = [...contributes.menus['editor/title'], ...contributes.menus.commandPalette]
      .filter((m: { command: string }) => m.command === 'blueprint.previewPlan')
      .map((m: { when: string }) => m.when);
    assert.equal(whens.length, 2);
    for (const when of whens) {
      const m = /^editorLangId =~ \/(.*)\/$/.exec(when);
      assert.ok(m, `unexpected when clause ${when}`);
      const re = new RegExp(m[1]);
      for (const id of LANGUAGE_IDS) {
        assert.ok(re.test(id), `${when} misses ${id}`);
      }
      for (const other of ['yaml', 'json', 'blueprint-yaml-ish', 'bp']) {
        assert.ok(!re.test(other), `${when} matches ${other}`);
      }
    }
  });

  it('declares every command the extension registers, render on YAML blueprints only', () => {
    const ids = contributes.commands.map((c: { command: string }) => c.command);
    for (const id of ['blueprint.previewPlan', 'blueprint.previewRender', 'blueprint.restartServer', 'blueprint.showOutput']) {
      assert.ok(ids.includes(id), `${id} is not declared`);
    }
    const render = contributes.menus.commandPalette.find((m: { command: string }) => m.command === 'blueprint.previewRender');
    assert.equal(render.when, 'editorLangId == blueprint');
  });
});
