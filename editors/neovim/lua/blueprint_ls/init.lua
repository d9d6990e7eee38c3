-- blueprint-ls for Neovim: starts `blueprint-ls serve` for blueprint buffers
-- and adds :BlueprintPlan and :BlueprintCheck. A thin client: every answer
-- comes from the Go binary.
--
--   require('blueprint_ls').setup({
--     cmd = { 'blueprint-ls', 'serve' },        -- default
--     settings = { blueprint = { providerDirs = { 'providers' } } },
--   })
--
-- Neovim 0.11+: vim.lsp.config + vim.lsp.enable; 0.8-0.10: vim.lsp.start
-- from a FileType autocommand; 0.7: vim.lsp.start_client.
local filetype = require('blueprint_ls.filetype')

local M = {}

--- The client name; nvim-lspconfig's `blueprint_ls` is the unrelated GNOME
--- blueprint-compiler server, so ours is namespaced.
M.name = 'bluelink_blueprint_ls'

--- The server command that computes a plan preview.
M.plan_command = 'blueprint.plan'

local defaults = {
  cmd = { 'blueprint-ls', 'serve' },
  filetypes = filetype.filetypes,
  -- The nearest folder holding any of these is the workspace root: the
  -- project config first, so a config in a monorepo's subfolder wins.
  root_markers = { '.blueprint-ls.yaml', '.git', 'blueprint.yaml', 'blueprint.yml', 'blueprint.json', 'blueprint.jsonc', 'project.bp' },
  -- Sent as initializationOptions, in workspace/didChangeConfiguration and as
  -- the answer to workspace/configuration (section "blueprint"). Keys are the
  -- server's: providerDirs, debounceMs, inlayHints, severity, planInputs, ...
  settings = { blueprint = {} },
  -- 'auto': the server's blueprint.plan command when the buffer has a client
  -- that offers it, else the CLI (`blueprint-ls plan FILE`); 'server'; 'cli'.
  plan = 'auto',
  autostart = true,
}

M.options = vim.deepcopy(defaults)

local has = function(feature)
  return vim.fn.has(feature) == 1
end

--- executable returns the blueprint-ls binary the CLI commands run: cmd[1].
function M.executable()
  return M.options.cmd[1]
end

local function is_dir_or_file(path)
  return (vim.loop or vim.uv).fs_stat(path) ~= nil
end

--- root_dir walks up from a buffer's file to the first directory holding a
--- root marker, falling back to the file's directory.
---@param fname string
---@return string
function M.root_dir(fname)
  local dir = vim.fn.fnamemodify(fname, ':p:h')
  local cur = dir
  while cur and cur ~= '' do
    for _, marker in ipairs(M.options.root_markers) do
      if is_dir_or_file(cur .. '/' .. marker) then
        return cur
      end
    end
    local parent = vim.fn.fnamemodify(cur, ':h')
    if parent == cur then
      break
    end
    cur = parent
  end
  return dir
end

--- lsp_config returns the client configuration (for vim.lsp.config, and the
--- runtime file lsp/bluelink_blueprint_ls.lua on 0.11+).
function M.lsp_config()
  local o = M.options
  return {
    name = M.name,
    cmd = o.cmd,
    filetypes = o.filetypes,
    root_markers = o.root_markers,
    settings = o.settings,
    init_options = o.settings,
    capabilities = o.capabilities,
    on_attach = o.on_attach,
    on_init = o.on_init,
    handlers = o.handlers,
  }
end

local function client_config(bufnr)
  local cfg = M.lsp_config()
  cfg.root_markers = nil
  cfg.filetypes = nil
  cfg.root_dir = M.root_dir(vim.api.nvim_buf_get_name(bufnr))
  return cfg
end

--- clients returns our clients attached to a buffer.
---@param bufnr integer|nil
function M.clients(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local list = {}
  if vim.lsp.get_clients then
    list = vim.lsp.get_clients({ bufnr = bufnr, name = M.name })
  else
    for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
      if c.name == M.name then
        table.insert(list, c)
      end
    end
  end
  return list
end

--- start attaches a client to bufnr (Neovim < 0.11, or when called by hand).
---@param bufnr integer|nil
function M.start(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.api.nvim_buf_get_option(bufnr, 'buftype') ~= '' then
    return nil
  end
  local cfg = client_config(bufnr)
  if vim.lsp.start then
    return vim.lsp.start(cfg, { bufnr = bufnr })
  end
  -- 0.7: reuse a running client with the same root.
  for _, c in ipairs(vim.lsp.get_active_clients()) do
    if c.name == M.name and c.config.root_dir == cfg.root_dir and not c.is_stopped() then
      vim.lsp.buf_attach_client(bufnr, c.id)
      return c.id
    end
  end
  local id = vim.lsp.start_client(cfg)
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

local augroup

--- setup configures and enables the client. Options: cmd, settings,
--- root_markers, filetypes, capabilities, on_attach, on_init, handlers,
--- plan ('auto' | 'server' | 'cli'), autostart.
---@param opts table|nil
function M.setup(opts)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  if opts and opts.cmd then
    M.options.cmd = opts.cmd -- lists are replaced, not merged
  end
  if opts and opts.root_markers then
    M.options.root_markers = opts.root_markers
  end
  filetype.register()
  require('blueprint_ls.commands').create()
  if not M.options.autostart then
    return
  end
  if vim.lsp.config and vim.lsp.enable then
    vim.lsp.config(M.name, M.lsp_config())
    vim.lsp.enable(M.name)
    return
  end
  augroup = vim.api.nvim_create_augroup('blueprint_ls_start', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = augroup,
    pattern = M.options.filetypes,
    callback = function(args)
      M.start(args.buf)
    end,
  })
  -- Buffers opened before setup ran.
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.tbl_contains(M.options.filetypes, vim.bo[buf].filetype) then
      M.start(buf)
    end
  end
end

return M
