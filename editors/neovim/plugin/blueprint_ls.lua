-- Commands are available before setup(); they use the default options until
-- require('blueprint_ls').setup() is called.
if vim.g.loaded_blueprint_ls then
  return
end
vim.g.loaded_blueprint_ls = 1
require('blueprint_ls.commands').create()
