-- Headless Neovim test of the plugin against the real server:
--   ADMISSION_LS=/path/to/admission-ls nvim --headless -u NONE -i NONE -c "luafile editors/nvim/test/run.lua"
-- Runs on Neovim 0.7 (the plugin's own clients) and 0.11+ (setup() through vim.lsp.config/enable).
-- Opens editors/testdata/typo-policy.yaml, waits for the server's `not-supported` diagnostic on
-- `failurePolicy: Sometimes`, then sends hover and completion and checks the answers honestly
-- against the server's capabilities, runs the commands, checks which files it attaches to, the
-- settings, :AdmissionLsRestart, a missing and a crashing binary. Exits non-zero on any failure.
local harness = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/harness.lua")
local testdata, check = harness.testdata, harness.check
local function notice(text)
  print("NOTICE " .. text)
end

local function run()
  local binary = os.getenv("ADMISSION_LS") or "admission-ls"
  local messages = {}
  vim.notify = function(msg)
    table.insert(messages, msg)
  end
  local plugin = require("admission-ls")
  plugin.setup({ cmd = { binary, "serve", "--stdio" }, settings = { admissionLs = { kubernetesVersion = "1.31" } } })

  vim.cmd("edit " .. testdata .. "/typo-policy.yaml")
  local bufnr = vim.api.nvim_get_current_buf()
  check(vim.bo.filetype == "yaml", "filetype is yaml")
  local client
  vim.wait(10000, function()
    client = plugin.client(bufnr)
    return client ~= nil
  end, 20)
  check(client ~= nil, "admission-ls attached to the policy buffer and initialized")
  if #messages > 0 then
    print("     messages: " .. table.concat(messages, " | "))
  end
  if not client then
    return
  end

  -- 1. the diagnostic for `failurePolicy: Sometimes` (line 7, 0-based 6)
  local function code_of(d)
    return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  end
  local found
  vim.wait(15000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if code_of(d) == "not-supported" then
        found = d
        return true
      end
    end
    return false
  end, 50)
  check(found ~= nil, "diagnostic not-supported published")
  if found then
    check(found.lnum == 6, "on line 7 (0-based 6), got " .. tostring(found.lnum))
    check(found.col == 17, "at column 17 (the value), got " .. tostring(found.col))
    print("     message: " .. found.message)
  end
  local others = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(others, string.format("%d:%s", d.lnum + 1, tostring(code_of(d))))
  end
  print("     all diagnostics: " .. table.concat(others, ", "))

  -- 1b. virtual text as the README sets it for this server only: the message beside line 7
  for _, pulled in ipairs({ false, true }) do
    vim.diagnostic.config({ virtual_text = { prefix = "●" } }, vim.lsp.diagnostic.get_namespace(client.id, pulled))
  end
  local beside = {}
  -- The virtual text namespace is anonymous on 0.7 (not in nvim_get_namespaces): try every id.
  for namespace = 1, 500 do
    local ok, marks = pcall(vim.api.nvim_buf_get_extmarks, bufnr, namespace, 0, -1, { details = true })
    for _, mark in ipairs(ok and marks or {}) do
      for _, chunk in ipairs(mark[4].virt_text or {}) do
        if mark[2] == 6 then
          table.insert(beside, chunk[1])
        end
      end
    end
  end
  check(table.concat(beside, " "):find("Unsupported value", 1, true) ~= nil,
    "virtual text shows the not-supported message beside line 7: " .. table.concat(beside, " "))

  -- 2. hover and completion at known positions: the server's answer, or its honest refusal
  local caps = client.server_capabilities or client.resolved_capabilities or {}
  local uri = vim.uri_from_bufnr(bufnr)
  local function request(method, params)
    local done, err, result = false, nil, nil
    plugin.call(client, "request", method, params, function(e, r)
      done, err, result = true, e, r
    end, bufnr)
    check(vim.wait(10000, function()
      return done
    end, 20), method .. " answered")
    return err, result
  end
  local probes = {
    { "textDocument/hover", "hoverProvider", { line = 14, character = 21 } }, -- on `object` of the first validation
    { "textDocument/completion", "completionProvider", { line = 14, character = 26 } }, -- after `object.`
  }
  for _, probe in ipairs(probes) do
    local method, capability, position = probe[1], probe[2], probe[3]
    local err, result = request(method, { textDocument = { uri = uri }, position = position })
    if caps[capability] then
      check(err == nil, method .. " succeeds (advertised)")
      print("     result: " .. vim.inspect(result):sub(1, 200):gsub("\n", " "))
    else
      check(err ~= nil and err.code == -32601, method .. " not advertised and answered 'method not found'")
      notice("the server does not implement " .. method .. " yet")
    end
  end

  -- 3. a server command: executed when advertised, else a clear message
  local object = testdata .. "/object.yaml"
  local cmd_done, cmd_err = false, nil
  -- A valid policy (the open buffer has deliberate mistakes, which the server would refuse).
  local valid = vim.uri_from_fname(testdata .. "/replica-policy.yaml")
  require("admission-ls.commands").execute(plugin, "admission-ls.evaluate", {
    { uri = valid, position = { line = 14, character = 20 }, object = vim.uri_from_fname(object) },
  }, function(e)
    cmd_done, cmd_err = true, e
  end)
  vim.wait(10000, function()
    return cmd_done
  end, 20)
  check(cmd_done, "admission-ls.evaluate finished")
  local executes = caps.executeCommandProvider and vim.tbl_contains(caps.executeCommandProvider.commands or {}, "admission-ls.evaluate")
  if executes then
    check(cmd_err == nil, "admission-ls.evaluate succeeds (advertised)")
    -- The first result opened a scratch buffer; the command runs from the policy's buffer.
    vim.api.nvim_set_current_buf(bufnr)
    local broken_done, broken_err = false, nil
    require("admission-ls.commands").execute(plugin, "admission-ls.evaluate", {
      { uri = uri, position = { line = 14, character = 20 }, object = vim.uri_from_fname(object) },
    }, function(e)
      broken_done, broken_err = true, e
    end)
    vim.wait(10000, function()
      return broken_done
    end, 20)
    check(broken_err ~= nil and tostring(broken_err.message or broken_err):find("the policy has errors", 1, true) ~= nil,
      "admission-ls.evaluate of a policy with mistakes answers a clear error")
  else
    local said = table.concat(messages, "\n")
    check(said:find("command not supported by the server", 1, true) ~= nil, "unsupported command gives a clear message")
    notice("the server does not support admission-ls.evaluate yet; the user was told: " .. said:gsub("\n", " | "))
  end

  -- the user commands themselves
  if not executes then
    messages = {}
    vim.api.nvim_win_set_cursor(0, { 15, 20 })
    vim.cmd("AdmissionLsEvaluate " .. object)
    vim.cmd("AdmissionLsRunTests")
    check(#messages == 2 and messages[1]:find("'admission-ls.evaluate'", 1, true) ~= nil
      and messages[2]:find("'admission-ls.runTests'", 1, true) ~= nil,
      ":AdmissionLsEvaluate and :AdmissionLsRunTests explain the missing server commands")
  end

  -- 3a. :AdmissionTest: a suite with a passing and a failing case; the failure goes to the quickfix
  -- list (file:line:col: message) and is a diagnostic on the case line in the tests' namespace
  if executes then
    local tests = require("admission-ls.tests")
    local wrong = testdata .. "/replica-policy-wrong.test.yaml"
    vim.cmd("edit " .. wrong)
    local suite_buf = vim.api.nvim_get_current_buf()
    vim.wait(10000, function()
      return plugin.client(suite_buf) ~= nil
    end, 20)
    local function run_tests(scope)
      local finished, answer = false, nil
      tests.run(plugin, scope, function(_, result)
        finished, answer = true, result
      end)
      vim.wait(15000, function()
        return finished
      end, 20)
      return answer
    end
    local answer = run_tests("file")
    check(answer ~= nil and answer.summary.passed == 1 and answer.summary.failed == 1, ":AdmissionTest runs the file's suite: 1 passed, 1 failed")
    local qf = vim.fn.getqflist()
    check(#qf == 1 and qf[1].lnum == 17 and qf[1].col == 5 and vim.api.nvim_buf_get_name(qf[1].bufnr) == wrong
      and qf[1].text:find("five replicas are wrongly expected to pass failed: expected allow, got deny", 1, true) ~= nil,
      "the failing case is in the quickfix list at its line with its message: " .. vim.inspect(qf[1] and qf[1].text))
    local marks = vim.diagnostic.get(suite_buf, { namespace = tests.namespace })
    check(#marks == 1 and marks[1].lnum == 16 and marks[1].message:find("expected allow, got deny", 1, true) ~= nil,
      "a diagnostic on the failing case's line in the admission-ls-tests namespace")
    vim.cmd("cclose")
    vim.api.nvim_set_current_buf(suite_buf)
    vim.api.nvim_win_set_cursor(0, { 11, 0 }) -- inside "one replica is admitted"
    answer = run_tests("case")
    check(answer ~= nil and answer.summary.cases == 1 and answer.summary.passed == 1 and #vim.fn.getqflist() == 0
      and #vim.diagnostic.get(suite_buf, { namespace = tests.namespace }) == 0,
      ":AdmissionTest case runs the case under the cursor; it passes, the list and the marks are cleared")
  end

  -- 3b. detection: the shared cases (editors/testdata/detection.json), then real buffers of the
  -- other kinds the plugin attaches to, and one it must leave alone
  local detect = require("admission-ls.detect")
  local cases = vim.fn.json_decode(table.concat(vim.fn.readfile(testdata .. "/detection.json"), "\n")).cases
  local wrong = {}
  for _, case in ipairs(cases) do
    if detect.is_admission_lines(vim.split(case.text, "\n")) ~= case.attach then
      table.insert(wrong, case.name)
    end
  end
  check(#cases >= 10 and #wrong == 0, "detection cases of detection.json (" .. #cases .. "): " .. table.concat(wrong, ", "))
  for _, file in ipairs({ "webhook.yaml", "widget-crd.yaml", "object.yaml" }) do
    vim.cmd("edit " .. testdata .. "/" .. file)
    local buf = vim.api.nvim_get_current_buf()
    local attached = vim.wait(file == "object.yaml" and 1500 or 10000, function()
      return plugin.client(buf) ~= nil
    end, 20)
    check(attached == (file ~= "object.yaml"), (file == "object.yaml" and "not attached to " or "attached to ") .. file)
  end

  -- a Helm chart template (filetype helm, as the vim-helm plugin sets it) of a policy attaches
  local chart = vim.fn.tempname()
  vim.fn.mkdir(chart .. "/templates", "p")
  vim.fn.writefile({ "apiVersion: v2", "name: demo", "version: 0.1.0" }, chart .. "/Chart.yaml")
  vim.fn.writefile({ "{{- if .Values.enabled }}", "apiVersion: policies.kyverno.io/v1", "kind: ValidatingPolicy",
    "metadata:", "  name: {{ .Release.Name }}", "{{- end }}" }, chart .. "/templates/policy.yaml")
  -- Read without the yaml filetype's autocommands, then given the filetype helm only.
  vim.cmd("noautocmd edit " .. chart .. "/templates/policy.yaml")
  local template = vim.api.nvim_get_current_buf()
  vim.bo[template].filetype = "helm"
  check(vim.wait(10000, function()
    return plugin.client(template) ~= nil
  end, 20), "attached to a Helm chart template of a Kyverno policy (filetype helm)")

  -- a Kyverno policy: its diagnostic, hover with the function's docs, completion, signature help,
  -- semantic tokens and the quick fix
  vim.cmd("edit " .. testdata .. "/kyverno-policy.yaml")
  local kyverno = vim.api.nvim_get_current_buf()
  local kyverno_client
  vim.wait(10000, function()
    kyverno_client = plugin.client(kyverno)
    return kyverno_client ~= nil
  end, 20)
  check(kyverno_client ~= nil, "attached to kyverno-policy.yaml")
  if kyverno_client then
    local kyverno_uri = vim.uri_from_bufnr(kyverno)
    local function ask(method, params)
      local done, answer = false, nil
      plugin.call(kyverno_client, "request", method, params, function(_, result)
        done, answer = true, result
      end, kyverno)
      vim.wait(10000, function()
        return done
      end, 20)
      return answer
    end
    local function at(line, character)
      return { textDocument = { uri = kyverno_uri }, position = { line = line, character = character } }
    end
    local typo
    vim.wait(15000, function()
      for _, d in ipairs(vim.diagnostic.get(kyverno)) do
        if code_of(d) == "cel-undefined-field" then
          typo = d
          return true
        end
      end
      return false
    end, 50)
    check(typo ~= nil and typo.lnum == 18 and typo.col == 31, "the Kyverno policy's misspelt field at 19:32")
    local hover = ask("textDocument/hover", at(20, 37))
    local hovered = hover and hover.contents and hover.contents.value or ""
    check(hovered:find("registry of the image reference", 1, true) ~= nil, "hover on a Kyverno function shows its docs")
    local completion = ask("textDocument/completion", at(20, 35)) or {}
    local labels = {}
    for _, item in ipairs(completion.items or completion) do
      labels[item.label] = true
    end
    check(labels.registry and labels.tag, "completion offers the image's functions")
    local help = ask("textDocument/signatureHelp", at(16, 25)) or {}
    local signature = help.signatures and help.signatures[1] and help.signatures[1].label or ""
    check(signature:find("image(string)", 1, true) ~= nil, "signature help inside a Kyverno call: " .. signature)
    local tokens = ask("textDocument/semanticTokens/full", { textDocument = { uri = kyverno_uri } }) or {}
    check(#(tokens.data or {}) > 0, "semantic tokens for the Kyverno policy's expressions")
    if typo then
      local range = { start = { line = typo.lnum, character = typo.col }, ["end"] = { line = typo.end_lnum, character = typo.end_col } }
      local actions = ask("textDocument/codeAction", { textDocument = { uri = kyverno_uri }, range = range, context = { diagnostics = {} } }) or {}
      local fixed = false
      for _, action in ipairs(actions) do
        for _, edit in ipairs(action.edit and action.edit.changes and action.edit.changes[kyverno_uri] or {}) do
          fixed = fixed or edit.newText == "replicas"
        end
      end
      check(fixed, "a quick fix replaces the Kyverno policy's misspelt field")
    end
  end
  -- Not carried into the restarts below, which time the settings on the first policy.
  vim.cmd("bwipeout! " .. kyverno .. " " .. template)

  -- rename a variable (prepareRename, then the workspace edit applied to the buffer), and a
  -- refusal with its reason
  local renamed_file = vim.fn.tempname() .. ".yaml"
  vim.fn.writefile({
    "apiVersion: admissionregistration.k8s.io/v1",
    "kind: ValidatingAdmissionPolicy",
    "metadata: {name: rename-me}",
    "spec:",
    "  variables:",
    "  - name: limit",
    "    expression: \"5\"",
    "  validations:",
    "  - expression: object.spec.replicas <= variables.limit",
    "    messageExpression: \"'at most ' + string(variables.limit)\"",
  }, renamed_file)
  vim.cmd("edit " .. renamed_file)
  local renamed = vim.api.nvim_get_current_buf()
  check(vim.wait(10000, function()
    return plugin.client(renamed) ~= nil
  end, 20), "attached to the policy to rename")
  vim.api.nvim_win_set_cursor(0, { 9, 50 }) -- on `limit` of `variables.limit`
  vim.lsp.buf.rename("maxReplicas")
  local function text()
    return table.concat(vim.api.nvim_buf_get_lines(renamed, 0, -1, false), "\n")
  end
  vim.wait(10000, function()
    return not text():find("limit", 1, true)
  end, 20)
  local _, count = text():gsub("maxReplicas", "")
  check(count == 3 and text():find("  - name: maxReplicas", 1, true) ~= nil,
    "rename replaced the variable's name and its two uses: " .. text():gsub("\n", " | "))
  messages = {}
  vim.api.nvim_win_set_cursor(0, { 9, 16 }) -- on `object`
  vim.lsp.buf.rename("thing")
  vim.wait(5000, function()
    return #messages > 0
  end, 20)
  check(table.concat(messages, " "):find("a variable the API server declares", 1, true) ~= nil,
    "rename on `object` is refused with the reason: " .. table.concat(messages, " "))
  vim.cmd("bwipeout! " .. renamed)

  -- one document of each family: its diagnostic, hover on a CEL function and the evaluate lens
  local families = {
    { file = "kyverno-policy.yaml", line = 18, hover = { 16, 20 }, says = "fn image(string)", lens = "Evaluate replica-limit-kyverno…" },
    { file = "gatekeeper-template.yaml", line = 24, hover = { 23, 61 }, says = "fn string.startsWith(string)", lens = "Evaluate k8smaxreplicas…" },
    { file = "dra-claim.yaml", line = 15, hover = { 13, 38 }, says = "fn string.startsWith(string)", lens = "Evaluate one-gpu…" },
    { file = "authn-config.yaml", line = 15, hover = { 13, 34 }, says = "fn string.startsWith(string)", lens = "Evaluate AuthenticationConfiguration…" },
  }
  for _, case in ipairs(families) do
    vim.cmd("edit " .. testdata .. "/" .. case.file)
    local buf = vim.api.nvim_get_current_buf()
    local family_client
    vim.wait(10000, function()
      family_client = plugin.client(buf)
      return family_client ~= nil
    end, 20)
    check(family_client ~= nil, "attached to " .. case.file)
    if family_client then
      local uri = vim.uri_from_bufnr(buf)
      local function ask(method, params)
        local done, answer = false, nil
        plugin.call(family_client, "request", method, params, function(_, result)
          done, answer = true, result
        end, buf)
        vim.wait(10000, function()
          return done
        end, 20)
        return answer
      end
      local typo
      vim.wait(15000, function()
        for _, d in ipairs(vim.diagnostic.get(buf)) do
          if code_of(d) == "cel-undefined-field" then
            typo = d
            return true
          end
        end
        return false
      end, 50)
      check(typo ~= nil and typo.lnum == case.line, case.file .. ": the misspelt field's diagnostic on line " .. (case.line + 1))
      local position = { line = case.hover[1], character = case.hover[2] }
      local hover = ask("textDocument/hover", { textDocument = { uri = uri }, position = position })
      local hovered = hover and hover.contents and hover.contents.value or ""
      check(hovered:find(case.says, 1, true) ~= nil, case.file .. ": hover shows " .. case.says)
      local lenses = ask("textDocument/codeLens", { textDocument = { uri = uri } }) or {}
      local titles = {}
      for _, lens in ipairs(lenses) do
        table.insert(titles, lens.command and lens.command.title or "?")
      end
      check(table.concat(titles, " | ") == case.lens, case.file .. ": the evaluate lens: " .. table.concat(titles, " | "))
    end
    vim.cmd("bwipeout! " .. buf)
  end

  -- the validate lenses of a CRD and its custom resources; the CRD's lens run as
  -- vim.lsp.codelens.run() runs a command (the plugin's handler), its answer shown in a buffer
  vim.cmd("edit " .. testdata .. "/widgets-with-resources.yaml")
  local widgets = vim.api.nvim_get_current_buf()
  local widgets_client
  vim.wait(10000, function()
    widgets_client = plugin.client(widgets)
    return widgets_client ~= nil
  end, 20)
  local lenses
  if widgets_client then
    plugin.call(widgets_client, "request", "textDocument/codeLens", { textDocument = { uri = vim.uri_from_bufnr(widgets) } }, function(_, result)
      lenses = result or {}
    end, widgets)
  end
  vim.wait(10000, function()
    return lenses ~= nil
  end, 20)
  local titles, crd_lens = {}, nil
  for _, lens in ipairs(lenses or {}) do
    table.insert(titles, lens.command and lens.command.title or "?")
    if lens.command and lens.command.title:find("^Validate %d+ custom") then
      crd_lens = lens
    end
  end
  -- The workspace (the repository) holds more Widgets than this file's two.
  local said = table.concat(titles, " | ")
  check(said:find("^Validate %d+ custom resources in the workspace | Validate against CRD widgets%.example%.com | Validate against CRD widgets%.example%.com$") ~= nil,
    "validate lenses on the CRD and its two Widgets: " .. said)
  if crd_lens then
    vim.lsp.commands[crd_lens.command.command](crd_lens.command, { bufnr = widgets, client_id = widgets_client.id })
    local validated
    vim.wait(10000, function()
      for _, buf in ipairs(vim.api.nvim_list_bufs()) do
        if vim.api.nvim_buf_get_name(buf):find("admission%-ls://admission%-ls%.validate") then
          validated = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
          return true
        end
      end
      return false
    end, 50)
    check(validated ~= nil and validated:find('"summary"', 1, true) ~= nil
      and validated:find("replicas must not exceed maxReplicas", 1, true) ~= nil,
      "the CRD's validate lens shows the reports, the invalid Widget with the rule's message")
  end
  vim.api.nvim_set_current_buf(bufnr)

  -- 4. settings: init_options with a disabled code after :AdmissionLsRestart, then a settings-less
  -- didChangeConfiguration makes the server pull workspace/configuration from the plugin's handler
  local function codes_now()
    local set = {}
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      set[code_of(d)] = true
    end
    return set
  end
  plugin.setup({ cmd = { binary, "serve", "--stdio" }, settings = { admissionLs = { diagnostics = { disabled = { "not-supported" } } } } })
  vim.cmd("AdmissionLsRestart")
  local restarted
  vim.wait(10000, function()
    restarted = plugin.client(bufnr)
    return restarted ~= nil and restarted.id ~= client.id
  end, 20)
  check(restarted ~= nil and restarted.id ~= client.id, ":AdmissionLsRestart started a new client")
  client = restarted or client
  check(vim.wait(10000, function()
    local c = codes_now()
    return c["cel-syntax"] and not c["not-supported"]
  end, 50), "settings (init_options, didChangeConfiguration) disable not-supported")
  -- Where the client keeps its settings: client.settings on 0.11+, client.config.settings before.
  local changed = { admissionLs = { diagnostics = { disabled = { "cel-syntax" } } } }
  if client.settings then
    client.settings = changed
  end
  client.config.settings = changed
  plugin.call(client, "notify", "workspace/didChangeConfiguration", { settings = vim.NIL })
  -- Neovim 0.11+ pulls diagnostics, after its own edits only (it does not take the server's
  -- workspace/diagnostic/refresh): ask for them as its next pull would. 0.7 gets them pushed.
  local pulls = (client.server_capabilities or {}).diagnosticProvider ~= nil
  local function codes_pulled()
    local set, answered = {}, false
    plugin.call(client, "request", "textDocument/diagnostic", { textDocument = { uri = uri } }, function(_, result)
      for _, d in ipairs(result and result.items or {}) do
        set[d.code] = true
      end
      answered = true
    end, bufnr)
    vim.wait(5000, function()
      return answered
    end, 10)
    return set
  end
  check(vim.wait(10000, function()
    local c = pulls and codes_pulled() or codes_now()
    return c["not-supported"] and not c["cel-syntax"]
  end, 100), "workspace/configuration answered from the plugin's settings (now cel-syntax is disabled"
    .. (pulls and ", pulled)" or ", pushed)"))
  check(vim.deep_equal(plugin.lookup({ admissionLs = { a = { b = 1 } } }, "admissionLs.a.b"), 1)
    and plugin.lookup({ admissionLs = {} }, "yaml") == vim.NIL, "settings lookup by section")

  -- 5. a missing binary: reported once with the path tried, no retries
  vim.lsp.stop_client(client.id)
  vim.wait(5000, function()
    return plugin.call(client, "is_stopped")
  end, 20)
  check(plugin.call(client, "is_stopped"), "the first server stopped")
  messages = {}
  plugin.setup({ cmd = { "/nonexistent/admission-ls" } })
  vim.cmd("edit " .. vim.fn.tempname() .. ".yaml")
  vim.api.nvim_buf_set_lines(0, 0, -1, false, { "apiVersion: admissionregistration.k8s.io/v1", "kind: ValidatingAdmissionPolicy" })
  vim.cmd("doautocmd InsertLeave")
  vim.cmd("doautocmd InsertLeave")
  local reports = vim.tbl_filter(function(m)
    return m:find("^admission%-ls:") ~= nil
  end, messages)
  check(#reports == 1 and reports[1]:find("/nonexistent/admission-ls", 1, true) ~= nil,
    "missing binary reported once with the path tried: " .. table.concat(messages, " | "))

  -- 6. a server that crashes: reported once with the command and exit code, never started again
  -- until :AdmissionLsRestart
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, "p")
  local script, log = dir .. "/admission-ls", dir .. "/starts"
  vim.fn.writefile({ "#!/bin/sh", "echo start >> '" .. log .. "'", "exit 3" }, script)
  vim.fn.setfperm(script, "rwxr-xr-x")
  messages = {}
  plugin.setup({ cmd = { script } })
  vim.cmd("AdmissionLsRestart")
  vim.wait(3000, function()
    return #messages > 0
  end, 20)
  for _ = 1, 3 do
    vim.cmd("doautocmd InsertLeave")
    vim.wait(100)
  end
  local starts = vim.fn.filereadable(log) == 1 and #vim.fn.readfile(log) or 0
  check(starts == 1, "the crashing server was started once, got " .. starts)
  -- Neovim itself also says "Client N quit with exit code 3"; the plugin's own message is counted.
  local ours = vim.tbl_filter(function(m)
    return m:find("^admission%-ls:") ~= nil
  end, messages)
  check(#ours == 1 and ours[1]:find(script, 1, true) ~= nil and ours[1]:find("code 3", 1, true) ~= nil,
    "crash reported once with the command and exit code: " .. table.concat(messages, " | "))

  -- 7. a command's answer is shown without running anything from the working directory: a
  -- workspace with a `json/` package (which `python3 -m json.tool` imported from the cwd) runs nothing.
  local hostile = vim.fn.tempname()
  vim.fn.mkdir(hostile .. "/json", "p")
  local marker = hostile .. "/ran"
  local payload = { "open(" .. vim.fn.string(marker) .. ", 'w').write('ran')" }
  vim.fn.writefile(payload, hostile .. "/json/__init__.py")
  vim.fn.writefile(payload, hostile .. "/json/tool.py")
  local cwd = vim.fn.getcwd()
  vim.cmd("cd " .. vim.fn.fnameescape(hostile))
  local commands = require("admission-ls.commands")
  commands.show_result("admission-ls.evaluate", { decision = "deny", messages = { "a \"quoted\", {text}: [x]" }, warnings = {} })
  local shown = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  vim.cmd("bwipeout!")
  vim.cmd("cd " .. vim.fn.fnameescape(cwd))
  check(vim.fn.filereadable(marker) == 0, "showing a result runs no program from the working directory")
  local expected = vim.fn.json_decode(table.concat(shown, "\n"))
  check(#shown == 7 and shown[1] == "{" and shown[#shown] == "}" and expected.decision == "deny"
    and expected.messages[1] == 'a "quoted", {text}: [x]',
    "the result is laid out one value a line and reads back: " .. table.concat(shown, " / "))
  check(commands.pretty_json('{"a":[],"b":{},"c":[1,{"d":"x,y"}]}')
    == '{\n    "a": [],\n    "b": {},\n    "c": [\n        1,\n        {\n            "d": "x,y"\n        }\n    ]\n}',
    "pretty_json keeps empty containers and string punctuation")
end

harness.finish("nvim", run)
