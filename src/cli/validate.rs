//! `admission-ls validate OBJECT_FILE --crd CRD_FILE… [--old FILE]`: validates custom resources
//! against their CRDs as the API server does on create (or update, with `--old`) and prints the
//! errors as text or JSON ([`admission_ls::ide::validate`]). Exit 0 when every object is valid,
//! 1 when one is not, 2 on bad input. With `--explain`, each object's report is followed by the
//! traces of the rules its validation evaluated (JSON: its `explain` array).

use std::path::PathBuf;

use admission_ls::ide::KubeVersion;
use admission_ls::ide::validate::{ValidateRequest, all_valid, report_text, validate_explained};
use admission_ls::lsp::disk::{self, Bounds};
use admission_ls::policy::admission::explain;
use serde_json::Value as Json;

use super::{EXIT_USAGE, out};

/// Arguments of `validate`.
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// The custom resource(s) (YAML or JSON; each document on its own).
    pub object_file: PathBuf,
    /// A file with the CustomResourceDefinition(s) (repeatable).
    #[arg(long = "crd", value_name = "FILE", required = true)]
    pub crds: Vec<PathBuf>,
    /// The old object: validate an update (transition rules, ratcheting).
    #[arg(long = "old", value_name = "FILE")]
    pub old: Option<PathBuf>,
    /// Target Kubernetes version, such as 1.33 (default: the newest supported).
    #[arg(long, value_name = "1.NN", default_value_t = KubeVersion::newest())]
    pub kube_version: KubeVersion,
    /// Output format.
    #[arg(long, value_enum, default_value_t = super::eval::EvalFormat::Text)]
    pub format: super::eval::EvalFormat,
    /// Show why: the value of every subexpression of each x-kubernetes-validations rule
    /// evaluated (and the messageExpression of each that failed), under the rule's text.
    #[arg(long)]
    pub explain: bool,
}

fn read(path: &std::path::Path) -> Result<String, String> {
    disk::read_text(path, Bounds::named())
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn request(args: &ValidateArgs) -> Result<ValidateRequest, String> {
    let crds = args
        .crds
        .iter()
        .map(|p| Ok((p.display().to_string(), read(p)?)))
        .collect::<Result<_, String>>()?;
    Ok(ValidateRequest {
        crds,
        object: read(&args.object_file)?,
        old_object: args.old.as_deref().map(read).transpose()?,
        kube_version: args.kube_version,
    })
}

/// Runs `validate`.
pub fn run(args: &ValidateArgs) -> i32 {
    let run = |r: ValidateRequest| {
        if args.explain {
            explain::capture(|| validate_explained(&r)).0
        } else {
            validate_explained(&r)
        }
    };
    let reports = match request(args).and_then(run) {
        Ok(reports) => reports,
        Err(message) => {
            out::error(&format!("admission-ls validate: error: {message}"));
            return EXIT_USAGE;
        }
    };
    let (json, traces): (Vec<Json>, Vec<_>) = reports.into_iter().unzip();
    let status = if all_valid(&json) { 0 } else { 1 };
    let text = match args.format {
        super::eval::EvalFormat::Json => {
            let mut reports = json;
            if args.explain {
                for (report, traces) in reports.iter_mut().zip(&traces) {
                    report["explain"] = explain::to_json(traces);
                }
            }
            let value = match reports.as_slice() {
                [one] => one.clone(),
                many => serde_json::Value::Array(many.to_vec()),
            };
            format!(
                "{}\n",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            )
        }
        super::eval::EvalFormat::Text => json
            .iter()
            .zip(&traces)
            .map(|(report, traces)| report_text(report) + &super::eval::render_traces(traces, "  "))
            .collect(),
    };
    out::emit(&text, status)
}
