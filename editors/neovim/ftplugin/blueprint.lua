-- Blueprints in YAML edit like YAML.
if vim.b.did_ftplugin then
  return
end
vim.cmd('runtime! ftplugin/yaml.vim ftplugin/yaml.lua')
vim.b.did_ftplugin = 1
vim.bo.commentstring = '# %s'
vim.bo.expandtab = true
vim.bo.shiftwidth = 2
vim.bo.softtabstop = 2
if vim.treesitter and vim.treesitter.language and vim.treesitter.language.register then
  pcall(vim.treesitter.language.register, 'yaml', 'blueprint')
end
