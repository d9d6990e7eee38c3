// End-to-end test of the VS Code extension in real VS Code: code-server
// (VS Code 1.100 web workbench) driven by Debian's Chromium through
// playwright-core. Installs the built VSIX into a fresh profile, opens a
// blueprint with a mistake and checks what a person would see.
//
// Usage: node run.mjs VSIX
// Environment:
//   BLUEPRINT_LS          optional: set blueprint.server.path to this binary
//                         (default: the binary bundled in the VSIX)
//   ARTIFACTS             screenshots and logs (default ../test-artifacts)
//   CHROMIUM              browser (default /usr/bin/chromium)
//   CODE_SERVER           code-server binary (default node_modules/.bin/code-server)
//   BLUEPRINT_E2E_XFAIL   comma-separated features expected to fail for now
//   BLUEPRINT_E2E_TIMEOUT_MS  per wait (default 30000)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const vsix = path.resolve(process.argv[2] ?? fail('usage: node run.mjs VSIX'));
const artifacts = path.resolve(process.env.ARTIFACTS ?? path.join(here, '..', 'test-artifacts'));
const codeServer = process.env.CODE_SERVER ?? path.join(here, 'node_modules', '.bin', 'code-server');
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const fixture = path.join(here, '..', '..', 'testdata', 'app.blueprint.yaml');
const bpFixture = path.join(here, '..', '..', 'testdata', 'app.bp'); // the same blueprint in the blueprint language
const TIMEOUT = Number(process.env.BLUEPRINT_E2E_TIMEOUT_MS ?? 30000);
const xfail = new Set((process.env.BLUEPRINT_E2E_XFAIL ?? '').split(/[,\s]+/).filter(Boolean));

function fail(msg) {
  console.error(`FAIL: ${msg}`);
  process.exit(1);
}
for (const [what, p] of [['VSIX', vsix], ['code-server', codeServer], ['Chromium', chromiumPath]]) {
  if (!fs.existsSync(p)) fail(`${what} not found at ${p}`);
}

const t0 = Date.now();
const log = (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
fs.mkdirSync(artifacts, { recursive: true });

// A fresh, isolated profile and workspace per run.
const run = fs.mkdtempSync(path.join(os.tmpdir(), 'blueprint-vscode-e2e-'));
const ws = path.join(run, 'workspace');
const userData = path.join(run, 'user-data');
const extensions = path.join(run, 'extensions');
for (const d of [ws, path.join(userData, 'User'), extensions, path.join(run, 'xdg-config'), path.join(run, 'xdg-data')]) {
  fs.mkdirSync(d, { recursive: true });
}
fs.copyFileSync(fixture, path.join(ws, 'app.blueprint.yaml'));
fs.copyFileSync(bpFixture, path.join(ws, 'app.bp'));
// A Landscaper blueprint and the import values its render preview reads.
fs.mkdirSync(path.join(ws, 'landscaper'));
for (const f of ['blueprint.yaml', 'imports.yaml']) {
  fs.copyFileSync(path.join(here, '..', '..', 'testdata', 'landscaper', f), path.join(ws, 'landscaper', f));
}
const userSettings = {
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'files.autoSave': 'off',
  'editor.hover.delay': 150,
  'blueprint.trace.server': 'messages',
};
if (process.env.BLUEPRINT_LS) {
  userSettings['blueprint.server.path'] = path.resolve(process.env.BLUEPRINT_LS);
}
fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify(userSettings, null, 2));
const env = { ...process.env, XDG_CONFIG_HOME: path.join(run, 'xdg-config'), XDG_DATA_HOME: path.join(run, 'xdg-data') };
const profile = ['--user-data-dir', userData, '--extensions-dir', extensions];

log(`installing ${path.basename(vsix)}`);
const inst = spawnSync(codeServer, [...profile, '--install-extension', vsix], { env, encoding: 'utf8' });
if (inst.status !== 0 || !/successfully installed/i.test(inst.stdout + inst.stderr)) {
  fail(`installing the VSIX failed:\n${inst.stdout}\n${inst.stderr}`);
}

const port = await new Promise((resolve) => {
  const srv = net.createServer().listen(0, '127.0.0.1', () => {
    const p = srv.address().port;
    srv.close(() => resolve(p));
  });
});
const csLog = fs.openSync(path.join(artifacts, 'code-server.log'), 'w');
// Its own process group, so killing it takes the extension host, file
// watcher and language server along.
const cs = spawn(codeServer, ['--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
  '--disable-workspace-trust', '--disable-getting-started-override', '--ignore-last-opened', ...profile, ws],
{ env, detached: true, stdio: ['ignore', csLog, csLog] });
const stopCodeServer = () => {
  try {
    process.kill(-cs.pid, 'SIGTERM');
  } catch {
    // already gone
  }
};
process.on('exit', stopCodeServer);
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {
    // not up yet
  }
  if (i > 300) fail('code-server did not start; see code-server.log');
  await new Promise((r) => setTimeout(r, 100));
}
log(`code-server up on ${base}`);

const browserProfile = fs.mkdtempSync(path.join(run, 'chromium-'));
const browser = await chromium.launchPersistentContext(browserProfile, {
  executablePath: chromiumPath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
  viewport: { width: 1600, height: 900 },
});
const page = browser.pages()[0] ?? (await browser.newPage());
page.setDefaultTimeout(TIMEOUT);
const consoleErrors = [];
page.on('console', (m) => {
  if (m.type() === 'error') consoleErrors.push(m.text().slice(0, 300));
});

const results = { passed: 0, failed: 0, xfailed: 0, xpassed: 0 };
async function test(name, feature, fn) {
  const s = Date.now();
  let err;
  try {
    await fn();
  } catch (e) {
    err = e;
  }
  const ms = Date.now() - s;
  let tag;
  if (!err) {
    tag = xfail.has(feature) ? 'XPASS' : 'PASS';
    results.passed++;
    if (xfail.has(feature)) results.xpassed++;
  } else if (xfail.has(feature)) {
    tag = 'XFAIL';
    results.xfailed++;
  } else {
    tag = 'FAIL';
    results.failed++;
  }
  console.log(`${tag.padEnd(5)} vscode  ${name} [${feature}] (${ms} ms)`);
  if (err) {
    console.log(`      ${String(err.message ?? err).split('\n').slice(0, 6).join('\n      ')}`);
    const shot = path.join(artifacts, `vscode-fail-${feature}.png`);
    await page.screenshot({ path: shot }).catch(() => {});
    console.log(`      screenshot: ${shot}`);
  }
}
const check = (cond, msg) => {
  if (!cond) throw new Error(msg);
};
// Once the server is known not to run, tests that need it fail at once
// instead of each waiting for its timeout.
let serverRunning = false;
const needsServer = () => check(serverRunning, 'the language server is not running (see "server starts")');
const shot = (name) => page.screenshot({ path: path.join(artifacts, name) });
const squash = (s) => s.replace(/\s+/g, ' ').trim();

const editor = page.locator('.part.editor .editor-instance .monaco-editor').first();

// openQuickInput presses key until the quick-input box shows: a focused
// hover or a code lens being laid out can swallow the first key press.
async function openQuickInput(key, before = async () => {}) {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Escape');
    await before();
    await page.keyboard.press(key);
    try {
      await page.locator('.quick-input-widget input').waitFor({ timeout: 5000 });
      return;
    } catch (err) {
      if (attempt === 3) throw err;
      log(`quick input did not open after ${key} (attempt ${attempt}); retrying`);
    }
  }
}

// suggestions waits for the suggest widget that typing a trigger character
// opens (asking with Ctrl+Space if it did not open by itself) to list every
// label of want, and returns the labels it lists.
async function suggestions(want) {
  const widget = page.locator('.editor-widget.suggest-widget');
  try {
    await widget.locator('.monaco-list-row').first().waitFor({ timeout: 5000 });
  } catch {
    await page.keyboard.press('Control+Space');
  }
  for (const label of want) {
    await widget.locator('.monaco-list-row', { hasText: label }).first().waitFor();
  }
  return (await widget.locator('.monaco-list-row .label-name').allInnerTexts()).map(squash);
}

// languageMode waits for the status bar to show the active editor's
// language as want.
async function languageMode(want) {
  const mode = page.locator('.statusbar-item#status\\.editor\\.mode');
  try {
    await mode.filter({ hasText: want }).waitFor({ timeout: 10000 });
  } catch {
    throw new Error(`language mode is ${JSON.stringify(squash(await mode.innerText()))}, want "${want}"`);
  }
}

// visibleBox returns the bounding box of the element locator finds, once
// it is visible. The editor re-renders decorations such as squiggles on
// every update: one found visible may be gone by the time its box is read
// (boundingBox() answered null, and reading its x failed), so find it again.
async function visibleBox(locator) {
  for (let attempt = 1; ; attempt++) {
    await locator.waitFor({ state: 'visible' });
    const box = await locator.boundingBox();
    if (box) return box;
    if (attempt === 20) throw new Error(`${locator} never stayed visible long enough to be measured`);
  }
}

// The quick input's text is filled into its own input element, never typed
// at whatever has the focus: a press that lands while the widget is still
// opening (or closing) would type the text into the editor, and the
// document stays edited for every later test (seen once: "21:16" typed into
// app.blueprint.yaml broke the grammar, plan and hover steps after it).
const quickInput = () => page.locator('.quick-input-widget input');

async function command(title) {
  await openQuickInput('F1');
  await quickInput().fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
  await quickInput().press('Enter');
}

async function goTo(line, col, file = 'app.blueprint.yaml') {
  for (let attempt = 1; ; attempt++) {
    // Clicking the file's tab focuses its editor without moving the cursor.
    // The mouse then leaves the tab: resting there, it opens the tab's
    // tooltip, which swallowed Control+G (seen twice: the quick input never
    // opened and a hover test failed after 30 s).
    await openQuickInput('Control+G', async () => {
      await page.locator('.part.editor .tab', { hasText: file }).filter({ hasNotText: 'Plan:' }).first().click();
      await page.mouse.move(5, 5);
    });
    try {
      // The widget can close again as it opens (a hover or the suggest
      // widget taking the focus back): then fill the next one.
      await quickInput().fill(`:${line}:${col}`, { timeout: 5000 });
      await quickInput().press('Enter', { timeout: 5000 });
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
      return;
    } catch (err) {
      if (attempt === 3) throw err;
      log(`go to ${line}:${col} did not take (attempt ${attempt}); retrying`);
    }
  }
}

// hoverAt moves the cursor to line:col of file, asks for the hover there
// and returns its text once it names want. The command only acts on a
// focused editor, and a focus change as the quick input closes (seen
// once after the Problems panel had the focus) can leave it with none:
// then the hover never opens, so move and ask again.
async function hoverAt(line, col, file, want) {
  const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: want }).first();
  for (let attempt = 1; ; attempt++) {
    await goTo(line, col, file);
    await page.locator('.part.editor .editor-group-container.active .monaco-editor textarea').first().focus().catch(() => {});
    await command('Show or Focus Hover');
    try {
      await hover.waitFor({ timeout: 10000 });
      return squash(await hover.innerText());
    } catch (err) {
      if (attempt === 3) throw err;
      const shown = await page.locator('.monaco-hover:not(.hidden)').allInnerTexts().catch(() => []);
      log(`hover at ${file}:${line}:${col} did not show "${want}" (attempt ${attempt}; showing ${JSON.stringify(shown.map(squash))}); retrying`);
      await page.keyboard.press('Escape');
    }
  }
}

// Line numbers (1-based) in the fixtures.
const lines = fs.readFileSync(fixture, 'utf8').split('\n');
const lineOf = (text, ls = lines) => ls.findIndex((l) => l.includes(text)) + 1;
const colOf = (text, sub, ls = lines) => ls[lineOf(text, ls) - 1].indexOf(sub) + 1;
const bpLines = fs.readFileSync(bpFixture, 'utf8').split('\n');
const MISTAKE_LINE = lineOf('variables.enviroment');
const REF_LINE = lineOf('value: ${variables.environment}-orders');

try {
  await page.goto(`${base}/?folder=${encodeURIComponent(ws)}`);

  await test('workbench opens the blueprint as language "blueprint"', 'client', async () => {
    await page.locator('.monaco-workbench').waitFor({ timeout: 90000 });
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'app.blueprint.yaml' });
    await row.waitFor({ timeout: 60000 });
    await row.click();
    await editor.locator('.view-lines', { hasText: 'ordersTable' }).waitFor();
    await languageMode('Blueprint (YAML)');
  });

  await test('server starts: status bar shows it running', 'serve', async () => {
    const item = page.locator('.statusbar-item', { hasText: 'Blueprint' }).filter({ has: page.locator('.codicon-check') });
    await item.first().waitFor({ timeout: 60000 });
    serverRunning = true;
  });

  await test('diagnostic: squiggle and Problems entry on the mistake', 'diagnostics', async () => {
    needsServer();
    await editor.locator('.squiggly-error').first().waitFor({ timeout: 60000 });
    await page.waitForTimeout(300);
    await shot('vscode-diagnostic.png');
    await page.keyboard.press('Control+Shift+M');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'enviroment' }).first();
    await row.waitFor();
    const text = squash(await row.innerText());
    log('Problems:', JSON.stringify(text));
    check(text.includes(`[Ln ${MISTAKE_LINE}, Col`), `Problems entry not on line ${MISTAKE_LINE}: ${text}`);
    const all = await page.locator('.markers-panel .monaco-list-row').allInnerTexts();
    const errorsElsewhere = all.map(squash).filter((t) => /\[Ln \d+/.test(t) && !t.includes(`[Ln ${MISTAKE_LINE},`));
    check(errorsElsewhere.length === 0, `unexpected problems on other lines: ${JSON.stringify(errorsElsewhere)}`);
  });

  await test('hover on a variable reference', 'hover', async () => {
    needsServer();
    const text = await hoverAt(REF_LINE, colOf('value: ${variables.environment}-orders', 'environment') + 2, 'app.blueprint.yaml', 'environment');
    log('hover:', JSON.stringify(text.slice(0, 200)));
    check(text.includes('string') || text.includes('The environment to deploy to'), `hover shows neither type nor description: ${text}`);
    await page.waitForTimeout(300);
    await shot('vscode-hover.png');
  });

  await test('completion inside ${variables.', 'completion', async () => {
    needsServer();
    await page.keyboard.press('Escape');
    await goTo(REF_LINE, lines[REF_LINE - 1].length + 1);
    await page.keyboard.type('-${variables.');
    log('completion:', JSON.stringify(await suggestions(['environment', 'region'])));
    await shot('vscode-completion.png');
  });
  await page.keyboard.press('Escape');
  await command('File: Revert File').catch(() => {});

  await test('TextMate injection scopes inside ${..}', 'grammar', async () => {
    await goTo(REF_LINE, colOf('value: ${variables.environment}-orders', 'variables') + 2);
    await command('Developer: Inspect Editor Tokens and Scopes');
    const widget = page.locator('.token-inspect-widget');
    await widget.waitFor();
    await page.waitForTimeout(500);
    const text = squash(await widget.innerText());
    log('token inspector:', JSON.stringify(text.slice(0, 400)));
    await shot('vscode-tokens.png');
    for (const scope of ['variable.language.namespace.blueprint', 'meta.embedded.substitution.blueprint', 'source.blueprint.yaml']) {
      check(text.includes(scope), `token inspector lacks ${scope}: ${text}`);
    }
  });
  await page.keyboard.press('Escape');

  await test('plan preview beside the editor', 'plan-command', async () => {
    needsServer();
    await command('Blueprint: Preview Plan');
    await page.locator('.tab', { hasText: 'Plan: app.blueprint.yaml' }).first().waitFor();
    let text = '';
    const deadline = Date.now() + TIMEOUT;
    while (Date.now() < deadline) {
      for (const f of page.frames()) {
        const t = await f.evaluate(() => document.body?.innerText ?? '').catch(() => '');
        if (t.includes('Plan for app.blueprint.yaml')) text = t;
      }
      if (text && !/updating/i.test(text) && (text.includes('ordersTable') || text.includes('Could not compute'))) break;
      await page.waitForTimeout(250);
    }
    log('plan preview:', JSON.stringify(squash(text).slice(0, 300)));
    await page.waitForTimeout(300);
    await shot('vscode-plan.png');
    check(text.includes('ordersTable'), `plan preview does not list ordersTable: ${squash(text).slice(0, 400)}`);
  });

  await test('overview: diagnostic hover with the plan beside', 'diagnostics', async () => {
    needsServer();
    await goTo(MISTAKE_LINE, 1);
    await page.keyboard.press('Escape');
    const box = await visibleBox(editor.locator('.squiggly-error').first());
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.locator('.monaco-hover:not(.hidden)', { hasText: 'enviroment' }).first().waitFor();
    await page.waitForTimeout(300);
    await shot('vscode-overview.png');
  });

  // The lens names the server's command; the client opens the preview
  // that shows its answer (a lens running the command itself drops it).
  await test('Landscaper: the "Preview render" lens opens the render beside', 'plan-command', async () => {
    needsServer();
    await page.keyboard.press('Escape');
    const rows = page.locator('.explorer-folders-view .monaco-list-row');
    const file = rows.filter({ hasText: 'blueprint.yaml' }).filter({ hasNotText: 'app.' });
    if (!(await file.count())) {
      await rows.filter({ hasText: 'landscaper' }).first().click();
    }
    await file.first().click();
    await page.locator('.part.editor .tab.active', { hasText: 'blueprint.yaml' }).filter({ hasNotText: 'app.' }).waitFor();
    const lens = editor.locator('.codelens-decoration a', { hasText: 'Preview render' }).first();
    await lens.waitFor();
    await lens.click();
    await page.locator('.tab', { hasText: 'Render: blueprint.yaml' }).first().waitFor();
    let text = '';
    const deadline = Date.now() + TIMEOUT;
    while (Date.now() < deadline) {
      for (const f of page.frames()) {
        const t = await f.evaluate(() => document.body?.innerText ?? '').catch(() => '');
        if (t.includes('Render for blueprint.yaml')) text = t;
      }
      if (text.includes('e2e-rendered-namespace') || text.includes('Could not compute')) break;
      await page.waitForTimeout(250);
    }
    log('render preview:', JSON.stringify(squash(text).slice(0, 300)));
    await shot('vscode-render.png');
    check(text.includes('e2e-rendered-namespace'), `render preview lacks the rendered namespace: ${squash(text).slice(0, 400)}`);
  });
  await page.keyboard.press('Escape');

  await test('restart the server and show its output', 'client', async () => {
    await page.mouse.move(5, 5);
    await command('Blueprint: Restart Language Server');
    const running = page.locator('.statusbar-item', { hasText: 'Blueprint' }).filter({ has: page.locator('.codicon-check') });
    await page.waitForTimeout(500);
    await running.first().waitFor({ timeout: 60000 });
    await command('Blueprint: Show Output');
    // The output view follows the end of the channel: the protocol trace
    // (blueprint.trace.server is "messages") shows it is ours.
    await page.locator('.part.panel .monaco-editor .view-lines', { hasText: 'textDocument/' }).first().waitFor();
    await shot('vscode-output.png');
  });

  // The blueprint language: app.bp is app.blueprint.yaml written as .bp.
  await test('a .bp file opens as language "Blueprint Language"', 'client', async () => {
    await page.keyboard.press('Escape');
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'app.bp' });
    await row.click();
    await page.locator('.part.editor .tab.active', { hasText: 'app.bp' }).waitFor();
    await editor.locator('.view-lines', { hasText: 'resource ordersTable' }).waitFor();
    await languageMode('Blueprint Language');
  });

  await test('TextMate scopes in a .bp file', 'grammar', async () => {
    const ref = 'value = "${variables.environment}-orders';
    await goTo(lineOf(ref, bpLines), colOf(ref, 'variables', bpLines) + 2, 'app.bp');
    await command('Developer: Inspect Editor Tokens and Scopes');
    const widget = page.locator('.token-inspect-widget');
    for (const scope of ['variable.language.namespace.blueprint', 'meta.embedded.substitution.blueprint', 'string.quoted.double.blueprint', 'source.blueprint.lang']) {
      await widget.filter({ hasText: scope }).waitFor();
    }
    log('token inspector (.bp):', JSON.stringify(squash(await widget.innerText()).slice(0, 400)));
    await shot('vscode-bp-tokens.png');
  });
  await page.keyboard.press('Escape');

  const BP_MISTAKE_LINE = lineOf('variables.enviroment', bpLines);
  const BP_REF = 'value = "${variables.environment}-orders';
  await test('.bp: squiggle and Problems entry on the mistake', 'diagnostics', async () => {
    needsServer();
    check(BP_MISTAKE_LINE !== MISTAKE_LINE, 'the fixtures put their mistakes on the same line: the Problems rows would not tell them apart');
    await goTo(BP_MISTAKE_LINE, 1, 'app.bp');
    await editor.locator('.squiggly-error').first().waitFor();
    await page.keyboard.press('Control+Shift+M');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: `[Ln ${BP_MISTAKE_LINE}, Col` }).filter({ hasText: 'enviroment' }).first();
    await row.waitFor();
    log('Problems (.bp):', JSON.stringify(squash(await row.innerText())));
    await shot('vscode-bp-diagnostic.png');
  });

  await test('.bp: hover on a variable reference', 'hover', async () => {
    needsServer();
    const text = await hoverAt(lineOf(BP_REF, bpLines), colOf(BP_REF, 'environment', bpLines) + 2, 'app.bp', 'environment');
    log('hover (.bp):', JSON.stringify(text.slice(0, 200)));
    check(text.includes('string') || text.includes('The environment to deploy to'), `hover shows neither type nor description: ${text}`);
  });

  await test('.bp: completion while typing variables.', 'completion', async () => {
    needsServer();
    await page.keyboard.press('Escape');
    // A new spec attribute under tableName, typed as a person would.
    const at = 'tableName = values.tableName';
    await goTo(lineOf(at, bpLines), bpLines[lineOf(at, bpLines) - 1].length + 1, 'app.bp');
    await page.keyboard.press('Enter');
    await page.keyboard.type('tableClass = variables.');
    log('completion (.bp):', JSON.stringify(await suggestions(['environment', 'region'])));
    await shot('vscode-bp-completion.png');
  });
  await page.keyboard.press('Escape');
  await command('File: Revert File').catch(() => {});
} finally {
  if (consoleErrors.length) {
    fs.writeFileSync(path.join(artifacts, 'browser-console-errors.txt'), consoleErrors.join('\n') + '\n');
  }
  await browser.close().catch(() => {});
  stopCodeServer();
  // Keep the extension's output channel (server stderr, trace) and the
  // extension host log as artifacts.
  const logs = path.join(userData, 'logs');
  const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
  if (fs.existsSync(logs)) {
    for (const f of walk(logs)) {
      if (/Blueprint Language Server\.log$|exthost\.log$/.test(f)) {
        fs.copyFileSync(f, path.join(artifacts, `vscode-${path.basename(f).replace(/^\d+-/, '').replace(/\s+/g, '-')}`));
      }
    }
  }
  fs.rmSync(run, { recursive: true, force: true });
}

if (results.xfailed || results.xpassed) {
  console.log(`# vscode: ${results.xfailed} expected failures (BLUEPRINT_E2E_XFAIL), ${results.xpassed} passed although expected to fail`);
}
console.log(`# screenshots and logs in ${artifacts}`);
console.log(`${results.passed} passed, ${results.failed} failed, ${results.xfailed} skipped`);
process.exit(results.failed ? 1 : 0);
