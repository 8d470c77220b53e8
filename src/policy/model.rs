//! The policy model: the four admission kinds with typed fields read from the YAML tree. Every field
//! keeps the range of its key and of its value, so diagnostics and later features (hover, go to
//! definition) can point at the exact characters. Absent and `null` fields are `None`.

use crate::text::TextRange;
use crate::yaml::{ScalarStyle, SourceMap};

/// The `admissionregistration.k8s.io` version a document is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ApiVersion {
    /// `v1alpha1`
    V1alpha1,
    /// `v1beta1`
    V1beta1,
    /// `v1`
    V1,
}

/// Which of the four kinds a document is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PolicyKind {
    /// `ValidatingAdmissionPolicy`
    ValidatingPolicy,
    /// `ValidatingAdmissionPolicyBinding`
    ValidatingBinding,
    /// `MutatingAdmissionPolicy`
    MutatingPolicy,
    /// `MutatingAdmissionPolicyBinding`
    MutatingBinding,
}

impl ApiVersion {
    /// The version as written after the group (`v1beta1`).
    pub fn as_str(self) -> &'static str {
        match self {
            ApiVersion::V1alpha1 => "v1alpha1",
            ApiVersion::V1beta1 => "v1beta1",
            ApiVersion::V1 => "v1",
        }
    }
}

impl PolicyKind {
    /// The four kinds.
    pub const ALL: [PolicyKind; 4] = [
        PolicyKind::ValidatingPolicy,
        PolicyKind::ValidatingBinding,
        PolicyKind::MutatingPolicy,
        PolicyKind::MutatingBinding,
    ];

    /// The kind a `kind:` value names, if it is one of the four.
    pub fn from_name(name: &str) -> Option<PolicyKind> {
        PolicyKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether it is a policy (not a binding).
    pub fn is_policy(self) -> bool {
        matches!(
            self,
            PolicyKind::ValidatingPolicy | PolicyKind::MutatingPolicy
        )
    }

    /// Whether it is one of the mutating kinds.
    pub fn is_mutating(self) -> bool {
        matches!(
            self,
            PolicyKind::MutatingPolicy | PolicyKind::MutatingBinding
        )
    }

    /// The kind of the bindings of this kind's policies.
    pub fn binding(self) -> PolicyKind {
        if self.is_mutating() {
            PolicyKind::MutatingBinding
        } else {
            PolicyKind::ValidatingBinding
        }
    }

    /// The kind of the policies this kind's bindings bind.
    pub fn policy(self) -> PolicyKind {
        if self.is_mutating() {
            PolicyKind::MutatingPolicy
        } else {
            PolicyKind::ValidatingPolicy
        }
    }

    /// The `kind:` value.
    pub fn name(self) -> &'static str {
        match self {
            PolicyKind::ValidatingPolicy => "ValidatingAdmissionPolicy",
            PolicyKind::ValidatingBinding => "ValidatingAdmissionPolicyBinding",
            PolicyKind::MutatingPolicy => "MutatingAdmissionPolicy",
            PolicyKind::MutatingBinding => "MutatingAdmissionPolicyBinding",
        }
    }
}

/// A field as written: the range of its key and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field<T> {
    /// The key's range.
    pub key: TextRange,
    /// The value.
    pub value: T,
}

/// A value that knows where it is in the file.
pub trait Ranged {
    /// The value's range (may be empty for a missing value).
    fn range(&self) -> TextRange;
}

impl<T: Ranged> Field<T> {
    /// Where to report a problem with the value: the value, or the key when the value is empty.
    pub fn report_range(&self) -> TextRange {
        let range = self.value.range();
        if range.is_empty() { self.key } else { range }
    }
}

/// A scalar read as a string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    /// The scalar's range in the file (quotes and block header included).
    pub range: TextRange,
    /// The decoded value.
    pub value: String,
    /// Decoded offsets → file offsets.
    pub source_map: SourceMap,
    /// How the scalar was written.
    pub style: ScalarStyle,
}

/// A sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct List<T> {
    /// The sequence's range.
    pub range: TextRange,
    /// The items in order.
    pub items: Vec<T>,
}

/// A map of strings to strings (labels, `matchLabels`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StringMap {
    /// The mapping's range.
    pub range: TextRange,
    /// Keys and values in file order.
    pub entries: Vec<(Text, Text)>,
}

macro_rules! ranged {
    ($($ty:ty),* $(,)?) => { $(impl Ranged for $ty { fn range(&self) -> TextRange { self.range } })* };
}

impl<T> Ranged for List<T> {
    fn range(&self) -> TextRange {
        self.range
    }
}

/// Shorthand for an optional field.
pub type Opt<T> = Option<Field<T>>;

/// What every struct read from a mapping has: its range and where to report its missing fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The mapping's range.
    pub range: TextRange,
    /// Where a missing required child is reported: the parent key, or the list item.
    pub anchor: TextRange,
}

/// `metadata`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metadata {
    /// Where it is.
    pub place: Place,
    /// `metadata.name`.
    pub name: Opt<Text>,
    /// `metadata.generateName`.
    pub generate_name: Opt<Text>,
    /// `metadata.labels`.
    pub labels: Opt<StringMap>,
    /// `metadata.annotations`.
    pub annotations: Opt<StringMap>,
}

/// `paramKind`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamKind {
    /// Where it is.
    pub place: Place,
    /// `apiVersion`.
    pub api_version: Opt<Text>,
    /// `kind`.
    pub kind: Opt<Text>,
}

/// A label selector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selector {
    /// Where it is.
    pub place: Place,
    /// `matchLabels`.
    pub match_labels: Opt<StringMap>,
    /// `matchExpressions`.
    pub match_expressions: Opt<List<Requirement>>,
}

/// One `matchExpressions` item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirement {
    /// Where it is.
    pub place: Place,
    /// `key`.
    pub key: Opt<Text>,
    /// `operator`.
    pub operator: Opt<Text>,
    /// `values`.
    pub values: Opt<List<Text>>,
}

/// `matchConstraints` / `matchResources`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResources {
    /// Where it is.
    pub place: Place,
    /// `namespaceSelector`.
    pub namespace_selector: Opt<Selector>,
    /// `objectSelector`.
    pub object_selector: Opt<Selector>,
    /// `resourceRules`.
    pub resource_rules: Opt<List<NamedRule>>,
    /// `excludeResourceRules`.
    pub exclude_resource_rules: Opt<List<NamedRule>>,
    /// `matchPolicy`.
    pub match_policy: Opt<Text>,
}

/// A `NamedRuleWithOperations`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedRule {
    /// Where it is.
    pub place: Place,
    /// `resourceNames`.
    pub resource_names: Opt<List<Text>>,
    /// `operations`.
    pub operations: Opt<List<Text>>,
    /// `apiGroups`.
    pub api_groups: Opt<List<Text>>,
    /// `apiVersions`.
    pub api_versions: Opt<List<Text>>,
    /// `resources`.
    pub resources: Opt<List<Text>>,
    /// `scope`.
    pub scope: Opt<Text>,
}

/// A `matchConditions` item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchCondition {
    /// Where it is.
    pub place: Place,
    /// `name`.
    pub name: Opt<Text>,
    /// `expression`.
    pub expression: Opt<Text>,
}

/// A `variables` item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// Where it is.
    pub place: Place,
    /// `name`.
    pub name: Opt<Text>,
    /// `expression`.
    pub expression: Opt<Text>,
}

ranged!(Text, StringMap);

macro_rules! placed {
    ($($ty:ty),* $(,)?) => { $(impl Ranged for $ty { fn range(&self) -> TextRange { self.place.range } })* };
}

placed!(
    Metadata,
    ParamKind,
    Selector,
    Requirement,
    MatchResources,
    NamedRule,
    MatchCondition,
    Variable
);
pub(crate) use placed;
