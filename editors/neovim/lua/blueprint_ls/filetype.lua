-- Filetype detection for blueprints. Filetypes: `yaml.bluelink`,
-- `json.bluelink` and `jsonc.bluelink`, compound filetypes: Neovim's yaml,
-- json and jsonc syntax and ftplugins apply, while servers registered for
-- plain `yaml`/`json`/`jsonc` do not attach. The blueprint language
-- (`*.bp`, `*.blueprint`) is `bluelink`, with its own syntax file. Never
-- `blueprint`: Neovim core gives that to GNOME Blueprint (*.blp) files,
-- which nvim-lspconfig's `blueprint_ls` (blueprint-compiler) serves. And
-- `*.bp` is also Android's Soong build language (core filetype `bp`): an
-- `Android.bp`, or a `.bp` file that reads like Soong, keeps core's verdict.
local M = {}

M.filetypes = { 'yaml.bluelink', 'json.bluelink', 'jsonc.bluelink', 'bluelink' }

local by_extension = {
  yaml = 'yaml.bluelink',
  yml = 'yaml.bluelink',
  json = 'json.bluelink',
  jsonc = 'jsonc.bluelink',
}

-- The tree-sitter parser of each of our filetypes (a compound filetype
-- has no parser of its own name; the blueprint language has none).
local parsers = {
  ['yaml.bluelink'] = 'yaml',
  ['json.bluelink'] = 'json',
  ['jsonc.bluelink'] = 'jsonc',
}

-- The words a blueprint-language document's statements start with.
local statements = {
  version = true, transform = true, metadata = true, variable = true, value = true,
  data = true, resource = true, include = true, export = true,
}

--- looks_like_soong reports whether the first statement of lines is
--- Android Soong (`// comment`, `module_type {`, `name = ...`) rather than
--- the blueprint language, whose statements start with a keyword and whose
--- comments start with #. No statement (a new file) is the blueprint language.
---@param lines string[]
---@return boolean
function M.looks_like_soong(lines)
  for _, line in ipairs(lines) do
    local s = line:match('^%s*(.-)%s*$')
    if s ~= '' and s:sub(1, 1) ~= '#' then
      if s:sub(1, 2) == '//' or s:sub(1, 2) == '/*' then
        return true
      end
      local word, rest = s:match('^([%w_]+)%s*(.*)$')
      if not word then
        return false
      end
      if statements[word] then
        return false
      end
      return rest:sub(1, 1) == '{' or rest:sub(1, 1) == '=' or rest:sub(1, 2) == '+='
    end
  end
  return false
end

--- detect returns the blueprint filetype of a path, or nil. lines, the
--- start of the file, settle a `.bp` file that might be Soong.
---@param path string
---@param lines string[]|nil
---@return string|nil
function M.detect(path, lines)
  local name = path:match('[^/\\]+$') or path
  if name:match('.%.blueprint$') then
    return 'bluelink'
  end
  if name:match('.%.bp$') then
    if name == 'Android.bp' or M.looks_like_soong(lines or {}) then
      return nil
    end
    return 'bluelink'
  end
  local ext = name:match('^blueprint%.(%a+)$') or name:match('.%.blueprint%.(%a+)$')
  return ext and by_extension[ext] or nil
end

local function first_lines(bufnr)
  if not bufnr or not vim.api.nvim_buf_is_loaded(bufnr) then
    return {}
  end
  return vim.api.nvim_buf_get_lines(bufnr, 0, 50, false)
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
    -- What core says about a .bp file (Soong's `bp` on 0.9+), before ours.
    local core_bp = vim.filetype.match({ filename = 'Android.bp' })
    vim.filetype.add({
      filename = filename,
      pattern = pattern,
      extension = {
        blueprint = 'bluelink',
        bp = function(path, bufnr)
          return M.detect(path, first_lines(bufnr)) or core_bp
        end,
      },
    })
    return
  end
  -- Neovim 0.7: filetype.vim has already set yaml/json by the time these
  -- autocommands run, so override it (only when it differs, to fire
  -- FileType once more at most).
  local group = vim.api.nvim_create_augroup('blueprint_ls_filetype', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    group = group,
    pattern = { '*.blueprint.yaml', '*.blueprint.yml', '*.blueprint.json', '*.blueprint.jsonc', 'blueprint.yaml', 'blueprint.yml', 'blueprint.json', 'blueprint.jsonc', '*.bp', '*.blueprint' },
    callback = function(args)
      local ft = M.detect(vim.api.nvim_buf_get_name(args.buf), first_lines(args.buf))
      if ft and vim.bo[args.buf].filetype ~= ft then
        vim.bo[args.buf].filetype = ft
      end
    end,
  })
end

return M
