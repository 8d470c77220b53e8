-- The client configuration shared by every way of running admission-ls in Neovim: the plugin's own
-- setup() on 0.7–0.10, `vim.lsp.config`/`vim.lsp.enable` on 0.11+ (lsp/admission_ls.lua), and
-- nvim-lspconfig's `configs` table. Holds the defaults, the `workspace/configuration` answer, and
-- the "report a missing or crashed server once, then start nothing until :AdmissionLsRestart" state.
local detect = require("admission-ls.detect")

local M = {}

M.defaults = {
  -- the server command; `admission-ls` on PATH by default
  cmd = { "admission-ls", "serve", "--stdio" },
  -- filetypes whose buffers are checked for admission documents (`helm`: chart templates, as the
  -- vim-helm plugin and LazyVim's Helm extra name them; Neovim itself calls them `yaml`)
  filetypes = { "yaml", "helm" },
  -- the section the server reads: { admissionLs = { kubernetesVersion = "1.31", schemaPaths = {},
  -- kyvernoVersion = "1.17", diagnostics = { disabled = { "unknown-field" } } } }
  settings = { admissionLs = {} },
  -- function(bufnr) -> folder; default: the nearest folder with .git, else the current directory
  root_dir = nil,
  on_attach = nil,
  capabilities = nil,
}

local reported = false
-- Set at once when the server is missing or crashed (the message may come later).
M.halted = false

local function notify(message, level)
  vim.notify("admission-ls: " .. message, level or vim.log.levels.ERROR)
end

--- Tells the user once (until M.reset) and stops every automatic start.
function M.report_once(message)
  M.halted = true
  if not reported then
    reported = true
    notify(message .. " Run :AdmissionLsRestart to try again.")
  end
end

--- After :AdmissionLsRestart: servers may start again, and a new failure is reported again.
function M.reset()
  reported = false
  M.halted = false
end

--- The folder of `bufnr`'s nearest `.git`, else the current directory.
function M.default_root(bufnr)
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

--- `workspace/configuration`: every item answered (Neovim's own handler skips items without a
--- section), from the client's current settings.
function M.configuration_handler(_, params, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local settings = client and (client.settings or client.config.settings) or {}
  local answer = {}
  for i, item in ipairs(params.items or {}) do
    answer[i] = M.lookup(settings, item.section)
  end
  return answer
end

--- Whether the server command can run; reports once when it cannot.
function M.runnable(cmd)
  if vim.fn.executable(cmd[1]) ~= 1 then
    M.report_once(string.format("the server binary was not found or is not executable (tried %q).", cmd[1]))
    return false
  end
  return true
end

--- An `on_exit` that reports a crash once (code or signal not 0), unless `expected(client_id)` says
--- the stop was asked for.
function M.crash_reporter(binary, expected)
  return function(code, signal, client_id)
    if (code ~= 0 or signal ~= 0) and not expected(client_id) then
      M.halted = true
      vim.schedule(function()
        M.report_once(string.format("the server (%s) exited with code %d, signal %d.", binary, code, signal))
      end)
    end
  end
end

-- Clients stopped on purpose (:AdmissionLsRestart), whose exit is no crash.
M.stopping = {}

--- The configuration for `vim.lsp.config("admission_ls", …)` (Neovim 0.11+), from setup()-style
--- `options` merged over the defaults. root_dir decides per buffer: only admission documents, and
--- nothing after a reported failure.
function M.native(options)
  local config = vim.tbl_deep_extend("force", M.defaults, options or {})
  local root_of = config.root_dir or M.default_root
  return {
    cmd = config.cmd,
    filetypes = config.filetypes,
    settings = config.settings,
    capabilities = config.capabilities,
    on_attach = config.on_attach,
    handlers = { ["workspace/configuration"] = M.configuration_handler },
    root_dir = function(bufnr, on_dir)
      if M.halted or not detect.is_admission_buffer(bufnr) then
        return
      end
      -- The command as finally configured (a later vim.lsp.config may have changed it).
      local resolved = vim.lsp.config.admission_ls or config
      if M.runnable(resolved.cmd or config.cmd) then
        on_dir(root_of(bufnr))
      end
    end,
    -- The server reads its settings from initializationOptions too (the same section).
    before_init = function(params, client_config)
      local settings = client_config.settings or {}
      params.initializationOptions = settings.admissionLs or vim.empty_dict()
    end,
    on_exit = M.crash_reporter(config.cmd[1], function(id)
      return M.stopping[id] ~= nil
    end),
  }
end

--- A `default_config` for nvim-lspconfig's `require("lspconfig.configs").admission_ls`
--- (lspconfig's older framework, where root_dir(fname, bufnr) returning nil means "do not attach").
function M.lspconfig(options)
  local config = vim.tbl_deep_extend("force", M.defaults, options or {})
  local root_of = config.root_dir or M.default_root
  return {
    default_config = {
      cmd = config.cmd,
      filetypes = config.filetypes,
      settings = config.settings,
      init_options = config.settings.admissionLs or {},
      single_file_support = false,
      handlers = { ["workspace/configuration"] = M.configuration_handler },
      root_dir = function(_, bufnr)
        bufnr = bufnr or vim.api.nvim_get_current_buf()
        if detect.is_admission_buffer(bufnr) then
          return root_of(bufnr)
        end
        return nil
      end,
    },
  }
end

return M
