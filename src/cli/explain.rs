//! `admission-ls explain CODE`: prints the documentation of a diagnostic code.

use admission_ls::ide::Code;

use super::{EXIT_USAGE, out};

/// Prints the documentation of `name`, or the list of codes if there is no such code.
pub fn run(name: &str) -> i32 {
    let Some(code) = Code::from_name(name) else {
        let known: Vec<&str> = Code::ALL.iter().map(|code| code.as_str()).collect();
        out::error(&format!(
            "error: unknown diagnostic code `{name}`; the codes are:\n  {}",
            known.join("\n  ")
        ));
        return EXIT_USAGE;
    };
    let doc = code.doc().trim_end();
    if doc.is_empty() {
        out::emit(&format!("{}: no documentation yet\n", code.as_str()), 0)
    } else {
        out::emit(&format!("{doc}\n"), 0)
    }
}
