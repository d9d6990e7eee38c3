-- Neovim 0.11+: `vim.lsp.enable('bluelink_blueprint_ls')` works without
-- setup(); setup() options are picked up when it ran first.
return require('blueprint_ls').lsp_config()
