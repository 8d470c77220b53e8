//! Which texts are worth reading as documents the tool checks: the cheap test a front end applies
//! to a file before parsing it (the server's workspace scan and watched files). The one list is
//! every family's groups (`families::groups`: the built-in admission kinds are families too), so
//! a family's files are found as soon as the family declares its groups.
//!
//! The test is a text search, not a parse: it may take in a file that holds no such document (it
//! is then read for nothing), but must never leave out one that does.

use super::families;

/// The kind of the built-in documents found by kind rather than group: CRDs, whose schemas type the
/// policies of other files (their group, `apiextensions.k8s.io`, also holds kinds we don't read).
pub const CRD_KIND: &str = "CustomResourceDefinition";

/// Every API group whose documents the tool checks: each family's, once (the admission policies
/// and the webhook configurations share theirs).
pub fn marker_groups() -> impl Iterator<Item = &'static str> {
    let mut seen = Vec::new();
    families::groups().filter(move |group| {
        let first = !seen.contains(group);
        seen.push(*group);
        first
    })
}

/// Whether `text` may hold a document the tool checks: it names a CRD, or has an `apiVersion` of
/// one of [`marker_groups`] (`apiVersion: group/…`, the key or value quoted or not, in block or
/// flow style; an annotation key such as `policies.kyverno.io/title` is not one).
pub fn holds_document(text: &str) -> bool {
    text.contains(CRD_KIND) || marker_groups().any(|group| names_api_version_of(text, group))
}

/// Whether `text` has `group/` as the value of an `apiVersion` key.
fn names_api_version_of(text: &str, group: &str) -> bool {
    text.match_indices(group).any(|(at, _)| {
        let after = text.get(at + group.len()..).unwrap_or("");
        let before = text.get(..at).unwrap_or("");
        after.starts_with('/') && follows_api_version_key(before)
    })
}

/// Whether `before` ends with an `apiVersion` key and its colon (`apiVersion: `, `"apiVersion": "`,
/// `'apiVersion': '`), so that the value starts where `before` ends.
fn follows_api_version_key(before: &str) -> bool {
    let quotes = |c: char| c == '"' || c == '\'';
    let value_start = before
        .trim_end_matches([' ', '\t'])
        .trim_end_matches(quotes);
    let Some(key) = value_start.trim_end_matches([' ', '\t']).strip_suffix(':') else {
        return false;
    };
    let key = key.trim_end_matches([' ', '\t']).trim_end_matches(quotes);
    key.strip_suffix("apiVersion").is_some_and(|rest| {
        // The key starts where a key may: a line, a list item, a flow mapping or the next entry.
        let rest = rest.trim_end_matches(quotes).trim_end_matches([' ', '\t']);
        rest.is_empty() || rest.ends_with(['\n', '-', '{', ','])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_group_is_found_in_an_api_version() {
        for group in marker_groups() {
            for text in [
                format!("apiVersion: {group}/v1\nkind: Anything\n"),
                format!("- \"apiVersion\": '{group}/v1beta1'\n"),
                format!("{{\"kind\": \"X\", \"apiVersion\": \"{group}/v1\"}}\n"),
                format!("kind: List\nitems:\n  - {{kind: X,apiVersion: {group}/v1}}\n"),
                format!("---\n# a comment\n  apiVersion:\t{group}/v1\n"),
            ] {
                assert!(holds_document(&text), "{text}");
            }
        }
    }

    #[test]
    fn a_group_anywhere_but_in_an_api_version_is_not_a_marker() {
        for text in [
            "apiVersion: apps/v1\nkind: Deployment\n",
            "apiVersion: example.com/v1\nkind: Widget\nspec: {group: admissionregistration.k8s.io/v1}\n",
            "apiVersion: myadmissionregistration.k8s.io/v1\nkind: Widget\n",
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nrules:\n- apiGroups: [admissionregistration.k8s.io]\n",
            "apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata:\n  annotations:\n    policies.kyverno.io/title: Disallow procMount\n",
            "apiVersion: v1\nkind: ConfigMap\ndata:\n  myapiVersion: policies.kyverno.io/v1\n",
        ] {
            assert!(!holds_document(text), "{text}");
        }
    }

    #[test]
    fn the_admission_group_is_a_marker_once() {
        let admission = marker_groups().filter(|g| *g == "admissionregistration.k8s.io");
        assert_eq!(admission.count(), 1);
        let text =
            "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n";
        assert!(holds_document(text));
    }

    #[test]
    fn a_crd_is_found_by_its_kind() {
        let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n";
        assert!(holds_document(crd));
    }
}
