//! `networking/v1` defaulting: `pkg/apis/networking/v1/defaults.go` (`SetDefaults_NetworkPolicy`,
//! `SetDefaults_NetworkPolicyPort`). Ingress, IngressClass, IPAddress and ServiceCIDR have no
//! defaulters.

use serde_json::{Map, Value as Json};

use super::engine::{Ctx, Shape, TypeDef, V, When, call, get, is_unset, nil, object_at, walk};

static NETWORK_POLICY_PORT: TypeDef = TypeDef {
    name: "NetworkPolicyPort",
    steps: &[nil(
        "protocol",
        V::Str("TCP"),
        "pkg/apis/networking/v1/defaults.go SetDefaults_NetworkPolicyPort",
    )],
};

/// `NetworkPolicyIngressRule` and `NetworkPolicyEgressRule`.
static NETWORK_POLICY_RULE: TypeDef = TypeDef {
    name: "NetworkPolicyRule",
    steps: &[walk("ports", Shape::List, &NETWORK_POLICY_PORT)],
};

pub(super) static NETWORK_POLICY: TypeDef = TypeDef {
    name: "NetworkPolicy",
    steps: &[
        call(
            "policyTypes",
            "spec.policyTypes",
            policy_types,
            "pkg/apis/networking/v1/defaults.go SetDefaults_NetworkPolicy",
        ),
        walk("spec.ingress", Shape::List, &NETWORK_POLICY_RULE),
        walk("spec.egress", Shape::List, &NETWORK_POLICY_RULE),
    ],
};

/// `SetDefaults_NetworkPolicy`: no `policyTypes` means `Ingress`, plus `Egress` when there are
/// egress rules.
fn policy_types(ctx: &mut Ctx, policy: &mut Map<String, Json>) {
    if !is_unset(get(policy, "spec.policyTypes"), When::Zero) {
        return;
    }
    let egress = get(policy, "spec.egress")
        .and_then(Json::as_array)
        .is_some_and(|rules| !rules.is_empty());
    let mut types = vec![Json::from("Ingress")];
    if egress {
        types.push(Json::from("Egress"));
    }
    if let Some(spec) = object_at(policy, "spec") {
        spec.insert("policyTypes".into(), Json::Array(types));
        ctx.record("spec.policyTypes");
    }
}

/// The kinds of `networking/v1` with defaults.
pub(super) const KINDS: &[(&str, &TypeDef)] = &[("NetworkPolicy", &NETWORK_POLICY)];
