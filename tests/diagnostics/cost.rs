//! `cel-cost`: the estimated cost of an expression against the per-expression runtime limit, with
//! sizes from the matched kind's schema and the request-size rule. A nested iteration over the
//! same unbounded data is reported; single passes, passes over nested data and iterations bounded
//! by `maxItems` are not.

use crate::check_diagnostics;
use expect_test::expect;

#[test]
fn nested_iteration_over_unbounded_containers() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: unique-names}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: object.spec.containers.all(c, object.spec.containers.all(d, c == d || c.name != d.name))
"#,
        expect![[r#"
            policy.yaml:9:17: warning[cel-cost] (typed check only): spec.validations[0].expression: the estimated cost 355,798,825 for a 64 KiB request exceeds the per-expression runtime limit of 1,000,000 (819,748,628,626 for the largest, 3 MiB, request); such a request can fail with 'operation cancelled: actual cost limit exceeded' (the estimate is a worst case: it cannot see early exits or guards). Avoid iterating inside an iteration, or bound the lists with maxItems
              |
            9 |   - expression: object.spec.containers.all(c, object.spec.containers.all(d, c == d || c.name != d.name))
              |                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

#[test]
fn nested_iteration_over_label_keys() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: distinct-labels}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: >-
      object.metadata.labels.all(k,
        object.metadata.labels.exists_one(j, j.lowerAscii() == k.lowerAscii()))
"#,
        expect![[r#"
            policy.yaml:10:7: warning[cel-cost] (typed check only): spec.validations[0].expression: the estimated cost 469,827,588 for a 64 KiB request exceeds the per-expression runtime limit of 1,000,000 (1,082,329,399,299 for the largest, 3 MiB, request); such a request can fail with 'operation cancelled: actual cost limit exceeded' (the estimate is a worst case: it cannot see early exits or guards). Avoid iterating inside an iteration, or bound the lists with maxItems
               |
            10 |       object.metadata.labels.all(k,
               |       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// With two matched kinds the warning is decided over both typed passes and shows the largest of
/// each estimate once (the estimates for the largest request are made only when some estimate
/// for an ordinary request is over the limit).
#[test]
fn nested_iteration_for_two_kinds_is_reported_once() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: distinct-labels}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: "object.metadata.name != ''"
  - expression: >-
      object.metadata.labels.all(k,
        object.metadata.labels.exists_one(j, j.lowerAscii() == k.lowerAscii()))
"#,
        expect![[r#"
            policy.yaml:12:7: warning[cel-cost] (typed check only): spec.validations[1].expression: the estimated cost 469,827,588 for a 64 KiB request exceeds the per-expression runtime limit of 1,000,000 (1,082,329,399,299 for the largest, 3 MiB, request); such a request can fail with 'operation cancelled: actual cost limit exceeded' (the estimate is a worst case: it cannot see early exits or guards). Avoid iterating inside an iteration, or bound the lists with maxItems
               |
            12 |       object.metadata.labels.all(k,
               |       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

#[test]
fn single_passes_and_passes_over_nested_data_are_clean() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: passes}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  variables:
  - name: names
    expression: object.spec.containers.map(c, c.name)
  validations:
  - expression: object.spec.containers.all(c, c.image.matches('^registry[.]example[.]com/'))
  - expression: object.spec.containers.all(c, !has(c.env) || c.env.all(e, e.name != 'TOKEN'))
  - expression: request.userInfo.groups.exists(g, g == 'system:masters')
  - expression: variables.names.join(',').size() < 1000
"#,
        expect![[r#""#]],
    );
}

#[test]
fn max_items_bounds_a_nested_iteration() {
    check_diagnostics(
        r#"
#- /crds/widgets.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              bounded:
                type: array
                maxItems: 100
                items: {type: string, maxLength: 63}
              open:
                type: array
                items: {type: string}
#- /policy.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: distinct}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}
  validations:
  - expression: object.spec.bounded.all(a, object.spec.bounded.exists_one(b, a == b))
  - expression: object.spec.open.all(a, object.spec.open.exists_one(b, a == b))
"#,
        expect![[r#"
            policy.yaml:10:17: warning[cel-cost] (typed check only): spec.validations[1].expression: the estimated cost 2,386,194,889 for a 64 KiB request exceeds the per-expression runtime limit of 1,000,000 (5,497,556,041,729 for the largest, 3 MiB, request); such a request can fail with 'operation cancelled: actual cost limit exceeded' (the estimate is a worst case: it cannot see early exits or guards). Avoid iterating inside an iteration, or bound the lists with maxItems
               |
            10 |   - expression: object.spec.open.all(a, object.spec.open.exists_one(b, a == b))
               |                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// From the Kubernetes documentation's delegated CSR example (kubernetes/website,
/// content/en/examples/access/delegated-certificate-signing-request): a variable defaulting a
/// list with `.?rules.orValue([])` is as large as the list it defaults, so a filter over it is
/// estimated as one over `object.rules` (it looked 4.7 times dearer, over the limit).
#[test]
fn or_value_keeps_the_size_of_the_defaulted_list() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: signer-rules}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [rbac.authorization.k8s.io], apiVersions: [v1], operations: [CREATE], resources: [clusterroles]}
  variables:
  - name: rules
    expression: object.?rules.orValue([])
  - name: signing
    expression: variables.rules.filter(r, r.verbs.exists(v, v == 'approve' || v == 'sign' || v == 'bind' || v == 'escalate'))
  validations:
  - expression: size(variables.signing) == 0
"#,
        expect![[r#""#]],
    );
}

/// From the Kubernetes documentation's image-matches-namespace-environment example
/// (kubernetes/website, content/en/examples/access): a label value is at most 63 characters,
/// whatever the request size, so comparing each container's image with a namespace label is a
/// single pass, not a pass times the whole request.
#[test]
fn label_values_are_short_whatever_the_request_size() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: image-env}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  variables:
  - name: env
    expression: namespaceObject.metadata.labels['env']
  validations:
  - expression: object.spec.template.spec.containers.all(c, c.image.startsWith(variables.env + '.'))
  - expression: object.spec.template.spec.containers.all(c, c.image.endsWith(object.metadata.labels['tier']))
"#,
        expect![[r#""#]],
    );
}

/// A single pass in a messageExpression (filter, map, join over the containers) is far below the
/// per-expression limit, on a Pod and inside a Deployment's template; a nested pass over the same
/// list in a message is not.
#[test]
fn single_pass_message_expressions_are_clean() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: pod-images}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: "true"
    messageExpression: >-
      'untrusted images: ' + object.spec.containers.filter(c,
      !c.image.startsWith('registry.example.com/')).map(c, c.name + '=' + c.image).join(', ')
  - expression: "true"
    messageExpression: >-
      object.spec.containers.filter(c, object.spec.containers.exists_one(d, d.name == c.name))
      .map(c, c.name).join(', ')
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: deployment-images}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: "true"
    messageExpression: >-
      'untrusted images: ' + object.spec.template.spec.containers.filter(c,
      !c.image.matches('^registry[.]example[.]com/')).map(c, c.name + '=' + c.image).join(', ')
"#,
        expect![[r#"
            policy.yaml:15:7: warning[cel-cost] (typed check only): spec.validations[1].messageExpression: the estimated cost 203,462,347 for a 64 KiB request exceeds the per-expression runtime limit of 1,000,000 (468,434,926,160 for the largest, 3 MiB, request); such a request can fail with 'operation cancelled: actual cost limit exceeded' (the estimate is a worst case: it cannot see early exits or guards). Avoid iterating inside an iteration, or bound the lists with maxItems
               |
            15 |       object.spec.containers.filter(c, object.spec.containers.exists_one(d, d.name == c.name))
               |       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}
