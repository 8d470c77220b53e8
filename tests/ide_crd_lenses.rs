//! The validate lenses: "Validate against CRD <name>" on each custom resource a workspace CRD
//! serves (its `apiVersion` group and a `served: true` version, and its `kind`, as the API server
//! routes a request to a CRD: apiextensions-apiserver `pkg/apiserver/customresource_handler.go`
//! looks the CRD up by group and resource and refuses versions not served), and "Validate N custom
//! resources in the workspace" on each CRD. Fixtures: `#- /path` headers split the workspace's
//! files; the lenses of every file are shown as `path:line title arguments`.

use std::sync::Arc;

use admission_ls::ide::crd_lenses::{WorkspaceFile, crd_lenses};
use admission_ls::ide::lenses::lenses;
use admission_ls::ide::validate::{FilesRequest, validate_files};
use admission_ls::ide::{AnalysisHost, FileId, KubeVersion};
use expect_test::{Expect, expect};

/// The files of a fixture, split at `#- /path` headers.
fn files(fixture: &str) -> Vec<WorkspaceFile> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in fixture.split_inclusive('\n') {
        if let Some(path) = line.strip_prefix("#- ") {
            out.push((path.trim().to_owned(), String::new()));
        } else if let Some((_, text)) = out.last_mut() {
            text.push_str(line);
        }
    }
    out.into_iter().map(|(p, t)| (p, Arc::from(t))).collect()
}

#[track_caller]
fn check(fixture: &str, expect: Expect) {
    let workspace = files(fixture);
    let mut actual = String::new();
    for (path, text) in &workspace {
        let mut all = lenses(path, text);
        all.extend(crd_lenses(path, text, &workspace));
        all.sort_by_key(|l| l.range.start());
        for lens in all {
            let start = usize::from(lens.range.start()).min(text.len());
            let line = text[..start].matches('\n').count() + 1;
            actual.push_str(&format!(
                "{path}:{line} {} {}\n",
                lens.title, lens.arguments
            ));
        }
    }
    expect.assert_eq(&actual);
}

const CRD: &str = "\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
  - {name: v0, served: false, storage: false, schema: {openAPIV3Schema: {type: object}}}
";

#[test]
fn custom_resources_of_a_served_version_get_a_lens_and_the_crd_counts_them() {
    let fixture = format!(
        "#- /crds/widgets.yaml\n{CRD}#- /apps/widgets.yaml\n\
         apiVersion: example.com/v1\nkind: Widget\nmetadata: {{name: a}}\n---\n\
         apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: not-a-widget}}\n---\n\
         apiVersion: example.com/v1\nkind: Widget\nmetadata: {{name: b}}\n\
         #- /apps/old.yaml\napiVersion: example.com/v0\nkind: Widget\nmetadata: {{name: unserved}}\n\
         ---\napiVersion: other.example.com/v1\nkind: Widget\nmetadata: {{name: other-group}}\n"
    );
    check(
        &fixture,
        expect![[r#"
            /crds/widgets.yaml:1 Validate 2 custom resources in the workspace {"crd":"widgets.example.com","crds":["/crds/widgets.yaml"],"objects":["/apps/widgets.yaml"],"path":"/crds/widgets.yaml"}
            /apps/widgets.yaml:1 Validate against CRD widgets.example.com {"crd":"widgets.example.com","crds":["/crds/widgets.yaml"],"document":0,"path":"/apps/widgets.yaml"}
            /apps/widgets.yaml:9 Validate against CRD widgets.example.com {"crd":"widgets.example.com","crds":["/crds/widgets.yaml"],"document":2,"path":"/apps/widgets.yaml"}
        "#]],
    );
}

#[test]
fn a_crd_without_custom_resources_offers_zero_and_a_crd_in_the_same_file_serves_its_neighbours() {
    let fixture = format!(
        "#- /all.yaml\n{CRD}---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {{name: here}}\n\
         #- /gadgets.yaml\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n\
         metadata: {{name: gadgets.example.com}}\nspec:\n  group: example.com\n  \
         names: {{kind: Gadget, plural: gadgets}}\n  scope: Cluster\n  versions:\n  \
         - {{name: v1, served: true, storage: true}}\n"
    );
    check(
        &fixture,
        expect![[r#"
            /all.yaml:1 Validate 1 custom resource in the workspace {"crd":"widgets.example.com","crds":["/all.yaml"],"objects":["/all.yaml"],"path":"/all.yaml"}
            /all.yaml:12 Validate against CRD widgets.example.com {"crd":"widgets.example.com","crds":["/all.yaml"],"document":1,"path":"/all.yaml"}
            /gadgets.yaml:1 Validate 0 custom resources in the workspace {"crd":"gadgets.example.com","crds":["/gadgets.yaml"],"objects":[],"path":"/gadgets.yaml"}
        "#]],
    );
}

#[test]
fn policies_keep_their_evaluate_lens_beside_the_validate_lenses() {
    let fixture = format!(
        "#- /crd.yaml\n{CRD}#- /policy.yaml\napiVersion: admissionregistration.k8s.io/v1\n\
         kind: MutatingAdmissionPolicy\nmetadata: {{name: m}}\n---\n\
         apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\n\
         metadata: {{name: not-a-policy}}\n"
    );
    check(
        &fixture,
        expect![[r#"
            /crd.yaml:1 Validate 0 custom resources in the workspace {"crd":"widgets.example.com","crds":["/crd.yaml"],"objects":[],"path":"/crd.yaml"}
            /policy.yaml:1 Evaluate m… {"path":"/policy.yaml","policy":"m"}
        "#]],
    );
}

/// `served: "yes"` is a string (quoted), so v2 is not served; a plain `yes` would be true, as
/// go-yaml v2 resolves it for kubectl.
#[test]
fn only_named_crds_and_versions_served_as_true_count_and_broken_yaml_does_not_panic() {
    let fixture = "#- /bad.yaml\nkind: CustomResourceDefinition\nspec: [not, a, map]\n---\n\
         kind: CustomResourceDefinition\nspec: {group: g, names: {kind: K}, versions: [{name: v1, served: true}]}\n---\n\
         kind: CustomResourceDefinition\nmetadata: {name: k.g}\nspec: {group: g, names: {kind: K}, versions: [{name: v1, served: true}, {name: v2, served: \"yes\"}]}\n---\n\
         apiVersion: /\nkind: K\n---\napiVersion: g/v1\nkind: K\nmetadata: {name: [x]}\n---\napiVersion: g/v2\nkind: K\n---\n[unclosed\n";
    check(
        fixture,
        expect![[r#"
            /bad.yaml:7 Validate 1 custom resource in the workspace {"crd":"k.g","crds":["/bad.yaml"],"objects":["/bad.yaml"],"path":"/bad.yaml"}
            /bad.yaml:14 Validate against CRD k.g {"crd":"k.g","crds":["/bad.yaml"],"document":4,"path":"/bad.yaml"}
        "#]],
    );
}

#[test]
fn the_lens_of_a_custom_resource_served_by_two_crds_names_the_one_in_its_own_file() {
    let fixture = format!(
        "#- /b.yaml\n{CRD}#- /a.yaml\n{CRD}---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {{name: w}}\n"
    );
    check(
        &fixture,
        expect![[r#"
            /b.yaml:1 Validate 1 custom resource in the workspace {"crd":"widgets.example.com","crds":["/b.yaml"],"objects":["/a.yaml"],"path":"/b.yaml"}
            /a.yaml:1 Validate 1 custom resource in the workspace {"crd":"widgets.example.com","crds":["/a.yaml"],"objects":["/a.yaml"],"path":"/a.yaml"}
            /a.yaml:12 Validate against CRD widgets.example.com {"crd":"widgets.example.com","crds":["/a.yaml"],"document":1,"path":"/a.yaml"}
        "#]],
    );
}

/// The arguments of a lens, run as the command runs them (files read from the fixture).
fn run_lens(workspace: &[WorkspaceFile], arguments: &serde_json::Value) -> serde_json::Value {
    let text_of = |p: &serde_json::Value| {
        let path = p.as_str().unwrap_or("");
        let file = workspace.iter().find(|(q, _)| q == path);
        (
            path.to_owned(),
            file.map_or(String::new(), |(_, t)| t.to_string()),
        )
    };
    let list = |key: &str| -> Vec<(String, String)> {
        match arguments[key].as_array() {
            Some(items) => items.iter().map(text_of).collect(),
            None => vec![text_of(&arguments["path"])],
        }
    };
    let request = FilesRequest {
        crds: list("crds"),
        crd: arguments["crd"].as_str().map(str::to_owned),
        objects: list("objects"),
        document: arguments["document"].as_u64().map(|d| d as usize),
        kube_version: KubeVersion::default(),
    };
    let parsed_here = validate_files(&request).unwrap_or_else(serde_json::Value::String);
    // The editor's command reads the files of its analysis from their shared trees: same report.
    let mut host = AnalysisHost::new();
    let mut files = Vec::new();
    for (id, (path, text)) in (0u32..).zip(workspace) {
        host.set_file(FileId(id), text.clone());
        files.push((path.clone(), FileId(id)));
    }
    let shared = host.snapshot().validate_files(&request, &files);
    assert_eq!(
        shared.unwrap_or_else(serde_json::Value::String),
        parsed_here
    );
    parsed_here
}

#[test]
fn each_lens_validates_what_it_names() {
    let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n\
        metadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  \
        names: {kind: Widget, plural: widgets}\n  scope: Cluster\n  versions:\n  \
        - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        \
        type: object\n        properties:\n          size: {type: integer, maximum: 3}\n";
    let fixture = format!(
        "#- /crd.yaml\n{crd}#- /w.yaml\napiVersion: example.com/v1\nkind: Widget\nmetadata: {{name: ok}}\nsize: 1\n\
         ---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: skipped}}\n\
         ---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {{name: big}}\nsize: 9\n"
    );
    let workspace = files(&fixture);
    let mut actual = String::new();
    for (path, text) in &workspace {
        for lens in crd_lenses(path, text, &workspace) {
            let answer = run_lens(&workspace, &lens.arguments);
            let verdicts: Vec<String> = answer["reports"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|r| {
                    format!(
                        "{}#{} {}: {}",
                        r["path"], r["document"], r["name"], r["errors"]
                    )
                })
                .collect();
            actual.push_str(&format!(
                "{}\n  {}\n  {}\n",
                lens.title,
                answer["summary"],
                verdicts.join("\n  ")
            ));
        }
    }
    expect![[r##"
        Validate 2 custom resources in the workspace
          {"invalid":1,"objects":2,"valid":1}
          "/w.yaml"#0 "ok": []
          "/w.yaml"#2 "big": [{"field":"size","message":"size: Invalid value: 9: size in body should be less than or equal to 3","type":"FieldValueInvalid"}]
        Validate against CRD widgets.example.com
          {"invalid":0,"objects":1,"valid":1}
          "/w.yaml"#0 "ok": []
        Validate against CRD widgets.example.com
          {"invalid":1,"objects":1,"valid":0}
          "/w.yaml"#2 "big": [{"field":"size","message":"size: Invalid value: 9: size in body should be less than or equal to 3","type":"FieldValueInvalid"}]
    "##]]
    .assert_eq(&actual);
}
