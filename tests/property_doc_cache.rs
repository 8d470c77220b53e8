//! Reused diagnostics equal fresh ones: random edits to a workspace of two files (characters
//! inserted or deleted anywhere, whole lines removed, kinds swapped, a CRD and a policy added to
//! or removed from the second file, the target version changed) are applied to one long-lived
//! `AnalysisHost`, whose per-document cache is warm, and after every edit the diagnostics of both
//! files equal those of a fresh host given the same files.

use std::sync::Arc;

use admission_ls::ide::{AnalysisHost, Diagnostic, DiagnosticsConfig, FileId, KubeVersion};
use proptest::prelude::*;
use proptest::sample::Index;

const POLICIES: FileId = FileId(0);
const EXTRA: FileId = FileId(1);

const POLICY_FILE: &str = "\
# policies
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: limit}
spec:
  paramKind: {apiVersion: policy.example.com/v1, kind: ReplicaLimit}
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: object.spec.replicas <= params.maxReplicas
    messageExpression: \"'at most ' + string(params.maxReplicas)\"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: limit-binding}
spec:
  policyName: limit
  paramRef: {name: small, namespace: default, parameterNotFoundAction: Deny}
  validationActions: [Deny]
---
apiVersion: policy.example.com/v1
kind: ReplicaLimit
metadata: {name: small, namespace: default}
maxReplicas: 3
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: labels}
spec:
  reinvocationPolicy: Never
  matchConstraints:
    resourceRules:
    - {apiGroups: [\"\"], apiVersions: [v1], operations: [\"*\"], resources: [pods]}
  mutations:
  - patchType: JSONPatch
    jsonPatch: {expression: \"[JSONPatch{op: 'test', path: '/spec', value: object.spec}]\"}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: other-binding}
spec:
  policyName: other
  validationActions: [Warn]
...
# done
";

const CRD: &str = "\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: replicalimits.policy.example.com}
spec:
  group: policy.example.com
  names: {kind: ReplicaLimit, plural: replicalimits}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          maxReplicas: {type: integer}
";

const OTHER_POLICY: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: other}
spec:
  validations:
  - expression: has(object.metadata)
";

/// One change to the workspace.
#[derive(Clone, Debug)]
enum Edit {
    /// Inserts `text` before the character at `at` of the policy file.
    Insert { at: Index, text: &'static str },
    /// Deletes up to `len` characters from the character at `at` of the policy file.
    Delete { at: Index, len: usize },
    /// Deletes the line at `at` of the policy file.
    DeleteLine { at: Index },
    /// Replaces the first occurrence of `from` in the policy file with `to`.
    Replace {
        from: &'static str,
        to: &'static str,
    },
    /// Sets which parts the second file holds, and whether the CRD's field is renamed.
    Extra {
        crd: bool,
        policy: bool,
        renamed: bool,
    },
    /// Changes the target Kubernetes version.
    Version(Option<u32>),
}

fn edit() -> impl Strategy<Value = Edit> {
    let piece = prop::sample::select(vec![
        "a",
        "x",
        ".",
        " ",
        "\n",
        "- ",
        ":",
        "'",
        "\"",
        "#",
        "(",
        "1",
        "---\n",
        "...\n",
        "  ",
        "|+\n",
        "params.",
        "object.",
        "  - expression: y\n",
        "kind: ConfigMap\n",
    ]);
    let swaps = prop::sample::select(vec![
        ("ValidatingAdmissionPolicy\n", "MutatingAdmissionPolicy\n"),
        ("MutatingAdmissionPolicy\n", "ValidatingAdmissionPolicy\n"),
        (
            "ValidatingAdmissionPolicyBinding",
            "MutatingAdmissionPolicyBinding",
        ),
        ("kind: ReplicaLimit}", "kind: ConfigMap}"),
        ("policyName: limit", "policyName: other"),
        ("name: small", "name: large"),
        ("maxReplicas", "maxReplica"),
        ("apps", "batch"),
    ]);
    prop_oneof![
        4 => (any::<Index>(), piece).prop_map(|(at, text)| Edit::Insert { at, text }),
        2 => (any::<Index>(), 1usize..12).prop_map(|(at, len)| Edit::Delete { at, len }),
        1 => any::<Index>().prop_map(|at| Edit::DeleteLine { at }),
        2 => swaps.prop_map(|(from, to)| Edit::Replace { from, to }),
        2 => (any::<bool>(), any::<bool>(), any::<bool>())
            .prop_map(|(crd, policy, renamed)| Edit::Extra { crd, policy, renamed }),
        1 => prop::sample::select(vec![None, Some(30), Some(32), Some(33)]).prop_map(Edit::Version),
    ]
}

/// The workspace being edited.
struct State {
    policies: String,
    extra: String,
    config: DiagnosticsConfig,
}

/// The byte offset of the character `at` picks, the end of the text included.
fn char_offset(text: &str, at: &Index) -> usize {
    let offsets: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    offsets[at.index(offsets.len())]
}

fn extra_file(crd: bool, policy: bool, renamed: bool) -> String {
    let mut text = String::new();
    if crd {
        let crd = if renamed {
            CRD.replace("maxReplicas", "minReplicas")
        } else {
            CRD.to_string()
        };
        text.push_str(&crd);
    }
    if policy {
        if !text.is_empty() {
            text.push_str("---\n");
        }
        text.push_str(OTHER_POLICY);
    }
    text
}

impl State {
    fn apply(&mut self, edit: &Edit) {
        let text = &mut self.policies;
        match edit {
            Edit::Insert { at, text: piece } => {
                let at = char_offset(text, at);
                text.insert_str(at, piece);
            }
            Edit::Delete { at, len } => {
                let start = char_offset(text, at);
                let end = text[start..]
                    .char_indices()
                    .nth(*len)
                    .map_or(text.len(), |(i, _)| start + i);
                text.replace_range(start..end, "");
            }
            Edit::DeleteLine { at } => {
                let at = char_offset(text, at);
                let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
                let end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
                text.replace_range(start..end, "");
            }
            Edit::Replace { from, to } => {
                *text = text.replacen(from, to, 1);
            }
            Edit::Extra {
                crd,
                policy,
                renamed,
            } => self.extra = extra_file(*crd, *policy, *renamed),
            Edit::Version(minor) => {
                self.config.kube_version = minor
                    .map(|m| KubeVersion::from_minor(m).expect("a bundled version"))
                    .unwrap_or_default()
            }
        }
    }

    fn load(&self, host: &mut AnalysisHost) {
        host.set_file(POLICIES, Arc::from(self.policies.as_str()));
        host.set_file(EXTRA, Arc::from(self.extra.as_str()));
    }
}

fn diagnostics(host: &AnalysisHost, config: &DiagnosticsConfig) -> [Vec<Diagnostic>; 2] {
    let analysis = host.snapshot();
    [POLICIES, EXTRA].map(|file| analysis.diagnostics(file, config))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn reused_diagnostics_equal_a_fresh_check(edits in prop::collection::vec(edit(), 1..16)) {
        let mut state = State {
            policies: POLICY_FILE.to_string(),
            extra: extra_file(true, false, false),
            config: DiagnosticsConfig::default(),
        };
        let mut warm = AnalysisHost::new();
        state.load(&mut warm);
        diagnostics(&warm, &state.config);
        for edit in &edits {
            state.apply(edit);
            state.load(&mut warm);
            let mut fresh = AnalysisHost::new();
            state.load(&mut fresh);
            prop_assert_eq!(
                diagnostics(&warm, &state.config),
                diagnostics(&fresh, &state.config),
                "after {:?} the text is\n{}", edit, state.policies
            );
        }
    }
}

/// The starting workspace is not trivially clean: the property compares real diagnostics, and
/// the edits that break or fix references change them.
#[test]
fn the_starting_workspace_has_diagnostics_that_edits_change() {
    let config = DiagnosticsConfig::default();
    let mut host = AnalysisHost::new();
    host.set_file(POLICIES, Arc::from(POLICY_FILE));
    host.set_file(EXTRA, Arc::from(extra_file(true, false, false).as_str()));
    let [before, _] = diagnostics(&host, &config);
    let codes: Vec<&str> = before.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["unresolved-reference"], "{before:?}");
    host.set_file(EXTRA, Arc::from(extra_file(true, true, true).as_str()));
    let [after, _] = diagnostics(&host, &config);
    let codes: Vec<&str> = after.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        ["cel-undefined-field", "cel-undefined-field"],
        "{after:?}"
    );
}
