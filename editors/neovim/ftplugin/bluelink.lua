-- Blueprints (filetypes yaml.bluelink, json.bluelink, jsonc.bluelink): the
-- yaml/json/jsonc ftplugin has run first; this adds the indentation the
-- blueprint examples use. The language server's semantic tokens highlight
-- the ${..} substitutions.
if vim.b.did_bluelink_ftplugin then
  return
end
vim.b.did_bluelink_ftplugin = 1
vim.bo.expandtab = true
vim.bo.shiftwidth = 2
vim.bo.softtabstop = 2
