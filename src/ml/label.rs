//! Solver labels for many positions at once: a pool of solvers (one per rayon worker, each
//! with its own table) so labelling uses every core without re-allocating tables.

use crate::game::{Geometry, Position};
use crate::solver::{Mode, Solver, SolverError};
use rayon::prelude::*;
use std::sync::Mutex;

/// One solver per rayon worker thread, created once and reused across calls.
pub struct SolverPool {
    solvers: Vec<Mutex<Solver>>,
}

impl SolverPool {
    /// A pool for `geom` with one `tt_mib`-MiB solver per thread of the current rayon pool.
    pub fn new(geom: Geometry, tt_mib: usize) -> Result<Self, SolverError> {
        let n = rayon::current_num_threads().max(1);
        let solvers = (0..n)
            .map(|_| Solver::with_table_mib(geom, tt_mib).map(Mutex::new))
            .collect::<Result<_, _>>()?;
        Ok(SolverPool { solvers })
    }

    /// The score of every position in `mode` (same order), solved in parallel; `progress`
    /// advances once per finished position.
    pub fn scores(
        &self,
        positions: &[Position],
        mode: Mode,
        progress: &dyn crate::progress::Progress,
    ) -> Vec<i32> {
        positions
            .par_iter()
            .with_max_len(1)
            .map(|p| {
                let i = rayon::current_thread_index().unwrap_or(0) % self.solvers.len();
                let score = self.solvers[i]
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .score(p, mode);
                progress.advance(1);
                score
            })
            .collect()
    }
}

/// How a sample of labelled rows compares with the solver (`c4 data verify-uci`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct VerifyReport {
    /// Rows checked.
    pub checked: usize,
    /// Rows whose label the solver confirms.
    pub agree: usize,
    /// The others: "line N: file says X, solver says Y".
    pub disagreements: Vec<String>,
    /// Wall time of the solving.
    pub seconds: f64,
}

/// Weak-solves `sample` rows of `rows` (all when 0 or more than there are), drawn with
/// `seed`, in file order, and compares each with its label; `progress` advances per row.
pub fn verify_labels(
    rows: &[crate::ml::uci::UciRow],
    sample: usize,
    seed: u64,
    pool: &SolverPool,
    progress: &dyn crate::progress::Progress,
) -> VerifyReport {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let mut idx: Vec<usize> = (0..rows.len()).collect();
    if sample > 0 && sample < rows.len() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        idx.shuffle(&mut rng);
        idx.truncate(sample);
        idx.sort_unstable();
    }
    let positions: Vec<Position> = idx.iter().map(|&i| rows[i].position).collect();
    let start = std::time::Instant::now();
    let scores = pool.scores(&positions, crate::solver::Mode::Weak, progress);
    let mut report = VerifyReport {
        checked: idx.len(),
        agree: 0,
        disagreements: vec![],
        seconds: start.elapsed().as_secs_f64(),
    };
    for (&i, s) in idx.iter().zip(scores) {
        let solved = crate::ml::uci::Label::from_score(s);
        if solved == rows[i].label {
            report.agree += 1;
        } else {
            report.disagreements.push(format!(
                "line {}: file says {}, solver says {}",
                i + 1,
                rows[i].label,
                solved
            ));
        }
    }
    report
}

/// A slice of a job for one machine or process: `index` of `count` (0-based, "I/N"). Position
/// `k` of the full list belongs to shard `k % count`, so every shard gets a similar mix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, 0-based.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl Default for Shard {
    fn default() -> Self {
        Shard { index: 0, count: 1 }
    }
}

/// Why a shard string ("I/N") was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// No `/`.
    #[error("shard {0:?} is not I/N (e.g. 0/4)")]
    Form(String),
    /// I or N is not a number.
    #[error("shard {part} {text:?} is not a number")]
    NotANumber {
        /// "index" or "count".
        part: &'static str,
        /// The text.
        text: String,
    },
    /// Not 0 <= I < N.
    #[error("shard {index}/{count}: need 0 <= I < N")]
    Range {
        /// I.
        index: usize,
        /// N.
        count: usize,
    },
}

impl std::str::FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Self, ShardError> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| ShardError::Form(s.to_string()))?;
        let number = |part, text: &str| {
            text.trim()
                .parse::<usize>()
                .map_err(|_| ShardError::NotANumber {
                    part,
                    text: text.to_string(),
                })
        };
        let (index, count) = (number("index", i)?, number("count", n)?);
        if count == 0 || index >= count {
            return Err(ShardError::Range { index, count });
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The items of `all` that belong to this shard, in order.
    pub fn select<T: Copy>(&self, all: &[T]) -> Vec<T> {
        all.iter()
            .enumerate()
            .filter(|(k, _)| k % self.count == self.index)
            .map(|(_, t)| *t)
            .collect()
    }
}

/// What a `generate-uci` run did.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GenerateReport {
    /// Positions in this shard.
    pub total: usize,
    /// Positions already labelled in the partial file when the run (re)started.
    pub resumed: usize,
    /// Positions labelled by this run.
    pub labelled: usize,
    /// Wall time of the labelling, seconds.
    pub seconds: f64,
    /// Rows per class (loss, draw, win) in the finished file.
    pub classes: [usize; 3],
}

/// Why a line of a partial labelling file cannot be resumed from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PartialRowError {
    /// Not a UCI-format row.
    #[error(transparent)]
    Row(crate::ml::uci::RowError),
    /// A valid row of another job.
    #[error("position is not part of this job (other shard or ply?)")]
    NotInJob,
}

/// Errors of the resumable labelling job.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// File trouble.
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A partial file exists but the job was not asked to resume it.
    #[error("{path} exists from an interrupted run: resume it, or delete it to start over", path = path.display())]
    PartialExists {
        /// The partial file.
        path: std::path::PathBuf,
    },
    /// The partial file holds a row that cannot belong to this job.
    #[error("{path}:{line}: {problem}", path = path.display())]
    BadPartial {
        /// The partial file.
        path: std::path::PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        problem: PartialRowError,
    },
}

/// The file a run of [`generate_uci`] appends to until it is complete.
pub fn partial_path(out: &std::path::Path) -> std::path::PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".partial");
    s.into()
}

/// Labels `positions` (this shard's part) with the weak solver and writes them in UCI format
/// to `out`. Rows are appended to `out.partial` in chunks (each flushed to disk), so an
/// interrupted run loses at most one chunk; `resume` continues from that file (a torn last
/// line is dropped). When every position is labelled the partial file is renamed to `out`.
pub fn generate_uci(
    positions: &[Position],
    shard: Shard,
    out: &std::path::Path,
    resume: bool,
    pool: &SolverPool,
    progress: &dyn crate::progress::Progress,
) -> Result<GenerateReport, GenerateError> {
    use std::collections::HashMap;
    use std::io::Write;
    let mine = shard.select(positions);
    let part = partial_path(out);
    let io_err = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |source| GenerateError::Io { path, source }
    };
    let mut classes = [0usize; 3];
    let index: HashMap<u64, usize> = mine.iter().enumerate().map(|(i, p)| (p.key(), i)).collect();
    let mut labelled = vec![false; mine.len()];
    let mut resumed = 0;
    if part.exists() {
        if !resume {
            return Err(GenerateError::PartialExists { path: part });
        }
        let text = std::fs::read_to_string(&part).map_err(io_err(&part))?;
        // Keep complete lines only; a torn final line is cut off the file.
        let keep = text.rfind('\n').map_or(0, |i| i + 1);
        let geom = mine
            .first()
            .map_or_else(Geometry::default, |p| p.geometry());
        for (n, line) in text[..keep].lines().enumerate() {
            let fields: Vec<&str> = line.split(',').collect();
            let bad = |problem: PartialRowError| GenerateError::BadPartial {
                path: part.clone(),
                line: n + 1,
                problem,
            };
            let row = super::uci::parse_record(geom, &fields, None)
                .map_err(|e| bad(PartialRowError::Row(e)))?;
            let Some(&i) = index.get(&row.position.key()) else {
                return Err(bad(PartialRowError::NotInJob));
            };
            if !labelled[i] {
                labelled[i] = true;
                resumed += 1;
                classes[row.label.index()] += 1;
            }
        }
        if keep < text.len() {
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(&part)
                .map_err(io_err(&part))?;
            f.set_len(keep as u64).map_err(io_err(&part))?;
        }
        progress.advance(resumed);
    }
    if let Some(dir) = part.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io_err(dir))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&part)
        .map_err(io_err(&part))?;
    let todo: Vec<Position> = mine
        .iter()
        .zip(&labelled)
        .filter(|(_, l)| !**l)
        .map(|(p, _)| *p)
        .collect();
    let start = std::time::Instant::now();
    const CHUNK: usize = 1024;
    for chunk in todo.chunks(CHUNK) {
        let scores = pool.scores(chunk, Mode::Weak, progress);
        let mut text = String::with_capacity(chunk.len() * 90);
        for (p, s) in chunk.iter().zip(scores) {
            let label = super::Label::from_score(s);
            classes[label.index()] += 1;
            text.push_str(&super::uci::format_row(p, label));
            text.push('\n');
        }
        file.write_all(text.as_bytes()).map_err(io_err(&part))?;
        file.sync_data().map_err(io_err(&part))?;
    }
    drop(file);
    std::fs::rename(&part, out).map_err(io_err(out))?;
    Ok(GenerateReport {
        total: mine.len(),
        resumed,
        labelled: todo.len(),
        seconds: start.elapsed().as_secs_f64(),
        classes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_partition() {
        let s: Shard = "1/3".parse().unwrap();
        assert_eq!(s.select(&[0, 1, 2, 3, 4, 5, 6]), vec![1, 4]);
        assert!("3/3".parse::<Shard>().is_err());
        assert!("a/3".parse::<Shard>().is_err());
        assert!("2".parse::<Shard>().is_err());
    }
}
