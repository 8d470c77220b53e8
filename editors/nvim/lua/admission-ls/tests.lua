-- :AdmissionTest [file|all|case]: runs test suites through the server (admission-ls.runTests) and
-- shows the results where Neovim shows errors: the failing and errored cases go to the quickfix list
-- (file:line:col and the case's message; opened when there are any), and each failing case is a
-- diagnostic on its case line in the namespace "admission-ls-tests" (cleared in the files a run
-- covers). `file` (the default) runs the current file's suites, `all` every suite of the workspace,
-- `case` the case under the cursor. Works on Neovim 0.7 and newer.
local M = {}

M.namespace = vim.api.nvim_create_namespace("admission-ls-tests")

local function notify(message, level)
  vim.notify("admission-ls: " .. message, level or vim.log.levels.INFO)
end

--- The case's details in one line: the reason it could not run, then each mismatch.
local function details(case)
  local parts = {}
  if type(case.error) == "string" then
    table.insert(parts, case.error)
  end
  for _, failure in ipairs(case.failures or {}) do
    table.insert(parts, failure)
  end
  return (table.concat(parts, " | "):gsub("\n%s*", " | "))
end

--- A runTests answer as quickfix items (failing and errored cases, suite errors) and diagnostics
--- per file URI (failing cases), plus the counts. Pure: tested without a server.
function M.results(answer)
  local items, by_uri = {}, {}
  local summary = answer and answer.summary or {}
  for _, suite in ipairs(answer and answer.suites or {}) do
    local suite_uri = nil
    for _, case in ipairs(suite.cases or {}) do
      suite_uri = suite_uri or case.uri
      local uri = case.uri
      if uri then
        by_uri[uri] = by_uri[uri] or {}
      end
      if not case.passed then
        local text = string.format("%s › %s %s: %s", suite.name, case.name, case.error ~= nil and case.error ~= vim.NIL and "could not run" or "failed", details(case))
        table.insert(items, {
          filename = uri and vim.uri_to_fname(uri) or suite.path,
          lnum = case.line or 1,
          col = case.column or 1,
          text = text,
          type = "E",
        })
        if uri and case.range then
          table.insert(by_uri[uri], {
            lnum = case.range.start.line,
            col = case.range.start.character,
            end_lnum = case.range["end"].line,
            end_col = case.range["end"].character,
            severity = vim.diagnostic.severity.ERROR,
            source = "admission-ls test",
            message = string.format("test case '%s' %s", case.name, details(case)),
          })
        end
      end
    end
    for _, err in ipairs(suite.errors or {}) do
      table.insert(items, { filename = suite.path, lnum = 1, col = 1, text = suite.name .. ": " .. err, type = "E" })
    end
  end
  return items, by_uri, summary
end

--- Shows a runTests answer: the quickfix list and the diagnostics.
function M.show(answer)
  local items, by_uri, summary = M.results(answer)
  for uri, diagnostics in pairs(by_uri) do
    local bufnr = vim.uri_to_bufnr(uri)
    vim.diagnostic.set(M.namespace, bufnr, diagnostics)
  end
  vim.fn.setqflist({}, " ", { title = "admission-ls tests", items = items })
  local line = string.format("%d passed, %d failed, %d errored", summary.passed or 0, summary.failed or 0, summary.errored or 0)
  if #items > 0 then
    vim.cmd("copen")
    notify(line, vim.log.levels.WARN)
  else
    notify(line)
  end
end

--- The case of the current buffer's suites whose lines hold the cursor (from admission-ls.listTests).
local function case_at_cursor(listing)
  local line = vim.api.nvim_win_get_cursor(0)[1] - 1
  for _, suite in ipairs(listing and listing.suites or {}) do
    for _, case in ipairs(suite.cases or {}) do
      if case.range.start.line <= line and line <= case.range["end"].line then
        return suite.name, case.name
      end
    end
  end
  return nil
end

local function request(plugin, client, command, argument, bufnr, done)
  plugin.call(client, "request", "workspace/executeCommand", { command = command, arguments = { argument } }, function(err, result)
    if err then
      notify(command .. " failed: " .. tostring(err.message), vim.log.levels.ERROR)
    end
    done(err, result)
  end, bufnr)
end

--- Runs `scope` ("file", "all" or "case"); `done(err, answer)` is optional (tests).
function M.run(plugin, scope, done)
  done = done or function() end
  local bufnr = vim.api.nvim_get_current_buf()
  local client = plugin.client(bufnr)
  if not client then
    notify("no server attached to this buffer (open a policy or a suite file).", vim.log.levels.WARN)
    return done({ message = "no server" }, nil)
  end
  local uri = vim.uri_from_bufnr(bufnr)
  local function run(argument)
    argument.publish = false
    request(plugin, client, "admission-ls.runTests", argument, bufnr, function(err, answer)
      if not err then
        M.show(answer)
      end
      done(err, answer)
    end)
  end
  if scope == "all" then
    run({})
  elseif scope == "case" then
    request(plugin, client, "admission-ls.listTests", { uri = uri }, bufnr, function(err, listing)
      local suite, case = case_at_cursor(listing)
      if err or not case then
        notify("no test case under the cursor", vim.log.levels.WARN)
        return done(err or { message = "no case" }, nil)
      end
      run({ uri = uri, suite = suite, case = case })
    end)
  else
    run({ uri = uri })
  end
end

function M.create(plugin)
  vim.api.nvim_create_user_command("AdmissionTest", function(opts)
    M.run(plugin, opts.args ~= "" and opts.args or "file")
  end, {
    nargs = "?",
    complete = function()
      return { "file", "all", "case" }
    end,
    desc = "admission-ls: run test suites (file, all, case); failures to the quickfix list",
  })
end

return M
