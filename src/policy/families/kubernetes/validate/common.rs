//! Rules shared by several kinds: metadata, `paramKind`, `matchConditions` and `variables`.

use super::{items, str_of, text_range};
use crate::policy::model::*;
use crate::policy::model_kinds::*;
use crate::policy::names;
use crate::policy::report::Report;
use crate::text::{TextRange, TextSize};
use std::collections::BTreeSet;

const MAX_MATCH_CONDITIONS: usize = 64;

/// `metadata`: the name, and labels and annotations as `ValidateObjectMeta` checks them.
pub(super) fn metadata(header: &Header, report: &mut Report) {
    name(header, report);
    let Some(meta) = &header.metadata else { return };
    if let Some(labels) = &meta.value.labels {
        super::selector::labels(&labels.value, "metadata.labels", report);
    }
    for (key, _) in meta.value.annotations.iter().flat_map(|a| &a.value.entries) {
        // Annotation keys are compared case-insensitively: the rule applies to the lower-cased key.
        for message in names::qualified_name(&key.value.to_lowercase()) {
            report.invalid(key.range, "metadata.annotations", &key.value, &message);
        }
    }
}

/// `metadata.name`: required (unless `generateName` is set), a DNS-1123 subdomain.
fn name(header: &Header, report: &mut Report) {
    let meta = header.metadata.as_ref();
    let name = meta
        .and_then(|m| m.value.name.as_ref())
        .filter(|n| !n.value.value.is_empty());
    let Some(name) = name else {
        let generated = meta.and_then(|m| m.value.generate_name.as_ref());
        if generated.is_none_or(|g| g.value.value.is_empty()) {
            let anchor = header.metadata_key.unwrap_or(header.kind_range);
            report.required(anchor, "metadata.name", "name or generateName is required");
        }
        return;
    };
    for message in names::dns1123_subdomain(&name.value.value) {
        report.invalid(
            name.report_range(),
            "metadata.name",
            &name.value.value,
            &message,
        );
    }
}

/// `paramKind`: an API version (`group/version`) and a kind.
pub(super) fn param_kind(param_kind: &Field<ParamKind>, path: &str, report: &mut Report) {
    let pk = &param_kind.value;
    let api_path = format!("{path}.apiVersion");
    match pk
        .api_version
        .as_ref()
        .filter(|a| !a.value.value.is_empty())
    {
        None => report.required(text_range(&pk.api_version, pk.place.anchor), &api_path, ""),
        Some(api) => group_version(&api.value, &api_path, report),
    }
    let kind_path = format!("{path}.kind");
    match pk.kind.as_ref().filter(|k| !k.value.value.is_empty()) {
        None => report.required(text_range(&pk.kind, pk.place.anchor), &kind_path, ""),
        Some(kind) => {
            let errors = names::dns1035_label(&kind.value.value.to_lowercase());
            if !errors.is_empty() {
                let detail = format!(
                    "may have mixed case, but should otherwise match: {}",
                    errors.join(",")
                );
                report.invalid(kind.report_range(), &kind_path, &kind.value.value, &detail);
            }
        }
    }
}

/// `group/version`; a bad group or version is reported at its own characters.
fn group_version(api: &Text, path: &str, report: &mut Report) {
    let value = api.value.as_str();
    let (group, version) = match value.matches('/').count() {
        _ if value == "/" => ("", ""),
        0 => ("", value),
        1 => value.split_once('/').unwrap_or(("", value)),
        _ => {
            let detail = format!("unexpected GroupVersion string: {value}");
            return report.invalid(api.range, path, value, &detail);
        }
    };
    if !group.is_empty() {
        let errors = names::dns1123_subdomain(group);
        if !errors.is_empty() {
            report.invalid(
                part_range(api, 0, group.len()),
                path,
                group,
                &errors.join(","),
            );
        }
    }
    if version.is_empty() {
        report.invalid(api.range, path, value, "version must be specified");
    } else {
        let errors = names::dns1035_label(version);
        if !errors.is_empty() {
            let range = part_range(api, value.len() - version.len(), value.len());
            report.invalid(range, path, version, &errors.join(","));
        }
    }
}

/// The file range of bytes `start..end` of a scalar's decoded value.
fn part_range(text: &Text, start: usize, end: usize) -> TextRange {
    let to_size = |at: usize| TextSize::from(u32::try_from(at).unwrap_or(0));
    text.source_map
        .to_file_range(TextRange::new(to_size(start), to_size(end)))
}

/// `matchConditions` (at `path`: `spec.matchConditions`, `webhooks[0].matchConditions`): at
/// most 64, each named (qualified name, unique) with an expression.
pub(crate) fn match_conditions(list: &Opt<List<MatchCondition>>, path: &str, report: &mut Report) {
    let conditions = items(list);
    if let Some(field) = list
        .as_ref()
        .filter(|_| conditions.len() > MAX_MATCH_CONDITIONS)
    {
        report.too_many(
            field.report_range(),
            path,
            conditions.len(),
            MAX_MATCH_CONDITIONS,
        );
    }
    let list_path = path;
    let mut seen = BTreeSet::new();
    for (i, condition) in conditions.iter().enumerate() {
        let path = format!("{list_path}[{i}]");
        let anchor = condition.place.anchor;
        if str_of(&condition.expression).trim().is_empty() {
            report.required(
                text_range(&condition.expression, anchor),
                &format!("{path}.expression"),
                "",
            );
        }
        let name = str_of(&condition.name);
        let name_range = text_range(&condition.name, anchor);
        if name.is_empty() {
            report.required(name_range, &format!("{path}.name"), "");
            continue;
        }
        for message in names::qualified_name(name) {
            report.invalid(name_range, &format!("{path}.name"), name, &message);
        }
        if !seen.insert(name) {
            report.duplicate(name_range, &format!("{path}.name"), name, "");
        }
    }
}

/// `variables`: each a CEL identifier with an expression; names unique.
pub(super) fn variables(list: &Opt<List<Variable>>, report: &mut Report) {
    let mut seen = BTreeSet::new();
    for (i, variable) in items(list).iter().enumerate() {
        let path = format!("spec.variables[{i}]");
        let anchor = variable.place.anchor;
        let name = str_of(&variable.name);
        let name_range = text_range(&variable.name, anchor);
        if name.trim().is_empty() {
            report.required(name_range, &format!("{path}.name"), "name is not specified");
        } else {
            if !names::is_cel_identifier(name) {
                report.invalid(
                    name_range,
                    &format!("{path}.name"),
                    name,
                    "name is not a valid CEL identifier",
                );
            }
            if !seen.insert(name) {
                // The API server does not check this, but the API documentation requires unique names
                // and `variables.<name>` could only ever see one of them.
                let detail = "variable names must be unique (required by the API documentation; the API server does not check it)";
                report.duplicate(name_range, &format!("{path}.name"), name, detail);
            }
        }
        if str_of(&variable.expression).trim().is_empty() {
            let range = text_range(&variable.expression, anchor);
            report.required(
                range,
                &format!("{path}.expression"),
                "expression is not specified",
            );
        }
    }
}
