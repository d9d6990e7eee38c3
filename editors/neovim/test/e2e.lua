-- End-to-end tests of the Neovim plugin against the real blueprint-ls binary,
-- headless, on any Neovim from 0.7. Run through test/run.sh:
--   nvim --headless -u test/init.lua -c 'luafile test/e2e.lua'
-- Environment: BLUEPRINT_LS (server binary), BLUEPRINT_FIXTURE (blueprint
-- with one mistake), BLUEPRINT_BP_FIXTURE (the same in the blueprint
-- language; default app.bp beside BLUEPRINT_FIXTURE), BLUEPRINT_E2E_TIMEOUT_MS (per wait, default 15000),
-- BLUEPRINT_E2E_XFAIL (comma-separated features expected to fail for now:
-- reported as XFAIL instead of failing the run; empty by default).
local bls = require('blueprint_ls')
local commands = require('blueprint_ls.commands')

local TIMEOUT = tonumber(os.getenv('BLUEPRINT_E2E_TIMEOUT_MS') or '') or 15000
local SERVER = assert(os.getenv('BLUEPRINT_LS'), 'set BLUEPRINT_LS to the blueprint-ls binary')
local FIXTURE = assert(os.getenv('BLUEPRINT_FIXTURE'), 'set BLUEPRINT_FIXTURE')
local BP_FIXTURE = os.getenv('BLUEPRINT_BP_FIXTURE') or (vim.fn.fnamemodify(FIXTURE, ':h') .. '/app.bp')
local xfail = {}
for f in (os.getenv('BLUEPRINT_E2E_XFAIL') or ''):gmatch('[^,%s]+') do
  xfail[f] = true
end

local v = vim.version()
local VERSION = ('%d.%d.%d'):format(v.major, v.minor, v.patch)
local out = function(s)
  io.stdout:write(s .. '\n')
  io.stdout:flush()
end

-- A copy of the fixture in a fresh directory, so edits never touch the repo.
local dir = vim.fn.tempname()
vim.fn.mkdir(dir, 'p')
local file = dir .. '/app.blueprint.yaml'
vim.fn.writefile(vim.fn.readfile(FIXTURE), file)

local results = { passed = 0, failed = 0, xfailed = 0, xpassed = 0 }

local function test(name, feature, fn)
  local t0 = (vim.uv or vim.loop).hrtime()
  local ok, err = pcall(fn)
  local ms = ((vim.uv or vim.loop).hrtime() - t0) / 1e6
  local tag
  if ok and xfail[feature] then
    tag = 'XPASS'
    results.xpassed = results.xpassed + 1
    results.passed = results.passed + 1
  elseif ok then
    tag = 'PASS'
    results.passed = results.passed + 1
  elseif xfail[feature] then
    tag = 'XFAIL'
    results.xfailed = results.xfailed + 1
  else
    tag = 'FAIL'
    results.failed = results.failed + 1
  end
  out(('%-5s nvim %s  %s [%s] (%.0f ms)'):format(tag, VERSION, name, feature, ms))
  if not ok then
    out('      ' .. tostring(err):gsub('\n', '\n      '))
  end
end

local function wait_for(what, pred, timeout)
  local ok = vim.wait(timeout or TIMEOUT, pred, 50)
  if not ok then
    error(('timed out after %d ms waiting for %s'):format(timeout or TIMEOUT, what), 2)
  end
end

local function check(cond, fmt, ...)
  if not cond then
    error((fmt):format(...), 2)
  end
end

-- find returns the 0-based line and column of the n-th occurrence of text.
local function find(bufnr, text, n)
  n = n or 1
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local from = 1
    while true do
      local s = line:find(text, from, true)
      if not s then
        break
      end
      n = n - 1
      if n == 0 then
        return i - 1, s - 1
      end
      from = s + 1
    end
  end
  error('fixture has no ' .. text)
end

local capability = {
  ['textDocument/hover'] = 'hoverProvider',
  ['textDocument/completion'] = 'completionProvider',
  ['textDocument/definition'] = 'definitionProvider',
  ['textDocument/rename'] = 'renameProvider',
}

local function request(bufnr, method, params)
  local c = bls.clients(bufnr)[1]
  local cap = capability[method]
  if c and cap then
    local v = (c.server_capabilities or {})[cap]
    check(v ~= nil and v ~= false and v ~= vim.NIL, 'the server does not offer %s (%s)', method, cap)
  end
  local answers, err = vim.lsp.buf_request_sync(bufnr, method, params, TIMEOUT)
  check(answers ~= nil, '%s: no answer (%s)', method, tostring(err))
  for id, a in pairs(answers) do
    local c = vim.lsp.get_client_by_id(id)
    if c and c.name == bls.name then
      check(a.err == nil and a.error == nil, '%s failed: %s', method, vim.inspect(a.err or a.error))
      return a.result
    end
  end
  error(method .. ': our client did not answer')
end

-- needs_server fails a test at once when no client is attached, instead of
-- letting it time out.
local function needs_server(bufnr)
  check(#bls.clients(bufnr) > 0, 'no blueprint-ls client is attached (see "server starts and attaches")')
end

local function position(bufnr, line, col)
  return { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = line, character = col } }
end

local function markup_text(contents)
  if type(contents) == 'string' then
    return contents
  end
  if contents.value then
    return contents.value
  end
  local parts = {}
  for _, c in ipairs(contents) do
    table.insert(parts, type(c) == 'string' and c or c.value or '')
  end
  return table.concat(parts, '\n')
end

out(('# blueprint-ls Neovim e2e: nvim %s, server %s'):format(VERSION, SERVER))

bls.setup({ cmd = { SERVER, 'serve' } })
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()

test('filetype detection', 'client', function()
  check(vim.bo[buf].filetype == 'yaml.bluelink', 'filetype of %s is %q', file, vim.bo[buf].filetype)
  local ft = require('blueprint_ls.filetype')
  local cases = {
    ['a/app.blueprint.yaml'] = 'yaml.bluelink',
    ['app.blueprint.yml'] = 'yaml.bluelink',
    ['x/blueprint.yaml'] = 'yaml.bluelink',
    ['app.blueprint.json'] = 'json.bluelink',
    ['blueprint.jsonc'] = 'jsonc.bluelink',
    ['ui.blp'] = nil,
    ['app.yaml'] = nil,
    ['blueprint.yaml.bak'] = nil,
    ['notablueprint.yaml'] = nil,
  }
  for path, want in pairs(cases) do
    check(ft.detect(path) == want, 'detect(%q) = %s, want %s', path, tostring(ft.detect(path)), tostring(want))
  end
  -- Real detection for the JSON variants and a plain YAML file.
  for name, want in pairs({ ['other.blueprint.json'] = 'json.bluelink', ['blueprint.jsonc'] = 'jsonc.bluelink', ['plain.yaml'] = 'yaml' }) do
    vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/sub/' .. name))
    check(vim.bo.filetype == want, '%s: filetype %q, want %q', name, vim.bo.filetype, want)
    vim.cmd('bwipeout!')
  end
  vim.cmd('buffer ' .. buf)
end)

test('server starts and attaches', 'serve', function()
  wait_for('a bluelink_blueprint_ls client on the buffer', function()
    return #bls.clients(buf) > 0 and bls.clients(buf)[1].initialized ~= false
  end)
  local c = bls.clients(buf)[1]
  if vim.fn.has('nvim-0.11') == 1 then
    check(vim.lsp.config[bls.name] ~= nil, 'setup() did not use vim.lsp.config on %s', VERSION)
  end
  wait_for('initialize to finish', function()
    return c.server_capabilities ~= nil and next(c.server_capabilities) ~= nil
  end)
end)

-- Neovim core gives the filetype `blueprint` to GNOME Blueprint files
-- (*.blp), which nvim-lspconfig's `blueprint_ls` serves: ours must leave
-- them alone (no filetype, no server, no YAML parser).
test('GNOME Blueprint .blp files are left alone', 'client', function()
  needs_server(buf)
  local blp = dir .. '/sub/window.blp'
  vim.fn.mkdir(dir .. '/sub', 'p')
  vim.fn.writefile({ 'using Gtk 4.0;', '', 'template $MyWindow : Gtk.ApplicationWindow {', '  title: "Hello";', '}' }, blp)
  vim.cmd('edit ' .. vim.fn.fnameescape(blp))
  local b = vim.api.nvim_get_current_buf()
  local got = vim.bo[b].filetype
  local ours = require('blueprint_ls.filetype').filetypes
  check(not vim.tbl_contains(ours, got), '%s got our filetype %q', blp, got)
  if vim.fn.has('nvim-0.8') == 1 then
    -- Whatever core says (blueprint on Neovim 0.9+), unchanged by the plugin.
    local core = vim.filetype.match({ filename = blp })
    check(got == (core or ''), '%s: filetype %q, core says %q', blp, got, tostring(core))
  end
  -- FileType autocommands (which start our client) ran during :edit.
  check(#bls.clients(b) == 0, 'blueprint-ls attached to %s', blp)
  if vim.treesitter and vim.treesitter.language and vim.treesitter.language.get_lang then
    check(vim.treesitter.language.get_lang('blueprint') ~= 'yaml', 'the filetype blueprint is parsed as YAML')
    check(vim.treesitter.language.get_lang('yaml.bluelink') == 'yaml', 'yaml.bluelink has parser %s', tostring(vim.treesitter.language.get_lang('yaml.bluelink')))
  end
  vim.cmd('bwipeout!')
  vim.cmd('buffer ' .. buf)
end)

-- check_mistake waits for b's diagnostics and checks that the only error
-- is the fixture's mistake, naming the unknown variable at its columns.
local function check_mistake(b)
  local line, col = find(b, 'variables.enviroment')
  wait_for('diagnostics', function()
    return #vim.diagnostic.get(b) > 0
  end)
  local hit
  for _, d in ipairs(vim.diagnostic.get(b)) do
    if d.severity == vim.diagnostic.severity.ERROR then
      check(d.lnum == line, 'unexpected error on line %d (want only line %d): %s', d.lnum + 1, line + 1, d.message)
      hit = d
    end
  end
  check(hit ~= nil, 'no error diagnostic; got %s', vim.inspect(vim.diagnostic.get(b)))
  check(hit.message:find('enviroment', 1, true), 'message does not name the unknown variable: %q', hit.message)
  local last = col + #'variables.enviroment'
  check(hit.col <= last and (hit.end_col or hit.col) >= col, 'diagnostic columns %d-%s miss "variables.enviroment" at %d-%d', hit.col, tostring(hit.end_col), col, last)
end

test('diagnostics on the right line', 'diagnostics', function()
  needs_server(buf)
  check_mistake(buf)
end)

test('hover on a variable reference', 'hover', function()
  needs_server(buf)
  local line, col = find(buf, 'variables.environment')
  local r = request(buf, 'textDocument/hover', position(buf, line, col + #'variables.' + 2))
  check(r and r.contents, 'no hover')
  local text = markup_text(r.contents)
  check(text:find('environment', 1, true), 'hover does not name the variable: %q', text)
  check(text:find('string', 1, true) or text:find('The environment to deploy to', 1, true), 'hover shows neither type nor description: %q', text)
end)

test('completion inside ${variables.', 'completion', function()
  needs_server(buf)
  local line = find(buf, 'value: ${variables.environment}-orders')
  vim.api.nvim_buf_set_lines(buf, line + 1, line + 1, false, { '  draft:', '    type: string', '    value: ${variables.}' })
  local ok, err = pcall(function()
    local col = select(2, find(buf, '${variables.}')) + #'${variables.'
    local r = request(buf, 'textDocument/completion', position(buf, line + 3, col))
    local items = r and (r.items or r) or {}
    local labels = {}
    for _, it in ipairs(items) do
      labels[it.label] = true
    end
    check(labels.environment and labels.region, 'completion labels %s lack environment and region', vim.inspect(vim.tbl_keys(labels)))
  end)
  vim.api.nvim_buf_set_lines(buf, line + 1, line + 4, false, {})
  if not ok then
    error(err, 0)
  end
end)

test('go to definition', 'definition', function()
  needs_server(buf)
  local line, col = find(buf, 'variables.environment')
  local r = request(buf, 'textDocument/definition', position(buf, line, col + #'variables.' + 2))
  check(r ~= nil and r ~= vim.NIL, 'no definition')
  local loc = r.uri and r or r.targetUri and r or r[1]
  check(loc ~= nil, 'empty definition answer')
  local uri = loc.uri or loc.targetUri
  local range = loc.range or loc.targetSelectionRange or loc.targetRange
  check(vim.uri_to_fname(uri) == vim.api.nvim_buf_get_name(buf), 'definition in %s', uri)
  local want = find(buf, '  environment:')
  check(range.start.line == want, 'definition on line %d, want %d', range.start.line + 1, want + 1)
end)

test('rename a variable', 'rename', function()
  needs_server(buf)
  local line, col = find(buf, 'variables.region')
  local c = bls.clients(buf)[1]
  local r = request(buf, 'textDocument/rename', vim.tbl_extend('force', position(buf, line, col + #'variables.' + 1), { newName = 'awsRegion' }))
  check(r and (r.changes or r.documentChanges), 'no workspace edit: %s', vim.inspect(r))
  vim.lsp.util.apply_workspace_edit(r, c.offset_encoding or 'utf-16')
  local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
  check(text:find('\n  awsRegion:\n', 1, true), 'declaration not renamed:\n%s', text)
  check(text:find('${variables.awsRegion}', 1, true), 'reference not renamed')
  check(not text:find('variables.region', 1, true), 'a reference kept the old name')
  vim.cmd('silent edit!') -- back to the file's text
end)

-- plan_buffer returns the plan buffer of path (default: the fixture).
local function plan_buffer(path)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(b) == 'blueprint-plan://' .. (path or file) then
      return b
    end
  end
end

local function plan_text(path)
  local b = plan_buffer(path)
  return b and table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n') or ''
end

test(':BlueprintPlan through the server command', 'plan-command', function()
  vim.cmd('buffer ' .. buf)
  needs_server(buf)
  vim.cmd('BlueprintPlan server')
  wait_for('the plan buffer', function()
    return plan_text():find('ordersTable', 1, true) ~= nil
  end)
  check(vim.bo[plan_buffer()].filetype == 'markdown', 'plan buffer filetype %q', vim.bo[plan_buffer()].filetype)
  check(vim.fn.bufwinid(plan_buffer()) ~= -1, 'plan buffer is not shown')
end)

test(':BlueprintCheck fills the quickfix list', 'check', function()
  vim.cmd('buffer ' .. buf)
  local line, col = find(buf, 'variables.enviroment')
  vim.cmd('BlueprintCheck ' .. vim.fn.fnameescape(file))
  local qf = vim.fn.getqflist()
  check(#qf > 0, 'empty quickfix list')
  local hit
  for _, item in ipairs(qf) do
    if item.lnum == line + 1 and item.text:find('enviroment', 1, true) then
      hit = item
    end
  end
  check(hit, 'no quickfix entry on line %d naming enviroment: %s', line + 1, vim.inspect(qf))
  check(hit.type == 'E', 'entry type %q, want E', hit.type)
  check(vim.api.nvim_buf_get_name(hit.bufnr) == file, 'entry is for %s', vim.api.nvim_buf_get_name(hit.bufnr))
  check(hit.col >= 1 and hit.col <= col + 1 + #'variables.enviroment', 'column %d outside the reference (%d)', hit.col, col + 1)
end)

test(':BlueprintPlan through the CLI', 'plan-cli', function()
  if plan_buffer() then
    vim.cmd('bwipeout! ' .. plan_buffer())
  end
  vim.cmd('buffer ' .. buf)
  -- A plan needs a blueprint without errors: fix the mistake and save.
  local line = find(buf, 'variables.enviroment')
  local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1]
  vim.api.nvim_buf_set_lines(buf, line, line + 1, false, { (text:gsub('enviroment', 'environment')) })
  vim.cmd('silent write')
  vim.cmd('BlueprintPlan cli')
  text = plan_text()
  check(text:find('ordersTable', 1, true), 'CLI plan does not mention ordersTable:\n%s', text)
  check(not text:find('^# blueprint%-ls plan exited'), 'blueprint-ls plan failed:\n%s', text)
  check(vim.bo[plan_buffer()].filetype == 'blueprintplan', 'plan buffer filetype %q', vim.bo[plan_buffer()].filetype)
end)

-- A Landscaper blueprint: :BlueprintRender and its "Preview render" lens
-- show the server's render (the import values come from imports.yaml).
local lsc_dir = dir .. '/landscaper'
vim.fn.mkdir(lsc_dir, 'p')
for _, f in ipairs({ 'blueprint.yaml', 'imports.yaml' }) do
  vim.fn.writefile(vim.fn.readfile(vim.fn.fnamemodify(FIXTURE, ':h') .. '/landscaper/' .. f), lsc_dir .. '/' .. f)
end
local lsc_file = lsc_dir .. '/blueprint.yaml'

local function render_buffer()
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(b) == 'blueprint-render://' .. lsc_file then
      return b
    end
  end
end

local function render_text()
  local b = render_buffer()
  return b and table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n') or ''
end

test(':BlueprintRender shows a Landscaper blueprint\'s render', 'plan-command', function()
  vim.cmd('edit ' .. vim.fn.fnameescape(lsc_file))
  local lbuf = vim.api.nvim_get_current_buf()
  wait_for('the server to attach to the Landscaper blueprint', function()
    return #bls.clients(lbuf) > 0
  end)
  vim.cmd('BlueprintRender')
  wait_for('the render buffer', function()
    return render_text():find('e2e-rendered-namespace', 1, true) ~= nil
  end)
  check(vim.bo[render_buffer()].filetype == 'markdown', 'render buffer filetype %q', vim.bo[render_buffer()].filetype)
end)

test('the "Preview render" code lens shows the render', 'plan-command', function()
  vim.cmd('bwipeout! ' .. render_buffer())
  vim.cmd('edit ' .. vim.fn.fnameescape(lsc_file))
  local lbuf = vim.api.nvim_get_current_buf()
  needs_server(lbuf)
  -- Neovim 0.12 replaced refresh() and get(bufnr) (deprecated, with a
  -- notice) by enable() and get({ bufnr }), whose items wrap the lens.
  local modern = vim.lsp.codelens.enable ~= nil
  if modern then
    vim.lsp.codelens.enable(true, { bufnr = lbuf })
  else
    vim.lsp.codelens.refresh()
  end
  wait_for('the code lenses', function()
    for _, item in ipairs(modern and vim.lsp.codelens.get({ bufnr = lbuf }) or vim.lsp.codelens.get(lbuf)) do
      local l = item.lens or item
      if l.command and l.command.title == 'Preview render' then
        return true
      end
    end
    return false
  end)
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.lsp.codelens.run()
  wait_for('the render buffer from the lens', function()
    return render_text():find('e2e-rendered-namespace', 1, true) ~= nil
  end)
end)

-- The blueprint language (.bp): its own file, sharing this harness.
dofile(vim.fn.fnamemodify('test/bp.lua', ':p'))({
  test = test,
  check = check,
  wait_for = wait_for,
  find = find,
  request = request,
  position = position,
  markup_text = markup_text,
  needs_server = needs_server,
  check_mistake = check_mistake,
  plan_text = plan_text,
  bls = bls,
  dir = dir,
  bp_fixture = BP_FIXTURE,
})
vim.cmd('buffer ' .. buf)

-- The client must shut the server down cleanly.
for _, c in ipairs(bls.clients(buf)) do
  if vim.fn.has('nvim-0.11') == 1 then
    c:stop()
  else
    c.stop()
  end
end
vim.wait(2000, function()
  return #bls.clients(buf) == 0
end, 50)

if results.xfailed > 0 or results.xpassed > 0 then
  out(('# nvim %s: %d expected failures (BLUEPRINT_E2E_XFAIL), %d passed although expected to fail'):format(VERSION, results.xfailed, results.xpassed))
end
-- Neovim may have printed a message without a newline while stopping: start
-- the closing line on a line of its own.
out(('\n%d passed, %d failed, %d skipped'):format(results.passed, results.failed, results.xfailed))
vim.fn.delete(dir, 'rf')
vim.cmd(results.failed == 0 and 'qall!' or 'cquit! 1')
