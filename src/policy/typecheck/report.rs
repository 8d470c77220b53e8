//! Checker results → diagnostics at the exact characters of the file: each [`CheckErrorKind`]
//! maps to its code, each span goes through the site's source map, and the result-type rule
//! underlines the whole expression.

use super::super::sites::{ExpressionSite, ResultType, SiteRole};
use super::super::{Code, Diagnostic};
use crate::cel::check::{CheckError, CheckErrorKind, Checked, result_type_error};
use crate::cel::types::{JSON_PATCH, OBJECT, Type};
use crate::text::{TextRange, TextSize};

/// The diagnostic code of a checker error.
pub fn code(kind: CheckErrorKind) -> Code {
    match kind {
        CheckErrorKind::Undeclared => Code::CelUndeclared,
        CheckErrorKind::UndefinedField => Code::CelUndefinedField,
        CheckErrorKind::NoOverload => Code::CelNoOverload,
        CheckErrorKind::Type => Code::CelType,
        CheckErrorKind::Version => Code::CelVersion,
    }
}

/// The message of a checker error: the field path, cel-go's wording, the suggestion, `suffix`.
pub fn message(site: &ExpressionSite, error: &CheckError, suffix: &str) -> String {
    let mut text = format!("{}: {}", site.path, error.message);
    if let Some(name) = &error.suggestion
        && !text.contains("did you mean")
    {
        text.push_str(&format!("; did you mean '{name}'?"));
    }
    text.push_str(suffix);
    text
}

/// A diagnostic for one checker error of `site`.
pub fn diagnostic(site: &ExpressionSite, error: &CheckError, suffix: &str) -> Diagnostic {
    let range = site.to_file_range(error.span);
    Diagnostic::new(code(error.kind), range, message(site, error, suffix))
}

/// The types a site's result may have; empty for "anything".
fn expected(result: ResultType) -> Vec<Type> {
    match result {
        ResultType::Bool => vec![Type::Bool],
        ResultType::String => vec![Type::String],
        ResultType::StringOrNull => vec![Type::String, Type::Null],
        ResultType::Any => Vec::new(),
        ResultType::Object => vec![Type::object(OBJECT)],
        ResultType::JsonPatchList => vec![Type::list(Type::object(JSON_PATCH))],
    }
}

/// The `cel-result-type` diagnostic of a site whose checked type is not the one its field needs.
pub fn result_type(site: &ExpressionSite, checked: &Checked) -> Option<Diagnostic> {
    let message = result_type_error(checked, &expected(site.result))?;
    let end = TextSize::from(u32::try_from(site.text.len()).unwrap_or(0));
    let range = site.to_file_range(TextRange::new(TextSize::from(0), end));
    Some(Diagnostic::new(
        Code::CelResultType,
        range,
        format!("{}: {message}", site.path),
    ))
}

/// `; a null … does not remove the field …` for a typed-check error of an apply configuration that
/// gives a field `null`: users expect server-side apply to drop the field, but the API server
/// fails the mutation (see [`crate::policy::admission`]'s merge), so the error says so.
pub fn null_field_hint(site: &ExpressionSite, error: &CheckError) -> String {
    let null_field = site.role == SiteRole::ApplyConfiguration
        && error.kind == CheckErrorKind::Type
        && error.message.ends_with("provided type is 'null'");
    if !null_field {
        return String::new();
    }
    "; a null in an apply configuration does not remove the field: the API server fails the mutation (a JSON Patch `remove` removes a field)".to_string()
}

/// ` (in a and b and c)`: the kinds an error was found for (joined with `and`, because each
/// label has a comma of its own: `apps/v1, Kind=Deployment`).
pub fn kinds_suffix(labels: &[String]) -> String {
    if labels.is_empty() {
        return String::new();
    }
    format!(" (in {})", labels.join(" and "))
}
