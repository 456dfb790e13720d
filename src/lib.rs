//! connect4-ml: a Connect Four machine-learning pipeline measured against a perfect solver.
//!
//! The crate is layered bottom to top: [`game`] (bitboard rules) and [`solver`] (the perfect
//! solver that labels data and grades agents); the learners, evaluators, search, agents and
//! arena build on them. The `c4` binary is a thin command-line layer over this library.

#![deny(missing_docs)]

pub mod agents;
pub mod arena;
pub mod eval;
pub mod features;
pub mod game;
pub mod io;
pub mod search;
pub mod solver;

pub use game::{GameError, Geometry, Player, Position};
pub use solver::{Mode, Solver};
