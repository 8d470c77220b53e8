//! The project configuration file, `.admission-ls.yaml`: its keys read from the text into plain
//! values, and a `config` diagnostic at the characters of every key the tool does not know, every
//! value of the wrong type and every YAML error. The front ends find and read the file and decide
//! what overrides it (command-line flags, editor settings); this module only reads a text.

use crate::policy::families::kyverno::KyvernoVersion;
use crate::policy::{Code, Diagnostic};
use crate::schema::KubeVersion;
use crate::text::TextRange;
use crate::yaml::{self, Node, NodeKind, ScalarStyle};

/// The names the file may have, in the order they are looked for.
pub const CONFIG_FILE_NAMES: [&str; 2] = [".admission-ls.yaml", ".admission-ls.yml"];

/// Whether `file_name` (the last component of a path) is a project configuration file.
pub fn is_config_file_name(file_name: &str) -> bool {
    CONFIG_FILE_NAMES.contains(&file_name)
}

/// What the file sets; a key it leaves out (or gets wrong) is `None` or empty. Paths and globs are
/// as written: relative ones are relative to the file's folder, which the front end resolves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProjectConfig {
    /// `kubernetesVersion`: the target version (clamped to the bundled range).
    pub kube_version: Option<KubeVersion>,
    /// `schemaPaths`: files and folders with CRDs that type objects and params.
    pub schema_paths: Vec<String>,
    /// `exclude`: globs of files and folders a folder walk leaves out.
    pub exclude: Vec<String>,
    /// `diagnostics.disabled`: codes not reported.
    pub disabled: Option<Vec<Code>>,
    /// `strict`: typed-check warnings count as errors.
    pub strict: Option<bool>,
    /// `staticManifests`: folders meant for the API server's `staticManifestsDir`.
    pub static_manifests: Vec<String>,
    /// `kyvernoVersion`: the Kyverno release whose libraries Kyverno policies may call.
    pub kyverno_version: Option<KyvernoVersion>,
}

/// The top-level keys, with what each expects (for the unknown-key message).
const KEYS: &[&str] = &[
    "kubernetesVersion",
    "schemaPaths",
    "exclude",
    "diagnostics",
    "strict",
    "staticManifests",
    "kyvernoVersion",
];

/// Reads a configuration text. Never fails: every problem is a diagnostic, and the keys that were
/// read correctly still apply (a typo in one key does not silently drop the others).
pub fn parse_project_config(text: &str) -> (ProjectConfig, Vec<Diagnostic>) {
    let file = yaml::parse(text);
    let mut problems: Vec<Diagnostic> = file
        .errors
        .iter()
        .map(|e| config_error(e.range, format!("not valid YAML: {}", e.message)))
        .collect();
    let mut config = ProjectConfig::default();
    // A document cut short by a syntax error is not read: its partial tree would add wrong-type
    // errors on top of the syntax error.
    let mut roots = file
        .documents
        .iter()
        .filter(|d| !d.has_errors)
        .filter_map(|d| d.root.as_ref());
    let Some(root) = roots.next() else {
        return (config, problems);
    };
    if let Some(extra) = roots.next() {
        problems.push(config_error(
            extra.range,
            "the configuration is one YAML document; this one is ignored",
        ));
    }
    let mut reader = Reader {
        problems: &mut problems,
    };
    if root.is_null() {
        return (config, problems);
    }
    let Some(entries) = root.as_mapping() else {
        reader.wrong_type(root, "a mapping of settings");
        return (config, problems);
    };
    for entry in entries {
        let Some(key) = entry.key_str() else {
            reader.unknown_key(&entry.key, "", KEYS);
            continue;
        };
        reader.top_level(key, &entry.key, &entry.value, &mut config);
    }
    (config, problems)
}

/// A `config` diagnostic (an error: a setting the team meant to pin that is not applied must not
/// pass unnoticed).
fn config_error(range: TextRange, message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Code::Config, range, message)
}

/// Reads values, collecting problems.
struct Reader<'a> {
    problems: &'a mut Vec<Diagnostic>,
}

impl Reader<'_> {
    fn top_level(&mut self, key: &str, key_node: &Node, value: &Node, config: &mut ProjectConfig) {
        match key {
            "kubernetesVersion" => config.kube_version = self.kube_version(value),
            "schemaPaths" => config.schema_paths = self.strings(key, value),
            "exclude" => config.exclude = self.strings(key, value),
            "staticManifests" => config.static_manifests = self.strings(key, value),
            "strict" => config.strict = self.boolean(key, value),
            "kyvernoVersion" => config.kyverno_version = self.kyverno_version(value),
            "diagnostics" => self.diagnostics(value, config),
            _ => self.unknown_key(key_node, key, KEYS),
        }
    }

    fn unknown_key(&mut self, key_node: &Node, key: &str, known: &[&str]) {
        let suggestion = known
            .iter()
            .find(|k| k.eq_ignore_ascii_case(key) || close(k, key))
            .map(|k| format!("; did you mean '{k}'?"))
            .unwrap_or_else(|| format!(" (known keys: {})", known.join(", ")));
        self.problems.push(config_error(
            key_node.range,
            format!("unknown configuration key '{key}'{suggestion}"),
        ));
    }

    fn wrong_type(&mut self, value: &Node, expected: &str) {
        self.problems.push(config_error(
            value.range,
            format!("expected {expected}, found {}", value.kind_name()),
        ));
    }

    /// `kyvernoVersion`: "1.17" quoted or plain (a plain `1.17` is a YAML number written as the
    /// release; `1.10` would read as 1.1, so its text is taken as written).
    fn kyverno_version(&mut self, value: &Node) -> Option<KyvernoVersion> {
        if value.is_null() {
            return None;
        }
        let Some(scalar) = value.as_scalar() else {
            self.wrong_type(value, "a Kyverno release such as \"1.17\"");
            return None;
        };
        match KyvernoVersion::parse(&scalar.value) {
            Ok(version) => Some(version),
            Err(error) => {
                self.problems.push(config_error(
                    value.range,
                    format!("kyvernoVersion: {error}"),
                ));
                None
            }
        }
    }

    /// `kubernetesVersion`: "1.34" quoted or plain (a plain `1.34` is a YAML number; its text is
    /// what the user wrote, so it is read as the version too).
    fn kube_version(&mut self, value: &Node) -> Option<KubeVersion> {
        if value.is_null() {
            return None;
        }
        let Some(scalar) = value.as_scalar() else {
            self.wrong_type(value, "a version string such as \"1.34\"");
            return None;
        };
        match KubeVersion::parse_clamped(&scalar.value) {
            Ok((version, warning)) => {
                if let Some(warning) = warning {
                    let mut problem = config_error(value.range, warning);
                    problem.severity = crate::policy::Severity::Warning;
                    self.problems.push(problem);
                }
                Some(version)
            }
            Err(error) => {
                self.problems.push(config_error(
                    value.range,
                    format!("kubernetesVersion: {error}"),
                ));
                None
            }
        }
    }

    fn boolean(&mut self, key: &str, value: &Node) -> Option<bool> {
        if value.is_null() {
            return None;
        }
        let flag = value.as_scalar().and_then(|s| s.as_bool());
        if flag.is_none() {
            self.wrong_type(value, &format!("true or false for {key}"));
        }
        flag
    }

    /// A list of non-empty strings; one string alone is accepted as a list of one, as a team
    /// pinning one folder would write it.
    fn strings(&mut self, key: &str, value: &Node) -> Vec<String> {
        if value.is_null() {
            return Vec::new();
        }
        let items: &[Node] = match &value.kind {
            NodeKind::Sequence(items) => items,
            NodeKind::Scalar(_) => std::slice::from_ref(value),
            NodeKind::Mapping(_) => {
                self.wrong_type(value, &format!("a list of strings for {key}"));
                return Vec::new();
            }
        };
        let mut out = Vec::new();
        for item in items {
            match item.as_scalar().filter(|s| is_text(s)) {
                Some(scalar) => out.push(scalar.value.clone()),
                None => self.wrong_type(item, &format!("a non-empty string in {key}")),
            }
        }
        out
    }

    fn diagnostics(&mut self, value: &Node, config: &mut ProjectConfig) {
        if value.is_null() {
            return;
        }
        let Some(entries) = value.as_mapping() else {
            self.wrong_type(value, "a mapping with 'disabled' and 'strict'");
            return;
        };
        for entry in entries {
            match entry.key_str() {
                Some("disabled") => config.disabled = Some(self.codes(&entry.value)),
                Some("strict") => config.strict = self.boolean("diagnostics.strict", &entry.value),
                other => self.unknown_key(&entry.key, other.unwrap_or(""), &["disabled", "strict"]),
            }
        }
    }

    fn codes(&mut self, value: &Node) -> Vec<Code> {
        let mut codes = Vec::new();
        for (name, item) in self.named_items("diagnostics.disabled", value) {
            match Code::from_name(&name) {
                Some(code) => codes.push(code),
                None => self.problems.push(config_error(
                    item.range,
                    format!(
                        "unknown diagnostic code '{name}' (`admission-ls explain` lists the codes)"
                    ),
                )),
            }
        }
        codes
    }

    /// The string items of a list, with their nodes.
    fn named_items<'n>(&mut self, key: &str, value: &'n Node) -> Vec<(String, &'n Node)> {
        let Some(items) = value.as_sequence() else {
            if !value.is_null() {
                self.wrong_type(value, &format!("a list for {key}"));
            }
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|item| match item.as_scalar().filter(|s| is_text(s)) {
                Some(scalar) => Some((scalar.value.clone(), item)),
                None => {
                    self.wrong_type(item, &format!("a string in {key}"));
                    None
                }
            })
            .collect()
    }
}

/// A scalar usable as a path, glob or name: a non-empty string (a plain `true` or `3` is not).
fn is_text(scalar: &crate::yaml::Scalar) -> bool {
    !scalar.value.is_empty() && (scalar.style != ScalarStyle::Plain || scalar.is_string())
}

/// Whether two keys differ by at most one edit of a character or two swapped neighbours (a typo).
fn close(known: &str, typed: &str) -> bool {
    let (a, b) = (known.as_bytes(), typed.as_bytes());
    if a.len().abs_diff(b.len()) > 1 || typed.len() < 3 {
        return false;
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a_mid, b_mid) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let swapped =
        a_mid.len() == 2 && b_mid.len() == 2 && a_mid[0] == b_mid[1] && a_mid[1] == b_mid[0];
    a_mid.len().max(b_mid.len()) <= 1 || swapped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kyverno_version_is_read_and_a_bad_one_reported() {
        let (config, problems) = parse_project_config("kyvernoVersion: '1.17'\n");
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(config.kyverno_version, KyvernoVersion::parse("1.17").ok());
        let (config, problems) = parse_project_config("kyvernoVersion: 1.12\n");
        assert_eq!(config.kyverno_version, None);
        let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "kyvernoVersion: expected a Kyverno release from 1.14 to 1.19 (such as \"1.17\"), found \"1.12\""
            ]
        );
    }

    #[test]
    fn every_key_is_read() {
        let text = "kubernetesVersion: 1.32\nschemaPaths: [crds, platform/crd.yaml]\n\
                    exclude: vendor\nstrict: true\ndiagnostics:\n  disabled: [cel-cost]\n\
                    staticManifests: [static]\n";
        let (config, problems) = parse_project_config(text);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(config.kube_version, KubeVersion::from_minor(32).ok());
        assert_eq!(config.schema_paths, ["crds", "platform/crd.yaml"]);
        assert_eq!(config.exclude, ["vendor"]);
        assert_eq!(config.strict, Some(true));
        assert_eq!(config.disabled, Some(vec![Code::CelCost]));
        assert_eq!(config.static_manifests, ["static"]);
    }

    #[test]
    fn typos_and_wrong_types_are_errors_at_their_characters() {
        let text = "kubernetesVersoin: '1.32'\nstrict: yes please\nexclude: {a: b}\n";
        let (config, problems) = parse_project_config(text);
        assert_eq!(config, ProjectConfig::default());
        let found: Vec<(&str, String)> = problems
            .iter()
            .map(|p| (&text[p.range], p.message.clone()))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "kubernetesVersoin",
                    "unknown configuration key 'kubernetesVersoin'; did you mean 'kubernetesVersion'?"
                        .to_owned()
                ),
                (
                    "yes please",
                    "expected true or false for strict, found string".to_owned()
                ),
                (
                    "{a: b}",
                    "expected a list of strings for exclude, found mapping".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn an_empty_or_broken_file_never_panics() {
        for text in [
            "",
            "---\n",
            "[",
            "a: [\n",
            "- 1\n",
            "? [a]\n: b\n",
            "\u{feff}x: 1",
        ] {
            let _ = parse_project_config(text);
        }
        assert_eq!(parse_project_config("").0, ProjectConfig::default());
        assert_eq!(parse_project_config("[").1.len(), 1);
        // Nesting far beyond the parser's depth bound, in a key's value: an error, no overflow.
        let deep = format!("exclude: {}{}\n", "[".repeat(5000), "]".repeat(5000));
        let (config, problems) = parse_project_config(&deep);
        assert!(config.exclude.is_empty());
        assert!(!problems.is_empty());
    }
}
