//! The modeline of a policy: a YAML comment `# admission-ls: object=FILE oldObject=FILE
//! params=FILE namespace=FILE` naming the sample objects the editor evaluates the policy against.
//! Each modeline is one request; several `object=` on one line are one request per object, each
//! with the line's other files. Paths are relative to the policy file, as written. A modeline
//! belongs to the first policy document that ends after it (the one it sits in or the next one),
//! else to the file's last policy.

use crate::text::{TextRange, TextSize};

/// The comment's marker.
pub const MARKER: &str = "admission-ls:";

/// Modelines read at most per file: each sample is evaluated after every edit.
pub const MAX_SAMPLES: usize = 8;

/// One request a modeline names: the files of its objects, as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SampleFiles {
    /// `object=`.
    pub object: Option<String>,
    /// `oldObject=`.
    pub old_object: Option<String>,
    /// `params=`.
    pub params: Option<String>,
    /// `namespace=`.
    pub namespace: Option<String>,
}

impl SampleFiles {
    /// Every file named, in the order object, oldObject, params, namespace.
    pub fn paths(&self) -> impl Iterator<Item = &String> {
        [
            &self.object,
            &self.old_object,
            &self.params,
            &self.namespace,
        ]
        .into_iter()
        .flatten()
    }

    /// What the sample is called in a label: its object's file (else its old object's).
    pub fn name(&self) -> &str {
        self.object
            .as_deref()
            .or(self.old_object.as_deref())
            .unwrap_or("")
    }
}

/// One modeline comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Modeline {
    /// The comment's range (from `#` to the end of its line).
    pub range: TextRange,
    /// The requests it names.
    pub samples: Vec<SampleFiles>,
    /// What is wrong with it (an unknown key, no object), as sentences.
    pub problems: Vec<String>,
}

/// The modelines of `text`, in file order.
pub fn modelines(text: &str) -> Vec<Modeline> {
    let mut out = Vec::new();
    let mut start = 0usize;
    for line in text.split_inclusive('\n') {
        if let Some(modeline) = read_line(line, start) {
            out.push(modeline);
        }
        start += line.len();
    }
    out
}

/// The modeline on `line` (starting at byte `start` of the file), if it is one.
fn read_line(line: &str, start: usize) -> Option<Modeline> {
    let content = line.trim_end_matches(['\n', '\r']);
    let hash = content.len() - content.trim_start().len();
    let rest = content[hash..].strip_prefix('#')?.trim_start();
    let settings = rest.strip_prefix(MARKER)?;
    let range = TextRange::new(offset(start + hash), offset(start + content.len()));
    let (samples, problems) = read_settings(settings);
    Some(Modeline {
        range,
        samples,
        problems,
    })
}

fn offset(at: usize) -> TextSize {
    TextSize::from(u32::try_from(at).unwrap_or(u32::MAX))
}

/// The requests of `key=value` settings, and the problems with them.
fn read_settings(settings: &str) -> (Vec<SampleFiles>, Vec<String>) {
    let mut objects = Vec::new();
    let mut shared = SampleFiles::default();
    let mut problems = Vec::new();
    for word in settings.split_whitespace() {
        let Some((key, value)) = word.split_once('=').filter(|(_, v)| !v.is_empty()) else {
            problems.push(format!("`{word}` is not key=FILE"));
            continue;
        };
        let slot = match key {
            "object" => {
                objects.push(value.to_string());
                continue;
            }
            "oldObject" => &mut shared.old_object,
            "params" => &mut shared.params,
            "namespace" => &mut shared.namespace,
            other => {
                problems.push(format!(
                    "unknown key `{other}` (expected object, oldObject, params or namespace)"
                ));
                continue;
            }
        };
        if slot.replace(value.to_string()).is_some() {
            problems.push(format!("`{key}` is given twice"));
        }
    }
    if objects.is_empty() && shared.old_object.is_none() {
        problems.push("no object=FILE or oldObject=FILE".to_string());
        return (Vec::new(), problems);
    }
    if objects.is_empty() {
        return (vec![shared], problems);
    }
    let samples = objects
        .into_iter()
        .map(|object| SampleFiles {
            object: Some(object),
            ..shared.clone()
        })
        .collect();
    (samples, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_key_and_one_request_per_object() {
        let text = "# admission-ls: object=a.yaml object=b.yaml params=p.yaml namespace=ns.yaml\nkind: X\n";
        let all = modelines(text);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].range, TextRange::new(0.into(), 75.into()));
        assert!(all[0].problems.is_empty());
        let names: Vec<&str> = all[0].samples.iter().map(SampleFiles::name).collect();
        assert_eq!(names, ["a.yaml", "b.yaml"]);
        assert_eq!(all[0].samples[1].params.as_deref(), Some("p.yaml"));
        assert_eq!(all[0].samples[1].namespace.as_deref(), Some("ns.yaml"));
    }

    #[test]
    fn an_old_object_alone_is_a_request() {
        let all = modelines("  #admission-ls: oldObject=old.yaml\n");
        assert_eq!(all[0].samples[0].old_object.as_deref(), Some("old.yaml"));
        assert_eq!(all[0].samples[0].name(), "old.yaml");
        assert_eq!(all[0].range.start(), TextSize::from(2));
    }

    #[test]
    fn problems_are_named() {
        let all = modelines("# admission-ls: objct=a.yaml params= params=x params=y\n");
        assert_eq!(
            all[0].problems,
            [
                "unknown key `objct` (expected object, oldObject, params or namespace)",
                "`params=` is not key=FILE",
                "`params` is given twice",
                "no object=FILE or oldObject=FILE",
            ]
        );
        assert!(all[0].samples.is_empty());
    }

    #[test]
    fn other_comments_are_not_modelines() {
        assert!(modelines("# a comment\nkey: value # admission-ls: object=a\n").is_empty());
    }
}
