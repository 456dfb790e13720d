//! Helpers of learn's tests: where the data lies (the file every crate's tests share).

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]
#![allow(dead_code)]

#[path = "../../../../tests/common/data.rs"]
mod data;
#[allow(unused_imports)] // each test binary uses what it needs
pub use data::*;
