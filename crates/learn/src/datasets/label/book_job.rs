//! `c4 data book`: the opening book made by the data engine. The book's leaves (every
//! unfinished position with exactly N stones, mirror images folded) are a labelling job like
//! any other: sharded, resumable, merged by `c4 data merge`, run by the same cluster
//! manifests. The shallower positions then follow from the leaves without the solver
//! ([`book_from_leaves`]).

use super::{LabelFileError, LabelJob, LabelReport, Shard, TableConfig, label_lines};
use crate::datasets::labelled::{Expect, MovesFileError, read_moves_file};
use connect4_engine::game::Geometry;
use connect4_engine::solver::Mode;
use connect4_engine::solver::book::{Book, BuildError, book_from_leaves, enumerate_leaves};
use std::path::Path;

/// Why a book could not be made.
#[derive(Debug, thiserror::Error)]
pub enum BookJobError {
    /// Enumerating or assembling the book.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// Labelling the leaves.
    #[error(transparent)]
    Label(#[from] LabelFileError),
    /// Reading a leaves file.
    #[error(transparent)]
    Leaves(#[from] MovesFileError),
    /// A leaves file line without a score.
    #[error("{path}: line {line}: no score (a leaves file holds \"MOVES SCORE\" lines)")]
    Unlabelled {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
    },
}

/// The source text of a book's labelling job: one "MOVES" line per leaf, in the order of
/// [`enumerate_leaves`]. Every shard of one book reads the same text, so their manifests
/// agree and `c4 data merge` accepts them.
pub fn leaves_source(geom: Geometry, plies: usize) -> Result<String, BuildError> {
    let mut text = String::new();
    for (moves, _) in enumerate_leaves(geom, plies)? {
        text.push_str(&moves);
        text.push('\n');
    }
    Ok(text)
}

/// One shard of a book's labelling job.
#[derive(Clone, Copy, Debug)]
pub struct BookJob {
    /// The board.
    pub geometry: Geometry,
    /// The book's depth: its leaves have this many stones.
    pub plies: usize,
    /// This process's shard of the leaves.
    pub shard: Shard,
    /// Leaves solved and flushed to the partial file at a time (as [`LabelJob::chunk`]).
    pub chunk: usize,
}

/// Labels the job's shard of the book's leaves into `out` ("MOVES SCORE" lines, resumable
/// through `out.partial`, with its `.shard.json` for the merge), on `jobs` worker threads.
pub fn label_book_leaves(
    book: &BookJob,
    out: &Path,
    resume: bool,
    jobs: Option<usize>,
    tables: &TableConfig,
    progress: &dyn connect4_engine::progress::Progress,
) -> Result<LabelReport, BookJobError> {
    let BookJob {
        geometry: geom,
        plies,
        shard,
        chunk,
    } = *book;
    let source = leaves_source(geom, plies)?;
    let threads = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .map_err(LabelFileError::from)?;
    let job = LabelJob {
        geometry: geom,
        shard,
        mode: Mode::Strong,
        chunk,
    };
    threads.install(|| {
        let stones = std::iter::repeat_n(plies, source.lines().count().div_ceil(shard.count));
        let pool = tables.pool(geom, stones).map_err(LabelFileError::from)?;
        label_lines(&source, &job, out, resume, &pool, progress)
            .map_err(|e| BookJobError::Label(e.into()))
    })
}

/// The book of depth `plies` from a leaves file ("MOVES SCORE" lines: a whole labelling
/// job's output, or its merged shards).
pub fn book_from_leaves_file(
    geom: Geometry,
    plies: usize,
    path: &Path,
) -> Result<Book, BookJobError> {
    let lines = read_moves_file(path, geom, Expect::Labelled)?;
    let mut leaves = Vec::with_capacity(lines.len());
    for l in lines {
        let score = l.score.ok_or_else(|| BookJobError::Unlabelled {
            path: path.display().to_string(),
            line: l.line,
        })?;
        leaves.push((l.moves, l.position, score));
    }
    Ok(book_from_leaves(geom, plies, leaves)?)
}
