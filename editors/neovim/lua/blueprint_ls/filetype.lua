-- Filetype detection for blueprints. Filetypes: `blueprint` (YAML),
-- `json.blueprint` and `jsonc.blueprint` (compound filetypes: Neovim's json /
-- jsonc syntax and ftplugins apply, while servers registered for plain
-- `json`/`jsonc` or `yaml` do not attach).
local M = {}

M.filetypes = { 'blueprint', 'json.blueprint', 'jsonc.blueprint' }

local by_extension = {
  yaml = 'blueprint',
  yml = 'blueprint',
  json = 'json.blueprint',
  jsonc = 'jsonc.blueprint',
}

--- detect returns the blueprint filetype of a path, or nil.
---@param path string
---@return string|nil
function M.detect(path)
  local name = path:match('[^/\\]+$') or path
  local ext = name:match('^blueprint%.(%a+)$') or name:match('.%.blueprint%.(%a+)$')
  return ext and by_extension[ext] or nil
end

local registered = false

--- register teaches Neovim the blueprint file names. Safe to call twice.
function M.register()
  if registered then
    return
  end
  registered = true
  if vim.fn.has('nvim-0.8') == 1 then
    local filename, pattern = {}, {}
    for ext, ft in pairs(by_extension) do
      filename['blueprint.' .. ext] = ft
      pattern['.+%.blueprint%.' .. ext] = ft
    end
    vim.filetype.add({ filename = filename, pattern = pattern })
    return
  end
  -- Neovim 0.7: filetype.vim has already set yaml/json by the time these
  -- autocommands run, so override it (only when it differs, to fire
  -- FileType once more at most).
  local group = vim.api.nvim_create_augroup('blueprint_ls_filetype', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    group = group,
    pattern = { '*.blueprint.yaml', '*.blueprint.yml', '*.blueprint.json', '*.blueprint.jsonc', 'blueprint.yaml', 'blueprint.yml', 'blueprint.json', 'blueprint.jsonc' },
    callback = function(args)
      local ft = M.detect(vim.api.nvim_buf_get_name(args.buf))
      if ft and vim.bo[args.buf].filetype ~= ft then
        vim.bo[args.buf].filetype = ft
      end
    end,
  })
end

return M
