//! The workspace side of the typed check through the `ide` API: CRDs of one file type the
//! policies of another (as matched kind and as paramKind), a changed CRD changes the next
//! snapshot's diagnostics, bindings resolve across files, and hostile CRDs get a diagnostic on
//! their own file without stopping the rest.

use admission_ls::ide::{AnalysisHost, Diagnostic, DiagnosticsConfig, FileId};

fn crd(property: &str) -> String {
    format!(
        "\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: widgets.example.com}}
spec:
  group: example.com
  names: {{kind: Widget, plural: widgets}}
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
              {property}: {{type: integer}}
"
    )
}

const POLICY: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: widgets}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}
  validations:
  - expression: object.spec.size <= 10
";

const BINDING: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: widgets}
spec:
  policyName: widgets
  validationActions: [Deny]
";

fn messages(diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.code.as_str(), d.message))
        .collect()
}

#[test]
fn a_crd_types_a_policy_in_another_file_and_edits_recheck_it() {
    let config = DiagnosticsConfig::default();
    let mut host = AnalysisHost::new();
    host.set_file(FileId(0), crd("size").into());
    host.set_file(FileId(1), POLICY.into());
    host.set_file(FileId(2), BINDING.into());
    let analysis = host.snapshot();
    assert_eq!(
        messages(&analysis.diagnostics(FileId(1), &config)),
        Vec::<String>::new()
    );
    assert_eq!(
        messages(&analysis.diagnostics(FileId(2), &config)),
        Vec::<String>::new()
    );

    host.set_file(FileId(0), crd("count").into());
    let analysis = host.snapshot();
    assert_eq!(
        messages(&analysis.diagnostics(FileId(1), &config)),
        vec![
            "cel-undefined-field: spec.validations[0].expression: undefined field 'size' (in example.com/v1, Kind=Widget)"
                .to_string()
        ]
    );

    host.remove_file(FileId(1));
    let analysis = host.snapshot();
    assert_eq!(
        messages(&analysis.diagnostics(FileId(2), &config)),
        vec![
            "unresolved-reference: spec.policyName: no ValidatingAdmissionPolicy named 'widgets' in the workspace"
                .to_string()
        ]
    );
}

fn deep_schema(depth: usize) -> String {
    let mut schema = String::from("{type: integer}");
    for _ in 0..depth {
        schema = format!("{{type: object, properties: {{a: {schema}}}}}");
    }
    schema
}

#[test]
fn hostile_crds_are_reported_and_the_rest_keeps_working() {
    let config = DiagnosticsConfig::default();
    let huge_enum: Vec<String> = (0..20_000).map(|i| format!("v{i}")).collect();
    let hostile = [
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: a.example.com}}\nspec:\n  group: example.com\n  names: {{kind: A, plural: as}}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {}\n",
            deep_schema(200)
        ),
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: b.example.com}}\nspec:\n  group: example.com\n  names: {{kind: B, plural: bs}}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {{type: object, properties: {{spec: {{type: string, enum: [{}]}}}}}}\n",
            huge_enum.join(", ")
        ),
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {group: example.com, versions: 7}\n".to_string(),
    ];
    let mut host = AnalysisHost::new();
    for (i, text) in hostile.iter().enumerate() {
        host.set_file(FileId(i as u32), text.as_str().into());
    }
    let policy = POLICY.replace("widgets]", "as, bs]");
    host.set_file(FileId(10), policy.into());
    let analysis = host.snapshot();
    for (i, text) in hostile.iter().enumerate() {
        // Whatever each file says, it says it without panicking and within the file.
        for d in analysis.diagnostics(FileId(i as u32), &config) {
            assert!(usize::from(d.range.end()) <= text.len());
        }
    }
    let broken = analysis.diagnostics(FileId(2), &config);
    assert!(
        broken
            .iter()
            .any(|d| d.code.as_str() == "invalid"
                && d.message.starts_with("CustomResourceDefinition")),
        "{broken:?}"
    );
    // The policy is still checked against the kinds that could be read.
    // The CRD of `as` cannot be read, so its rule resource matches nothing in the workspace.
    let policy = messages(&analysis.diagnostics(FileId(10), &config));
    let (unmatched, typed): (Vec<_>, Vec<_>) = policy
        .iter()
        .partition(|m| m.starts_with("unresolved-reference"));
    assert!(typed.iter().all(|m| m.starts_with("cel-")), "{policy:?}");
    assert!(
        unmatched.len() == 1
            && unmatched[0]
                .contains("no CustomResourceDefinition in the checked files serves 'as'"),
        "{policy:?}"
    );
}

#[test]
fn files_checked_together_resolve_each_other() {
    use admission_ls::ide::diagnostics_for_files;
    let files = [POLICY.into(), BINDING.into()];
    let schemas = [crd("size").into()];
    let config = DiagnosticsConfig::default();
    let together = diagnostics_for_files(&files, &schemas, &config);
    assert_eq!(together.len(), 2);
    assert!(together.iter().all(Vec::is_empty), "{together:?}");
    // Without the schema file the Widget kind is unknown: nothing to type, no error either.
    let alone = diagnostics_for_files(&files[1..], &[], &config);
    assert_eq!(
        messages(&alone[0]),
        vec![
            "unresolved-reference: spec.policyName: no ValidatingAdmissionPolicy named 'widgets' in the workspace"
                .to_string()
        ]
    );
}

/// `Workspace::param_objects`: the objects of a paramKind across files, with the file number the
/// host gave each file and the range of `metadata.name` (what go-to-definition lands on).
#[test]
fn param_objects_know_their_file_and_name_range() {
    let params = "\
apiVersion: v1
kind: ConfigMap
metadata: {name: limits, namespace: policies}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
";
    let more = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: quotas
";
    let mut host = AnalysisHost::new();
    host.set_file(FileId(3), POLICY.into());
    host.set_file(FileId(5), params.into());
    host.set_file(FileId(7), more.into());
    let workspace = host.snapshot().workspace();
    let texts = [(5, params), (7, more)];
    let gvk = admission_ls::schema::Gvk::new("", "v1", "ConfigMap");
    let found: Vec<String> = workspace
        .param_objects(&gvk)
        .iter()
        .map(|o| {
            let text = texts.iter().find(|(f, _)| *f == o.file).map_or("", |t| t.1);
            let name = &text[o.name_range.start().into()..o.name_range.end().into()];
            format!("{} {:?} in file {}: {name}", o.name, o.namespace, o.file)
        })
        .collect();
    assert_eq!(
        found,
        [
            "limits Some(\"policies\") in file 5: limits",
            "quotas None in file 7: quotas"
        ]
    );
}

/// `Workspace::param_objects_named`: what a `paramRef` names — the name, and the namespace only
/// when the `paramRef` gives one.
#[test]
fn param_objects_named_match_name_and_namespace() {
    let params = "\
apiVersion: v1
kind: ConfigMap
metadata: {name: limits, namespace: team-a}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: limits, namespace: team-b}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: quotas, namespace: team-a}
";
    let mut host = AnalysisHost::new();
    host.set_file(FileId(2), params.into());
    let workspace = host.snapshot().workspace();
    let gvk = admission_ls::schema::Gvk::new("", "v1", "ConfigMap");
    let named = |name: &str, namespace: Option<&str>| -> Vec<String> {
        workspace
            .param_objects_named(&gvk, name, namespace)
            .iter()
            .map(|o| format!("{} {:?} in file {}", o.name, o.namespace, o.file))
            .collect()
    };
    assert_eq!(
        named("limits", None),
        [
            "limits Some(\"team-a\") in file 2",
            "limits Some(\"team-b\") in file 2"
        ]
    );
    assert_eq!(
        named("limits", Some("team-b")),
        ["limits Some(\"team-b\") in file 2"]
    );
    assert!(named("limits", Some("team-c")).is_empty());
    assert!(named("other", None).is_empty());
}
