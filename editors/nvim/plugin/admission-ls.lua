-- Defines :AdmissionLsRunTests, :AdmissionLsEvaluate and :AdmissionLsRestart when Neovim loads the
-- plugin, so that they also exist for `vim.lsp.enable("admission_ls")` without setup(); and, for
-- that route, reports a missing server binary once (vim.lsp.enable only writes it to the log).
if vim.g.loaded_admission_ls then
  return
end
vim.g.loaded_admission_ls = true
require("admission-ls.commands").create(require("admission-ls"))
if vim.fn.has("nvim-0.11") == 1 then
  vim.api.nvim_create_autocmd("FileType", {
    group = vim.api.nvim_create_augroup("admission-ls.enable", { clear = true }),
    callback = function(args)
      local plugin = require("admission-ls")
      if not plugin.config and vim.lsp.is_enabled("admission_ls") then
        plugin.native_ready(args.buf)
      end
    end,
  })
end
