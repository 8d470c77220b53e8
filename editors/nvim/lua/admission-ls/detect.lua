-- Which YAML buffers the plugin hands to the server, by content (the rule of the VS Code
-- extension's detect.ts and of the Emacs configuration): a buffer is attached when one of its first
-- 5000 lines is
--   - an `apiVersion: admissionregistration.k8s.io/…` line: ValidatingAdmissionPolicy,
--     MutatingAdmissionPolicy, their bindings, ValidatingWebhookConfiguration and
--     MutatingWebhookConfiguration (every kind of that API group), or
--   - a `kind: PolicyTest` line (admission-ls test suites),
-- or when it has both an `apiVersion: apiextensions.k8s.io/…` line and a
-- `kind: CustomResourceDefinition` line. A line may be a list item and the key or value quoted.
local M = {}

local key = "^%s*%-?%s*[\"']?"
local sep = "[\"']?%s*:%s*[\"']?"
local admission_api = key .. "apiVersion" .. sep .. "admissionregistration%.k8s%.io/"
local policy_test = key .. "kind" .. sep .. "PolicyTest%f[^%w]"
local crd_api = key .. "apiVersion" .. sep .. "apiextensions%.k8s%.io/"
local crd_kind = key .. "kind" .. sep .. "CustomResourceDefinition%f[^%w]"

--- True when `lines` hold an admission policy, binding, webhook configuration, PolicyTest or CRD.
function M.is_admission_lines(lines)
  local api, kind = false, false
  for _, line in ipairs(lines) do
    if string.find(line, admission_api) or string.find(line, policy_test) then
      return true
    end
    api = api or string.find(line, crd_api) ~= nil
    kind = kind or string.find(line, crd_kind) ~= nil
    if api and kind then
      return true
    end
  end
  return false
end

--- The same test on a buffer (its first 5000 lines).
function M.is_admission_buffer(bufnr)
  return M.is_admission_lines(vim.api.nvim_buf_get_lines(bufnr, 0, 5000, false))
end

return M
