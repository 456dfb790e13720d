//! Data files that play no games: the UCI data set (reader, exact reconstruction, download,
//! the `.Z` decoder, label checks), the one reader and writer of "MOVES \[SCORE\]" files (plain
//! or gzip), the self-play CSV, training sources, the labelling jobs, and what all of them
//! produce: [`Example`] and [`Label`].
//!
//! Not here: learners and model files (`ml`), anything that plays games to make data
//! (`train`).

pub mod enumerate;
mod example;
pub mod fetch;
pub mod label;
pub mod labelled;
pub mod lzw;
pub mod selfplay_csv;
pub mod sources;
pub mod uci;
mod uci_summary;

pub use example::{Example, Label};
pub use lzw::LzwError;
pub use uci::UciRow;
pub use uci_summary::{UciSummary, summarize};
