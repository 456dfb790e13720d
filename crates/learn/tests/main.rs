//! Learn's integration tests, one binary: each module is one file of this folder.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

mod common;

mod adaptive;
mod agents;
mod benchmark_sets;
mod shipped_positions;
mod wide_boards;
