-- What the headless tests share: the plugin on the runtimepath, the test data folder, counted
-- checks, and the run that ends Neovim with the plain closing line CI reads ("NAME: N passed, N failed")
-- and a non-zero exit on any failure.
local M = {}

local here = debug.getinfo(1, "S").source:sub(2)
M.plugin_dir = vim.fn.fnamemodify(here, ":p:h:h")
M.testdata = vim.fn.fnamemodify(M.plugin_dir, ":h") .. "/testdata"
vim.opt.runtimepath:append(M.plugin_dir)
vim.cmd("filetype on")

local passes, failures = 0, 0

function M.check(ok, what)
  print((ok and "ok   " or "FAIL ") .. what)
  if ok then
    passes = passes + 1
  else
    failures = failures + 1
  end
end

--- Runs `body`, counts an error as a failure, prints the closing line and quits.
function M.finish(name, body)
  local ok, err = pcall(body)
  if not ok then
    print("FAIL error: " .. tostring(err))
    failures = failures + 1
  end
  print(string.format("%s: %d passed, %d failed", name, passes, failures))
  io.stderr:write("\n")
  vim.cmd((failures == 0 and passes > 0) and "qall!" or "cquit! 1")
end

return M
