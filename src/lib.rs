//! connect4-ml: a Connect Four machine-learning pipeline measured against a perfect solver.
//!
//! The crate is layered bottom to top: [`game`] (bitboard rules), [`solver`] (the perfect
//! solver that labels data and grades agents), [`features`] (numbers computed from a board),
//! [`eval`] (static evaluators), [`search`] (depth-limited negamax over any evaluator),
//! [`agents`] (everything that picks a move, named by spec strings) and [`arena`] (games,
//! tournaments, Elo, grading against the solver); [`io`] writes files atomically and `seed`
//! derives seeds. The `c4`
//! binary is a thin command-line layer over this library.

#![deny(missing_docs)]

pub mod agents;
pub mod arena;
pub mod datasets;
pub mod eval;
pub mod features;
pub mod game;
pub mod interrupt;
pub mod io;
pub mod ml;
pub mod pipeline;
pub mod plot;
pub mod progress;
pub mod search;
pub mod seed;
pub mod serve;
pub mod solver;
pub mod train;

pub use game::{GameError, Geometry, Player, Position};
pub use interrupt::Interrupt;
pub use solver::{Mode, Solver};
