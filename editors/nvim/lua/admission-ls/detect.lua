-- The content check: a YAML buffer is a policy file when it has an admissionregistration.k8s.io
-- apiVersion (policies and bindings) or a PolicyTest document.
local M = {}

local markers = {
  "^%s*%-?%s*[\"']?apiVersion[\"']?%s*:%s*[\"']?admissionregistration%.k8s%.io/",
  "^%s*%-?%s*[\"']?kind[\"']?%s*:%s*[\"']?PolicyTest%f[^%w]",
}

--- True when one of `lines` marks a policy file.
function M.is_policy_lines(lines)
  for _, line in ipairs(lines) do
    for _, marker in ipairs(markers) do
      if string.find(line, marker) then
        return true
      end
    end
  end
  return false
end

--- True when the buffer holds a policy, binding or PolicyTest document (first 5000 lines).
function M.is_policy_buffer(bufnr)
  return M.is_policy_lines(vim.api.nvim_buf_get_lines(bufnr, 0, 5000, false))
end

return M
