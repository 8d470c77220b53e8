//! Fixtures of the editor-feature tests: `#- /path k8s:1.NN` headers split files (none: one
//! `/policy.yaml`), and one `$0` marks the cursor. Every file is loaded into one analysis.

// Each test file uses a different part of the loaded fixture.
#![allow(dead_code)]

use admission_ls::ide::{Analysis, AnalysisHost, DiagnosticsConfig, FileId, KubeVersion, TextSize};

/// A loaded fixture: the analysis, the cursor's file and offset, and the file's settings.
pub struct Loaded {
    /// The analysis of every file.
    pub analysis: Analysis,
    /// The file with the `$0` marker.
    pub file: FileId,
    /// The marker's offset (the marker removed).
    pub offset: TextSize,
    /// The settings of the cursor's file.
    pub config: DiagnosticsConfig,
}

/// Loads `fixture` (a leading newline stripped); panics when it has no `$0`, a broken test.
pub fn load(fixture: &str) -> Loaded {
    let text = fixture.strip_prefix('\n').unwrap_or(fixture);
    let mut files: Vec<(String, KubeVersion)> = Vec::new();
    if !text.starts_with("#- ") {
        files.push((String::new(), KubeVersion::default()));
    }
    for line in text.split_inclusive('\n') {
        if let Some(header) = line.strip_prefix("#- ") {
            let version = header
                .split_whitespace()
                .find_map(|w| w.strip_prefix("k8s:"))
                .map(|v| KubeVersion::parse(v).expect("a bundled version in the fixture header"))
                .unwrap_or_default();
            files.push((String::new(), version));
        } else if let Some(file) = files.last_mut() {
            file.0.push_str(line);
        }
    }
    let mut host = AnalysisHost::new();
    let mut cursor = None;
    for (i, (text, minor)) in files.iter().enumerate() {
        let id = FileId(i as u32);
        if let Some(at) = text.find("$0") {
            cursor = Some((id, TextSize::from(at as u32), *minor));
        }
        host.set_file(id, text.replacen("$0", "", 1).into());
    }
    let (file, offset, minor) = cursor.expect("fixture without a $0 cursor");
    Loaded {
        analysis: host.snapshot(),
        file,
        offset,
        config: DiagnosticsConfig {
            kube_version: minor,
            ..DiagnosticsConfig::default()
        },
    }
}
