//! Which family claims a document: each document of a built-in or family kind is claimed by
//! exactly one registered family, so the checker, the editor features and `eval` ask one
//! family about it, whatever the order of `FAMILIES`.

use super::{FAMILIES, Family, crd_rules, kubernetes, kyverno, webhooks};

/// The root of the only document of `text`.
fn root(text: &str) -> crate::yaml::Node {
    let file = crate::yaml::parse(text);
    let document = file.documents.into_iter().next();
    document
        .and_then(|d| d.root)
        .expect("the test text has a document")
}

/// How many registered families claim the document of `text`, and whether `family` does.
fn claimed_by(text: &str, family: &dyn Family) -> (usize, bool) {
    let root = root(text);
    let count = FAMILIES.iter().filter(|f| f.claims_root(&root)).count();
    (count, family.claims_root(&root))
}

#[test]
fn admission_policies_and_bindings_are_the_kubernetes_family() {
    for (version, kind) in [
        ("v1", "ValidatingAdmissionPolicy"),
        ("v1", "ValidatingAdmissionPolicyBinding"),
        ("v1beta1", "MutatingAdmissionPolicy"),
        ("v1alpha1", "MutatingAdmissionPolicyBinding"),
    ] {
        let text = format!("apiVersion: admissionregistration.k8s.io/{version}\nkind: {kind}\n");
        assert_eq!(
            claimed_by(&text, &kubernetes::Kubernetes),
            (1, true),
            "{kind}"
        );
    }
}

#[test]
fn an_unserved_version_of_an_admission_kind_is_claimed_by_no_family() {
    let text = "apiVersion: admissionregistration.k8s.io/v2\nkind: ValidatingAdmissionPolicy\n";
    assert_eq!(claimed_by(text, &kubernetes::Kubernetes), (0, false));
}

#[test]
fn webhook_configurations_are_the_webhooks_family() {
    for kind in [
        "ValidatingWebhookConfiguration",
        "MutatingWebhookConfiguration",
    ] {
        let text = format!("apiVersion: admissionregistration.k8s.io/v1\nkind: {kind}\n");
        assert_eq!(claimed_by(&text, &webhooks::Webhooks), (1, true), "{kind}");
    }
}

#[test]
fn a_crd_is_the_crd_rules_family_even_without_api_version() {
    for text in [
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n",
        "kind: CustomResourceDefinition\n",
    ] {
        assert_eq!(claimed_by(text, &crd_rules::CrdRules), (1, true), "{text}");
    }
}

#[test]
fn kyverno_keeps_its_own_kinds_named_like_the_built_ins() {
    let text = "apiVersion: policies.kyverno.io/v1\nkind: ValidatingPolicy\n";
    assert_eq!(claimed_by(text, &kyverno::Kyverno), (1, true));
}

#[test]
fn only_families_with_their_own_verdicts_are_evaluated_as_families() {
    assert!(kyverno::Kyverno.evaluates());
    for family in [
        &kubernetes::Kubernetes as &dyn Family,
        &crd_rules::CrdRules,
        &webhooks::Webhooks,
    ] {
        assert!(!family.evaluates());
    }
}

/// What `eval` runs a file against is the evaluating families' answer: device selectors before
/// an authentication configuration, a request for everything else (and for the documents a
/// family claims but does not evaluate).
#[test]
fn what_a_file_is_evaluated_against() {
    use super::{EvaluatedAgainst as Against, evaluated_against};
    let class = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n";
    let authn = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\n";
    let authz = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n";
    let kyverno = "apiVersion: policies.kyverno.io/v1\nkind: ValidatingPolicy\n";
    let cases = [
        (class.to_string(), Against::ResourceSlices),
        (authn.to_string(), Against::TokenClaims),
        (format!("{authn}---\n{class}"), Against::ResourceSlices),
        (authz.to_string(), Against::Request),
        (kyverno.to_string(), Against::Request),
        (format!("{kyverno}---\n{authn}"), Against::TokenClaims),
        ("kind: DeviceClass\n".to_string(), Against::Request),
    ];
    for (text, against) in cases {
        assert_eq!(evaluated_against(&text), against, "{text}");
    }
}

/// The families whose suites list a suite in `text`, with the formats they list.
fn suite_listers(text: &str) -> Vec<(usize, crate::policy::suite::Format)> {
    let file = crate::yaml::parse(text);
    FAMILIES
        .iter()
        .enumerate()
        .filter_map(|(index, family)| Some((index, family.suites()?)))
        .flat_map(|(index, suites)| {
            suites
                .items("suite.yaml", text, &file)
                .into_iter()
                .map(move |item| (index, item.format))
        })
        .collect()
}

/// The index of `family` in `FAMILIES`.
fn position(family: &dyn Family) -> Option<usize> {
    let groups = family.groups();
    FAMILIES.iter().position(|f| f.groups() == groups)
}

#[test]
fn each_suite_format_is_listed_by_its_family_alone() {
    use crate::policy::suite::Format;
    let cases: [(&str, &dyn Family, Format); 4] = [
        (
            "apiVersion: admission-ls.dev/v1alpha1\nkind: PolicyTest\nmetadata: {name: t}\ncases: []\n",
            &kubernetes::Kubernetes,
            Format::PolicyTest,
        ),
        (
            "version: v1alpha1\npolicies: [p.yaml]\nresources: [r.yaml]\nvapTestSuites: []\n",
            &kubernetes::Kubernetes,
            Format::Kaptest,
        ),
        (
            "apiVersion: test.gatekeeper.sh/v1alpha1\nkind: Suite\ntests: []\n",
            &super::gatekeeper::Gatekeeper,
            Format::Gator,
        ),
        (
            "apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\nmetadata: {name: t}\nresults: []\n",
            &kyverno::Kyverno,
            Format::KyvernoTest,
        ),
    ];
    for (text, family, format) in cases {
        assert_eq!(
            suite_listers(text),
            vec![(position(family).expect("registered"), format)],
            "{format:?}"
        );
    }
}

#[test]
fn a_policy_is_no_family_s_suite() {
    let text = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n";
    assert_eq!(suite_listers(text), Vec::new());
}
