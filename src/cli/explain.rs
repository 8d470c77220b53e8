//! `admission-ls explain CODE`: prints the documentation of a diagnostic code with what its
//! diagnostics predict; `explain severity` prints the severity model.

use admission_ls::ide::{Code, Prediction};

use super::{EXIT_USAGE, out};

/// Prints the documentation of `name`, or the list of codes if there is no such code.
pub fn run(name: &str) -> i32 {
    if name == "severity" {
        return out::emit(Prediction::model(), 0);
    }
    let Some(code) = Code::from_name(name) else {
        let known: Vec<&str> = Code::ALL.iter().map(|code| code.as_str()).collect();
        out::error(&format!(
            "error: unknown diagnostic code `{name}`; the codes are (and `severity` for the severity model):\n  {}",
            known.join("\n  ")
        ));
        return EXIT_USAGE;
    };
    let doc = code.doc().trim_end();
    let predicts: Vec<&str> = code.predictions().iter().map(|p| p.tag()).collect();
    let predicts = format!(
        "\nPredicts: {} (see `admission-ls explain severity`).\n",
        predicts.join(", ")
    );
    if doc.is_empty() {
        out::emit(
            &format!("{}: no documentation yet\n{predicts}", code.as_str()),
            0,
        )
    } else {
        out::emit(&format!("{doc}\n{predicts}"), 0)
    }
}
