//! The learners and their model files: our histogram gradient-boosted trees (`gbt`, linfa
//! traits), the LMS rule and linear weights, feature matrices, splits and metrics, and what
//! every learner reads ([`example::Example`], [`example::Label`]).
//!
//! Not here: data files (`datasets`), or anything that drives training (`train`): ml never
//! imports train or pipeline.

pub mod by_stones;
pub mod dataset;
pub mod example;
pub mod gbt;
pub mod lms;
pub mod metrics;
pub mod model_file;
pub mod ntuple;
pub mod split;
