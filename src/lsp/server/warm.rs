//! Start-up warming: once the client has said `initialized`, a small policy is checked on the
//! blocking pool, so that the one-time work every check needs (the bundled schema's version
//! index, the admission policy field shapes, the CEL library declarations, the schema of the
//! most common target kinds) is done while the client is still sending the first `didOpen`,
//! not on that document's way to its diagnostics. The result is dropped; it only fills the
//! process-wide lazy tables, which hold the same answers whoever fills them first.

use crate::ide::DiagnosticsConfig;

/// A policy on the most common targets (Deployments and Pods), with a variable, a validation
/// and a message expression: one of each kind of site the checks of a policy type.
const POLICY: &str = "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: warm-up.admission-ls.local
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [\"apps\"]
      apiVersions: [\"v1\"]
      operations: [\"CREATE\", \"UPDATE\"]
      resources: [\"deployments\"]
    - apiGroups: [\"\"]
      apiVersions: [\"v1\"]
      operations: [\"CREATE\", \"UPDATE\"]
      resources: [\"pods\"]
  variables:
  - name: name
    expression: \"object.metadata.name\"
  validations:
  - expression: \"variables.name.startsWith('a') && request.operation == 'CREATE'\"
    messageExpression: \"'name ' + variables.name\"
";

/// Checks [`POLICY`] under `config` off the serve task; nothing waits for it.
pub(super) fn start(config: DiagnosticsConfig) {
    tokio::task::spawn_blocking(move || {
        // A panic here is the check's bug and shows again on a real file; the server goes on.
        let check = || crate::ide::diagnostics_for_text(POLICY, &config);
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_warm_up_policy_is_clean() {
        // A finding would mean the policy no longer reaches the checks it is meant to warm.
        let found = crate::ide::diagnostics_for_text(POLICY, &DiagnosticsConfig::default());
        assert_eq!(found, Vec::new());
    }
}
