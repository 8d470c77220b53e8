-- Headless Neovim 0.11+ test of the configuration without setup(): the plugin on the runtimepath,
-- `vim.lsp.config("admission_ls", …)` and `vim.lsp.enable("admission_ls")`, as a user of the
-- built-in LSP configuration (or of nvim-lspconfig 2, which works the same way) writes it:
--   ADMISSION_LS=/path/to/admission-ls nvim --headless -u NONE -i NONE -c "luafile editors/nvim/test/native.lua"
-- Checks: attaches to a policy (and not to a Deployment), settings reach the server through
-- initializationOptions, :AdmissionLsRunTests shows the suite's result, :AdmissionLsRestart starts
-- a new client, the nvim-lspconfig `configs` table decides like the plugin, a policy's live
-- verdict shows through vim.lsp.inlay_hint, and a missing binary is reported once. Exits non-zero on any failure.
local harness = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/harness.lua")
local testdata, check = harness.testdata, harness.check
-- -u NONE loads no plugins: load this one as Neovim would at startup.
vim.cmd("runtime! plugin/admission-ls.lua")

local function code_of(d)
  return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
end

local function codes(bufnr)
  local set = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    set[code_of(d)] = true
  end
  return set
end

local function client_of(bufnr, ms)
  local found
  vim.wait(ms or 10000, function()
    found = vim.lsp.get_clients({ bufnr = bufnr, name = "admission_ls" })[1]
    return found ~= nil
  end, 20)
  return found
end

local function run()
  local binary = os.getenv("ADMISSION_LS") or "admission-ls"
  local messages = {}
  vim.notify = function(msg)
    table.insert(messages, msg)
  end
  check(vim.fn.has("nvim-0.11") == 1, "Neovim 0.11 or newer: " .. tostring(vim.version()))
  vim.lsp.config("admission_ls", {
    cmd = { binary, "serve", "--stdio" },
    settings = { admissionLs = { kubernetesVersion = "1.31", diagnostics = { disabled = { "cel-syntax" } } } },
  })
  vim.lsp.enable("admission_ls")

  vim.cmd("edit " .. testdata .. "/typo-policy.yaml")
  local policy = vim.api.nvim_get_current_buf()
  local client = client_of(policy)
  check(client ~= nil, "vim.lsp.enable('admission_ls') attached the server to the policy buffer")
  if not client then
    return
  end
  local ok = vim.wait(15000, function()
    local c = codes(policy)
    return c["not-supported"] == true
  end, 50)
  check(ok and not codes(policy)["cel-syntax"], "diagnostics arrive, with cel-syntax disabled by the settings (initializationOptions)")

  vim.cmd("edit " .. testdata .. "/object.yaml")
  check(client_of(vim.api.nvim_get_current_buf(), 1500) == nil, "not attached to a Deployment")

  -- :AdmissionLsRunTests from the plugin/ file, on a PolicyTest suite
  vim.cmd("edit " .. testdata .. "/replica-policy.test.yaml")
  local suite = vim.api.nvim_get_current_buf()
  check(client_of(suite) ~= nil, "attached to the PolicyTest suite")
  vim.cmd("AdmissionLsRunTests")
  local shown
  vim.wait(10000, function()
    for _, buf in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_get_name(buf):find("admission%-ls://admission%-ls%.runTests") then
        shown = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
        return true
      end
    end
    return false
  end, 50)
  check(shown ~= nil and shown:find("three replicas are denied", 1, true) ~= nil and shown:find('"passed": false', 1, true) == nil,
    ":AdmissionLsRunTests shows the suite's result, every case passed")

  -- :AdmissionLsRestart: a new client for the open admission buffers
  vim.api.nvim_set_current_buf(policy)
  vim.cmd("AdmissionLsRestart")
  local restarted
  vim.wait(10000, function()
    restarted = vim.lsp.get_clients({ bufnr = policy, name = "admission_ls" })[1]
    return restarted ~= nil and restarted.id ~= client.id
  end, 20)
  check(restarted ~= nil and restarted.id ~= client.id, ":AdmissionLsRestart started a new client")

  -- nvim-lspconfig's framework (require("lspconfig.configs").admission_ls = …): the same decision
  local default = require("admission-ls.config").lspconfig({ cmd = { binary } }).default_config
  local object = vim.fn.bufnr(testdata .. "/object.yaml")
  check(default.root_dir(vim.api.nvim_buf_get_name(policy), policy) ~= nil and default.root_dir("object.yaml", object) == nil
    and default.cmd[1] == binary and default.single_file_support == false,
    "the nvim-lspconfig default_config attaches to policies only")

  -- live verdicts: the modeline's sample evaluated, shown through vim.lsp.inlay_hint
  vim.cmd("edit " .. testdata .. "/live-policy.yaml")
  local live = vim.api.nvim_get_current_buf()
  check(client_of(live) ~= nil, "attached to the policy with a modeline")
  vim.lsp.inlay_hint.enable(true, { bufnr = live })
  local labels = {}
  local function label_text(label)
    if type(label) == "string" then
      return label
    end
    return table.concat(vim.tbl_map(function(part)
      return part.value
    end, label))
  end
  vim.wait(15000, function()
    labels = {}
    for _, item in ipairs(vim.lsp.inlay_hint.get({ bufnr = live })) do
      local hint = item.inlay_hint
      table.insert(labels, (hint.position.line + 1) .. ":" .. label_text(hint.label))
    end
    return vim.tbl_contains(labels, "15: ✗ deny: at most 2 replicas")
  end, 100)
  check(vim.tbl_contains(labels, "15: ✗ deny: at most 2 replicas") and vim.tbl_contains(labels, "2: object.yaml: ✗ deny: at most 2 replicas"),
    "vim.lsp.inlay_hint shows the live verdict after the validation and at the modeline: " .. table.concat(labels, " | "))

  -- a missing binary: reported once, by the plugin (vim.lsp.enable itself only logs it)
  for _, c in ipairs(vim.lsp.get_clients({ name = "admission_ls" })) do
    c:stop()
  end
  vim.wait(5000, function()
    return #vim.lsp.get_clients({ name = "admission_ls" }) == 0
  end, 20)
  messages = {}
  vim.lsp.config("admission_ls", { cmd = { "/nonexistent/admission-ls" } })
  for _ = 1, 2 do
    vim.cmd("edit " .. vim.fn.tempname() .. ".yaml")
    vim.api.nvim_buf_set_lines(0, 0, -1, false, { "apiVersion: admissionregistration.k8s.io/v1", "kind: ValidatingAdmissionPolicy" })
    vim.cmd("doautocmd FileType")
  end
  local ours = vim.tbl_filter(function(m)
    return m:find("^admission%-ls:") ~= nil
  end, messages)
  check(#ours == 1 and ours[1]:find("/nonexistent/admission-ls", 1, true) ~= nil,
    "missing binary reported once with the path tried: " .. table.concat(messages, " | "))
end

harness.finish("nvim-native", run)
