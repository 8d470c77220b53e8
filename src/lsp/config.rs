//! Settings of section `admissionLs`, from `initializationOptions` or
//! `workspace/didChangeConfiguration`: `kubernetesVersion` ("1.31"), `diagnostics.disabled`
//! (codes), `diagnostics.strict` (typed-check warnings as errors), `kyvernoVersion` (the Kyverno
//! release whose library functions Kyverno policies may call), `schemaPaths` (extra CRD files or
//! folders) and `liveVerdicts` (evaluate policies against their modelines' samples, on unless
//! `false`). Bad values are reported back as
//! messages and otherwise ignored. A setting the editor gives overrides the project configuration
//! file's (`.admission-ls.yaml`); one it leaves out takes the file's value (`Layer::over`), and
//! its `schemaPaths` add to the file's.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::ide::{Code, DiagnosticsConfig, KubeVersion, KyvernoVersion, ProjectConfig};

/// The settings section the server reads.
pub const SECTION: &str = "admissionLs";

/// The settings the editor gave; `None` where it gave none (or a value that was ignored).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layer {
    /// `kubernetesVersion`.
    pub kube_version: Option<KubeVersion>,
    /// `diagnostics.disabled`.
    pub disabled: Option<Vec<Code>>,
    /// `diagnostics.strict`.
    pub strict: Option<bool>,
    /// `kyvernoVersion`.
    pub kyverno_version: Option<KyvernoVersion>,
}

impl Layer {
    /// The diagnostics settings: the editor's where it gave one, else the project file's, else the
    /// default.
    pub fn over(&self, file: Option<&ProjectConfig>) -> DiagnosticsConfig {
        DiagnosticsConfig {
            kube_version: self
                .kube_version
                .or_else(|| file.and_then(|f| f.kube_version))
                .unwrap_or_default(),
            disabled: self
                .disabled
                .clone()
                .or_else(|| file.and_then(|f| f.disabled.clone()))
                .unwrap_or_default(),
            strict: self
                .strict
                .or_else(|| file.and_then(|f| f.strict))
                .unwrap_or(false),
            kyverno_version: self
                .kyverno_version
                .or_else(|| file.and_then(|f| f.kyverno_version))
                .unwrap_or_default(),
        }
    }
}

/// Reads settings, either the section itself or an object holding it under `admissionLs`; returns the
/// configuration and a message for every value that was ignored.
pub fn parse(settings: &Value) -> (DiagnosticsConfig, Vec<String>) {
    let (layer, problems) = parse_layer(settings);
    (layer.over(None), problems)
}

/// Reads the settings the editor gave, to lay over the project configuration file.
pub fn parse_layer(settings: &Value) -> (Layer, Vec<String>) {
    let section = settings.get(SECTION).unwrap_or(settings);
    let mut problems = Vec::new();
    let layer = Layer {
        kube_version: kube_version(section, &mut problems),
        disabled: disabled_codes(section, &mut problems),
        strict: strict(section, &mut problems),
        kyverno_version: kyverno_version(section, &mut problems),
    };
    (layer, problems)
}

/// The `schemaPaths` setting: files or folders with CRDs, relative paths taken from `base` (the
/// first workspace folder); a message for every value that was ignored.
pub fn schema_paths(settings: &Value, base: Option<&Path>) -> (Vec<PathBuf>, Vec<String>) {
    let section = settings.get(SECTION).unwrap_or(settings);
    let Some(value) = section.get("schemaPaths").filter(|v| !v.is_null()) else {
        return (Vec::new(), Vec::new());
    };
    let Some(items) = value.as_array() else {
        let problem = "ignoring schemaPaths: expected a list of paths".to_owned();
        return (Vec::new(), vec![problem]);
    };
    let mut paths = Vec::new();
    let mut problems = Vec::new();
    for item in items {
        match item.as_str().filter(|s| !s.is_empty()) {
            Some(path) => {
                let path = PathBuf::from(path);
                paths.push(match base {
                    Some(base) if path.is_relative() => base.join(path),
                    _ => path,
                });
            }
            None => problems.push(format!(
                "ignoring schemaPaths entry {item}: expected a path"
            )),
        }
    }
    (paths, problems)
}

/// The `kubernetesVersion` setting: a version outside the bundled range becomes the nearest
/// bundled one and a malformed one the newest, each with a message naming the version used.
fn kube_version(section: &Value, problems: &mut Vec<String>) -> Option<KubeVersion> {
    let value = section.get("kubernetesVersion").filter(|v| !v.is_null())?;
    match value.as_str().map(KubeVersion::parse_clamped) {
        Some(Ok((version, warning))) => {
            problems.extend(warning.map(|w| format!("kubernetesVersion: {w}")));
            Some(version)
        }
        _ => {
            let newest = KubeVersion::newest();
            problems.push(format!(
                "ignoring kubernetesVersion {value}: expected a string like \"{newest}\"; using {newest}"
            ));
            Some(newest)
        }
    }
}

/// The `kyvernoVersion` setting: a release such as "1.17"; a bad value is reported and ignored.
fn kyverno_version(section: &Value, problems: &mut Vec<String>) -> Option<KyvernoVersion> {
    let value = section.get("kyvernoVersion").filter(|v| !v.is_null())?;
    match value.as_str().map(KyvernoVersion::parse) {
        Some(Ok(version)) => Some(version),
        Some(Err(error)) => {
            problems.push(format!("ignoring kyvernoVersion: {error}"));
            None
        }
        None => {
            problems.push(format!(
                "ignoring kyvernoVersion {value}: expected a string like \"1.17\""
            ));
            None
        }
    }
}

/// The `liveVerdicts` setting: `false` turns the live verdicts off; unset or another value
/// (reported) leaves them on.
pub fn live_verdicts(settings: &Value) -> (bool, Vec<String>) {
    let section = settings.get(SECTION).unwrap_or(settings);
    let Some(value) = section.get("liveVerdicts").filter(|v| !v.is_null()) else {
        return (true, Vec::new());
    };
    match value.as_bool() {
        Some(on) => (on, Vec::new()),
        None => (
            true,
            vec![format!(
                "ignoring liveVerdicts {value}: expected true or false"
            )],
        ),
    }
}

/// The `diagnostics.strict` setting: a boolean; unset (the project file's, else off) otherwise.
fn strict(section: &Value, problems: &mut Vec<String>) -> Option<bool> {
    let value = section
        .get("diagnostics")
        .and_then(|d| d.get("strict"))
        .filter(|v| !v.is_null())?;
    let strict = value.as_bool();
    if strict.is_none() {
        problems.push(format!(
            "ignoring diagnostics.strict {value}: expected true or false"
        ));
    }
    strict
}

fn disabled_codes(section: &Value, problems: &mut Vec<String>) -> Option<Vec<Code>> {
    let list = section
        .get("diagnostics")
        .and_then(|d| d.get("disabled"))
        .filter(|v| !v.is_null())?;
    let Some(items) = list.as_array() else {
        problems.push("ignoring diagnostics.disabled: expected a list of codes".to_owned());
        return None;
    };
    let mut codes = Vec::new();
    for item in items {
        match item.as_str().and_then(Code::from_name) {
            Some(code) => codes.push(code),
            None => problems.push(format!("ignoring unknown diagnostic code {item}")),
        }
    }
    Some(codes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_read_with_or_without_the_section() {
        let settings = json!({"admissionLs": {"kubernetesVersion": "1.30",
            "diagnostics": {"disabled": ["cel-cost", "nope", 3]}}});
        let (config, problems) = parse(&settings);
        assert_eq!(config.kube_version, KubeVersion::parse("1.30").unwrap());
        assert_eq!(config.disabled, vec![Code::CelCost]);
        assert_eq!(problems.len(), 2);
        assert!(!config.strict);
        let strict = json!({"diagnostics": {"strict": true}});
        assert!(parse(&strict).0.strict);
        let (config, problems) = parse(&json!({"diagnostics": {"strict": "yes"}}));
        assert!(!config.strict);
        assert_eq!(problems.len(), 1);
        let (config, problems) = parse(&json!({"kubernetesVersion": 31}));
        assert_eq!(config.kube_version, KubeVersion::newest());
        assert_eq!(problems.len(), 1);
        assert_eq!(parse(&Value::Null).0.kube_version, KubeVersion::newest());
        let (config, problems) = parse(&json!({"kubernetesVersion": "1.2"}));
        assert_eq!(config.kube_version, KubeVersion::oldest());
        assert!(problems[0].contains(&format!("using {}", KubeVersion::oldest())));
    }

    #[test]
    fn kyverno_version_comes_from_the_editor_else_the_project_file() {
        let file = ProjectConfig {
            kyverno_version: KyvernoVersion::parse("1.16").ok(),
            ..ProjectConfig::default()
        };
        let (layer, problems) = parse_layer(&json!({"kyvernoVersion": "1.18"}));
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(layer.over(Some(&file)).kyverno_version.to_string(), "1.18");
        let (layer, problems) = parse_layer(&json!({"kyvernoVersion": "2.0"}));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(layer.over(Some(&file)).kyverno_version.to_string(), "1.16");
        assert_eq!(layer.over(None).kyverno_version, KyvernoVersion::NEWEST);
    }

    #[test]
    fn the_editor_overrides_the_project_file_where_it_gives_a_value() {
        let file = ProjectConfig {
            kube_version: KubeVersion::from_minor(31).ok(),
            disabled: Some(vec![Code::CelCost]),
            strict: Some(true),
            ..ProjectConfig::default()
        };
        let (layer, _) = parse_layer(&json!({"kubernetesVersion": "1.33"}));
        let config = layer.over(Some(&file));
        assert_eq!(config.kube_version, KubeVersion::parse("1.33").unwrap());
        assert_eq!(config.disabled, vec![Code::CelCost]);
        assert!(config.strict);
        let (layer, _) = parse_layer(&json!({"diagnostics": {"strict": false, "disabled": []}}));
        let config = layer.over(Some(&file));
        assert_eq!(config.kube_version, KubeVersion::parse("1.31").unwrap());
        assert!(config.disabled.is_empty() && !config.strict);
    }

    #[test]
    fn schema_paths_are_relative_to_the_workspace() {
        let settings = json!({"admissionLs": {"schemaPaths": ["crds", "/abs/x.yaml", 3]}});
        let (paths, problems) = schema_paths(&settings, Some(Path::new("/ws")));
        assert_eq!(
            paths,
            vec![PathBuf::from("/ws/crds"), PathBuf::from("/abs/x.yaml")]
        );
        assert_eq!(problems.len(), 1);
        assert!(
            schema_paths(&json!({"schemaPaths": "x"}), None)
                .0
                .is_empty()
        );
    }
}
