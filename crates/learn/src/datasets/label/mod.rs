//! Solver labels for many positions at once: a pool of solvers (one per rayon worker, each
//! with its own table), shards of a job, resumable output, and the labelling jobs built on
//! them (the UCI reconstruction, "MOVES" files, the opening book's leaves, merging shards,
//! checking labels).

mod book_job;
mod lines_job;
mod merge;
mod pool;
mod resumable;
mod shard;
mod tables;
mod uci_job;
mod verify;

pub use book_job::{
    BookJob, BookJobError, book_from_leaves_file, label_book_leaves, leaves_source,
};
pub use lines_job::{
    LabelFileError, LabelJob, LabelReport, ShardManifest, label_file, label_lines, manifest_path,
};
pub use merge::{MergeError, Merged, merge_shards};
pub use pool::{ScoreMany, SolverPool, for_workers};
pub(crate) use resumable::write_resumable;
pub use resumable::{DEFAULT_CHUNK, GenerateError, GenerateReport, PartialRowError, partial_path};
pub use shard::{Shard, ShardError};
pub use tables::TableConfig;
pub use uci_job::generate_uci;
pub use verify::{VerifyReport, verify_labels};
