//! Rename: what can be renamed at a cursor (`prepare_rename`: the name's range and text, or the
//! reason it cannot be renamed) and the edits of a rename in every file of the snapshot. Three
//! names have text that refers to them: a policy's variable (its `name` and every
//! `variables.NAME` of the policy's expressions), a policy (its `metadata.name` and the
//! `policyName` of every binding of its kind) and a param kind (`paramKind.kind`, the `kind` of
//! the param objects and of the CRD that defines it). The new name is checked as the API server
//! checks that field, and every edit is checked against the file's text before it is given, so a
//! name written with escapes or inside a template action is refused instead of mangled.

use crate::policy::admission::json::documents;
use crate::text::{LineIndex, TextRange, TextSize};

use super::rename_targets::{Occurrence, Symbol, Target};
use super::{Analysis, DiagnosticsConfig, FileId, origin};

/// A name that can be renamed: where it is at the cursor and what it is now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renamable {
    /// The name's characters at the cursor.
    pub range: TextRange,
    /// The current name.
    pub placeholder: String,
}

/// One replacement in one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileEdit {
    /// The file.
    pub file: FileId,
    /// The characters replaced.
    pub range: TextRange,
    /// What replaces them.
    pub new_text: String,
}

impl Analysis {
    /// What can be renamed at `offset` of `file`, or why nothing there can be.
    pub fn prepare_rename(
        &self,
        file: FileId,
        offset: TextSize,
        config: &DiagnosticsConfig,
    ) -> Result<Renamable, String> {
        let target = self.rename_target(file, offset, config)?;
        Ok(Renamable {
            range: target.range,
            placeholder: target.symbol.name().to_owned(),
        })
    }

    /// The edits that rename what is at `offset` of `file` to `new_name`, in every file of the
    /// snapshot (sorted by file and position), or why it cannot be renamed so.
    pub fn rename(
        &self,
        file: FileId,
        offset: TextSize,
        new_name: &str,
        config: &DiagnosticsConfig,
    ) -> Result<Vec<FileEdit>, String> {
        let target = self.rename_target(file, offset, config)?;
        target.symbol.check_new_name(new_name)?;
        let occurrences = self.occurrences(&target.symbol);
        self.check_no_clash(&target.symbol, new_name)?;
        let old = target.symbol.name();
        let mut edits = Vec::with_capacity(occurrences.len());
        for occurrence in occurrences {
            self.check_occurrence(&occurrence, old)?;
            edits.push(edit_of(&occurrence, old, new_name));
        }
        edits.sort_by_key(|e| (e.file, e.range.start()));
        edits.dedup();
        Ok(edits)
    }

    /// An occurrence is renamed only where the file has exactly the old name there: a name
    /// written with escapes (`\u0061` in a double-quoted string) or masked as part of a Helm
    /// template action would otherwise be overwritten wrongly.
    fn check_occurrence(&self, occurrence: &Occurrence, old: &str) -> Result<(), String> {
        let text = self.file_text(occurrence.file).unwrap_or_default();
        let line = || {
            let at =
                LineIndex::new(&text).line_col(occurrence.range.start(), super::Encoding::Utf8);
            at.line + 1
        };
        if let Some(origin::Reading::Template(actions)) = self.reading(occurrence.file) {
            let touches = |a: &crate::yaml::template::Action| {
                a.range.start() < occurrence.range.end() && occurrence.range.start() < a.range.end()
            };
            if actions.iter().any(touches) {
                return Err(format!(
                    "`{old}` on line {} is inside a Helm template action: rename it in the chart by hand",
                    line()
                ));
            }
        }
        let written =
            text.get(usize::from(occurrence.range.start())..usize::from(occurrence.range.end()));
        if written != Some(old) {
            return Err(format!(
                "`{old}` on line {} is written with escapes or across lines: write it plainly first",
                line()
            ));
        }
        Ok(())
    }

    /// A new name that another policy, variable or kind already has would merge two things.
    fn check_no_clash(&self, symbol: &Symbol, new_name: &str) -> Result<(), String> {
        if new_name == symbol.name() {
            return Ok(());
        }
        match symbol {
            Symbol::Variable { others, .. } if others.iter().any(|o| o == new_name) => Err(
                format!("the policy already has a variable named `{new_name}`"),
            ),
            Symbol::Policy { kind, .. } if self.policy_exists(*kind, new_name) => Err(format!(
                "a {} named `{new_name}` already exists in the workspace",
                kind.name()
            )),
            Symbol::Local { taken, .. } => match super::rename_local::clash(taken, new_name) {
                Some(reason) => Err(reason),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// The rename target at `offset`, refusing a cursor inside a Helm template action first.
    fn rename_target(
        &self,
        file: FileId,
        offset: TextSize,
        config: &DiagnosticsConfig,
    ) -> Result<Target, String> {
        if let Some(origin::Reading::Template(actions)) = self.reading(file)
            && actions.iter().any(|a| a.range.contains_inclusive(offset))
        {
            return Err(
                "a name inside a Helm template action: the chart's templates and values \
                 write it, not this YAML"
                    .to_owned(),
            );
        }
        self.target_at(file, offset, config)
    }
}

/// The replacement of one occurrence: the name, quoted where a plain scalar would no longer be
/// read as a string (`no`, `on`, `y` are bools to go-yaml v2, which the API server
/// decodes with), so the renamed field keeps its type.
fn edit_of(occurrence: &Occurrence, old: &str, new_name: &str) -> FileEdit {
    let (range, new_text) = match occurrence.plain_scalar {
        Some(scalar) if scalar == occurrence.range && !reads_as_string(new_name) => {
            (scalar, format!("\"{new_name}\""))
        }
        _ => (occurrence.range, new_name.to_owned()),
    };
    debug_assert!(!old.is_empty());
    FileEdit {
        file: occurrence.file,
        range,
        new_text,
    }
}

/// Whether `name` written as a plain YAML scalar is read back as the same string.
fn reads_as_string(name: &str) -> bool {
    matches!(documents(&format!("{name}\n")).as_deref(),
        Ok([serde_json::Value::String(s)]) if s == name)
}

#[cfg(test)]
mod tests {
    use super::reads_as_string;

    #[test]
    fn plain_scalars_that_go_yaml_types_are_quoted() {
        assert!(reads_as_string("replicas"));
        assert!(reads_as_string("my-policy.example.com"));
        for typed in ["no", "on", "Yes", "y", "null", "1e3"] {
            assert!(!reads_as_string(typed), "{typed}");
        }
    }
}
