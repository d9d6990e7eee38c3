-- :BlueprintPlan, :BlueprintRender, :BlueprintCheck and :BlueprintRestart,
-- and the client side of the server's preview code lenses.
local M = {}

local function bls()
  return require('blueprint_ls')
end

local function notify(msg, level)
  vim.notify('blueprint-ls: ' .. msg, level or vim.log.levels.INFO)
end

local function request(client, method, params, handler, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function split_lines(s)
  s = s:gsub('\r\n', '\n'):gsub('\n$', '')
  return vim.split(s, '\n', { plain = true })
end

local function json_decode(s)
  if vim.json and vim.json.decode then
    return pcall(vim.json.decode, s)
  end
  return pcall(vim.fn.json_decode, s)
end

--- show_plan returns (creating it if needed) the scratch buffer that shows
--- the plan of file (or, with scheme 'blueprint-render', the render of a
--- Landscaper blueprint), and shows it in a window.
local function show_plan(file, lines, ft, scheme)
  local name = (scheme or 'blueprint-plan') .. '://' .. file
  local buf
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(b) == name then
      buf = b
    end
  end
  if not buf then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, name)
    vim.bo[buf].buftype = 'nofile'
    vim.bo[buf].bufhidden = 'hide'
    vim.bo[buf].swapfile = false
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = ft
  if vim.fn.bufwinid(buf) == -1 then
    local cur = vim.api.nvim_get_current_win()
    vim.cmd('vertical sbuffer ' .. buf)
    vim.api.nvim_set_current_win(cur)
  end
  vim.b[buf].blueprint_plan_source = file
  return buf
end

--- plan_cli runs `blueprint-ls plan FILE` and shows its text.
function M.plan_cli(file)
  local out = vim.fn.system({ bls().executable(), 'plan', file })
  local lines = split_lines(out)
  if vim.v.shell_error ~= 0 then
    table.insert(lines, 1, ('# blueprint-ls plan exited with %d'):format(vim.v.shell_error))
  end
  return show_plan(file, lines, 'blueprintplan')
end

local function plan_client(bufnr)
  for _, c in ipairs(bls().clients(bufnr)) do
    local caps = c.server_capabilities or {}
    local cmds = caps.executeCommandProvider and caps.executeCommandProvider.commands or {}
    if vim.tbl_contains(cmds, bls().plan_command) then
      return c
    end
  end
  return nil
end

--- plan shows the plan of a buffer's file: from the server command when
--- available (rendered markdown), else from the CLI.
function M.plan(bufnr, source)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local file = vim.api.nvim_buf_get_name(bufnr)
  if file == '' then
    return notify('the buffer has no file', vim.log.levels.WARN)
  end
  source = source or bls().options.plan
  local client = source ~= 'cli' and plan_client(bufnr) or nil
  if not client then
    if source == 'server' then
      return notify('no running server offers ' .. bls().plan_command, vim.log.levels.ERROR)
    end
    return M.plan_cli(file)
  end
  local params = { command = bls().plan_command, arguments = { { uri = vim.uri_from_bufnr(bufnr) } } }
  request(client, 'workspace/executeCommand', params, function(err, result)
    if err or type(result) ~= 'table' or type(result.markdown) ~= 'string' then
      local why = err and (err.message or vim.inspect(err)) or 'unexpected answer ' .. vim.inspect(result)
      if source == 'auto' then
        notify(bls().plan_command .. ' failed (' .. why .. '); using the CLI', vim.log.levels.WARN)
        return M.plan_cli(file)
      end
      return notify(bls().plan_command .. ' failed: ' .. why, vim.log.levels.ERROR)
    end
    show_plan(file, split_lines(result.markdown), 'markdown')
  end, bufnr)
end

M.render_command = 'blueprint.render'

--- render shows the render of a Landscaper blueprint buffer (the server's
--- blueprint.render command, with imports.yaml beside the blueprint as
--- the import values) as markdown in a scratch buffer.
function M.render(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local file = vim.api.nvim_buf_get_name(bufnr)
  if file == '' then
    return notify('the buffer has no file', vim.log.levels.WARN)
  end
  local client
  for _, c in ipairs(bls().clients(bufnr)) do
    local caps = c.server_capabilities or {}
    local cmds = caps.executeCommandProvider and caps.executeCommandProvider.commands or {}
    if vim.tbl_contains(cmds, M.render_command) then
      client = c
    end
  end
  if not client then
    return notify('no running server offers ' .. M.render_command, vim.log.levels.ERROR)
  end
  local params = { command = M.render_command, arguments = { { uri = vim.uri_from_bufnr(bufnr) } } }
  request(client, 'workspace/executeCommand', params, function(err, result)
    if err or type(result) ~= 'table' or type(result.markdown) ~= 'string' then
      local why = err and (err.message or vim.inspect(err)) or 'unexpected answer ' .. vim.inspect(result)
      return notify(M.render_command .. ' failed: ' .. why, vim.log.levels.ERROR)
    end
    show_plan(file, split_lines(result.markdown), 'markdown', 'blueprint-render')
  end, bufnr)
end

--- lens_handlers are the client-side handlers of the server's preview
--- lenses ("Preview plan", "Preview render"): run as a plain command, the
--- server's answer would be dropped; these show it.
function M.lens_handlers()
  return {
    [bls().plan_command] = function(_, ctx)
      M.plan(ctx.bufnr, 'server')
    end,
    [M.render_command] = function(_, ctx)
      M.render(ctx.bufnr)
    end,
  }
end

local severity_type = { error = 'E', warning = 'W', information = 'I', info = 'I', hint = 'N' }

--- check_items converts `blueprint-ls check --format json` output to
--- quickfix items. Positions are 1-based lines and columns.
function M.check_items(report)
  local items = {}
  for _, f in ipairs(report.files or {}) do
    for _, d in ipairs(f.diagnostics or {}) do
      local s = d.range and d.range.start or {}
      local e = d.range and d.range['end'] or {}
      local code = d.code and d.code ~= vim.NIL and ('[' .. tostring(d.code) .. '] ') or ''
      table.insert(items, {
        filename = f.path,
        lnum = s.line or 1,
        col = s.column or 1,
        end_lnum = e.line,
        end_col = e.column,
        type = severity_type[d.severity] or 'E',
        text = code .. (d.message or ''),
        vcol = 0,
      })
    end
  end
  return items
end

--- check runs `blueprint-ls check --format json` on paths (default: the
--- current file) and fills the quickfix list. Returns the items.
function M.check(paths)
  if not paths or #paths == 0 then
    local f = vim.api.nvim_buf_get_name(0)
    paths = { f ~= '' and f or vim.fn.getcwd() }
  end
  -- system() merges stderr into the output: leave out the summary line
  -- check prints there, so the output is the JSON report alone.
  local argv = { bls().executable(), 'check', '--format', 'json', '--no-summary' }
  vim.list_extend(argv, paths)
  local out = vim.fn.system(argv)
  local code = vim.v.shell_error
  local ok, report = json_decode(out)
  if not ok or type(report) ~= 'table' then
    notify(('check failed (exit %d): %s'):format(code, out), vim.log.levels.ERROR)
    return nil
  end
  local items = M.check_items(report)
  vim.fn.setqflist({}, ' ', { title = 'blueprint-ls check', items = items })
  if #items > 0 then
    vim.cmd('copen')
  else
    notify('no problems')
  end
  return items
end

--- restart stops our clients and starts them again for blueprint buffers.
function M.restart()
  local ids = {}
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    for _, c in ipairs(bls().clients(buf)) do
      ids[c.id] = true
    end
  end
  for id in pairs(ids) do
    vim.lsp.stop_client(id)
  end
  vim.defer_fn(function()
    for _, buf in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(buf) and vim.tbl_contains(bls().options.filetypes, vim.bo[buf].filetype) then
        bls().start(buf)
      end
    end
  end, 500)
end

local created = false

function M.create()
  if created then
    return
  end
  created = true
  vim.api.nvim_create_user_command('BlueprintPlan', function(a)
    local source = a.args ~= '' and a.args or nil
    M.plan(0, source)
  end, {
    nargs = '?',
    complete = function()
      return { 'auto', 'server', 'cli' }
    end,
    desc = 'Show the plan of the current blueprint in a scratch buffer',
  })
  vim.api.nvim_create_user_command('BlueprintRender', function()
    M.render(0)
  end, { desc = 'Show the render of the current Landscaper blueprint in a scratch buffer' })
  for name, handler in pairs(M.lens_handlers()) do
    if vim.lsp.commands[name] == nil then
      vim.lsp.commands[name] = handler
    end
  end
  vim.api.nvim_create_user_command('BlueprintCheck', function(a)
    M.check(a.fargs)
  end, { nargs = '*', complete = 'file', desc = 'Check blueprints into the quickfix list' })
  vim.api.nvim_create_user_command('BlueprintRestart', M.restart, { desc = 'Restart blueprint-ls' })
  -- Refresh a shown plan when its blueprint is saved.
  local group = vim.api.nvim_create_augroup('blueprint_ls_plan', { clear = true })
  vim.api.nvim_create_autocmd('BufWritePost', {
    group = group,
    callback = function(args)
      local file = vim.api.nvim_buf_get_name(args.buf)
      for _, b in ipairs(vim.api.nvim_list_bufs()) do
        if vim.api.nvim_buf_get_name(b) == 'blueprint-plan://' .. file and vim.fn.bufwinid(b) ~= -1 then
          M.plan(args.buf)
        end
        if vim.api.nvim_buf_get_name(b) == 'blueprint-render://' .. file and vim.fn.bufwinid(b) ~= -1 then
          M.render(args.buf)
        end
      end
    end,
  })
end

return M
