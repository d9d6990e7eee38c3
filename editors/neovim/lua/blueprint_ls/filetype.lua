-- Filetype detection for blueprints. Filetypes: `yaml.bluelink`,
-- `json.bluelink` and `jsonc.bluelink`, compound filetypes: Neovim's yaml,
-- json and jsonc syntax and ftplugins apply, while servers registered for
-- plain `yaml`/`json`/`jsonc` do not attach. Never `blueprint`: Neovim
-- core gives that to GNOME Blueprint (*.blp) files, which nvim-lspconfig's
-- `blueprint_ls` (blueprint-compiler) serves.
local M = {}

M.filetypes = { 'yaml.bluelink', 'json.bluelink', 'jsonc.bluelink' }

local by_extension = {
  yaml = 'yaml.bluelink',
  yml = 'yaml.bluelink',
  json = 'json.bluelink',
  jsonc = 'jsonc.bluelink',
}

-- The tree-sitter parser of each of our filetypes (a compound filetype
-- has no parser of its own name).
local parsers = {
  ['yaml.bluelink'] = 'yaml',
  ['json.bluelink'] = 'json',
  ['jsonc.bluelink'] = 'jsonc',
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
  if vim.treesitter and vim.treesitter.language and vim.treesitter.language.register then
    for ft, lang in pairs(parsers) do
      pcall(vim.treesitter.language.register, lang, ft)
    end
  end
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
