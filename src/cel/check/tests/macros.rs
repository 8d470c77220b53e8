//! macros tests.
use super::*;
