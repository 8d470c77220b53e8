-- The admission-ls configuration for Neovim 0.11+: with this plugin on the runtimepath,
-- `vim.lsp.enable("admission_ls")` starts the server for YAML buffers holding admission documents
-- (see lua/admission-ls/detect.lua); `vim.lsp.config("admission_ls", { settings = … })` adjusts it.
return require("admission-ls.config").native()
