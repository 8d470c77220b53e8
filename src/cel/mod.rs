//! CEL: lexer, parser with error recovery, and (later) checker and evaluator. Knows nothing of YAML or
//! policies; every span is a byte range of the expression text.

pub mod library;
pub mod types;
