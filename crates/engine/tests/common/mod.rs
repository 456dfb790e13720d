//! Helpers of the engine's tests: where the data lies (the file every crate's tests share)
//! and a plain model of the game with an exhaustive minimax, the oracle the solver is checked
//! against.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]
#![allow(dead_code)]

#[path = "../../../../tests/common/data.rs"]
mod data;
mod naive;
#[allow(unused_imports)] // each test binary uses what it needs
pub use data::*;
#[allow(unused_imports)]
pub use naive::*;
