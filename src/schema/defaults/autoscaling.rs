//! `autoscaling/v2` defaulting: `pkg/apis/autoscaling/v2/defaults.go`
//! (`SetDefaults_HorizontalPodAutoscaler`, `SetDefaults_HorizontalPodAutoscalerBehavior`,
//! `GenerateHPAScaleUpRules`, `GenerateHPAScaleDownRules`).

use serde_json::{Map, Value as Json, json};

use super::engine::{Cond, Ctx, Step, TypeDef, V, call, nil, zero};

const SOURCE: &str = "pkg/apis/autoscaling/v2/defaults.go SetDefaults_HorizontalPodAutoscaler";

pub(super) static HORIZONTAL_POD_AUTOSCALER: TypeDef = TypeDef {
    name: "HorizontalPodAutoscaler",
    steps: &[
        nil("spec.minReplicas", V::Int(1), SOURCE),
        zero(
            "spec.metrics",
            V::Json(
                r#"[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":80}}}]"#,
            ),
            "pkg/apis/autoscaling/v2/defaults.go SetDefaults_HorizontalPodAutoscaler (autoscaling.DefaultCPUUtilization)",
        ),
        Step::If {
            cond: Cond::Present("spec.behavior"),
            then: &[call(
                "scaling rules",
                "spec.behavior.scaleUp, spec.behavior.scaleDown",
                behavior,
                "pkg/apis/autoscaling/v2/defaults.go SetDefaults_HorizontalPodAutoscalerBehavior",
            )],
        },
    ],
};

/// The fields `copyHPAScalingRules` takes from the written rules when they are set.
const RULE_FIELDS: &[&str] = &[
    "selectPolicy",
    "stabilizationWindowSeconds",
    "policies",
    "tolerance",
];

/// `SetDefaults_HorizontalPodAutoscalerBehavior`: both directions get the default rules, with the
/// written fields kept (`GenerateHPAScaleUpRules`, `GenerateHPAScaleDownRules`; scale-down has no
/// default stabilization window, the controller's flag decides it).
fn behavior(ctx: &mut Ctx, hpa: &mut Map<String, Json>) {
    let Some(Json::Object(behavior)) = hpa.get_mut("spec").and_then(|s| s.get_mut("behavior"))
    else {
        return;
    };
    let up = json!({
        "selectPolicy": "Max",
        "stabilizationWindowSeconds": 0,
        "policies": [
            {"type": "Pods", "value": 4, "periodSeconds": 15},
            {"type": "Percent", "value": 100, "periodSeconds": 15},
        ],
    });
    let down = json!({
        "selectPolicy": "Max",
        "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}],
    });
    for (direction, defaults) in [("scaleUp", up), ("scaleDown", down)] {
        let written = behavior.get(direction).and_then(Json::as_object).cloned();
        let Json::Object(mut rules) = defaults else {
            continue;
        };
        match written {
            None => ctx.record(&format!("spec.behavior.{direction}")),
            Some(written) => {
                for field in RULE_FIELDS {
                    match written.get(*field) {
                        Some(value) if !value.is_null() => {
                            rules.insert((*field).to_string(), value.clone());
                        }
                        _ if rules.contains_key(*field) => {
                            ctx.record(&format!("spec.behavior.{direction}.{field}"));
                        }
                        _ => {}
                    }
                }
            }
        }
        behavior.insert(direction.to_string(), Json::Object(rules));
    }
}

/// The kinds of `autoscaling/v2` with defaults.
pub(super) const KINDS: &[(&str, &TypeDef)] =
    &[("HorizontalPodAutoscaler", &HORIZONTAL_POD_AUTOSCALER)];
