//! Command-line parsing and dispatch; the features themselves live in `ide`, the server in `lsp`.

mod annotations;
mod check;
mod eval;
mod eval_authn;
mod eval_dra;
mod explain;
mod init;
mod init_skeleton;
mod json;
mod junit;
mod out;
mod project;
mod test;
mod test_compact;
mod validate;
mod walk;

use std::io::IsTerminal;
use std::path::PathBuf;

use admission_ls::ide::KubeVersion;
use clap::{Parser, Subcommand, ValueEnum};

/// Exit status for usage and I/O errors.
const EXIT_USAGE: i32 = 2;

/// A language server and checker for Kubernetes admission policies.
#[derive(Debug, Parser)]
#[command(name = "admission-ls", version, about)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Runs the language server on stdin/stdout (the default).
    Serve {
        /// Accepted for clients that pass it; stdio is the only transport.
        #[arg(long)]
        stdio: bool,
    },
    /// Reports diagnostics for YAML files and folders (searched recursively for *.yaml and *.yml).
    Check(CheckArgs),
    /// Evaluates one policy against one request.
    Eval(Box<eval::EvalArgs>),
    /// Validates custom resources against their CustomResourceDefinitions as the API server does
    /// on create (or update, with --old): schema, defaults, pruning and x-kubernetes-validations
    /// rules; exit 1 if an object is invalid.
    Validate(validate::ValidateArgs),
    /// Runs policy test suites (PolicyTest, kaptest manifests, gator suites); exit 1 if any case fails.
    Test(test::TestArgs),
    /// Writes a PolicyTest suite beside a policy file (`policy.test.yaml`), with an allowed and a
    /// denied case for the kind the policy matches; never overwrites a file.
    Init(init::InitArgs),
    /// Prints the documentation of a diagnostic code.
    Explain {
        /// A code such as `cel-undefined-field`.
        code: String,
    },
}

/// Arguments of `check`.
#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// Files and folders to check; `-` reads standard input (reported as `<stdin>`), for
    /// `helm template … | admission-ls check -`.
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// Leaves out the files and folders a folder walk finds that match this glob (repeatable):
    /// `*` and `?` within a name, `**` across folders; a pattern without `/` matches any name on
    /// the path (`vendor`, `*.test.yaml`).
    #[arg(long = "exclude", value_name = "GLOB")]
    exclude: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Target Kubernetes version, such as 1.31 (default: the configuration file's
    /// kubernetesVersion, else the newest supported).
    #[arg(long, value_name = "1.NN")]
    kube_version: Option<KubeVersion>,
    /// Extra files or folders (walked for *.yaml and *.yml) with CustomResourceDefinitions that
    /// type objects and params (repeatable); they are read for their CRDs, not reported on.
    #[arg(long = "schema", value_name = "FILE|DIR")]
    schemas: Vec<PathBuf>,
    /// Count the typed check's warnings (the typed checker disagrees, evaluation may succeed) as
    /// errors, so that they make the exit status 1.
    #[arg(long)]
    strict: bool,
    /// The Kyverno release the policies are for, such as 1.17 (default: the configuration file's
    /// kyvernoVersion, else the newest): a call of a library function a later release added is
    /// an error, as that release's compiler refuses it.
    #[arg(long, value_name = "1.NN")]
    kyverno_version: Option<admission_ls::ide::KyvernoVersion>,
    /// The project configuration file to read instead of the `.admission-ls.yaml` (or `.yml`)
    /// found in the folder of the first path and upward (up to the folder holding `.git`). Flags
    /// override its settings; `--schema` and `--exclude` add to its lists.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    config: Option<PathBuf>,
    /// Ignore the project configuration file.
    #[arg(long)]
    no_config: bool,
}

/// Output formats of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Compiler-style lines with source snippets.
    Text,
    /// One JSON object mirroring LSP diagnostics.
    Json,
    /// A SARIF 2.1.0 log (code scanning).
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…,line=…::message`).
    Github,
}

/// Runs the command line and returns the process exit status: 0 clean, 1 errors found, 2 usage or
/// I/O error.
pub fn run() -> i32 {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(error) => {
            // `--help` and `--version` come through here too, on stdout and with status 0.
            if let Err(e) = error.print()
                && e.kind() == std::io::ErrorKind::BrokenPipe
            {
                return out::EXIT_CLOSED_PIPE;
            }
            return if error.use_stderr() { EXIT_USAGE } else { 0 };
        }
    };
    match args.command {
        None if std::io::stdin().is_terminal() => short_help(),
        None | Some(Command::Serve { .. }) => serve(),
        Some(Command::Check(check_args)) => check::run(&check_args),
        Some(Command::Eval(eval_args)) => eval::run(&eval_args),
        Some(Command::Test(test_args)) => test::run(&test_args),
        Some(Command::Validate(validate_args)) => validate::run(&validate_args),
        Some(Command::Init(init_args)) => init::run(&init_args),
        Some(Command::Explain { code }) => explain::run(&code),
    }
}

/// What a bare `admission-ls` typed at a terminal prints: an editor starts the server with stdin
/// on a pipe, so a terminal means a person, who would otherwise face a silent wait for LSP input.
fn short_help() -> i32 {
    let help = "\
admission-ls: a language server and checker for Kubernetes admission policies

  admission-ls check [PATH…]          report diagnostics for YAML files and folders
  admission-ls eval POLICY --object F evaluate a policy against a request
  admission-ls test [PATH…]           run policy test suites
  admission-ls explain CODE           what a diagnostic code means
  admission-ls serve                  the language server on stdin/stdout (what editors run)

Run `admission-ls --help` for every command and option.
";
    out::emit(help, 0)
}

fn serve() -> i32 {
    match admission_ls::lsp::run_stdio() {
        Ok(status) => status,
        Err(error) => {
            out::error(&format!("admission-ls: error: {error:#}"));
            EXIT_USAGE
        }
    }
}
