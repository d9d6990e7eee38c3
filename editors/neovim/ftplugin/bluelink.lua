-- Blueprints. For yaml.bluelink, json.bluelink and jsonc.bluelink the
-- yaml/json/jsonc ftplugin has run first; this adds the indentation the
-- blueprint examples use (two spaces). The blueprint language (filetype
-- bluelink, *.bp) has no other ftplugin: its examples indent by four
-- spaces and comment with #. The language server's semantic tokens
-- highlight the ${..} substitutions.
if vim.b.did_bluelink_ftplugin then
  return
end
vim.b.did_bluelink_ftplugin = 1
local width = 2
if vim.bo.filetype == 'bluelink' then
  width = 4
  vim.bo.commentstring = '# %s'
  vim.bo.comments = ':#'
  vim.bo.iskeyword = '@,48-57,_,-'
  vim.b.undo_ftplugin = 'setlocal commentstring< comments< iskeyword< expandtab< shiftwidth< softtabstop<'
end
vim.bo.expandtab = true
vim.bo.shiftwidth = width
vim.bo.softtabstop = width
