//! Fixture tests of the policy diagnostics: each fixture is a YAML file, checked through
//! `ide::diagnostics_for_text` (what the CLI and the server show) and rendered with carets, compared
//! with an inline snapshot (`UPDATE_EXPECT=1 cargo test --test diagnostics` updates them).

mod diagnostics {
    pub mod binding;
    pub mod cel;
    pub mod decode;
    pub mod map;
    pub mod vap;
}

use admission_ls::ide::{
    DiagnosticsConfig, RenderOptions, diagnostics_for_text, render_diagnostics,
};
use expect_test::Expect;
use std::path::{Path, PathBuf};

/// Checks `fixture` (a leading newline is stripped) and compares the rendered diagnostics.
#[track_caller]
pub fn check_diagnostics(fixture: &str, expect: Expect) {
    let text = fixture.strip_prefix('\n').unwrap_or(fixture);
    let diagnostics = diagnostics_for_text(text, &DiagnosticsConfig::default());
    let rendered = render_diagnostics(
        "policy.yaml",
        text,
        &diagnostics,
        RenderOptions { snippets: true },
    );
    expect.assert_eq(&rendered);
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
}

fn example_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    yaml_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"),
        &mut files,
    );
    files.sort();
    files
}

#[test]
fn every_example_is_clean_except_mistakes() {
    let files = example_files();
    assert!(
        files.len() >= 8,
        "examples/ should hold the example files: {files:?}"
    );
    for file in files.iter().filter(|f| !f.ends_with("mistakes.yaml")) {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let diagnostics = diagnostics_for_text(&text, &DiagnosticsConfig::default());
        let rendered = render_diagnostics(
            &file.display().to_string(),
            &text,
            &diagnostics,
            RenderOptions { snippets: true },
        );
        assert!(
            diagnostics.is_empty(),
            "{} is not clean:\n{rendered}",
            file.display()
        );
    }
}

#[test]
fn mistakes_example_shows_every_structural_code() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/mistakes.yaml");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let diagnostics = diagnostics_for_text(&text, &DiagnosticsConfig::default());
    let mut codes: Vec<&str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
    codes.sort();
    codes.dedup();
    expect_test::expect![[r#"
        cel-syntax
        duplicate
        forbidden
        invalid
        not-supported
        required
        too-many
        unknown-field"#]]
    .assert_eq(&codes.join("\n"));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Whatever an editor holds mid-keystroke: an example with a span cut out and junk pasted in.
    #[test]
    fn edited_examples_never_panic(which in 0usize..16, at in 0usize..4000, cut in 0usize..40, junk in "[ -~\n]{0,12}") {
        let files = example_files();
        proptest::prop_assume!(!files.is_empty());
        let text = std::fs::read_to_string(&files[which % files.len()]).unwrap_or_default();
        let mut start = at.min(text.len());
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (start + cut).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let edited = format!("{}{junk}{}", &text[..start], &text[end..]);
        let diagnostics = diagnostics_for_text(&edited, &DiagnosticsConfig::default());
        for d in diagnostics {
            proptest::prop_assert!(d.range.end() <= admission_ls::text::TextSize::of(edited.as_str()));
        }
    }
}
