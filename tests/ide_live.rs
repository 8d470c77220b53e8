//! Live verdict fixtures: a policy file with `# admission-ls:` modelines, and the sample files
//! they name (`#- NAME` headers; a file whose text is `!missing` could not be read). Each hint is
//! shown as `line:text-before-it|label`, then its tooltip indented under it when `tooltips`.

use std::collections::HashMap;

use admission_ls::ide::live::LoadedFiles;
use admission_ls::ide::{AnalysisHost, DiagnosticsConfig, FileId};
use expect_test::{Expect, expect};

#[track_caller]
fn check(fixture: &str, tooltips: bool, expect: Expect) {
    let mut parts = fixture.split("\n#- ");
    let policy = parts.next().unwrap_or("").trim_start_matches('\n');
    let mut loaded: LoadedFiles = HashMap::new();
    for part in parts {
        let (name, text) = part.split_once('\n').unwrap_or((part, ""));
        let text = match text.trim() {
            "!missing" => Err("No such file or directory".to_string()),
            _ => Ok(text.to_string()),
        };
        loaded.insert(name.trim().to_string(), text);
    }
    let mut host = AnalysisHost::new();
    host.set_file(FileId(0), policy.into());
    let analysis = host.snapshot();
    let config = DiagnosticsConfig::default();
    let verdicts =
        analysis.modeline_verdicts(FileId(0), "policy.yaml", &loaded, &config, &|| false);
    let mut actual = String::new();
    for hint in analysis.live_hints(FileId(0), &verdicts) {
        let at = usize::from(hint.offset);
        let line_start = policy[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = policy[..at].matches('\n').count() + 1;
        actual.push_str(&format!(
            "{line}:{}|{}\n",
            &policy[line_start..at],
            hint.label
        ));
        if tooltips {
            for row in hint.tooltip.lines() {
                actual.push_str(&format!("    {row}\n").replace("    \n", "\n"));
            }
        }
    }
    expect.assert_eq(&actual);
}

const REPLICAS: &str = "
# admission-ls: object=small.yaml object=big.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replicas}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: object.spec.replicas <= 5
    message: at most 5 replicas
  - expression: object.metadata.name.startsWith('web')
";

const SMALL: &str = "
#- small.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: web-1, namespace: default}
spec: {replicas: 3}
";

const BIG: &str = "
#- big.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: default}
spec: {replicas: 7}
";

#[test]
fn each_validation_shows_each_sample_result() {
    check(
        &format!("{REPLICAS}{SMALL}{BIG}"),
        false,
        expect![[r#"
            1:# admission-ls: object=small.yaml object=big.yaml| small.yaml: ✓ allow  ·  big.yaml: ✗ deny: at most 5 replicas
            10:  - expression: object.spec.replicas <= 5| small.yaml: ✓ allow  ·  big.yaml: ✗ deny: at most 5 replicas
            12:  - expression: object.metadata.name.startsWith('web')| small.yaml: ✓ allow  ·  big.yaml: ✗ deny: failed expression: object.metadata.name.startsWith('web')
        "#]],
    );
}

#[test]
fn the_trace_is_the_tooltip() {
    check(
        &format!("{REPLICAS}{BIG}").replace("object=small.yaml ", ""),
        true,
        expect![[r#"
            1:# admission-ls: object=big.yaml| big.yaml: ✗ deny: at most 5 replicas
                **big.yaml**: ValidatingAdmissionPolicy `replicas`: ✗ deny: at most 5 replicas

                note: no binding: the API server never enforces a policy without one; evaluated as a binding with validationActions [Deny] would

                `validation[0]`:
                ```
                object.spec.replicas <= 5  →  7 <= 5  →  false
                  object.spec.replicas  →  7
                ```

                `validation[1]`:
                ```
                object.metadata.name.startsWith('web')  →  false
                  object.metadata.name  →  "api"
                ```
            10:  - expression: object.spec.replicas <= 5| ✗ deny: at most 5 replicas
                **big.yaml**: ✗ deny: at most 5 replicas

                message: at most 5 replicas

                `validation[0]`:
                ```
                object.spec.replicas <= 5  →  7 <= 5  →  false
                  object.spec.replicas  →  7
                ```
            12:  - expression: object.metadata.name.startsWith('web')| ✗ deny: failed expression: object.metadata.name.startsWith('web')
                **big.yaml**: ✗ deny: failed expression: object.metadata.name.startsWith('web')

                message: failed expression: object.metadata.name.startsWith('web')

                `validation[1]`:
                ```
                object.metadata.name.startsWith('web')  →  false
                  object.metadata.name  →  "api"
                ```
        "#]],
    );
}

const MUTATING: &str = "
# admission-ls: object=small.yaml
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: label}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >
        Object{metadata: Object.metadata{labels: {'team': 'web'}}}
";

#[test]
fn a_mutation_shows_the_fields_it_changed() {
    check(
        &format!("{MUTATING}{SMALL}"),
        false,
        expect![[r#"
        1:# admission-ls: object=small.yaml| small.yaml: ✓ allow, mutates add /metadata/labels
        14:        Object{metadata: Object.metadata{labels: {'team': 'web'}}}| ✓ mutates add /metadata/labels
    "#]],
    );
}

/// Each mutation names what it changed itself: the labels of the first, the replicas of a JSON
/// patch, nothing for one that sets what is already there (`mutating/dispatcher.go` runs them in
/// order, each on the object the one before produced).
#[test]
fn each_of_several_mutations_shows_the_fields_it_changed() {
    let more = "  - patchType: JSONPatch
    jsonPatch:
      expression: \"[JSONPatch{op: 'replace', path: '/spec/replicas', value: 1}]\"
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: \"Object{metadata: Object.metadata{labels: {'team': 'web'}}}\"
";
    check(
        &format!("{MUTATING}{more}{SMALL}"),
        false,
        expect![[r#"
            1:# admission-ls: object=small.yaml| small.yaml: ✓ allow, mutates add /metadata/labels, replace /spec/replicas
            14:        Object{metadata: Object.metadata{labels: {'team': 'web'}}}| ✓ mutates add /metadata/labels
            17:      expression: "[JSONPatch{op: 'replace', path: '/spec/replicas', value: 1}]"| ✓ mutates replace /spec/replicas
            20:      expression: "Object{metadata: Object.metadata{labels: {'team': 'web'}}}"| ✓ no change
        "#]],
    );
}

#[test]
fn bad_samples_are_named_at_the_modeline() {
    let fixture = format!(
        "{}\n#- gone.yaml\n!missing\n#- broken.yaml\nkind: [\n#- pod.yaml\napiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: default}}\n",
        REPLICAS.replace(
            "object=small.yaml object=big.yaml",
            "object=gone.yaml object=broken.yaml object=pod.yaml"
        )
    );
    check(
        &fixture,
        false,
        expect![[r#"
        1:# admission-ls: object=gone.yaml object=broken.yaml object=pod.yaml| gone.yaml: ⚠ object=gone.yaml: No such file or directory  ·  broken.yaml: ⚠ object=broken.yaml: does not parse: YAML syntax error: while parsing a node, did…  ·  pod.yaml: skip: the object is not matched (matchConstraints or the binding's matchResources)
    "#]],
    );
}

#[test]
fn a_bad_modeline_says_what_is_wrong() {
    let fixture = REPLICAS.replace("object=small.yaml object=big.yaml", "objct=small.yaml");
    check(
        &fixture,
        false,
        expect![[r#"
        1:# admission-ls: objct=small.yaml| modeline: ⚠ unknown key `objct` (expected object, oldObject, params or namespace); no object…
    "#]],
    );
}

#[test]
fn an_expression_over_the_cost_budget_shows_where_it_stopped() {
    let policy = REPLICAS
        .replace("object=small.yaml object=big.yaml", "object=small.yaml")
        .replace(
            "object.spec.replicas <= 5",
            "'[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, [1,2,3,4,5,6,7,8,9,10].all(g, a > 0)))))))'",
        );
    check(
        &format!("{policy}{SMALL}"),
        true,
        expect![[r#"
        1:# admission-ls: object=small.yaml| small.yaml: ⚠ error: expression '[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4…
            **small.yaml**: ValidatingAdmissionPolicy `replicas`: ⚠ error: expression '[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4…

            note: no binding: the API server never enforces a policy without one; evaluated as a binding with validationActions [Deny] would

            `validation[0]`:
            ```
            [1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, …  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 0: a = 1)
              [1,2,3,4,5,6,7,8,9,10]  →  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
              [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, …  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 1: b = 2)
                [1,2,3,4,5,6,7,8,9,10]  →  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
                [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, …  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 5: c = 6)
                  [1,2,3,4,5,6,7,8,9,10]  →  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
                  [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, [1,2,3,4,5,6,7,8,9,10].all(g, …  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 2: d = 3)
                    [1,2,3,4,5,6,7,8,9,10]  →  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
                    [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, [1,2,3,4,5,6,7,8,9,10].all(g, a > 0)))  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 5: e = 6)
                      [1,2,3,4,5,6,7,8,9,10]  →  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
                      [1,2,3,4,5,6,7,8,9,10].all(f, [1,2,3,4,5,6,7,8,9,10].all(g, a > 0))  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 3: f = 4)
                        [1,2,3,4,5,6,7,8,9,10]  →  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
                        [1,2,3,4,5,6,7,8,9,10].all(g, a > 0)  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 3: g = 4)
                          [1,2,3,4,5,6,7,8,9,10]  →  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
                          a > 0  →  stopped here: operation cancelled: actual cost limit exceeded
                            a  →  stopped here: operation cancelled: actual cost limit exceeded
                            0  →  (not evaluated)
            ```

            `validation[1]`:
            ```
            object.metadata.name.startsWith('web')  →  true
              object.metadata.name  →  "web-1"
            ```
        10:  - expression: '[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, [1,2,3,4,5,6,7,8,9,10].all(g, a > 0)))))))'| ⚠ error: expression '[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4…
            **small.yaml**: ⚠ error: expression '[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4…

            message: expression '[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, [1,2,3,4,5,6,7,8,9,10].all(g, a > 0)))))))' resulted in error: operation cancelled: actual cost limit exceeded

            `validation[0]`:
            ```
            [1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, …  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 0: a = 1)
              [1,2,3,4,5,6,7,8,9,10]  →  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
              [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, …  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 1: b = 2)
                [1,2,3,4,5,6,7,8,9,10]  →  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
                [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, …  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 5: c = 6)
                  [1,2,3,4,5,6,7,8,9,10]  →  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
                  [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, [1,2,3,4,5,6,7,8,9,10].all(g, …  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 2: d = 3)
                    [1,2,3,4,5,6,7,8,9,10]  →  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
                    [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, [1,2,3,4,5,6,7,8,9,10].all(g, a > 0)))  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 5: e = 6)
                      [1,2,3,4,5,6,7,8,9,10]  →  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
                      [1,2,3,4,5,6,7,8,9,10].all(f, [1,2,3,4,5,6,7,8,9,10].all(g, a > 0))  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 3: f = 4)
                        [1,2,3,4,5,6,7,8,9,10]  →  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
                        [1,2,3,4,5,6,7,8,9,10].all(g, a > 0)  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 3: g = 4)
                          [1,2,3,4,5,6,7,8,9,10]  →  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
                          a > 0  →  stopped here: operation cancelled: actual cost limit exceeded
                            a  →  stopped here: operation cancelled: actual cost limit exceeded
                            0  →  (not evaluated)
            ```
        12:  - expression: object.metadata.name.startsWith('web')| ✓ allow
            **small.yaml**: ✓ allow

            `validation[1]`:
            ```
            object.metadata.name.startsWith('web')  →  true
              object.metadata.name  →  "web-1"
            ```
    "#]],
    );
}

#[test]
fn a_kyverno_validating_policy_shows_its_decision_at_the_modeline_and_each_validation() {
    let policy = REPLICAS
        .replace(
            "admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy",
            "policies.kyverno.io/v1\nkind: ValidatingPolicy",
        )
        .replace(
            "object=small.yaml object=big.yaml",
            "object=small.yaml object=big.yaml object=pod.yaml",
        );
    let pod = "\n#- pod.yaml\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n";
    check(
        &format!("{policy}{SMALL}{BIG}{pod}"),
        false,
        expect![[r#"
            1:# admission-ls: object=small.yaml object=big.yaml object=pod.yaml| small.yaml: ✓ allow  ·  big.yaml: ✗ deny: at most 5 replicas  ·  pod.yaml: skip: no match
            10:  - expression: object.spec.replicas <= 5| small.yaml: ✓ allow  ·  big.yaml: ✗ deny: at most 5 replicas
            12:  - expression: object.metadata.name.startsWith('web')| small.yaml: ✓ allow
        "#]],
    );
}

/// The trace of a Kyverno validation is its hint's tooltip; Kyverno stops at the first false
/// validation (kyverno/kyverno pkg/cel/policies/vpol/compiler/policy.go `evaluateWithData`), so
/// the second has no hint.
#[test]
fn a_kyverno_validation_shows_its_trace() {
    let policy = REPLICAS
        .replace(
            "admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy",
            "policies.kyverno.io/v1\nkind: ValidatingPolicy",
        )
        .replace("object=small.yaml object=big.yaml", "object=big.yaml");
    check(
        &format!("{policy}{BIG}"),
        true,
        expect![[r#"
        1:# admission-ls: object=big.yaml| big.yaml: ✗ deny: at most 5 replicas
            **big.yaml**: ValidatingPolicy `replicas`: ✗ deny: at most 5 replicas

            message: at most 5 replicas
        10:  - expression: object.spec.replicas <= 5| ✗ deny: at most 5 replicas
            **big.yaml**: ✗ deny: at most 5 replicas

            message: at most 5 replicas

            `validation[0]`:
            ```
            object.spec.replicas <= 5  →  7 <= 5  →  false
              object.spec.replicas  →  7
            ```
    "#]],
    );
}

/// kyverno/kyverno test/cli/test-mutating-policy/mutating-label: the policy, and its two
/// Deployments (the one in `dev` gets the label, the other is skipped by the matchCondition).
const MUTATING_LABEL: &str = r#"
# admission-ls: object=dev.yaml object=default.yaml
apiVersion: policies.kyverno.io/v1beta1
kind: MutatingPolicy
metadata:
  name: test-mpol-jsonpatch
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["deployments"]
  matchConditions:
  - name: is-dev-namespace
    expression: request.namespace == 'dev'
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: |
        has(object.metadata.labels) ?
        [JSONPatch{op: "add", path: "/metadata/labels/managed", value: "true"}] :
        [JSONPatch{op: "add", path: "/metadata/labels", value: {"managed": "true"}}]

#- dev.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: dev-deploy-2, namespace: dev}
spec: {replicas: 1}

#- default.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: dev-deploy-1, namespace: default}
spec: {replicas: 1}
"#;

#[test]
fn a_kyverno_mutating_policy_shows_the_fields_it_changed_at_the_modeline() {
    check(
        MUTATING_LABEL,
        true,
        expect![[r#"
            1:# admission-ls: object=dev.yaml object=default.yaml| dev.yaml: ✓ allow, mutates add /metadata/labels  ·  default.yaml: skip
                **dev.yaml**: MutatingPolicy `test-mpol-jsonpatch`: ✓ allow, mutates add /metadata/labels

                message: success

                `matchCondition is-dev-namespace`:
                ```
                request.namespace == 'dev'  →  "dev" == "dev"  →  true
                  request.namespace  →  "dev"
                ```

                ---

                **default.yaml**: MutatingPolicy `test-mpol-jsonpatch`: skip

                message: skip

                `matchCondition is-dev-namespace`:
                ```
                request.namespace == 'dev'  →  "default" == "dev"  →  false
                  request.namespace  →  "default"
                ```
            22:        [JSONPatch{op: "add", path: "/metadata/labels", value: {"managed": "true"}}]| dev.yaml: ✓ mutates add /metadata/labels
                **dev.yaml**: ✓ mutates add /metadata/labels

                the policy's patch: add /metadata/labels

                `jsonPatch`:
                ```
                has(object.metadata.labels) ? [JSONPatch{op: "add", path: "/metadata/labels/managed", value: "true"}] : [JSONPatch{op: "…  →  [JSONPatch{op: "add", path: "/metadata/labels", value: {"managed": "true"}}]
                  has(object.metadata.labels)  →  false
                  [JSONPatch{op: "add", path: "/metadata/labels/managed", value: "true"}]  →  (not evaluated)
                  [JSONPatch{op: "add", path: "/metadata/labels", value: {"managed": "true"}}]  →  [JSONPatch{op: "add", path: "/metadata/labels", value: {"managed": "true"}}]
                    JSONPatch{op: "add", path: "/metadata/labels", value: {"managed": "true"}}  →  JSONPatch{op: "add", path: "/metadata/labels", value: {"managed": "true"}}
                      {"managed": "true"}  →  {"managed": "true"}
                ```
        "#]],
    );
}

/// open-policy-agent/gatekeeper-library library/pod-security-policy/read-only-root-filesystem,
/// its CEL code cut to the containers, with the Constraint and Pods of its samples.
const READ_ONLY_ROOT: &str = r#"
# admission-ls: object=disallowed.yaml object=exempt.yaml params=constraint.yaml
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata:
  name: k8spspreadonlyrootfilesystem
spec:
  crd:
    spec:
      names:
        kind: K8sPSPReadOnlyRootFilesystem
      validation:
        openAPIV3Schema:
          type: object
          properties:
            exemptImages:
              type: array
              items:
                type: string
  targets:
    - target: admission.k8s.gatekeeper.sh
      code:
      - engine: K8sNativeValidation
        source:
          variables:
          - name: containers
            expression: 'has(variables.anyObject.spec.containers) ? variables.anyObject.spec.containers : []'
          - name: badContainers
            expression: |
              variables.containers.filter(container,
                !(has(variables.params.exemptImages) && container.image in variables.params.exemptImages) &&
                (!has(container.securityContext) ||
                !has(container.securityContext.readOnlyRootFilesystem) ||
                container.securityContext.readOnlyRootFilesystem != true)
              ).map(container, container.name)
          validations:
          - expression: 'size(variables.badContainers) == 0'
            messageExpression: '"only read-only root filesystem container is allowed: " + variables.badContainers.join(", ")'

#- constraint.yaml
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sPSPReadOnlyRootFilesystem
metadata:
  name: psp-readonlyrootfilesystem
spec:
  match:
    kinds:
      - apiGroups: [""]
        kinds: ["Pod"]
  parameters:
    exemptImages:
    - "specialprogram"

#- disallowed.yaml
apiVersion: v1
kind: Pod
metadata:
  name: nginx-readonlyrootfilesystem-disallowed
spec:
  containers:
  - name: nginx
    image: nginx
    securityContext:
      readOnlyRootFilesystem: false

#- exempt.yaml
apiVersion: v1
kind: Pod
metadata:
  name: nginx-readonlyrootfilesystem-exempt
spec:
  containers:
  - name: special
    image: specialprogram
"#;

#[test]
fn a_gatekeeper_template_shows_its_violations_with_the_constraint_as_params() {
    check(
        READ_ONLY_ROOT,
        false,
        expect![[r#"
            1:# admission-ls: object=disallowed.yaml object=exempt.yaml params=constraint.yaml| disallowed.yaml: ✗ deny: only read-only root filesystem container is allowed: nginx  ·  exempt.yaml: ✓ allow
            36:          - expression: 'size(variables.badContainers) == 0'| disallowed.yaml: ✗ deny: only read-only root filesystem container is allowed: nginx  ·  exempt.yaml: ✓ allow
        "#]],
    );
}

#[test]
fn a_gatekeeper_template_without_a_constraint_says_so_at_the_modeline() {
    let fixture = READ_ONLY_ROOT.replace(" params=constraint.yaml", "");
    check(
        &fixture,
        false,
        expect![[r#"
        1:# admission-ls: object=disallowed.yaml object=exempt.yaml| disallowed.yaml: ⚠ no K8sPSPReadOnlyRootFilesystem Constraint: give the Constraint of the template …  ·  exempt.yaml: ⚠ no K8sPSPReadOnlyRootFilesystem Constraint: give the Constraint of the template …
    "#]],
    );
}

#[test]
fn a_gatekeeper_template_takes_the_constraint_of_its_file() {
    let (template, samples) = READ_ONLY_ROOT
        .split_once("\n#- constraint.yaml\n")
        .unwrap_or_default();
    let (constraint, pods) = samples.split_once("\n#- ").unwrap_or_default();
    let template = template.replace(" params=constraint.yaml", "");
    let fixture = format!("{template}---\n{constraint}\n#- {pods}");
    check(
        &fixture,
        false,
        expect![[r#"
            1:# admission-ls: object=disallowed.yaml object=exempt.yaml| disallowed.yaml: ✗ deny: only read-only root filesystem container is allowed: nginx  ·  exempt.yaml: ✓ allow
            36:          - expression: 'size(variables.badContainers) == 0'| disallowed.yaml: ✗ deny: only read-only root filesystem container is allowed: nginx  ·  exempt.yaml: ✓ allow
        "#]],
    );
}

const GPU_CLAIM: &str = "
# admission-ls: object=slices.yaml
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: big-gpu}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          selectors:
          - cel:
              expression: device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'
          - cel:
              expression: device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0
#- slices.yaml
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      model: {string: LATEST-GPU-MODEL}
    capacity:
      memory: {value: 80Gi}
  - name: gpu-1
    attributes:
      model: {string: LATEST-GPU-MODEL}
    capacity:
      memory: {value: 16Gi}
  - name: gpu-2
    attributes:
      model: {string: OLD-GPU-MODEL}
    capacity:
      memory: {value: 80Gi}
  - name: gpu-3
    capacity:
      memory: {value: 80Gi}
";

#[test]
fn dra_selectors_show_the_devices_each_rejects() {
    check(
        GPU_CLAIM,
        false,
        expect![[r#"
            1:# admission-ls: object=slices.yaml| slices.yaml: ✓ gpu: 1/4 devices
            14:              expression: device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'| ✓ 2 device(s), ✗ rejects gpu-2, ⚠ fails on gpu-3
            16:              expression: device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0| ✓ 1 device(s), ✗ rejects gpu-1
        "#]],
    );
}

#[test]
fn a_dra_selector_trace_is_the_tooltip() {
    check(
        GPU_CLAIM,
        true,
        expect![[r#"
            1:# admission-ls: object=slices.yaml| slices.yaml: ✓ gpu: 1/4 devices
                **slices.yaml**: ✓ gpu: 1/4 devices

                - `gpu-0` (slice node-1): match
                - `gpu-1` (slice node-1): no match: `spec.spec.devices.requests[0].exactly.selectors[1].cel.expression` is false
                - `gpu-2` (slice node-1): no match: `spec.spec.devices.requests[0].exactly.selectors[0].cel.expression` is false
                - `gpu-3` (slice node-1): error: `spec.spec.devices.requests[0].exactly.selectors[0].cel.expression`: no such key: model
            14:              expression: device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'| ✓ 2 device(s), ✗ rejects gpu-2, ⚠ fails on gpu-3
                **slices.yaml**: ✓ 2 device(s), ✗ rejects gpu-2, ⚠ fails on gpu-3

                `gpu-3` (slice node-1): error: `spec.spec.devices.requests[0].exactly.selectors[0].cel.expression`: no such key: model

                `spec.spec.devices.requests[0].exactly.selectors[0].cel.expression`:
                ```
                device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'  →  error: no such key: model
                  device.attributes['gpu.example.com'].model  →  error raised here: no such key: model
                    device.attributes['gpu.example.com']  →  {}
                      device.attributes  →  {"gpu.example.com": {}}
                ```

                `gpu-2` (slice node-1): no match: `spec.spec.devices.requests[0].exactly.selectors[0].cel.expression` is false

                `spec.spec.devices.requests[0].exactly.selectors[0].cel.expression`:
                ```
                device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'  →  "OLD-GPU-MODEL" == "LATEST-GPU-MODEL"  →  false
                  device.attributes['gpu.example.com'].model  →  "OLD-GPU-MODEL"
                ```
            16:              expression: device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0| ✓ 1 device(s), ✗ rejects gpu-1
                **slices.yaml**: ✓ 1 device(s), ✗ rejects gpu-1

                `gpu-1` (slice node-1): no match: `spec.spec.devices.requests[0].exactly.selectors[1].cel.expression` is false

                `spec.spec.devices.requests[0].exactly.selectors[1].cel.expression`:
                ```
                device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0  →  -1 >= 0  →  false
                  device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi'))  →  -1
                    device.capacity['gpu.example.com'].memory  →  quantity("16Gi")
                    quantity('40Gi')  →  quantity("40Gi")
                ```
        "#]],
    );
}

#[test]
fn dra_slices_that_do_not_parse_are_named_at_the_modeline() {
    let fixture = GPU_CLAIM.replace("object=slices.yaml", "object=slices.yaml object=gone.yaml")
        + "\n#- gone.yaml\n!missing\n";
    check(
        &fixture,
        false,
        expect![[r#"
        1:# admission-ls: object=slices.yaml object=gone.yaml| slices.yaml: ✓ gpu: 1/4 devices  ·  gone.yaml: ⚠ object=gone.yaml: No such file or directory
        14:              expression: device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'| slices.yaml: ✓ 2 device(s), ✗ rejects gpu-2, ⚠ fails on gpu-3
        16:              expression: device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0| slices.yaml: ✓ 1 device(s), ✗ rejects gpu-1
    "#]],
    );
}

const AUTHN: &str = r#"
# admission-ls: object=claims.json object=other.json
apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: https://issuer.example.com
    audiences: [my-app]
  claimValidationRules:
  - expression: 'claims.hd == "example.com"'
    message: the hd claim must be set to example.com
  claimMappings:
    username:
      expression: '"oidc:" + claims.username'
  userValidationRules:
  - expression: "!user.username.startsWith('system:')"
    message: username cannot use reserved system prefix
#- claims.json
{"iss": "https://issuer.example.com", "aud": "my-app", "sub": "1", "hd": "example.com", "username": "jane"}
#- other.json
{"iss": "https://issuer.example.com", "aud": "my-app", "sub": "2", "hd": "other.example"}
"#;

#[test]
fn authentication_rules_show_each_token_result() {
    check(
        AUTHN,
        false,
        expect![[r#"
        1:# admission-ls: object=claims.json object=other.json| claims.json: ✓ authenticated as oidc:jane  ·  other.json: ✗ refused: oidc: error evaluating username claim expression: expression '"oidc:" + claims.u…
        9:  - expression: 'claims.hd == "example.com"'| claims.json: ✓ true
        13:      expression: '"oidc:" + claims.username'| claims.json: → "oidc:jane"  ·  other.json: ⚠ error: no such key: username
        15:  - expression: "!user.username.startsWith('system:')"| claims.json: ✓ true
    "#]],
    );
}

#[test]
fn an_authentication_rule_trace_is_the_tooltip() {
    let fixture = AUTHN.replace(" object=other.json", "");
    check(
        &fixture,
        true,
        expect![[r#"
            1:# admission-ls: object=claims.json| claims.json: ✓ authenticated as oidc:jane
                **claims.json**: ✓ authenticated as oidc:jane

                groups: []

                `jwt[0].claimMappings.username.expression`:
                ```
                "oidc:" + claims.username  →  "oidc:" + "jane"  →  "oidc:jane"
                  claims.username  →  "jane"
                ```

                `jwt[0].claimValidationRules[0].expression`:
                ```
                claims.hd == "example.com"  →  "example.com" == "example.com"  →  true
                  claims.hd  →  "example.com"
                ```

                `jwt[0].userValidationRules[0].expression`:
                ```
                !user.username.startsWith('system:')  →  true
                  user.username.startsWith('system:')  →  false
                    user.username  →  "oidc:jane"
                ```
            9:  - expression: 'claims.hd == "example.com"'| ✓ true
                **claims.json**: ✓ true

                `jwt[0].claimValidationRules[0].expression`:
                ```
                claims.hd == "example.com"  →  "example.com" == "example.com"  →  true
                  claims.hd  →  "example.com"
                ```
            13:      expression: '"oidc:" + claims.username'| → "oidc:jane"
                **claims.json**: → "oidc:jane"

                `jwt[0].claimMappings.username.expression`:
                ```
                "oidc:" + claims.username  →  "oidc:" + "jane"  →  "oidc:jane"
                  claims.username  →  "jane"
                ```
            15:  - expression: "!user.username.startsWith('system:')"| ✓ true
                **claims.json**: ✓ true

                `jwt[0].userValidationRules[0].expression`:
                ```
                !user.username.startsWith('system:')  →  true
                  user.username.startsWith('system:')  →  false
                    user.username  →  "oidc:jane"
                ```
        "#]],
    );
}

/// A Kyverno MutatingPolicy's mutations run in order, each on the object the previous one gave
/// (kyverno/kyverno pkg/cel/policies/mpol/compiler/policy.go `evaluate`): each shows the paths it
/// changed, `no change`, or the error that ended the policy (the ones after it did not run).
const MUTATING_STEPS: &str = r#"
# admission-ls: object=labelled.yaml object=bare.yaml
apiVersion: policies.kyverno.io/v1
kind: MutatingPolicy
metadata:
  name: steps
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["deployments"]
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: "[JSONPatch{op: 'add', path: '/spec/paused', value: false}]"
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{spec: Object.spec{replicas: object.spec.replicas}}"
  - patchType: JSONPatch
    jsonPatch:
      expression: "[JSONPatch{op: 'add', path: '/metadata/labels/team', value: object.metadata.labels.owner}]"

#- labelled.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: dev, labels: {owner: shop}}
spec: {replicas: 1}

#- bare.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: dev}
spec: {replicas: 2}
"#;

#[test]
fn each_kyverno_mutation_shows_the_fields_it_changed() {
    check(
        MUTATING_STEPS,
        false,
        expect![[r#"
        1:# admission-ls: object=labelled.yaml object=bare.yaml| labelled.yaml: ✓ allow, mutates add /metadata/labels/team, add /spec/paused  ·  bare.yaml: ⚠ error: failed to evaluate policy: no such key: labels
        16:      expression: "[JSONPatch{op: 'add', path: '/spec/paused', value: false}]"| labelled.yaml: ✓ mutates add /spec/paused  ·  bare.yaml: ✓ mutates add /spec/paused
        19:      expression: "Object{spec: Object.spec{replicas: object.spec.replicas}}"| labelled.yaml: ✓ no change  ·  bare.yaml: ✓ no change
        22:      expression: "[JSONPatch{op: 'add', path: '/metadata/labels/team', value: object.metadata.labels.owner}]"| labelled.yaml: ✓ mutates add /metadata/labels/team  ·  bare.yaml: ⚠ error: no such key: labels
    "#]],
    );
}

#[test]
fn a_kyverno_mutation_s_trace_is_its_tooltip() {
    let one = MUTATING_STEPS.replace("object=labelled.yaml object=bare.yaml", "object=bare.yaml");
    check(
        &one,
        true,
        expect![[r#"
        1:# admission-ls: object=bare.yaml| bare.yaml: ⚠ error: failed to evaluate policy: no such key: labels
            **bare.yaml**: MutatingPolicy `steps`: ⚠ error: failed to evaluate policy: no such key: labels

            message: failed to evaluate policy: no such key: labels
        16:      expression: "[JSONPatch{op: 'add', path: '/spec/paused', value: false}]"| ✓ mutates add /spec/paused
            **bare.yaml**: ✓ mutates add /spec/paused

            `jsonPatch`:
            ```
            [JSONPatch{op: 'add', path: '/spec/paused', value: false}]  →  [JSONPatch{op: "add", path: "/spec/paused", value: false}]
              JSONPatch{op: 'add', path: '/spec/paused', value: false}  →  JSONPatch{op: "add", path: "/spec/paused", value: false}
            ```
        19:      expression: "Object{spec: Object.spec{replicas: object.spec.replicas}}"| ✓ no change
            **bare.yaml**: ✓ no change

            `applyConfiguration`:
            ```
            Object{spec: Object.spec{replicas: object.spec.replicas}}  →  Object{spec: Object.spec{replicas: 2}}
              Object.spec{replicas: object.spec.replicas}  →  Object.spec{replicas: 2}
                object.spec.replicas  →  2
            ```
        22:      expression: "[JSONPatch{op: 'add', path: '/metadata/labels/team', value: object.metadata.labels.owner}]"| ⚠ error: no such key: labels
            **bare.yaml**: ⚠ error: no such key: labels

            `jsonPatch`:
            ```
            [JSONPatch{op: 'add', path: '/metadata/labels/team', value: object.metadata.labels.owner}]  →  error: no such key: labels
              JSONPatch{op: 'add', path: '/metadata/labels/team', value: object.metadata.labels.owner}  →  error: no such key: labels
                object.metadata.labels.owner  →  error: no such key: labels
                  object.metadata.labels  →  error raised here: no such key: labels
                    object.metadata  →  {"name": "api", "namespace": "dev"}
            ```
    "#]],
    );
}

/// kyverno/kyverno pkg/cel/policies/dpol/compiler/policy.go `Evaluate`: the conditions in order,
/// the first false one keeping the object; the CLI says `pass` when it would be deleted.
const DELETING: &str = r#"
# admission-ls: object=preview.yaml object=prod.yaml object=broken.yaml
apiVersion: policies.kyverno.io/v1
kind: DeletingPolicy
metadata:
  name: previews
spec:
  schedule: "@daily"
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      resources: ["deployments"]
  conditions:
  - name: is-preview
    expression: "object.metadata.labels.env == 'preview'"
  - name: small
    expression: "object.spec.replicas < 3"

#- preview.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: dev, labels: {env: preview}}
spec: {replicas: 1}

#- prod.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: dev, labels: {env: prod}}
spec: {replicas: 1}

#- broken.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: old, namespace: dev}
spec: {replicas: 1}
"#;

#[test]
fn a_kyverno_deleting_policy_shows_each_condition_and_the_decision() {
    check(
        DELETING,
        false,
        expect![[r#"
        1:# admission-ls: object=preview.yaml object=prod.yaml object=broken.yaml| preview.yaml: would delete  ·  prod.yaml: would keep: resource did not match: condition 'is-preview' is false  ·  broken.yaml: ⚠ error: no such key: labels
        15:    expression: "object.metadata.labels.env == 'preview'"| preview.yaml: ✓ true  ·  prod.yaml: ✗ false: would keep  ·  broken.yaml: ⚠ error: no such key: labels
        17:    expression: "object.spec.replicas < 3"| preview.yaml: ✓ true  ·  broken.yaml: ✓ true
    "#]],
    );
}

#[test]
fn a_kyverno_deleting_condition_s_trace_is_its_tooltip() {
    let one = DELETING.replace(
        "object=preview.yaml object=prod.yaml object=broken.yaml",
        "object=prod.yaml",
    );
    check(
        &one,
        true,
        expect![[r#"
        1:# admission-ls: object=prod.yaml| prod.yaml: would keep: resource did not match: condition 'is-preview' is false
            **prod.yaml**: DeletingPolicy `previews`: would keep: resource did not match: condition 'is-preview' is false

            message: resource did not match: condition 'is-preview' is false
        15:    expression: "object.metadata.labels.env == 'preview'"| ✗ false: would keep
            **prod.yaml**: ✗ false: would keep

            `condition is-preview`:
            ```
            object.metadata.labels.env == 'preview'  →  "prod" == "preview"  →  false
              object.metadata.labels.env  →  "prod"
            ```
    "#]],
    );
}

/// pkg/image/verification/evaluator/policy.go `Evaluate`: the images the policy selects, then its
/// validations as a ValidatingPolicy's.
const IMAGES: &str = r#"
# admission-ls: object=tagged.yaml object=untagged.yaml
apiVersion: policies.kyverno.io/v1
kind: ImageValidatingPolicy
metadata:
  name: tagged
spec:
  validationActions: [Deny]
  validationConfigurations:
    verifyDigest: false
    required: false
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [pods]
  matchImageReferences:
  - expression: "ref.startsWith('registry.example/')"
  validations:
  - expression: "images.containers.all(i, i.contains(':'))"
    message: every image needs a tag
  - expression: "size(images.containers) < 3"

#- tagged.yaml
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop}
spec:
  containers:
  - {name: app, image: "registry.example/app:1.2"}
  - {name: other, image: "docker.io/other"}

#- untagged.yaml
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop}
spec:
  containers:
  - {name: app, image: "registry.example/app"}
"#;

#[test]
fn a_kyverno_image_validating_policy_shows_each_validation() {
    check(
        IMAGES,
        false,
        expect![[r#"
        1:# admission-ls: object=tagged.yaml object=untagged.yaml| tagged.yaml: ✓ allow  ·  untagged.yaml: ✗ deny: every image needs a tag
        20:  - expression: "images.containers.all(i, i.contains(':'))"| tagged.yaml: ✓ allow  ·  untagged.yaml: ✗ deny: every image needs a tag
        22:  - expression: "size(images.containers) < 3"| tagged.yaml: ✓ allow
    "#]],
    );
}

/// A GeneratingPolicy's verdict is at the modeline: what it generates, with the traces of its
/// matchConditions, variables and generate expressions as the tooltip.
const GENERATING: &str = r#"
# admission-ls: object=ns.yaml
apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: quota
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [namespaces]
  variables:
  - name: name
    expression: "object.metadata.name + '-quota'"
  generate:
  - expression: >-
      generator.Apply(object.metadata.name, [{"apiVersion": dyn("v1"), "kind": dyn("ResourceQuota"),
      "metadata": dyn({"name": variables.name})}])

#- ns.yaml
apiVersion: v1
kind: Namespace
metadata: {name: team-a}
"#;

#[test]
fn a_kyverno_generating_policy_shows_what_it_generates_at_the_modeline() {
    check(
        GENERATING,
        true,
        expect![[r#"
            1:# admission-ls: object=ns.yaml| ns.yaml: ✓ allow, generates ResourceQuota/team-a-quota
                **ns.yaml**: GeneratingPolicy `quota`: ✓ allow, generates ResourceQuota/team-a-quota

                message: policy evaluated successfully

                `variables.name`:
                ```
                object.metadata.name + '-quota'  →  "team-a" + "-quota"  →  "team-a-quota"
                  object.metadata.name  →  "team-a"
                ```

                `generate[0]`:
                ```
                generator.Apply(object.metadata.name, [{"apiVersion": dyn("v1"), "kind": dyn("ResourceQuota"), "metadata": dyn({"name": …  →  true
                  object.metadata.name  →  "team-a"
                  [{"apiVersion": dyn("v1"), "kind": dyn("ResourceQuota"), "metadata": dyn({"name": variables.name})}]  →  [{"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "team-a-quot…
                    {"apiVersion": dyn("v1"), "kind": dyn("ResourceQuota"), "metadata": dyn({"name": variables.name})}  →  {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "team-a-quota…
                      dyn("v1")  →  "v1"
                      dyn("ResourceQuota")  →  "ResourceQuota"
                      dyn({"name": variables.name})  →  {"name": "team-a-quota"}
                        {"name": variables.name}  →  {"name": "team-a-quota"}
                          variables.name  →  "team-a-quota"
                ```
        "#]],
    );
}
