//! `policy/v1` defaulting: none. `pkg/apis/policy/v1/doc.go` enables `defaulter-gen`, but the
//! package has no `SetDefaults_*` function and `k8s.io/api/policy/v1/types.go` no `+default=`
//! marker, so the generated `RegisterDefaults` registers nothing for PodDisruptionBudget or
//! Eviction.

use super::engine::TypeDef;

/// The kinds of `policy/v1` with defaults.
pub(super) const KINDS: &[(&str, &TypeDef)] = &[];
