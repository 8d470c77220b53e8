//! bounds tests.
use super::*;
