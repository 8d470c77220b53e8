//! The HTTP status the API server answers a refused request with, as each dispatcher sets it.

/// Why a request is refused, which decides the status the API server answers with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal<'a> {
    /// A validation was false; its `reason` (empty: the default).
    Denied(&'a str),
    /// An expression or a mutation failed (under `failurePolicy: Fail`).
    Failed,
    /// The binding or its params could not be configured.
    Config,
}

/// The HTTP status of a refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// The code: 422, 403, 401, 413 or 503.
    pub code: u16,
    /// The reason: `Invalid`, `Forbidden`, `Unauthorized`, `RequestEntityTooLarge` or
    /// `ServiceUnavailable`.
    pub reason: String,
}

impl Status {
    /// A validating policy's refusal (`validating/dispatcher.go` `Dispatch`): the decision's
    /// reason, `Invalid` when it has none, and its code (`policy_decision.go` `reasonToCode`).
    pub(crate) fn validating(refusal: Refusal<'_>) -> Status {
        let reason = match refusal {
            Refusal::Denied(r) if !r.is_empty() => r,
            _ => "Invalid",
        };
        let code = match reason {
            "Forbidden" => 403,
            "Unauthorized" => 401,
            "RequestEntityTooLarge" => 413,
            _ => 422,
        };
        Status {
            code,
            reason: reason.to_string(),
        }
    }

    /// A mutating policy's refusal (`generic/policy_dispatcher.go` `Dispatch`): the `403` of
    /// `admission.NewForbidden`, with the policy error's reason (`Invalid` for evaluation errors,
    /// none for configuration errors).
    pub(crate) fn mutating(refusal: Refusal<'_>) -> Status {
        let reason = match refusal {
            Refusal::Config => "Forbidden",
            _ => "Invalid",
        };
        Status {
            code: 403,
            reason: reason.to_string(),
        }
    }
}
