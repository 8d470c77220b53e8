//! Fixture tests of the policy diagnostics: each fixture is a YAML file, checked through
//! `ide::diagnostics_for_text` (what the CLI and the server show) and rendered with carets, compared
//! with an inline snapshot (`UPDATE_EXPECT=1 cargo test --test diagnostics` updates them).

mod diagnostics {
    pub mod apiserver_config;
    pub mod binding;
    pub mod cel;
    pub mod cost;
    pub mod crd;
    pub mod crd_rules;
    pub mod decode;
    pub mod dra;
    pub mod gatekeeper;
    pub mod go_yaml;
    pub mod helm;
    pub mod kyverno;
    pub mod map;
    pub mod severity;
    pub mod static_manifests;
    pub mod typed;
    pub mod typed_clean;
    pub mod typed_mutations;
    pub mod vap;
    pub mod webhooks;
}

use admission_ls::ide::origin::{self, kustomize};
use admission_ls::ide::{
    AnalysisHost, DiagnosticsConfig, FileId, FileOrigin, KubeVersion, PathFacts, RenderOptions,
    diagnostics_for_text, render_diagnostics,
};
use expect_test::Expect;
use std::path::{Path, PathBuf};

/// Checks `fixture` (a leading newline is stripped) and compares the rendered diagnostics.
#[track_caller]
pub fn check_diagnostics(fixture: &str, expect: Expect) {
    check_diagnostics_with(fixture, &DiagnosticsConfig::default(), expect);
}

/// [`check_diagnostics`] with Kubernetes 1.`minor` as the target: for fixtures whose documents use
/// API versions the newest release no longer serves (v1alpha1 and v1beta1 of the validating kinds
/// are all served by 1.30 and 1.31 only).
#[track_caller]
pub fn check_diagnostics_at(minor: u32, fixture: &str, expect: Expect) {
    let config = DiagnosticsConfig {
        kube_version: KubeVersion::from_minor(minor).expect("a bundled version"),
        ..DiagnosticsConfig::default()
    };
    check_diagnostics_with(fixture, &config, expect);
}

/// One file of a fixture: its path, text and `key:value` options (`k8s:1.29`).
struct FixtureFile {
    path: String,
    text: String,
    kube_version: Option<KubeVersion>,
}

/// Splits a fixture at its `#- /path key:value…` lines; without any, it is one `policy.yaml`.
fn fixture_files(fixture: &str) -> Vec<FixtureFile> {
    let text = fixture.strip_prefix('\n').unwrap_or(fixture);
    if !text.starts_with("#- ") {
        let file = FixtureFile {
            path: "policy.yaml".to_string(),
            text: text.to_string(),
            kube_version: None,
        };
        return vec![file];
    }
    let mut files: Vec<FixtureFile> = Vec::new();
    for line in text.split_inclusive('\n') {
        if let Some(header) = line.strip_prefix("#- ") {
            let mut words = header.split_whitespace();
            let path = words.next().unwrap_or("/policy.yaml");
            let kube_version = words
                .find_map(|w| w.strip_prefix("k8s:"))
                .map(|v| KubeVersion::parse(v).expect("a bundled version in the fixture header"));
            files.push(FixtureFile {
                path: path.trim_start_matches('/').to_string(),
                text: String::new(),
                kube_version,
            });
        } else if let Some(file) = files.last_mut() {
            file.text.push_str(line);
        }
    }
    files
}

/// [`check_diagnostics`] with a configuration; every file of the fixture is loaded into one
/// analysis (so cross-file references resolve) and the diagnostics of every file are rendered.
#[track_caller]
pub fn check_diagnostics_with(fixture: &str, config: &DiagnosticsConfig, expect: Expect) {
    let files = fixture_files(fixture);
    let mut host = AnalysisHost::new();
    for (i, file) in files.iter().enumerate() {
        host.set_origin(FileId(i as u32), origin_in_fixture(&file.path, &files));
        host.set_file(FileId(i as u32), file.text.as_str().into());
    }
    let analysis = host.snapshot();
    let mut rendered = String::new();
    for (i, file) in files.iter().enumerate() {
        let mut config = config.clone();
        config.kube_version = file.kube_version.unwrap_or(config.kube_version);
        let diagnostics = analysis.diagnostics(FileId(i as u32), &config);
        rendered.push_str(&render_diagnostics(
            &file.path,
            &file.text,
            &diagnostics,
            RenderOptions { snippets: true },
        ));
        if let Some(reason) = analysis.skipped(FileId(i as u32)) {
            rendered.push_str(&format!("{}: note: skipped: {reason}\n", file.path));
        }
    }
    expect.assert_eq(&rendered);
}

/// How the file at `path` is read when the fixture's files are the disk, as the front ends find
/// it there: a `Chart.yaml` above a `templates/` folder, a kustomization naming it as a patch.
fn origin_in_fixture(path: &str, files: &[FixtureFile]) -> FileOrigin {
    let path = Path::new(path);
    let exists = |p: &Path| files.iter().any(|f| Path::new(&f.path) == p);
    let in_chart = origin::chart_candidates(path)
        .iter()
        .any(|folder| exists(&tidy(&folder.join("Chart.yaml"))));
    let patch = files
        .iter()
        .filter(|f| path_name(&f.path).is_some_and(kustomize::is_kustomization))
        .flat_map(|k| {
            let folder = Path::new(&k.path)
                .parent()
                .unwrap_or(Path::new(""))
                .to_owned();
            kustomize::patch_files(&k.text)
                .into_iter()
                .map(move |(relative, kind)| (tidy(&folder.join(relative)), kind))
        })
        .find(|(patch, _)| patch == path)
        .map(|(_, kind)| kind);
    origin::origin_of(path, PathFacts { in_chart, patch })
}

fn path_name(path: &str) -> Option<&str> {
    Path::new(path).file_name()?.to_str()
}

/// `path` with `.` and `..` resolved by name.
fn tidy(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
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
    // One analysis over every example, as `admission-ls check examples/` sees them.
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap_or_default())
        .collect();
    let mut host = AnalysisHost::new();
    // Read as `check` reads them: the chart's templates masked, the kustomize patches as patches.
    let mut origins = admission_ls::lsp::origin::OriginFinder::new();
    for (i, text) in texts.iter().enumerate() {
        host.set_origin(FileId(i as u32), origins.origin(&files[i]));
        host.set_file(FileId(i as u32), text.as_str().into());
    }
    let analysis = host.snapshot();
    for (i, file) in files.iter().enumerate() {
        if file.ends_with("mistakes.yaml") {
            continue;
        }
        let text = &texts[i];
        let diagnostics = analysis.diagnostics(FileId(i as u32), &DiagnosticsConfig::default());
        let rendered = render_diagnostics(
            &file.display().to_string(),
            text,
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
        cel-no-overload
        cel-result-type
        cel-syntax
        cel-type
        cel-undeclared
        cel-undefined-field
        duplicate
        forbidden
        invalid
        not-supported
        required
        too-many
        unknown-field
        unresolved-reference"#]]
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
