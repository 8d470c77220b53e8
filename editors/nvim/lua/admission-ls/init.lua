-- admission-ls for Neovim 0.7+: detects YAML buffers holding admission policies, bindings or
-- PolicyTest suites, starts one admission-ls client per root folder and attaches it, passes the
-- `admissionLs` settings, and adds :AdmissionLsRunTests, :AdmissionLsEvaluate and :AdmissionLsRestart.
-- Only APIs present in 0.7 are used (vim.lsp.start_client / buf_attach_client, no vim.lsp.start).
local detect = require("admission-ls.detect")
local commands = require("admission-ls.commands")

local M = {}

local defaults = {
  -- the server command; `admission-ls` on PATH by default
  cmd = { "admission-ls", "serve", "--stdio" },
  -- filetypes whose buffers are checked for policy documents
  filetypes = { "yaml" },
  -- the section the server reads: { admissionLs = { kubernetesVersion = "1.31", schemaPaths = {},
  -- diagnostics = { disabled = { "unknown-field" } } } }
  settings = { admissionLs = {} },
  -- function(bufnr) -> folder; default: the nearest folder with .git, else the current directory
  root_dir = nil,
  on_attach = nil,
  capabilities = nil,
}

M.config = nil
local has_011 = vim.fn.has("nvim-0.11") == 1

--- Calls a client method: `client:name(...)` on 0.11+ (the dot form is deprecated there), `client.name(...)` before.
function M.call(client, name, ...)
  if has_011 then
    return client[name](client, ...)
  end
  return client[name](...)
end
local clients = {} -- root folder -> client id
-- After a missing or crashed server the user hears about it once, and no server starts again
-- until :AdmissionLsRestart (no restart loops, not even one start per edit).
local reported = false
local halted = false -- set at once when the server is missing or crashed (the message comes later)

local function notify(message, level)
  vim.notify("admission-ls: " .. message, level or vim.log.levels.ERROR)
end

local function report_once(message)
  halted = true
  if not reported then
    reported = true
    notify(message .. " Run :AdmissionLsRestart to try again.")
  end
end

local function default_root(bufnr)
  local file = vim.api.nvim_buf_get_name(bufnr)
  local dir = file ~= "" and vim.fn.fnamemodify(file, ":p:h") or vim.fn.getcwd()
  local git = vim.fn.finddir(".git", dir .. ";")
  if git ~= "" then
    return vim.fn.fnamemodify(git, ":p:h:h")
  end
  return vim.fn.getcwd()
end

--- Looks up `section` ("admissionLs" or "admissionLs.diagnostics.disabled") in the settings.
function M.lookup(settings, section)
  if section == nil or section == "" then
    return settings
  end
  local value = settings
  for part in string.gmatch(section, "[^.]+") do
    if type(value) ~= "table" then
      return vim.NIL
    end
    value = value[part]
  end
  if value == nil then
    return vim.NIL
  end
  return value
end

local function configuration_handler(_, params, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local settings = client and client.config.settings or {}
  local answer = {}
  for i, item in ipairs(params.items or {}) do
    answer[i] = M.lookup(settings, item.section)
  end
  return answer
end

local function start(root)
  local config = M.config
  local binary = config.cmd[1]
  if vim.fn.executable(binary) ~= 1 then
    report_once(string.format("the server binary was not found or is not executable (tried %q).", binary))
    return nil
  end
  local id = vim.lsp.start_client({
    name = "admission-ls",
    cmd = config.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = config.settings.admissionLs or {},
    settings = config.settings,
    capabilities = config.capabilities,
    handlers = { ["workspace/configuration"] = configuration_handler },
    on_attach = config.on_attach,
    on_init = function(client)
      M.call(client, "notify", "workspace/didChangeConfiguration", { settings = config.settings })
    end,
    on_exit = function(code, signal)
      if clients[root] then
        clients[root] = nil
        if code ~= 0 or signal ~= 0 then
          halted = true
          vim.schedule(function()
            report_once(string.format("the server (%s) exited with code %d, signal %d.", binary, code, signal))
          end)
        end
      end
    end,
  })
  if not id then
    report_once(string.format("the server failed to start (tried %q).", binary))
  end
  return id
end

--- Attaches the server to `bufnr` when it holds a policy document; returns the client id or nil.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not M.config or not vim.api.nvim_buf_is_loaded(bufnr) then
    return nil
  end
  if not vim.tbl_contains(M.config.filetypes, vim.bo[bufnr].filetype) then
    return nil
  end
  if not detect.is_policy_buffer(bufnr) then
    return nil
  end
  local root = (M.config.root_dir or default_root)(bufnr)
  local id = clients[root]
  if not id or not vim.lsp.get_client_by_id(id) then
    if halted then
      return nil
    end
    id = start(root)
    clients[root] = id
  end
  if id and not vim.lsp.buf_is_attached(bufnr, id) then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

--- The client attached to `bufnr`, if any.
function M.client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local list = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
  for _, client in pairs(list) do
    if client.name == "admission-ls" then
      return client
    end
  end
  return nil
end

--- Stops every admission-ls client and attaches the loaded policy buffers again.
function M.restart()
  reported = false
  halted = false
  local old = clients
  clients = {}
  for _, id in pairs(old) do
    vim.lsp.stop_client(id)
  end
  vim.defer_fn(function()
    for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
      M.attach(bufnr)
    end
  end, 200)
end

function M.setup(options)
  M.config = vim.tbl_deep_extend("force", defaults, options or {})
  if type(M.config.cmd) == "string" then
    M.config.cmd = { M.config.cmd }
  end
  local group = vim.api.nvim_create_augroup("admission-ls", { clear = true })
  vim.api.nvim_create_autocmd({ "FileType", "BufReadPost", "InsertLeave", "BufWritePost" }, {
    group = group,
    callback = function(args)
      if not M.client(args.buf) then
        M.attach(args.buf)
      end
    end,
  })
  commands.create(M)
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    M.attach(bufnr)
  end
end

return M
