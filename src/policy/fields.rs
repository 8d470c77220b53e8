//! The field sets of the API types, as data: which keys each object type has and what shape each
//! value must have. The decoder (`decode.rs`) walks a document against these tables to report unknown
//! fields, repeated keys and values of the wrong kind.

/// The shape a field's value must have.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    /// A string scalar.
    String,
    /// An integer scalar.
    Integer,
    /// An object of the given type.
    Object(&'static TypeDef),
    /// A list of objects of the given type.
    ObjectList(&'static TypeDef),
    /// A list of strings.
    StringList,
    /// A map of strings to strings.
    StringMap,
    /// Anything (fields this tool does not model, such as `status` or `managedFields`).
    Any,
}

/// An object type: its Go name (for messages) and its fields.
#[derive(Debug)]
pub struct TypeDef {
    /// The API type's name, e.g. `Validation`.
    pub name: &'static str,
    /// Every field the type has, with its shape.
    pub fields: &'static [(&'static str, Shape)],
}

impl TypeDef {
    /// The shape of `key`, if the type has that field.
    pub fn field(&self, key: &str) -> Option<Shape> {
        self.fields
            .iter()
            .find(|(name, _)| *name == key)
            .map(|(_, shape)| *shape)
    }
}

use Shape::*;

/// `ObjectMeta`; fields set by the server are accepted so that `kubectl get -o yaml` output is clean.
pub static OBJECT_META: TypeDef = TypeDef {
    name: "ObjectMeta",
    fields: &[
        ("name", String),
        ("generateName", String),
        ("namespace", String),
        ("selfLink", String),
        ("uid", String),
        ("resourceVersion", String),
        ("generation", Integer),
        ("creationTimestamp", Any),
        ("deletionTimestamp", Any),
        ("deletionGracePeriodSeconds", Integer),
        ("labels", StringMap),
        ("annotations", StringMap),
        ("ownerReferences", Any),
        ("finalizers", StringList),
        ("managedFields", Any),
    ],
};

/// `ParamKind`.
pub static PARAM_KIND: TypeDef = TypeDef {
    name: "ParamKind",
    fields: &[("apiVersion", String), ("kind", String)],
};

/// `LabelSelector`.
pub static LABEL_SELECTOR: TypeDef = TypeDef {
    name: "LabelSelector",
    fields: &[
        ("matchLabels", StringMap),
        ("matchExpressions", ObjectList(&LABEL_SELECTOR_REQUIREMENT)),
    ],
};

/// `LabelSelectorRequirement`.
pub static LABEL_SELECTOR_REQUIREMENT: TypeDef = TypeDef {
    name: "LabelSelectorRequirement",
    fields: &[
        ("key", String),
        ("operator", String),
        ("values", StringList),
    ],
};

/// `NamedRuleWithOperations`.
pub static NAMED_RULE: TypeDef = TypeDef {
    name: "NamedRuleWithOperations",
    fields: &[
        ("resourceNames", StringList),
        ("operations", StringList),
        ("apiGroups", StringList),
        ("apiVersions", StringList),
        ("resources", StringList),
        ("scope", String),
    ],
};

/// `MatchResources`.
pub static MATCH_RESOURCES: TypeDef = TypeDef {
    name: "MatchResources",
    fields: &[
        ("namespaceSelector", Object(&LABEL_SELECTOR)),
        ("objectSelector", Object(&LABEL_SELECTOR)),
        ("resourceRules", ObjectList(&NAMED_RULE)),
        ("excludeResourceRules", ObjectList(&NAMED_RULE)),
        ("matchPolicy", String),
    ],
};

/// `MatchCondition`.
pub static MATCH_CONDITION: TypeDef = TypeDef {
    name: "MatchCondition",
    fields: &[("name", String), ("expression", String)],
};

/// `Variable`.
pub static VARIABLE: TypeDef = TypeDef {
    name: "Variable",
    fields: &[("name", String), ("expression", String)],
};

/// `Validation`.
pub static VALIDATION: TypeDef = TypeDef {
    name: "Validation",
    fields: &[
        ("expression", String),
        ("message", String),
        ("reason", String),
        ("messageExpression", String),
    ],
};

/// `AuditAnnotation`.
pub static AUDIT_ANNOTATION: TypeDef = TypeDef {
    name: "AuditAnnotation",
    fields: &[("key", String), ("valueExpression", String)],
};

/// `ValidatingAdmissionPolicySpec`.
pub static VAP_SPEC: TypeDef = TypeDef {
    name: "ValidatingAdmissionPolicySpec",
    fields: &[
        ("paramKind", Object(&PARAM_KIND)),
        ("matchConstraints", Object(&MATCH_RESOURCES)),
        ("validations", ObjectList(&VALIDATION)),
        ("failurePolicy", String),
        ("auditAnnotations", ObjectList(&AUDIT_ANNOTATION)),
        ("matchConditions", ObjectList(&MATCH_CONDITION)),
        ("variables", ObjectList(&VARIABLE)),
    ],
};

/// `ParamRef`.
pub static PARAM_REF: TypeDef = TypeDef {
    name: "ParamRef",
    fields: &[
        ("name", String),
        ("namespace", String),
        ("selector", Object(&LABEL_SELECTOR)),
        ("parameterNotFoundAction", String),
    ],
};

/// `ValidatingAdmissionPolicyBindingSpec`.
pub static VAPB_SPEC: TypeDef = TypeDef {
    name: "ValidatingAdmissionPolicyBindingSpec",
    fields: &[
        ("policyName", String),
        ("paramRef", Object(&PARAM_REF)),
        ("matchResources", Object(&MATCH_RESOURCES)),
        ("validationActions", StringList),
    ],
};

/// `ApplyConfiguration`.
pub static APPLY_CONFIGURATION: TypeDef = TypeDef {
    name: "ApplyConfiguration",
    fields: &[("expression", String)],
};

/// `JSONPatch`.
pub static JSON_PATCH: TypeDef = TypeDef {
    name: "JSONPatch",
    fields: &[("expression", String)],
};

/// `Mutation`.
pub static MUTATION: TypeDef = TypeDef {
    name: "Mutation",
    fields: &[
        ("patchType", String),
        ("applyConfiguration", Object(&APPLY_CONFIGURATION)),
        ("jsonPatch", Object(&JSON_PATCH)),
    ],
};

/// `MutatingAdmissionPolicySpec`.
pub static MAP_SPEC: TypeDef = TypeDef {
    name: "MutatingAdmissionPolicySpec",
    fields: &[
        ("paramKind", Object(&PARAM_KIND)),
        ("matchConstraints", Object(&MATCH_RESOURCES)),
        ("variables", ObjectList(&VARIABLE)),
        ("mutations", ObjectList(&MUTATION)),
        ("failurePolicy", String),
        ("matchConditions", ObjectList(&MATCH_CONDITION)),
        ("reinvocationPolicy", String),
    ],
};

/// `MutatingAdmissionPolicyBindingSpec`.
pub static MAPB_SPEC: TypeDef = TypeDef {
    name: "MutatingAdmissionPolicyBindingSpec",
    fields: &[
        ("policyName", String),
        ("paramRef", Object(&PARAM_REF)),
        ("matchResources", Object(&MATCH_RESOURCES)),
    ],
};

/// `ValidatingAdmissionPolicy` (the only kind with a `status`).
pub static VAP: TypeDef = TypeDef {
    name: "ValidatingAdmissionPolicy",
    fields: &[
        ("apiVersion", String),
        ("kind", String),
        ("metadata", Object(&OBJECT_META)),
        ("spec", Object(&VAP_SPEC)),
        ("status", Any),
    ],
};

/// `ValidatingAdmissionPolicyBinding`.
pub static VAPB: TypeDef = TypeDef {
    name: "ValidatingAdmissionPolicyBinding",
    fields: &[
        ("apiVersion", String),
        ("kind", String),
        ("metadata", Object(&OBJECT_META)),
        ("spec", Object(&VAPB_SPEC)),
    ],
};

/// `MutatingAdmissionPolicy`.
pub static MAP: TypeDef = TypeDef {
    name: "MutatingAdmissionPolicy",
    fields: &[
        ("apiVersion", String),
        ("kind", String),
        ("metadata", Object(&OBJECT_META)),
        ("spec", Object(&MAP_SPEC)),
    ],
};

/// `MutatingAdmissionPolicyBinding`.
pub static MAPB: TypeDef = TypeDef {
    name: "MutatingAdmissionPolicyBinding",
    fields: &[
        ("apiVersion", String),
        ("kind", String),
        ("metadata", Object(&OBJECT_META)),
        ("spec", Object(&MAPB_SPEC)),
    ],
};
