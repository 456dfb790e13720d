//! Helpers of learn's tests: where the data lies (the file every crate's tests share).

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]
#![allow(dead_code)]

#[path = "../../../../tests/common/data.rs"]
mod data;
#[allow(unused_imports)] // each test binary uses what it needs
pub use data::*;

/// Runs the test from the repository root, where the specs' default model paths
/// (`models/...`) lie: cargo starts learn's tests in `crates/learn`. Every test of this binary
/// that moves the process there moves it to the same folder, and no other reads a relative
/// path, so tests running side by side cannot see another folder.
pub fn at_repo_root() {
    std::env::set_current_dir(repo_root()).unwrap();
}
