//! What kubectl's document splitting refuses before go-yaml sees a document.
//!
//! kubectl reads a stream with apimachinery's `YAMLReader` (`pkg/util/yaml/decoder.go`): any
//! line that starts with `---` ends the document, and only blanks or a comment may follow the
//! dashes ("invalid Yaml document separator: …"), so `--- |`, `--- {a: 1}` or `---x` are refused.
//! A directive (`%YAML`, `%TAG`) is then alone in the chunk before its `---`, which go-yaml
//! refuses as "did not find expected <document start>". Both are read as text, as kubectl does.
//!
//! The `---` line itself never reaches go-yaml, so a chunk is always an implicit document: one
//! whose first token is a `...` is refused ("did not find expected node content", go.yaml.in/yaml/v2
//! `parserc.go`: `yaml_parser_parse_document_start` reads an implicit document, whose node
//! `yaml_parser_parse_node` cannot start with DOCUMENT-END).

use super::{SyntaxError, locate, split};

/// go-yaml's message for a directive left without its document.
const LONE_DIRECTIVE: &str = "did not find expected <document start>";
/// go-yaml's message for a chunk that starts with `...`.
const LEADING_END: &str = "did not find expected node content";

/// The refusals of the lines of `text[start..end]` (one piece of the file), in order.
pub(crate) fn refusals(text: &str, (start, end): (usize, usize)) -> Vec<SyntaxError> {
    let mut out = Vec::new();
    let mut before_marker = true;
    let mut at = start;
    for line in text.get(start..end).unwrap_or("").split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("---") {
            let trimmed = rest.trim();
            if !trimmed.is_empty() && !trimmed.starts_with('#') {
                let offset = at + 3 + (rest.len() - rest.trim_start().len());
                let message = format!("invalid Yaml document separator: {trimmed}");
                out.push(error(text, offset, message));
            }
            before_marker = false;
        } else if before_marker && line.starts_with('%') {
            out.push(error(text, at, LONE_DIRECTIVE.to_owned()));
        }
        at += line.len();
    }
    if let Some(at) = split::leading_end_marker(text, (start, end)) {
        out.push(error(text, at, LEADING_END.to_owned()));
    }
    out
}

fn error(text: &str, at: usize, message: String) -> SyntaxError {
    SyntaxError {
        range: locate::char_range(text, at),
        message,
    }
}
