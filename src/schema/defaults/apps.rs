//! `apps/v1` defaulting: `pkg/apis/apps/v1/defaults.go` (`SetDefaults_Deployment`,
//! `SetDefaults_DaemonSet`, `SetDefaults_StatefulSet`, `SetDefaults_ReplicaSet`), then the pod
//! template (and a StatefulSet's volume claim templates) as `zz_generated.defaults.go` walks them.
//!
//! Version-dependent: a StatefulSet's `rollingUpdate.maxUnavailable` defaults to 1 from 1.35
//! (`MaxUnavailableStatefulSet`, beta and on by default from 1.35 in `pkg/features/kube_features.go`).
//! `persistentVolumeClaimRetentionPolicy` (`StatefulSetAutoDeletePVC`, on by default since 1.27, GA
//! in 1.32) is defaulted in every bundled version.

use super::core::{PERSISTENT_VOLUME_CLAIM, POD_SPEC};
use super::engine::{Cond, Shape, Step, TypeDef, V, When, nil, walk, zero};

const DEPLOYMENT_SOURCE: &str = "pkg/apis/apps/v1/defaults.go SetDefaults_Deployment";
const DAEMON_SET_SOURCE: &str = "pkg/apis/apps/v1/defaults.go SetDefaults_DaemonSet";
const STATEFUL_SET_SOURCE: &str = "pkg/apis/apps/v1/defaults.go SetDefaults_StatefulSet";

pub(super) static DEPLOYMENT: TypeDef = TypeDef {
    name: "Deployment",
    steps: &[
        nil("spec.replicas", V::Int(1), DEPLOYMENT_SOURCE),
        zero(
            "spec.strategy.type",
            V::Str("RollingUpdate"),
            DEPLOYMENT_SOURCE,
        ),
        Step::If {
            cond: Cond::Equals("spec.strategy.type", V::Str("RollingUpdate")),
            then: &[
                nil(
                    "spec.strategy.rollingUpdate",
                    V::EmptyObject,
                    DEPLOYMENT_SOURCE,
                ),
                nil(
                    "spec.strategy.rollingUpdate.maxUnavailable",
                    V::Str("25%"),
                    DEPLOYMENT_SOURCE,
                ),
                nil(
                    "spec.strategy.rollingUpdate.maxSurge",
                    V::Str("25%"),
                    DEPLOYMENT_SOURCE,
                ),
            ],
        },
        nil("spec.revisionHistoryLimit", V::Int(10), DEPLOYMENT_SOURCE),
        nil(
            "spec.progressDeadlineSeconds",
            V::Int(600),
            DEPLOYMENT_SOURCE,
        ),
        walk("spec.template.spec", Shape::Struct, &POD_SPEC),
    ],
};

pub(super) static DAEMON_SET: TypeDef = TypeDef {
    name: "DaemonSet",
    steps: &[
        zero(
            "spec.updateStrategy.type",
            V::Str("RollingUpdate"),
            DAEMON_SET_SOURCE,
        ),
        Step::If {
            cond: Cond::Equals("spec.updateStrategy.type", V::Str("RollingUpdate")),
            then: &[
                nil(
                    "spec.updateStrategy.rollingUpdate",
                    V::EmptyObject,
                    DAEMON_SET_SOURCE,
                ),
                nil(
                    "spec.updateStrategy.rollingUpdate.maxUnavailable",
                    V::Int(1),
                    DAEMON_SET_SOURCE,
                ),
                nil(
                    "spec.updateStrategy.rollingUpdate.maxSurge",
                    V::Int(0),
                    DAEMON_SET_SOURCE,
                ),
            ],
        },
        nil("spec.revisionHistoryLimit", V::Int(10), DAEMON_SET_SOURCE),
        walk("spec.template.spec", Shape::Struct, &POD_SPEC),
    ],
};

pub(super) static STATEFUL_SET: TypeDef = TypeDef {
    name: "StatefulSet",
    steps: &[
        zero(
            "spec.podManagementPolicy",
            V::Str("OrderedReady"),
            STATEFUL_SET_SOURCE,
        ),
        Step::If {
            cond: Cond::Unset("spec.updateStrategy.type", When::Zero),
            then: &[
                zero(
                    "spec.updateStrategy.type",
                    V::Str("RollingUpdate"),
                    STATEFUL_SET_SOURCE,
                ),
                nil(
                    "spec.updateStrategy.rollingUpdate",
                    V::EmptyObject,
                    STATEFUL_SET_SOURCE,
                ),
            ],
        },
        Step::If {
            cond: Cond::All(&[
                Cond::Equals("spec.updateStrategy.type", V::Str("RollingUpdate")),
                Cond::Present("spec.updateStrategy.rollingUpdate"),
            ]),
            then: &[
                nil(
                    "spec.updateStrategy.rollingUpdate.partition",
                    V::Int(0),
                    STATEFUL_SET_SOURCE,
                ),
                Step::Since {
                    since: 35,
                    gate: "MaxUnavailableStatefulSet",
                    then: &[nil(
                        "spec.updateStrategy.rollingUpdate.maxUnavailable",
                        V::Int(1),
                        STATEFUL_SET_SOURCE,
                    )],
                },
            ],
        },
        nil(
            "spec.persistentVolumeClaimRetentionPolicy",
            V::EmptyObject,
            STATEFUL_SET_SOURCE,
        ),
        zero(
            "spec.persistentVolumeClaimRetentionPolicy.whenDeleted",
            V::Str("Retain"),
            STATEFUL_SET_SOURCE,
        ),
        zero(
            "spec.persistentVolumeClaimRetentionPolicy.whenScaled",
            V::Str("Retain"),
            STATEFUL_SET_SOURCE,
        ),
        nil("spec.replicas", V::Int(1), STATEFUL_SET_SOURCE),
        nil("spec.revisionHistoryLimit", V::Int(10), STATEFUL_SET_SOURCE),
        walk("spec.template.spec", Shape::Struct, &POD_SPEC),
        walk(
            "spec.volumeClaimTemplates",
            Shape::List,
            &PERSISTENT_VOLUME_CLAIM,
        ),
    ],
};

pub(super) static REPLICA_SET: TypeDef = TypeDef {
    name: "ReplicaSet",
    steps: &[
        nil(
            "spec.replicas",
            V::Int(1),
            "pkg/apis/apps/v1/defaults.go SetDefaults_ReplicaSet",
        ),
        walk("spec.template.spec", Shape::Struct, &POD_SPEC),
    ],
};

/// The kinds of `apps/v1` with defaults.
pub(super) const KINDS: &[(&str, &TypeDef)] = &[
    ("DaemonSet", &DAEMON_SET),
    ("Deployment", &DEPLOYMENT),
    ("ReplicaSet", &REPLICA_SET),
    ("StatefulSet", &STATEFUL_SET),
];
