//! The engine's integration tests, one binary: each module is one file of this folder.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

mod common;

mod game_props;
mod level;
mod small_boards;
mod solver_pons;
