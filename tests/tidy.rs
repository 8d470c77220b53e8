//! Tidy checks that the compiler cannot make in a single crate: module boundaries,
//! no I/O in the core, a `//!` doc at the top of every source file, no hidden gaps (`#[ignore]`,
//! `#[should_panic]`, `todo!`, `unimplemented!`), and a positive test for every diagnostic code the
//! code emits.

use std::fs;
use std::path::{Path, PathBuf};

/// The modules of the library, lowest first, and the crate modules each may use.
const MODULE_DEPENDENCIES: &[(&str, &[&str])] = &[
    ("text", &[]),
    ("yaml", &["text"]),
    ("cel", &["text"]),
    ("schema", &["text", "cel"]),
    ("policy", &["text", "yaml", "cel", "schema"]),
    ("ide", &["text", "yaml", "cel", "schema", "policy"]),
    ("lsp", &["text", "ide"]),
];

/// Things the core (every module below `lsp` and the CLI) must never do.
const CORE_FORBIDDEN: &[&str] = &[
    "std::fs",
    "std::env",
    "std::process",
    "println!",
    "eprintln!",
    "print!(",
    "SystemTime::now",
    "Instant::now",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn read(path: &Path) -> String {
    fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The part of a source file before its unit tests, where the rules for shipped code apply.
fn shipped_code(text: &str) -> &str {
    text.split("#[cfg(test)]").next().unwrap_or("")
}

#[test]
fn every_source_file_starts_with_a_module_doc() {
    let mut missing = Vec::new();
    for dir in ["src", "tests", "benches"] {
        for file in rust_files(&root().join(dir)) {
            let text = read(&file);
            let first = text
                .lines()
                .find(|line| !line.trim().is_empty())
                .unwrap_or("");
            if !first.starts_with("//!") {
                missing.push(relative(&file));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "files without a `//!` doc at the top: {missing:#?}"
    );
}

#[test]
fn modules_use_only_the_modules_below_them() {
    let mut violations = Vec::new();
    for (module, allowed) in MODULE_DEPENDENCIES {
        for file in rust_files(&root().join("src").join(module)) {
            let text = read(&file);
            for (other, _) in MODULE_DEPENDENCIES {
                let path = format!("crate::{other}");
                let used =
                    text.contains(&format!("{path}::")) || text.contains(&format!("{path};"));
                if other != module && used && !allowed.contains(other) {
                    violations.push(format!("{} uses {path}", relative(&file)));
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "module boundary violations: {violations:#?}"
    );
}

#[test]
fn the_core_does_no_io() {
    let mut violations = Vec::new();
    for (module, _) in MODULE_DEPENDENCIES
        .iter()
        .filter(|(module, _)| *module != "lsp")
    {
        for file in rust_files(&root().join("src").join(module)) {
            let text = read(&file);
            for forbidden in CORE_FORBIDDEN {
                if shipped_code(&text).contains(forbidden) {
                    violations.push(format!("{} uses {forbidden}", relative(&file)));
                }
            }
        }
    }
    assert!(violations.is_empty(), "I/O in the core: {violations:#?}");
}

#[test]
fn no_hidden_gaps() {
    let markers = ["#[ignore", "#[should_panic", "todo!(", "unimplemented!("];
    let mut found = Vec::new();
    for dir in ["src", "tests", "benches"] {
        for file in rust_files(&root().join(dir)) {
            if file.ends_with("tidy.rs") {
                continue;
            }
            let text = read(&file);
            for marker in markers {
                if text.contains(marker) {
                    found.push(format!("{} has {marker}", relative(&file)));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "known gaps belong in the issue notes, not in code: {found:#?}"
    );
}

#[test]
fn every_emitted_code_has_a_positive_test() {
    let mut sources = String::new();
    for file in rust_files(&root().join("src")) {
        if !file.ends_with("diagnostic.rs") && !file.ends_with("code_docs.rs") {
            sources.push_str(shipped_code(&read(&file)));
        }
    }
    let mut tests = String::new();
    for file in rust_files(&root().join("tests")) {
        tests.push_str(&read(&file));
    }
    let mut untested = Vec::new();
    for (variant, name) in code_names() {
        let emitted = sources.contains(&format!("Code::{variant}"));
        if emitted && !tests.contains(&format!("[{name}]")) {
            untested.push(name);
        }
    }
    assert!(
        untested.is_empty(),
        "codes emitted without a snapshot test showing `[code]`: {untested:?}"
    );
}

/// `(Variant, kebab-name)` of every code, read from the code table in `src/policy/diagnostic.rs`.
fn code_names() -> Vec<(String, String)> {
    let text = read(&root().join("src/policy/diagnostic.rs"));
    let names: Vec<(String, String)> = text
        .lines()
        .filter_map(|line| {
            let line = line.trim().strip_suffix(';')?;
            let (variant, rest) = line.split_once(" => \"")?;
            let name = rest.split('"').next()?;
            Some((variant.to_string(), name.to_string()))
        })
        .collect();
    assert!(
        names.len() >= 17,
        "the code table was not found in diagnostic.rs"
    );
    names
}

/// Text files of the repository that are committed (build output, dependencies and hidden folders
/// other than `.ci` left out).
fn repository_text_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![root()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                let skipped = ["target", "node_modules", "out", "corpus", "artifacts"];
                if (!name.starts_with('.') || name == ".ci") && !skipped.contains(&name.as_str()) {
                    stack.push(path);
                }
            } else if fs::read_to_string(&path).is_ok() {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn no_file_points_at_documents_outside_the_repository() {
    // Data under ../shared/conformance is read in place by tests (and skipped when absent); any
    // other pointer outside the repository (the design notes, the reference notes) is a dead link
    // for everyone who has only the repository.
    let forbidden = [
        "design.md",
        "shared/reference",
        "reference §",
        "../shared/design",
        "design §",
        // A section sign cites the design notes' sections, wherever the line breaks.
        "§",
    ];
    let mut found = Vec::new();
    for file in repository_text_files() {
        if file.ends_with("tests/tidy.rs") {
            continue;
        }
        let text = read(&file);
        for (i, line) in text.lines().enumerate() {
            let outside_shared = line
                .match_indices("../shared/")
                .any(|(at, _)| !line[at..].starts_with("../shared/conformance"));
            if outside_shared || forbidden.iter().any(|f| line.contains(f)) {
                found.push(format!("{}:{}: {}", relative(&file), i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "pointers at documents that are not in the repository: {found:#?}"
    );
}

/// The kinds each built-in family claims, with the family's folder: the code that names them
/// lives there (see ARCHITECTURE.md, "Document families").
const FAMILY_KINDS: &[(&str, &str)] = &[
    (
        "ValidatingAdmissionPolicy",
        "src/policy/families/kubernetes/",
    ),
    ("MutatingAdmissionPolicy", "src/policy/families/kubernetes/"),
    ("x-kubernetes-validations", "src/policy/families/crd_rules/"),
    (
        "ValidatingWebhookConfiguration",
        "src/policy/families/webhooks/",
    ),
    (
        "MutatingWebhookConfiguration",
        "src/policy/families/webhooks/",
    ),
    // The suite documents each family runs (`Family::suites`): PolicyTest and kaptest's suite
    // keys, gator's `Suite`, Kyverno's `cli.kyverno.io` Test.
    ("\"PolicyTest\"", "src/policy/families/kubernetes/"),
    ("vapTestSuites", "src/policy/families/kubernetes/"),
    ("mapTestSuites", "src/policy/families/kubernetes/"),
    ("test.gatekeeper.sh", "src/policy/families/gatekeeper/"),
    ("\"Suite\"", "src/policy/families/gatekeeper/"),
    ("cli.kyverno.io", "src/policy/families/kyverno/"),
];

/// The shared layers whose code may name a family's kinds besides its folder, and why.
const SHARED_KIND_NAMERS: &[(&str, &str)] = &[
    (
        "src/schema/resources.rs",
        "the built-in resources the schemas are bundled for",
    ),
    (
        "src/schema/crd_check.rs",
        "the CRD structural check, under the rules' compile",
    ),
    (
        "src/policy/model.rs",
        "the admission model, which Gatekeeper and Kyverno reuse",
    ),
    (
        "src/policy/admission/",
        "the admission evaluation, which Gatekeeper and Kyverno reuse",
    ),
    (
        "src/policy/static_manifest.rs",
        "the static manifests of any built-in kind",
    ),
    (
        "src/policy/code_docs.rs",
        "the documentation of every diagnostic code",
    ),
    (
        "src/policy/families/gatekeeper/vap.rs",
        "the policy Gatekeeper generates",
    ),
    ("src/ide/snippets.rs", "the snippets of new documents"),
    (
        "src/ide/rename_targets.rs",
        "a policy's name where a suite refers to it, renamed with the policy",
    ),
    (
        "src/ide/test_explorer.rs",
        "the names of the suite formats in the JSON outputs",
    ),
    (
        "src/ide/run.rs",
        "the evaluation's message when a file has no policy",
    ),
    (
        "src/ide/origin/patch_rules.rs",
        "a kustomize patch's own rules",
    ),
    ("src/cli/init.rs", "the project skeleton"),
];

/// Whether `path` is unit-test code (a `tests.rs`, a `*_tests.rs` or a file under `tests/`).
fn is_test_file(path: &str) -> bool {
    path.ends_with("/tests.rs") || path.ends_with("_tests.rs") || path.contains("/tests/")
}

#[test]
fn family_kinds_are_named_only_in_their_family_and_the_shared_layers() {
    let mut violations = Vec::new();
    for file in rust_files(&root().join("src")) {
        let path = relative(&file);
        let shared = SHARED_KIND_NAMERS
            .iter()
            .any(|(prefix, _)| path.starts_with(prefix));
        if shared || is_test_file(&path) {
            continue;
        }
        let text = read(&file);
        // Comments may name any kind; code that does decides something about it.
        let code: Vec<&str> = shipped_code(&text)
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect();
        for (kind, folder) in FAMILY_KINDS {
            if !path.starts_with(folder) && code.iter().any(|line| line.contains(kind)) {
                violations.push(format!("{path} names {kind} (its family: {folder})"));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "a family's kinds belong in its folder (or add a shared layer to SHARED_KIND_NAMERS, \
         saying why): {violations:#?}"
    );
}
