//! versions tests.
use super::*;
