//! `batch/v1` defaulting: `pkg/apis/batch/v1/defaults.go` (`SetDefaults_Job`, `SetDefaults_CronJob`,
//! `SetDefaults_PodFailurePolicyOnPodConditionsPattern`), then the pod template as
//! `zz_generated.defaults.go` walks it.
//!
//! Version-dependent: in a CronJob's job template, `podFailurePolicy.rules[].onPodConditions[]
//! .status` defaults to `True` from 1.34 (kubernetes/kubernetes#131525 moved the rule from
//! `SetDefaults_Job` to its own type defaulter; a Job had it before). `podReplacementPolicy`
//! (`JobPodReplacementPolicy`, on by default since 1.29, GA in 1.34) is defaulted in every bundled
//! version.

use serde_json::{Map, Value as Json};

use super::core::{POD_SPEC, copy_labels_to_metadata};
use super::engine::{Cond, Ctx, Shape, Step, TypeDef, V, When, call, get, nil, walk, zero};

const JOB_SOURCE: &str = "pkg/apis/batch/v1/defaults.go SetDefaults_Job";
const CRON_JOB_SOURCE: &str = "pkg/apis/batch/v1/defaults.go SetDefaults_CronJob";

static ON_POD_CONDITIONS_PATTERN: TypeDef = TypeDef {
    name: "PodFailurePolicyOnPodConditionsPattern",
    steps: &[zero(
        "status",
        V::Str("True"),
        "pkg/apis/batch/v1/defaults.go SetDefaults_PodFailurePolicyOnPodConditionsPattern",
    )],
};

static POD_FAILURE_POLICY_RULE: TypeDef = TypeDef {
    name: "PodFailurePolicyRule",
    steps: &[walk(
        "onPodConditions",
        Shape::List,
        &ON_POD_CONDITIONS_PATTERN,
    )],
};

static POD_FAILURE_POLICY: TypeDef = TypeDef {
    name: "PodFailurePolicy",
    steps: &[walk("rules", Shape::List, &POD_FAILURE_POLICY_RULE)],
};

pub(super) static JOB: TypeDef = TypeDef {
    name: "Job",
    steps: &[
        Step::If {
            cond: Cond::All(&[
                Cond::Unset("spec.completions", When::Nil),
                Cond::Unset("spec.parallelism", When::Nil),
            ]),
            then: &[
                nil("spec.completions", V::Int(1), JOB_SOURCE),
                nil("spec.parallelism", V::Int(1), JOB_SOURCE),
            ],
        },
        nil("spec.parallelism", V::Int(1), JOB_SOURCE),
        Step::If {
            cond: Cond::Present("spec.backoffLimitPerIndex"),
            then: &[nil("spec.backoffLimit", V::Int(2_147_483_647), JOB_SOURCE)],
        },
        nil("spec.backoffLimit", V::Int(6), JOB_SOURCE),
        call(
            "labels from the template",
            "metadata.labels",
            job_labels,
            JOB_SOURCE,
        ),
        nil("spec.completionMode", V::Str("NonIndexed"), JOB_SOURCE),
        nil("spec.suspend", V::Bool(false), JOB_SOURCE),
        Step::If {
            cond: Cond::Present("spec.podFailurePolicy"),
            then: &[nil(
                "spec.podReplacementPolicy",
                V::Str("Failed"),
                JOB_SOURCE,
            )],
        },
        nil(
            "spec.podReplacementPolicy",
            V::Str("TerminatingOrFailed"),
            JOB_SOURCE,
        ),
        nil("spec.manualSelector", V::Bool(false), JOB_SOURCE),
        walk("spec.podFailurePolicy", Shape::Pointer, &POD_FAILURE_POLICY),
        walk("spec.template.spec", Shape::Struct, &POD_SPEC),
    ],
};

pub(super) static CRON_JOB: TypeDef = TypeDef {
    name: "CronJob",
    steps: &[
        zero("spec.concurrencyPolicy", V::Str("Allow"), CRON_JOB_SOURCE),
        nil("spec.suspend", V::Bool(false), CRON_JOB_SOURCE),
        nil(
            "spec.successfulJobsHistoryLimit",
            V::Int(3),
            CRON_JOB_SOURCE,
        ),
        nil("spec.failedJobsHistoryLimit", V::Int(1), CRON_JOB_SOURCE),
        Step::Since {
            since: 34,
            gate: "kubernetes/kubernetes#131525",
            then: &[walk(
                "spec.jobTemplate.spec.podFailurePolicy",
                Shape::Pointer,
                &POD_FAILURE_POLICY,
            )],
        },
        walk(
            "spec.jobTemplate.spec.template.spec",
            Shape::Struct,
            &POD_SPEC,
        ),
    ],
};

/// `SetDefaults_Job`: a Job without labels takes its template's labels.
fn job_labels(ctx: &mut Ctx, job: &mut Map<String, Json>) {
    let Some(Json::Object(labels)) = get(job, "spec.template.metadata.labels").cloned() else {
        return;
    };
    if !labels.is_empty() {
        copy_labels_to_metadata(ctx, job, labels);
    }
}

/// The kinds of `batch/v1` with defaults.
pub(super) const KINDS: &[(&str, &TypeDef)] = &[("CronJob", &CRON_JOB), ("Job", &JOB)];
