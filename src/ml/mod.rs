//! Learners and data sets that play no games: the UCI data set (reading, exact reconstruction,
//! label checks), feature matrices, splits, metrics, our histogram gradient-boosted trees and
//! the LMS rule for linear weights.

pub mod by_stones;
pub mod dataset;
pub mod enumerate;
pub mod experiment;
pub mod fetch;
pub mod gbt;
pub mod label;
pub mod labelled;
pub mod lms;
mod lzw;
pub use lzw::LzwError;
pub mod metrics;
pub mod model_file;
pub mod positions;
pub mod sources;
pub mod split;
pub mod uci;

pub use uci::{Label, UciRow};
