//! connect4-engine: Connect Four itself, everything that plays or judges a position.
//!
//! The first crate of the workspace: it imports no other crate of the project, and none of
//! the server, chart, terminal, command-line or network crates, so it builds for
//! `wasm32-unknown-unknown` and into the Python wheel. Its rooms, bottom to top; each
//! imports only rooms below it:
//! - [`io`], [`seed`], [`progress`], [`interrupt`], [`clock`]: atomic files and the
//!   model-file container, named seed streams, the progress trait, stopping long work, the
//!   clock (the host's in a browser) (usable by all);
//! - [`game`]: the rules on bitboards, move strings, keys, mirror images;
//! - [`solver`]: the perfect solver and its opening book, the oracle that labels data and
//!   grades agents;
//! - [`features`]: numbers computed from a board, in named feature sets;
//! - [`ml`]: the models and their learning rules (GBT, LMS weights, n-tuple networks), model
//!   files, metrics, splits, and the labelled [`ml::example::Example`] every learner reads;
//! - [`eval`]: static evaluators, one per file, and the one model loader;
//! - [`search`]: depth-limited negamax over any evaluator;
//! - [`agents`]: everything that picks a move, named by typed specs;
//! - [`answers`]: what a player's page reads (analysis, review, a move, the agent kinds),
//!   as JSON-ready values shared by the server and the WebAssembly engine.
//!
//! Above it: `connect4-learn` (data sets, trainers, the arena) and `connect4-wasm` (this
//! engine for browsers and Node), then the application (`connect4-ml`: pipeline, charts,
//! server, static site, the `c4` binary).
//!
//! ```
//! use connect4_engine::{Geometry, Mode, Position, Solver};
//! let pos = Position::from_moves(Geometry::STANDARD, "4453").unwrap();
//! let mut solver = Solver::new(Geometry::STANDARD);
//! assert_eq!(solver.score(&pos, Mode::Weak), -1); // the side to move loses
//! ```

pub mod agents;
pub mod answers;
pub mod clock;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod entropy;
pub mod eval;
pub mod features;
pub mod game;
pub mod interrupt;
pub mod io;
mod kept;
pub mod ml;
pub mod progress;
pub mod search;
pub mod seed;
pub mod solver;

pub use game::{GameError, Geometry, Player, Position};
pub use interrupt::Interrupt;
pub use solver::{Mode, Solver};
