//! connect4-learn: the learning side of connect4-ml, over the engine.
//!
//! The second crate of the workspace: it imports `connect4-engine` (re-exported here under
//! the same module names, so `connect4_engine::game::Position` is the engine's) and none of
//! the server, chart, terminal or command-line crates; the Python wheel takes it. Its rooms,
//! bottom to top; each imports only rooms below it and the engine:
//! - [`datasets`]: data files that play no games (UCI, "MOVES \[SCORE\]" files, labelling
//!   jobs);
//! - [`arena`]: games, tournaments, Elo, grading against the solver, evaluation;
//! - [`train`]: one trainer per learner, self-play data, position sampling, benchmark sets.
//!
//! Above it: the application (`connect4-ml`: pipeline, charts, server, the `c4` binary).
//!
//! ```
//! use connect4_learn::arena::wilson;
//! let e = wilson(490, 500); // 490 wins in 500 games: 98.0%, 95% interval 96.4-98.9%
//! assert!(e.low > 0.96 && e.high < 0.99);
//! ```

pub mod arena;
pub mod datasets;
pub mod train;
