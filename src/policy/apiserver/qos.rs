//! A pod's QoS class as the pod strategy records it on create (`pkg/apis/core/helper/qos/qos.go`,
//! `GetPodQOS` then `ComputePodQOS`): `BestEffort` without CPU or memory requests and limits,
//! `Guaranteed` when every container (init containers included) limits both and the summed
//! requests equal the summed limits, `Burstable` otherwise. From 1.34 (`PodLevelResources`, beta
//! and on by default) a pod with `spec.resources` is classified by those alone.

use serde_json::{Map, Value as Json};

use crate::cel::kube::quantity::{self, Quantity};

/// The resources QoS is computed from (`isSupportedQoSComputeResource`).
const QOS_RESOURCES: &[&str] = &["cpu", "memory"];

/// A resource list's positive CPU and memory quantities; values that do not parse are skipped
/// (the API server would have refused the object).
fn positive(list: Option<&Json>) -> Vec<(String, Quantity)> {
    let Some(Json::Object(list)) = list else {
        return Vec::new();
    };
    list.iter()
        .filter(|(name, _)| QOS_RESOURCES.contains(&name.as_str()))
        .filter_map(|(name, value)| {
            let text = match value {
                Json::String(s) => s.clone(),
                Json::Number(n) => n.to_string(),
                _ => return None,
            };
            let q = quantity::parse(&text).ok()?;
            (q.sign() > 0).then(|| (name.clone(), q))
        })
        .collect()
}

fn accumulate(into: &mut Vec<(String, Quantity)>, items: Vec<(String, Quantity)>) {
    for (name, q) in items {
        match into.iter_mut().find(|(n, _)| *n == name) {
            Some((_, sum)) => {
                if let Ok(total) = sum.add(&q) {
                    *sum = total;
                }
            }
            None => into.push((name, q)),
        }
    }
}

fn has_cpu_and_memory(items: &[(String, Quantity)]) -> bool {
    QOS_RESOURCES
        .iter()
        .all(|r| items.iter().any(|(name, _)| name == r))
}

/// `GetPodQOS`: the recorded class if the pod has one, else `ComputePodQOS`.
pub(super) fn pod_qos(pod: &Map<String, Json>, minor: u32) -> String {
    let recorded = pod
        .get("status")
        .and_then(|s| s.get("qosClass"))
        .and_then(Json::as_str)
        .filter(|c| !c.is_empty());
    if let Some(class) = recorded {
        return class.to_string();
    }
    compute(pod, minor).to_string()
}

fn compute(pod: &Map<String, Json>, minor: u32) -> &'static str {
    let spec = pod.get("spec");
    let mut requests = Vec::new();
    let mut limits = Vec::new();
    let mut guaranteed = true;
    let pod_level = spec
        .and_then(|s| s.get("resources"))
        .filter(|r| r.is_object() && minor >= 34);
    if let Some(resources) = pod_level {
        accumulate(&mut requests, positive(resources.get("requests")));
        let pod_limits = positive(resources.get("limits"));
        let any_limits = resources
            .get("limits")
            .and_then(Json::as_object)
            .is_some_and(|l| !l.is_empty());
        if !any_limits || !has_cpu_and_memory(&pod_limits) {
            guaranteed = false;
        }
        accumulate(&mut limits, pod_limits);
    } else {
        let containers = ["containers", "initContainers"]
            .into_iter()
            .filter_map(|list| spec.and_then(|s| s.get(list)).and_then(Json::as_array))
            .flatten();
        for container in containers {
            let resources = container.get("resources");
            accumulate(
                &mut requests,
                positive(resources.and_then(|r| r.get("requests"))),
            );
            let container_limits = positive(resources.and_then(|r| r.get("limits")));
            if !has_cpu_and_memory(&container_limits) {
                guaranteed = false;
            }
            accumulate(&mut limits, container_limits);
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort";
    }
    if guaranteed {
        guaranteed = requests.iter().all(|(name, request)| {
            limits
                .iter()
                .any(|(n, limit)| n == name && limit.compare(request).is_eq())
        });
    }
    if guaranteed && requests.len() == limits.len() {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn qos(pod: Json) -> String {
        pod_qos(pod.as_object().expect("object"), 37)
    }

    #[test]
    fn classes_follow_compute_pod_qos() {
        let container = |resources: Json| json!({"spec": {"containers": [{"name": "a", "resources": resources}]}});
        assert_eq!(
            qos(json!({"spec": {"containers": [{"name": "a"}]}})),
            "BestEffort"
        );
        assert_eq!(
            qos(container(
                json!({"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "1000m", "memory": "1Gi"}})
            )),
            "Guaranteed"
        );
        assert_eq!(
            qos(container(
                json!({"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "500m", "memory": "1Gi"}})
            )),
            "Burstable"
        );
        assert_eq!(
            qos(container(
                json!({"limits": {"cpu": "1"}, "requests": {"cpu": "1"}})
            )),
            "Burstable"
        );
        // Other resources do not count.
        assert_eq!(
            qos(container(json!({"limits": {"nvidia.com/gpu": 1}}))),
            "BestEffort"
        );
    }

    #[test]
    fn a_recorded_class_is_kept() {
        assert_eq!(
            qos(
                json!({"spec": {"containers": [{"name": "a"}]}, "status": {"qosClass": "Guaranteed"}})
            ),
            "Guaranteed"
        );
    }
}
