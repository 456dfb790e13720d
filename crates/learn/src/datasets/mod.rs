//! Data files that play no games: the UCI data set (reader, exact reconstruction, the
//! `.Z` decoder, label checks), the one reader and writer of "MOVES \[SCORE\]" files (plain
//! or gzip), the self-play CSV, training sources, the labelling jobs, and what all of them
//! produce: [`Example`] and [`Label`] (the engine's, re-exported). Downloading the file is the
//! application's (`connect4_learn::datasets::fetch`): no network crate here.
//!
//! Not here: learners and model files (`ml`), anything that plays games to make data
//! (`train`).

pub mod enumerate;
pub mod games_csv;
pub mod label;
pub mod labelled;
pub mod lzw;
pub mod sources;
pub mod uci;
mod uci_summary;

pub use connect4_engine::ml::example::{Example, Label};
pub use lzw::LzwError;
pub use uci::UciRow;
pub use uci_summary::{UciSummary, summarize};
