//! Feature extractors: numbers computed from the board alone (no search, no solver) that
//! evaluators weigh and learners train on.
//!
//! Not here: weights or models over the features (`ml`, `eval`).

mod linear8;
mod lines;
mod oddeven;
mod sets;

pub use linear8::{LINEAR8_NAMES, Linear8};
pub use lines::DEAD_LINE;
pub use sets::{Extractor, FEATURE_SETS, FeatureSet, UnknownFeatureSet};
