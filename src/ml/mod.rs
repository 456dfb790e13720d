//! Learners and data sets that play no games: the UCI data set (reading, exact reconstruction,
//! label checks), feature matrices, splits, metrics and our histogram gradient-boosted trees.

pub mod enumerate;
pub mod label;
pub mod uci;

pub use uci::{Label, UciRow};
