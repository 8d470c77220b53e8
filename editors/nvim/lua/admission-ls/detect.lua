-- Which YAML buffers the plugin hands to the server, by content (the rule of the VS Code
-- extension's detect.ts and of the Emacs configuration): a buffer is attached when one of its first
-- 5000 lines is
--   - an `apiVersion: admissionregistration.k8s.io/…` line: ValidatingAdmissionPolicy,
--     MutatingAdmissionPolicy, their bindings, ValidatingWebhookConfiguration and
--     MutatingWebhookConfiguration (every kind of that API group), or
--   - an `apiVersion:` line of `policies.kyverno.io` (Kyverno's CEL policies),
--     `templates.gatekeeper.sh` (ConstraintTemplates) or `constraints.gatekeeper.sh` (Constraints), or
--   - a `kind: PolicyTest` line (admission-ls test suites),
-- or when it has both an `apiVersion:` line of one of these groups and a `kind:` line of one of its
-- kinds: `apiextensions.k8s.io` CustomResourceDefinition, `cli.kyverno.io` Test (Kyverno CLI
-- suites), `test.gatekeeper.sh` Suite (gator suites), `resource.k8s.io` DeviceClass, ResourceClaim,
-- ResourceClaimTemplate, ResourceSlice (DRA), `apiserver.config.k8s.io` AuthenticationConfiguration,
-- AuthorizationConfiguration. A line may be a list item and the key or value quoted. Helm chart
-- templates (filetype `helm`) follow the same rule.
local M = {}

local key = "^%s*%-?%s*[\"']?"
local sep = "[\"']?%s*:%s*[\"']?"

local function api_version(group)
  return key .. "apiVersion" .. sep .. group:gsub("%.", "%%.") .. "/"
end

local function kind(name)
  return key .. "kind" .. sep .. name .. "%f[^%w]"
end

-- Groups whose every document is attached, and the PolicyTest kind.
local alone = {
  api_version("admissionregistration.k8s.io"),
  api_version("policies.kyverno.io"),
  api_version("templates.gatekeeper.sh"),
  api_version("constraints.gatekeeper.sh"),
  kind("PolicyTest"),
}

-- Groups whose documents are attached for some kinds only.
local paired = {
  { api_version("apiextensions.k8s.io"), { "CustomResourceDefinition" } },
  { api_version("cli.kyverno.io"), { "Test" } },
  { api_version("test.gatekeeper.sh"), { "Suite" } },
  { api_version("resource.k8s.io"), { "DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice" } },
  { api_version("apiserver.config.k8s.io"), { "AuthenticationConfiguration", "AuthorizationConfiguration" } },
}
for _, pair in ipairs(paired) do
  local kinds = {}
  for _, name in ipairs(pair[2]) do
    table.insert(kinds, kind(name))
  end
  pair[2] = kinds
end

local function any_match(line, patterns)
  for _, pattern in ipairs(patterns) do
    if string.find(line, pattern) then
      return true
    end
  end
  return false
end

--- True when `lines` hold a document the server checks (see the rule above).
function M.is_admission_lines(lines)
  local seen = {}
  for _, line in ipairs(lines) do
    if any_match(line, alone) then
      return true
    end
    for i, pair in ipairs(paired) do
      local state = seen[i] or { api = false, kind = false }
      state.api = state.api or string.find(line, pair[1]) ~= nil
      state.kind = state.kind or any_match(line, pair[2])
      if state.api and state.kind then
        return true
      end
      seen[i] = state
    end
  end
  return false
end

--- The same test on a buffer (its first 5000 lines).
function M.is_admission_buffer(bufnr)
  return M.is_admission_lines(vim.api.nvim_buf_get_lines(bufnr, 0, 5000, false))
end

return M
