//! The documents a suite refers to, loaded through the caller's loader: policies (with the errors
//! `check` finds in them), bindings, resources (objects, params, namespaces) and CRDs, whose
//! schemas are registered for the apply merge.

use std::path::Path;
use std::sync::Arc;

use serde_json::Value as Json;

use crate::policy::PolicyKind;
use crate::policy::admission::json::{documents, node_to_json, str_at};
use crate::policy::admission::view::{self, Binding, Document, Policy};
use crate::policy::{CheckConfig, Severity, check_file};
use crate::schema::{CrdKind, KubeVersion, SchemaTypes, from_crd_json};
use crate::yaml;

/// Reads a file named relative to the suite; `Err` carries the reason (not found, …).
pub type Loader<'a> = &'a dyn Fn(&str) -> Result<String, String>;

/// A policy or binding and what `check` reports against it.
pub struct Checked<T> {
    /// The document, as evaluation reads it.
    pub document: T,
    /// Error diagnostics inside it, as `file:line:col: message`.
    pub errors: Vec<String>,
}

/// Everything a suite's cases draw from.
pub struct World {
    /// Policies.
    pub policies: Vec<Checked<Policy>>,
    /// Bindings.
    pub bindings: Vec<Checked<Binding>>,
    /// Other objects.
    pub resources: Vec<Json>,
    /// Schemas with the CRDs registered.
    pub schemas: Arc<SchemaTypes>,
    /// The served versions of the CRDs, for decoding custom resources (pruning, defaults).
    pub crds: Vec<CrdKind>,
    /// Files that could not be loaded or read.
    pub errors: Vec<String>,
}

/// `relative` resolved against the folder of `suite_path` (a plain path join, no I/O).
pub fn join(suite_path: &str, relative: &str) -> String {
    let base = Path::new(suite_path).parent().unwrap_or(Path::new(""));
    base.join(relative).to_string_lossy().into_owned()
}

impl World {
    /// Loads the suite's files.
    pub fn load(
        suite_path: &str,
        policies: &[String],
        resources: &[String],
        version: KubeVersion,
        load: Loader<'_>,
    ) -> World {
        let mut world = World {
            policies: Vec::new(),
            bindings: Vec::new(),
            resources: Vec::new(),
            schemas: Arc::new(SchemaTypes::new(version.minor())),
            crds: Vec::new(),
            errors: Vec::new(),
        };
        for file in policies {
            let path = join(suite_path, file);
            match load(&path) {
                Ok(text) => world.add_policies(&path, &text),
                Err(e) => world
                    .errors
                    .push(format!("cannot read policy file {file}: {e}")),
            }
        }
        for file in resources {
            let path = join(suite_path, file);
            match load(&path).and_then(|text| documents(&text)) {
                Ok(docs) => docs.into_iter().for_each(|d| world.add_resource(d)),
                Err(e) => world
                    .errors
                    .push(format!("cannot read resource file {file}: {e}")),
            }
        }
        world
    }

    /// The target version its schemas were built for.
    pub fn version(&self) -> KubeVersion {
        KubeVersion::from_minor(self.schemas.minor()).unwrap_or_default()
    }

    /// Adds the policies and bindings of one file (other documents become resources).
    pub fn add_policies(&mut self, path: &str, text: &str) {
        let file = yaml::parse(text);
        if let Some(e) = file.errors.first() {
            self.errors
                .push(format!("{path}: YAML syntax error: {}", e.message));
            return;
        }
        let config = CheckConfig {
            kube_version: self.version(),
        };
        let diagnostics: Vec<_> = check_file(text, &file, &config)
            .into_iter()
            // What the API server would reject; typed-check findings predict runtime failures,
            // which is exactly what a test case may exercise.
            .filter(|d| d.severity == Severity::Error && !d.runtime_only)
            .collect();
        for document in &file.documents {
            let Some(root) = &document.root else { continue };
            let errors = || -> Vec<String> {
                diagnostics
                    .iter()
                    .filter(|d| document.range.contains_range(d.range))
                    .map(|d| {
                        let (line, col) = line_col(text, usize::from(d.range.start()));
                        format!("{path}:{line}:{col}: {}", d.message)
                    })
                    .collect()
            };
            match view::read(root) {
                Some(Document::Policy(document)) => self.policies.push(Checked {
                    document,
                    errors: errors(),
                }),
                Some(Document::Binding(document)) => self.bindings.push(Checked {
                    document,
                    errors: errors(),
                }),
                None => self.add_resource(node_to_json(root)),
            }
        }
    }

    /// The binding of a `kind` policy named `policy`: the one named `name`, else the first that
    /// names the policy, if any. `Err` when the named one is missing (`files` says where it was
    /// looked for) or when the API server would refuse to create the chosen one (unless
    /// `lenient`), with what `check` reports against it.
    pub fn binding(
        &self,
        kind: PolicyKind,
        policy: &str,
        name: Option<&str>,
        files: &str,
        lenient: bool,
    ) -> Result<Option<&Binding>, String> {
        let mut bindings = self
            .bindings
            .iter()
            .filter(|b| b.document.kind == kind.binding());
        let chosen = match name {
            Some(n) => bindings
                .find(|b| b.document.name == n)
                .ok_or_else(|| format!("binding '{n}' not found in {files}"))?,
            None => match bindings.find(|b| b.document.policy_name == policy) {
                Some(b) => b,
                None => return Ok(None),
            },
        };
        if !lenient && !chosen.errors.is_empty() {
            return Err(format!(
                "binding '{}' has errors: {}",
                chosen.document.name,
                chosen.errors.join("; ")
            ));
        }
        Ok(Some(&chosen.document))
    }

    /// Adds the documents of a resource file (objects, params, namespaces, CRDs), such as a
    /// schema file given to `eval`; `Err` is its syntax error.
    pub fn add_resource_text(&mut self, text: &str) -> Result<(), String> {
        documents(text)?
            .into_iter()
            .for_each(|d| self.add_resource(d));
        Ok(())
    }

    fn add_resource(&mut self, json: Json) {
        if str_at(&json, &["kind"]) == "CustomResourceDefinition" {
            match from_crd_json(&json) {
                Ok(kinds) => {
                    for kind in &kinds {
                        self.schemas.register_crd(kind);
                    }
                    self.crds.extend(kinds);
                }
                Err(e) => self.errors.push(format!(
                    "invalid CustomResourceDefinition: {}: {}",
                    e.path, e.message
                )),
            }
            return;
        }
        self.resources.push(json);
    }
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}
