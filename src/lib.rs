//! connect4-ml: a Connect Four machine-learning pipeline measured against a perfect solver.
//!
//! The rooms, bottom to top; each imports only rooms below it (no import circles):
//! - [`io`], [`plot`], [`seed`], [`progress`], [`interrupt`]: atomic files and the model-file
//!   container, charts from plain series, named seed streams, progress, Ctrl-C (usable by all);
//! - [`game`]: the rules on bitboards, move strings, keys, mirror images;
//! - [`solver`]: the perfect solver, the oracle that labels data and grades agents;
//! - [`features`]: numbers computed from a board, in named feature sets;
//! - [`datasets`]: data files that play no games (UCI, "MOVES \[SCORE\]" files, labelling jobs);
//! - [`ml`]: the learners and their model files (GBT, LMS weights), metrics, splits;
//! - [`eval`]: static evaluators, one per file, and the one model loader;
//! - [`search`]: depth-limited negamax over any evaluator;
//! - [`agents`]: everything that picks a move, named by typed specs;
//! - [`arena`]: games, tournaments, Elo, grading against the solver, evaluation;
//! - [`train`]: one trainer per learner, self-play data, position sampling, benchmark sets;
//! - [`pipeline`]: the main job's stages, records, resume and report;
//! - [`serve`]: the web UI's server.
//!
//! The `c4` binary is a thin command-line layer over this library.

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
