//! admission-ls: a language server and command-line tool for Kubernetes admission policies.
//!
//! Modules, lowest first; each uses only those above it (enforced by `tests/tidy.rs`):
//! `text`, `yaml`, `cel`, `schema`, `policy`, `ide`, `lsp`. The command line lives in the binary.

pub mod cel;
pub mod ide;
pub mod lsp;
pub mod policy;
pub mod schema;
pub mod text;
pub mod yaml;
