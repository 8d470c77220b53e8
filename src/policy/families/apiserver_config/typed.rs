//! The CEL environments of the configuration files, as the API server compiles them (the base
//! environment of the release, StoredExpressions):
//!
//! - `claims` (`map(string, any)`) for claim validation rules and claim mappings, whose result
//!   must be `bool` for a rule and may be anything for a mapping (its type is judged when it runs);
//!   `user` (`kubernetes.UserInfo`: `username`, `uid`, `groups`, `extra`) for user validation
//!   rules, `bool` (`pkg/authentication/cel/compile.go`, `interface.go`);
//! - `request` (`kubernetes.SubjectAccessReviewSpec`: `user`, `groups`, `uid`, `extra`,
//!   `resourceAttributes` with field and label selector attributes, `nonResourceAttributes`) for
//!   a webhook authorizer's match conditions, exactly `bool` (`pkg/authorization/cel/compile.go`).

use std::sync::Arc;

use super::sites::{CLAIM_VALIDATION, MATCH_CONDITION, USER_VALIDATION};
use crate::cel::check::{Env, ObjectTypes};
use crate::cel::types::Type;
use crate::policy::families::{FamilySite, compile_site};
use crate::policy::{Code, Diagnostic};
use crate::text::{TextRange, TextSize};

const USER_INFO: &str = "kubernetes.UserInfo";
const REVIEW_SPEC: &str = "kubernetes.SubjectAccessReviewSpec";
const RESOURCE_ATTRIBUTES: &str = "kubernetes.ResourceAttributes";
const NON_RESOURCE_ATTRIBUTES: &str = "kubernetes.NonResourceAttributes";
const FIELD_SELECTOR: &str = "kubernetes.FieldSelectorAttributes";
const LABEL_SELECTOR: &str = "kubernetes.LabelSelectorAttributes";
const REQUIREMENT: &str = "kubernetes.SelectorRequirement";

/// The environment of a site of `role` for release 1.`minor`.
pub(super) fn env(role: &str, minor: u32) -> Env {
    let mut env = Env::kubernetes(minor, true);
    let mut types = ObjectTypes::new();
    let strings = || Type::list(Type::String);
    let extra = || Type::map(Type::String, Type::list(Type::String));
    match role {
        USER_VALIDATION => {
            for (field, ty) in [
                ("username", Type::String),
                ("uid", Type::String),
                ("groups", strings()),
                ("extra", extra()),
            ] {
                types.add_field(USER_INFO, field, ty, None);
            }
            env.declare(
                "user",
                Type::object(USER_INFO),
                Some("The user the claim mappings derived."),
            );
        }
        MATCH_CONDITION => {
            declare_review_types(&mut types);
            env.declare(
                "request",
                Type::object(REVIEW_SPEC),
                Some("The SubjectAccessReview request the webhook would be sent."),
            );
        }
        _ => env.declare(
            "claims",
            Type::map(Type::String, Type::Dyn),
            Some("The claims of the token, by name."),
        ),
    }
    env.push_provider(Arc::new(types));
    env
}

fn declare_review_types(types: &mut ObjectTypes) {
    let fields: [(&str, Type); 6] = [
        ("resourceAttributes", Type::object(RESOURCE_ATTRIBUTES)),
        (
            "nonResourceAttributes",
            Type::object(NON_RESOURCE_ATTRIBUTES),
        ),
        ("user", Type::String),
        ("groups", Type::list(Type::String)),
        ("extra", Type::map(Type::String, Type::list(Type::String))),
        ("uid", Type::String),
    ];
    for (field, ty) in fields {
        types.add_field(REVIEW_SPEC, field, ty, None);
    }
    for field in [
        "namespace",
        "verb",
        "group",
        "version",
        "resource",
        "subresource",
        "name",
    ] {
        types.add_field(RESOURCE_ATTRIBUTES, field, Type::String, None);
    }
    types.add_field(
        RESOURCE_ATTRIBUTES,
        "fieldSelector",
        Type::object(FIELD_SELECTOR),
        None,
    );
    types.add_field(
        RESOURCE_ATTRIBUTES,
        "labelSelector",
        Type::object(LABEL_SELECTOR),
        None,
    );
    for selector in [FIELD_SELECTOR, LABEL_SELECTOR] {
        types.add_field(selector, "rawSelector", Type::String, None);
        types.add_field(
            selector,
            "requirements",
            Type::list(Type::object(REQUIREMENT)),
            None,
        );
    }
    types.add_field(REQUIREMENT, "key", Type::String, None);
    types.add_field(REQUIREMENT, "operator", Type::String, None);
    types.add_field(REQUIREMENT, "values", Type::list(Type::String), None);
    types.add_field(NON_RESOURCE_ATTRIBUTES, "path", Type::String, None);
    types.add_field(NON_RESOURCE_ATTRIBUTES, "verb", Type::String, None);
}

/// Reports every compile error and result of the wrong type of `sites`.
pub(super) fn check(sites: &[FamilySite], minor: u32, out: &mut Vec<Diagnostic>) {
    for site in sites {
        check_site(site, &env(site.role, minor), out);
    }
}

fn check_site(site: &FamilySite, env: &Env, out: &mut Vec<Diagnostic>) {
    let Some((_, checked)) = compile_site(site, env, out) else {
        return;
    };
    let must_be_bool = matches!(
        site.role,
        CLAIM_VALIDATION | USER_VALIDATION | MATCH_CONDITION
    );
    if !checked.errors.is_empty() || !must_be_bool || checked.result == Type::Bool {
        return;
    }
    if checked.result.is_error() {
        return;
    }
    let reason = if site.role == MATCH_CONDITION {
        format!("must evaluate to bool but got {}", checked.result)
    } else {
        "must evaluate to bool".to_string()
    };
    let whole = site
        .source_map
        .to_file_range(TextRange::up_to(TextSize::of(site.text.as_str())));
    out.push(Diagnostic::new(
        Code::CelResultType,
        whole,
        format!("{}: {reason}", site.path),
    ));
}
