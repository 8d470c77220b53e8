//! Generated admission policies for the benchmarks: typical VAP, binding and MAP documents with a
//! rotation of realistic CEL expressions, and a policy file of a given number of lines.

// Each bench uses a different part of this module.
#![allow(dead_code)]

/// Expressions in the style of real policies (field access, macros, string functions, variables).
const EXPRESSIONS: &[&str] = &[
    "object.spec.replicas <= 5",
    "object.spec.template.spec.containers.all(c, c.image.startsWith('registry.example.com/'))",
    "has(object.metadata.labels) && 'team' in object.metadata.labels",
    "object.spec.template.spec.containers.all(c, has(c.resources) && has(c.resources.limits))",
    "!has(object.spec.template.spec.hostNetwork) || !object.spec.template.spec.hostNetwork",
    "object.metadata.name.matches('^[a-z0-9-]+$') && size(object.metadata.name) < 64",
    "variables.containers.exists(c, c.name == 'main')",
    "object.spec.template.spec.containers.map(c, c.name).size() == 1 || request.operation == 'UPDATE'",
];

/// One ValidatingAdmissionPolicy with `n_validations` validations.
pub fn validating_policy(name: &str, n_validations: usize) -> String {
    let mut text = format!(
        "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: {name}.example.com
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [\"apps\"]
      apiVersions: [\"v1\"]
      operations: [\"CREATE\", \"UPDATE\"]
      resources: [\"deployments\"]
  variables:
  - name: containers
    expression: \"object.spec.template.spec.containers\"
  validations:
"
    );
    for i in 0..n_validations {
        let expression = EXPRESSIONS[i % EXPRESSIONS.len()];
        text.push_str(&format!(
            "  - expression: \"{expression}\"\n    message: \"rule {i} of {name} failed\"\n    reason: Invalid\n"
        ));
    }
    text
}

/// The binding of a policy made by `validating_policy`.
pub fn binding(name: &str) -> String {
    format!(
        "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: {name}-binding
spec:
  policyName: {name}.example.com
  validationActions: [Deny]
"
    )
}

/// A MutatingAdmissionPolicy that adds a label with an apply configuration.
pub fn mutating_policy(name: &str) -> String {
    format!(
        "apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata:
  name: {name}.example.com
spec:
  failurePolicy: Fail
  reinvocationPolicy: IfNeeded
  matchConstraints:
    resourceRules:
    - apiGroups: [\"\"]
      apiVersions: [\"v1\"]
      operations: [\"CREATE\"]
      resources: [\"pods\"]
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >
        Object{{metadata: Object.metadata{{labels: {{\"team\": \"{name}\"}}}}}}
"
    )
}

/// A file of four documents: two VAPs, a binding and a MAP.
pub fn workspace_file(i: usize) -> String {
    let a = format!("limits-{i}");
    let b = format!("images-{i}");
    [
        validating_policy(&a, 5),
        binding(&a),
        validating_policy(&b, 3),
        mutating_policy(&b),
    ]
    .join("---\n")
}

/// A single policy of about `lines` lines.
pub fn policy_of_lines(lines: usize) -> String {
    validating_policy("big", lines.saturating_sub(16) / 3)
}
