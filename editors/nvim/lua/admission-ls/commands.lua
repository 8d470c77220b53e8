-- User commands: :AdmissionLsRunTests, :AdmissionLsEvaluate {objectfile}, :AdmissionLsRestart (and
-- :AdmissionTest, from tests.lua).
-- Server commands go through workspace/executeCommand; a server that does not support them yet
-- gets a clear message instead of an error trace. The validate code lenses (run with
-- vim.lsp.codelens.run()) show their answer as :AdmissionLsEvaluate shows evaluate's.
local M = {}

local function notify(message, level)
  vim.notify("admission-ls: " .. message, level or vim.log.levels.INFO)
end

--- The message for a command the server does not support (not advertised or "method not found").
function M.unsupported_message(command, client)
  local info = client and client.server_info or nil -- absent in 0.7; the version is optional
  local version = info and info.version and (" " .. info.version) or ""
  return string.format("the server%s does not support the command '%s' yet (command not supported by the server).", version, command)
end

local function advertised(client, command)
  local caps = client.server_capabilities or client.resolved_capabilities or {}
  local provider = caps.executeCommandProvider
  return type(provider) == "table" and vim.tbl_contains(provider.commands or {}, command)
end

--- `text`, compact JSON, laid out one value a line with four-space indentation (the layout of
--- `python3 -m json.tool`, which it replaces: that ran `json/` packages of the working directory, so
--- a workspace could run code). Pure Lua on the encoded text, so key order and `{}`/`[]` stay as
--- encoded, and it works where `vim.json` is absent (Neovim 0.7 has only vim.fn.json_encode).
function M.pretty_json(text)
  local out, depth, i, n = {}, 0, 1, #text
  local in_string = false
  local function newline()
    out[#out + 1] = "\n" .. string.rep("    ", depth)
  end
  while i <= n do
    local c = text:sub(i, i)
    if in_string then
      out[#out + 1] = c
      if c == "\\" then
        i = i + 1
        out[#out + 1] = text:sub(i, i)
      elseif c == '"' then
        in_string = false
      end
    elseif c == '"' then
      in_string = true
      out[#out + 1] = c
    elseif c == "{" or c == "[" then
      local close = c == "{" and "}" or "]"
      local j = i + 1
      while text:sub(j, j):match("^%s$") do
        j = j + 1
      end
      if text:sub(j, j) == close then
        out[#out + 1] = c .. close -- an empty one stays on its line
        i = j
      else
        depth = depth + 1
        out[#out + 1] = c
        newline()
      end
    elseif c == "}" or c == "]" then
      depth = depth - 1
      newline()
      out[#out + 1] = c
    elseif c == "," then
      out[#out + 1] = ","
      newline()
    elseif c == ":" then
      out[#out + 1] = ": "
    elseif not c:match("^%s$") then
      out[#out + 1] = c
    end
    i = i + 1
  end
  return table.concat(out)
end

--- Shows a command's answer as JSON in a scratch buffer; runs no program.
function M.show_result(command, result)
  local text = vim.fn.json_encode(result == nil and vim.NIL or result)
  local lines = vim.split(M.pretty_json(text), "\n", { trimempty = true })
  vim.cmd("botright new")
  local buf = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].filetype = "json"
  pcall(vim.api.nvim_buf_set_name, buf, "admission-ls://" .. command)
end

--- Sends `command` to the client of the current buffer; `done(err, result)` is optional (tests).
function M.execute(plugin, command, arguments, done)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = plugin.client(bufnr)
  if not client then
    notify("no server attached to this buffer (is it a policy YAML file?).", vim.log.levels.WARN)
    return
  end
  if not advertised(client, command) then
    notify(M.unsupported_message(command, client), vim.log.levels.WARN)
    if done then
      done({ unsupported = true }, nil)
    end
    return
  end
  plugin.call(client, "request", "workspace/executeCommand", { command = command, arguments = arguments }, function(err, result)
    if err then
      if err.code == -32601 then
        notify(M.unsupported_message(command, client), vim.log.levels.WARN)
      else
        notify(command .. " failed: " .. tostring(err.message), vim.log.levels.ERROR)
      end
    else
      M.show_result(command, result)
    end
    if done then
      done(err, result)
    end
  end, bufnr)
end

--- Client-side handlers of lens commands whose answer is shown: without one, a code lens's command
--- goes to the server and its answer is dropped.
M.shown_lens_commands = { "admission-ls.validate" }

function M.register_lens_commands(plugin)
  for _, command in ipairs(M.shown_lens_commands) do
    vim.lsp.commands[command] = function(lens_command)
      M.execute(plugin, lens_command.command, lens_command.arguments)
    end
  end
end

function M.create(plugin)
  M.register_lens_commands(plugin)
  require("admission-ls.tests").create(plugin)
  vim.api.nvim_create_user_command("AdmissionLsRunTests", function()
    M.execute(plugin, "admission-ls.runTests", { { uri = vim.uri_from_bufnr(0) } })
  end, { desc = "admission-ls: run the tests of the current file" })

  vim.api.nvim_create_user_command("AdmissionLsEvaluate", function(opts)
    local object = vim.fn.fnamemodify(opts.args, ":p")
    if vim.fn.filereadable(object) ~= 1 then
      notify("cannot read the object file " .. object, vim.log.levels.ERROR)
      return
    end
    local client = plugin.client(0)
    -- 0.11+ wants the encoding named (it warns otherwise); 0.7 takes the buffer's client's.
    local position = client and vim.lsp.util.make_position_params(0, client.offset_encoding).position
      or vim.lsp.util.make_position_params().position
    M.execute(plugin, "admission-ls.evaluate", {
      { uri = vim.uri_from_bufnr(0), position = position, object = vim.uri_from_fname(object) },
    })
  end, { nargs = 1, complete = "file", desc = "admission-ls: evaluate the policy at the cursor against an object file" })

  vim.api.nvim_create_user_command("AdmissionLsRestart", function()
    plugin.restart()
  end, { desc = "admission-ls: restart the server" })
end

return M
