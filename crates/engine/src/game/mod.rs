//! The rules of Connect Four on bitboards: [`Geometry`] (board size and masks), [`Position`]
//! (play, legality, wins, keys, mirror), move strings ([`moves`], the one codec), and the UCI
//! cell encoding.
//!
//! Not here: solving (`solver`), evaluation (`eval`), reading data files (`datasets`).

pub mod bitboard;
mod error;
mod geometry;
mod lines;
pub mod moves;
mod position;
mod random_line;
pub mod record;
pub mod uci;

pub use bitboard::BitBoard;
pub use error::GameError;
pub use geometry::{Geometry, needs_wide};
pub use lines::{Direction, Line};
pub use position::{Outcome, Player, Position};
pub use random_line::{LineRules, random_line};
pub use uci::Cell;
