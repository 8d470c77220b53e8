//! literals tests.
use super::*;
