//! The libraries of the Kubernetes CEL environment and the Kubernetes versions that bring and drop
//! them (`apiserver: pkg/cel/environment/base.go`), and the pure function that
//! picks the set for a target version and environment.

use std::fmt;

/// One library (or environment option with declarations) of the admission CEL environment.
///
/// Declarations are tagged with the library that first declares them; a later version of a library
/// [`provides`](Library::provides) the declarations of the earlier ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Library {
    /// The CEL standard library: operators, conversions, `size`, string and time functions, macros.
    Standard,
    /// `CrossTypeNumericComparisons(true)`: `<`, `<=`, `>`, `>=` across int, uint and double.
    CrossTypeNumericComparisons,
    /// `OptionalTypes()` as vendored by Kubernetes 1.28 (cel-go v0.16, optional library version 0).
    Optional,
    /// Optional library version 1 (`optFlatMap`), vendored from Kubernetes 1.29 (cel-go v0.17).
    OptionalV1,
    /// Optional library version 2 (`first`, `last`, `optional.unwrap`, `unwrapOpt`), vendored from
    /// Kubernetes 1.33 (cel-go v0.23).
    OptionalV2,
    /// `ext.Strings` version 0.
    StringsV0,
    /// `ext.Strings` version 1 (adds `format` and `strings.quote`); never enabled alone by Kubernetes.
    StringsV1,
    /// `ext.Strings` version 2 (same declarations as version 1; `join` reimplemented).
    StringsV2,
    /// `ext.Sets`.
    Sets,
    /// `ext.Lists` version 3.
    ExtListsV3,
    /// `ext.TwoVarComprehensions`.
    TwoVarComprehensions,
    /// Kubernetes lists library, version 0 (`kubernetes.lists`).
    KubeListsV0,
    /// Kubernetes lists library, version 1 (adds `includes`).
    KubeListsV1,
    /// Kubernetes regex library (`find`, `findAll`).
    Regex,
    /// Kubernetes URLs library.
    Urls,
    /// Kubernetes authorizer library.
    Authz,
    /// Kubernetes authorizer selectors (`fieldSelector`, `labelSelector`).
    AuthzSelectors,
    /// Kubernetes quantity library.
    Quantity,
    /// Kubernetes IP address library.
    Ip,
    /// Kubernetes CIDR library.
    Cidr,
    /// Kubernetes named-format library.
    Format,
    /// Kubernetes semver library, version 1 (with the `normalize` overloads).
    SemverV1,
    /// `jsonpatch.escapeKey`: MutatingAdmissionPolicy mutation expressions only.
    JsonPatch,
}

/// How a library's availability is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    /// An environment option with `IntroducedVersion`/`RemovedVersion`, compared with the
    /// compatibility version in NewExpressions and the binary version in StoredExpressions.
    Option,
    /// A version of a library enabled by another option, decided by the cel-go that the binary
    /// vendors: present in both environments from the binary version on, when its parent is.
    Vendored(Library),
    /// Declared with `IntroducedVersion` 1.0 by a feature that itself appeared in a later binary
    /// (`jsonpatch.escapeKey` with MutatingAdmissionPolicy, 1.32): present in both environments from
    /// that binary version on.
    Binary,
}

impl Library {
    /// Every library, in declaration order.
    pub const ALL: [Library; 23] = [
        Library::Standard,
        Library::CrossTypeNumericComparisons,
        Library::Optional,
        Library::OptionalV1,
        Library::OptionalV2,
        Library::StringsV0,
        Library::StringsV1,
        Library::StringsV2,
        Library::Sets,
        Library::ExtListsV3,
        Library::TwoVarComprehensions,
        Library::KubeListsV0,
        Library::KubeListsV1,
        Library::Regex,
        Library::Urls,
        Library::Authz,
        Library::AuthzSelectors,
        Library::Quantity,
        Library::Ip,
        Library::Cidr,
        Library::Format,
        Library::SemverV1,
        Library::JsonPatch,
    ];

    /// Name as the upstream sources spell it.
    pub fn name(self) -> &'static str {
        match self {
            Library::Standard => "cel standard library",
            Library::CrossTypeNumericComparisons => "cel cross-type numeric comparisons",
            Library::Optional => "cel optional types v0",
            Library::OptionalV1 => "cel optional types v1",
            Library::OptionalV2 => "cel optional types v2",
            Library::StringsV0 => "ext.Strings v0",
            Library::StringsV1 => "ext.Strings v1",
            Library::StringsV2 => "ext.Strings v2",
            Library::Sets => "ext.Sets",
            Library::ExtListsV3 => "ext.Lists v3",
            Library::TwoVarComprehensions => "ext.TwoVarComprehensions",
            Library::KubeListsV0 => "kubernetes.lists v0",
            Library::KubeListsV1 => "kubernetes.lists v1",
            Library::Regex => "kubernetes.regex",
            Library::Urls => "kubernetes.urls",
            Library::Authz => "kubernetes.authz",
            Library::AuthzSelectors => "kubernetes.authzSelectors",
            Library::Quantity => "kubernetes.quantity",
            Library::Ip => "kubernetes.net.ip",
            Library::Cidr => "kubernetes.net.cidr",
            Library::Format => "kubernetes.format",
            Library::SemverV1 => "kubernetes.Semver v1",
            Library::JsonPatch => "kubernetes.jsonpatch",
        }
    }

    /// Kubernetes minor version (1.x) that introduced the library; 0 means "always" (1.0).
    /// `None` for a library Kubernetes never enables on its own.
    pub fn introduced(self) -> Option<u32> {
        Some(match self {
            Library::Standard | Library::StringsV0 | Library::KubeListsV0 => 0,
            Library::Regex | Library::Urls => 0,
            Library::Authz => 27,
            Library::CrossTypeNumericComparisons | Library::Optional | Library::Quantity => 28,
            Library::OptionalV1 | Library::StringsV2 | Library::Sets => 29,
            Library::Ip | Library::Cidr => 30,
            Library::Format | Library::AuthzSelectors => 31,
            Library::TwoVarComprehensions | Library::JsonPatch => 32,
            Library::OptionalV2 | Library::SemverV1 => 33,
            Library::ExtListsV3 => 34,
            Library::KubeListsV1 => 37,
            Library::StringsV1 => return None,
        })
    }

    /// Kubernetes minor version that removed the library (replaced by a later version of it).
    pub fn removed(self) -> Option<u32> {
        match self {
            Library::StringsV0 => Some(29),
            Library::KubeListsV0 => Some(37),
            _ => None,
        }
    }

    /// How availability is decided (see [`Gate`]).
    pub fn gate(self) -> Gate {
        match self {
            Library::OptionalV1 | Library::OptionalV2 => Gate::Vendored(Library::Optional),
            Library::JsonPatch => Gate::Binary,
            _ => Gate::Option,
        }
    }

    /// Whether enabling `self` makes the declarations tagged `tagged` available.
    pub fn provides(self, tagged: Library) -> bool {
        use Library::*;
        self == tagged
            || matches!(
                (self, tagged),
                (StringsV1, StringsV0)
                    | (StringsV2, StringsV0 | StringsV1)
                    | (KubeListsV1, KubeListsV0)
                    | (OptionalV1 | OptionalV2, Optional)
                    | (OptionalV2, OptionalV1)
            )
    }

    /// Whether the library is only declared for MutatingAdmissionPolicy mutation expressions.
    pub fn mutation_only(self) -> bool {
        self == Library::JsonPatch
    }
}

impl fmt::Display for Library {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The compatibility version that a binary of Kubernetes 1.`kube_minor` uses for new and changed
/// expressions: 1.28 → 1.27, 1.29 → 1.28, 1.30 → 1.29 (hard-coded in those release branches), and
/// binary − 1 from 1.31 on (the default `MinCompatibilityVersion`). Releases before 1.28 had no
/// versioned environment, so everything the binary has is accepted.
pub fn compatibility_version(kube_minor: u32) -> u32 {
    if kube_minor >= 28 {
        kube_minor - 1
    } else {
        kube_minor
    }
}

fn option_enabled(library: Library, version: u32) -> bool {
    match library.introduced() {
        Some(introduced) => {
            introduced <= version && library.removed().is_none_or(|removed| version < removed)
        }
        None => false,
    }
}

/// The libraries of the admission environment of Kubernetes 1.`kube_minor`.
///
/// `stored == false` is the NewExpressions environment (what the API server accepts when an
/// expression is added or changed: options introduced at or before the compatibility version and
/// not removed by it); `stored == true` is StoredExpressions (runtime, unchanged expressions and the
/// status type checker: everything the binary has and has not removed). Feature gates are taken at
/// their defaults, so AuthzSelectors (gate off in 1.31) is accepted in new expressions from 1.32.
/// [`Library::JsonPatch`] is included from 1.32 on in both environments (MutatingAdmissionPolicy
/// declares it with version 1.0); callers drop it outside MAP mutations ([`Library::mutation_only`]).
pub fn libraries_for(kube_minor: u32, stored: bool) -> Vec<Library> {
    let version = if stored {
        kube_minor
    } else {
        compatibility_version(kube_minor)
    };
    let mut out = Vec::new();
    for library in Library::ALL {
        let enabled = match library.gate() {
            Gate::Option => option_enabled(library, version),
            Gate::Vendored(parent) => {
                out.contains(&parent) && library.introduced().is_some_and(|v| v <= kube_minor)
            }
            Gate::Binary => library.introduced().is_some_and(|v| v <= kube_minor),
        };
        if enabled {
            out.push(library);
        }
    }
    out
}
