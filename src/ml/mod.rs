//! Learners and data sets that play no games: the UCI data set (reading, exact reconstruction,
//! label checks), feature matrices, splits, metrics and our histogram gradient-boosted trees.

pub mod dataset;
pub mod enumerate;
pub mod experiment;
pub mod fetch;
pub mod gbt;
pub mod label;
pub mod lzw;
pub mod metrics;
pub mod model_file;
pub mod positions;
pub mod split;
pub mod uci;

pub use uci::{Label, UciRow};
