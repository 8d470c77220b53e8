-- admission-ls for Neovim 0.7+: attaches the server to YAML buffers holding admission documents
-- (detect.lua), passes the `admissionLs` settings, and adds :AdmissionLsRunTests,
-- :AdmissionLsEvaluate and :AdmissionLsRestart.
--   - Neovim 0.11+: setup() configures and enables `vim.lsp.config("admission_ls")` (the same
--     configuration `vim.lsp.enable("admission_ls")` uses without setup(), from lsp/admission_ls.lua);
--   - Neovim 0.7–0.10: setup() starts one client per root folder itself with the APIs of 0.7
--     (vim.lsp.start_client / buf_attach_client).
-- Either way a buffer that becomes an admission document while you type is attached on InsertLeave
-- or write, and a missing or crashed server is reported once and not started again until
-- :AdmissionLsRestart.
local detect = require("admission-ls.detect")
local commands = require("admission-ls.commands")
local shared = require("admission-ls.config")

local M = {}

M.config = nil
M.lookup = shared.lookup
local native = vim.fn.has("nvim-0.11") == 1
--- The client names: "admission_ls" from vim.lsp.config (0.11+), "admission-ls" from setup() on 0.7–0.10.
local NAMES = { ["admission_ls"] = true, ["admission-ls"] = true }

--- Calls a client method: `client:name(...)` on 0.11+ (the dot form is deprecated there), `client.name(...)` before.
function M.call(client, name, ...)
  if native then
    return client[name](client, ...)
  end
  return client[name](...)
end

-- 0.7–0.10: root folder -> client id
local clients = {}

local function start_legacy(root)
  local config = M.config
  if not shared.runnable(config.cmd) then
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
    handlers = { ["workspace/configuration"] = shared.configuration_handler },
    on_attach = config.on_attach,
    on_init = function(client)
      M.call(client, "notify", "workspace/didChangeConfiguration", { settings = config.settings })
    end,
    on_exit = function(code, signal, client_id)
      local ours = clients[root] == client_id
      if ours then
        clients[root] = nil
      end
      shared.crash_reporter(config.cmd[1], function()
        return not ours
      end)(code, signal, client_id)
    end,
  })
  if not id then
    shared.report_once(string.format("the server failed to start (tried %q).", config.cmd[1]))
  end
  return id
end

local function attach_legacy(bufnr)
  local root = (M.config.root_dir or shared.default_root)(bufnr)
  local id = clients[root]
  if not id or not vim.lsp.get_client_by_id(id) then
    if shared.halted then
      return nil
    end
    id = start_legacy(root)
    clients[root] = id
  end
  if id and not vim.lsp.buf_is_attached(bufnr, id) then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

--- 0.11+: vim.lsp.enable skips (and only logs) a configuration whose command does not run; say
--- so once instead. True when the server can start for an admission buffer.
function M.native_ready(bufnr)
  local resolved = vim.lsp.config.admission_ls
  if shared.halted or not resolved or not vim.tbl_contains(resolved.filetypes or {}, vim.bo[bufnr].filetype) then
    return false
  end
  return detect.is_admission_buffer(bufnr) and shared.runnable(resolved.cmd)
end

--- Attaches the server to `bufnr` when it holds an admission document (0.11+: asynchronously,
--- through vim.lsp.enable's FileType handler, which `on_filetype` says is running anyway).
--- Returns the client id on 0.7–0.10.
function M.attach(bufnr, on_filetype)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not M.config or not vim.api.nvim_buf_is_loaded(bufnr) then
    return nil
  end
  if not vim.tbl_contains(M.config.filetypes, vim.bo[bufnr].filetype) or not detect.is_admission_buffer(bufnr) then
    return nil
  end
  if native then
    if M.native_ready(bufnr) and not on_filetype then
      -- Run vim.lsp.enable's FileType handler again for a buffer that just became a policy.
      pcall(vim.api.nvim_exec_autocmds, "FileType", { group = "nvim.lsp.enable", buffer = bufnr })
    end
    return nil
  end
  return attach_legacy(bufnr)
end

--- The admission-ls client attached to `bufnr`, if any.
function M.client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local list = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
  for _, client in pairs(list) do
    if NAMES[client.name] then
      return client
    end
  end
  return nil
end

local function all_clients()
  local list = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  return vim.tbl_filter(function(c)
    return NAMES[c.name]
  end, list)
end

--- Stops every admission-ls client and attaches the loaded admission buffers again.
function M.restart()
  shared.reset()
  clients = {}
  for _, client in ipairs(all_clients()) do
    shared.stopping[client.id] = true
    vim.lsp.stop_client(client.id)
  end
  vim.defer_fn(function()
    if native and vim.lsp.is_enabled and vim.lsp.is_enabled("admission_ls") then
      pcall(vim.cmd, "doautoall nvim.lsp.enable FileType")
      return
    end
    for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
      M.attach(bufnr)
    end
  end, 200)
end

function M.setup(options)
  M.config = vim.tbl_deep_extend("force", shared.defaults, options or {})
  if type(M.config.cmd) == "string" then
    M.config.cmd = { M.config.cmd }
  end
  local group = vim.api.nvim_create_augroup("admission-ls", { clear = true })
  if native then
    -- Replaces (not merges) an earlier setup()'s options: a list such as cmd must not keep old items.
    vim.lsp.config["admission_ls"] = shared.native(M.config)
    vim.lsp.enable("admission_ls")
  end
  vim.api.nvim_create_autocmd({ "FileType", "BufReadPost", "InsertLeave", "BufWritePost" }, {
    group = group,
    callback = function(args)
      if not M.client(args.buf) then
        M.attach(args.buf, args.event == "FileType")
      end
    end,
  })
  commands.create(M)
  if not native then
    for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
      M.attach(bufnr)
    end
  end
end

return M
