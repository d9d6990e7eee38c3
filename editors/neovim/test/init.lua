-- Minimal init for the e2e tests: this plugin on the runtimepath, no user
-- config, no swap or shada files.
local root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h')
vim.opt.runtimepath:prepend(root)
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
vim.opt.more = false
