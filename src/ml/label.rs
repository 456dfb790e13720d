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
    /// Not a "MOVES SCORE" line.
    #[error("not a \"MOVES SCORE\" line")]
    NotALabelLine,
    /// A row of this job, but not the next one: the file is not this job's prefix.
    #[error("row is out of order for this job (another source or shard?)")]
    OutOfOrder,
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

/// A resumable job that writes one line per item of `items`, in order: lines go to
/// `out.partial` in flushed chunks, so an interrupted run loses at most one chunk; with
/// `resume`, the complete lines already there are kept (a torn last line is cut off) and the
/// job goes on after them; when every item has its line the file is renamed to `out`.
/// `resumed_item` names the item a kept line belongs to (its index in `items`), or says why
/// the line cannot belong to this job; `make_lines` turns a chunk of items into their lines.
/// Returns the number of lines kept from an earlier run.
pub(crate) fn write_resumable<T>(
    items: &[T],
    out: &std::path::Path,
    resume: bool,
    resumed_item: &dyn Fn(&str) -> Result<usize, PartialRowError>,
    make_lines: &mut dyn FnMut(&[T]) -> Vec<String>,
    progress: &dyn crate::progress::Progress,
) -> Result<usize, GenerateError> {
    use std::io::Write;
    let part = partial_path(out);
    let io_err = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |source| GenerateError::Io { path, source }
    };
    let mut done = 0;
    if part.exists() {
        if !resume {
            return Err(GenerateError::PartialExists { path: part });
        }
        let text = std::fs::read_to_string(&part).map_err(io_err(&part))?;
        // Keep complete lines only; a torn final line is cut off the file.
        let keep = text.rfind('\n').map_or(0, |i| i + 1);
        for (n, line) in text[..keep].lines().enumerate() {
            let bad = |problem| GenerateError::BadPartial {
                path: part.clone(),
                line: n + 1,
                problem,
            };
            // Lines are written in item order: line n must be item n.
            match resumed_item(line) {
                Ok(i) if i == n => {}
                Ok(_) => return Err(bad(PartialRowError::OutOfOrder)),
                Err(e) => return Err(bad(e)),
            }
            done += 1;
        }
        if done > items.len() {
            return Err(GenerateError::BadPartial {
                path: part.clone(),
                line: items.len() + 1,
                problem: PartialRowError::NotInJob,
            });
        }
        if keep < text.len() {
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(&part)
                .map_err(io_err(&part))?;
            f.set_len(keep as u64).map_err(io_err(&part))?;
        }
        progress.advance(done);
    }
    if let Some(dir) = part.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io_err(dir))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&part)
        .map_err(io_err(&part))?;
    const CHUNK: usize = 1024;
    for chunk in items[done..].chunks(CHUNK) {
        let mut text = String::with_capacity(chunk.len() * 48);
        for line in make_lines(chunk) {
            text.push_str(&line);
            text.push('\n');
        }
        file.write_all(text.as_bytes()).map_err(io_err(&part))?;
        file.sync_data().map_err(io_err(&part))?;
    }
    drop(file);
    std::fs::rename(&part, out).map_err(io_err(out))?;
    Ok(done)
}

/// Labels `positions` (this shard's part) with the weak solver and writes them in UCI format
/// to `out`, resumably: rows go to `out.partial` in flushed chunks, `resume` continues from
/// it (a torn last line is dropped), and the file is renamed to `out` when complete.
pub fn generate_uci(
    positions: &[Position],
    shard: Shard,
    out: &std::path::Path,
    resume: bool,
    pool: &SolverPool,
    progress: &dyn crate::progress::Progress,
) -> Result<GenerateReport, GenerateError> {
    use std::collections::HashMap;
    let mine = shard.select(positions);
    let index: HashMap<u64, usize> = mine.iter().enumerate().map(|(i, p)| (p.key(), i)).collect();
    let geom = mine
        .first()
        .map_or_else(Geometry::default, |p| p.geometry());
    let classes = std::cell::RefCell::new([0usize; 3]);
    let resumed_item = |line: &str| -> Result<usize, PartialRowError> {
        let fields: Vec<&str> = line.split(',').collect();
        let row = super::uci::parse_record(geom, &fields, None).map_err(PartialRowError::Row)?;
        let i = *index
            .get(&row.position.key())
            .ok_or(PartialRowError::NotInJob)?;
        classes.borrow_mut()[row.label.index()] += 1;
        Ok(i)
    };
    let mut make_lines = |chunk: &[Position]| -> Vec<String> {
        let scores = pool.scores(chunk, Mode::Weak, progress);
        chunk
            .iter()
            .zip(scores)
            .map(|(p, s)| {
                let label = super::Label::from_score(s);
                classes.borrow_mut()[label.index()] += 1;
                super::uci::format_row(p, label)
            })
            .collect()
    };
    let start = std::time::Instant::now();
    let resumed = write_resumable(&mine, out, resume, &resumed_item, &mut make_lines, progress)?;
    Ok(GenerateReport {
        total: mine.len(),
        resumed,
        labelled: mine.len() - resumed,
        seconds: start.elapsed().as_secs_f64(),
        classes: classes.into_inner(),
    })
}

/// A source line that is not a position to label.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SourceLineError {
    /// Not "MOVES" (or "MOVES SCORE").
    #[error(transparent)]
    Line(#[from] crate::game::record::LineError),
    /// The moves are not a legal game.
    #[error(transparent)]
    Moves(#[from] crate::game::GameError),
    /// The game is already over: there is nothing to solve.
    #[error("the game is already over")]
    Finished,
}

/// One labelling job: the board, this process's shard and the kind of score.
#[derive(Clone, Copy, Debug)]
pub struct LabelJob {
    /// The board of the positions.
    pub geometry: Geometry,
    /// This shard (line index mod N = I).
    pub shard: Shard,
    /// Strong (exact) or weak (sign) scores.
    pub mode: Mode,
}

/// What `c4 data label` did with one shard of a source file.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LabelReport {
    /// Positions of this shard labelled in the output (resumed ones included).
    pub positions: usize,
    /// Lines kept from an earlier, interrupted run.
    pub resumed: usize,
    /// Positions solved by this run.
    pub labelled: usize,
    /// Wall time, seconds.
    pub seconds: f64,
    /// Lines of this shard that are not positions to label: 1-based line number and why.
    pub bad_lines: Vec<(usize, String)>,
    /// What `c4 data merge` needs to know of this shard (written beside the output).
    pub manifest: ShardManifest,
}

/// A finished shard of a labelling job, as written beside its output (`OUT.shard.json`):
/// enough for `c4 data merge` to check that parts belong to one job and to put their lines
/// back in the source's order without the source.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShardManifest {
    /// sha256 of the source file.
    pub source_sha256: String,
    /// Lines in the source file.
    pub source_lines: usize,
    /// This shard's index.
    pub shard: usize,
    /// Shards of the job.
    pub shards: usize,
    /// "strong" or "weak".
    pub mode: String,
    /// Positions labelled (lines of the output).
    pub positions: usize,
    /// 0-based source lines of this shard that gave no output (blank, comment or bad).
    pub skipped: Vec<usize>,
}

/// Where a part's manifest lives.
pub fn manifest_path(out: &std::path::Path) -> std::path::PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".shard.json");
    s.into()
}

/// Labels the positions of `source` (one "MOVES" line each; blank lines and `#` comments are
/// skipped) that belong to `shard` (line index mod N = I), writing "MOVES SCORE" lines in the
/// source's order to `out`, resumably (as [`generate_uci`]). Scores are strong, or the sign
/// only with [`Mode::Weak`]. A line that is not a valid, unfinished position is left out and
/// reported with its line number; the others are still labelled.
pub fn label_lines(
    source: &str,
    job: &LabelJob,
    out: &std::path::Path,
    resume: bool,
    pool: &SolverPool,
    progress: &dyn crate::progress::Progress,
) -> Result<LabelReport, GenerateError> {
    use std::collections::HashMap;
    let LabelJob {
        geometry: geom,
        shard,
        mode,
    } = *job;
    let mut items: Vec<(String, Position)> = Vec::new();
    let mut bad_lines = Vec::new();
    let mut skipped = Vec::new();
    let mut source_lines = 0;
    for (k, line) in source.lines().enumerate() {
        source_lines = k + 1;
        if k % shard.count != shard.index {
            continue;
        }
        let parsed = crate::game::record::parse_test_line(line)
            .map_err(SourceLineError::from)
            .and_then(|t| match t {
                None => Ok(None),
                Some(t) => {
                    let p = Position::from_moves(geom, &t.moves)?;
                    if p.last_move_won() || p.is_full() {
                        Err(SourceLineError::Finished)
                    } else {
                        Ok(Some((t.moves, p)))
                    }
                }
            });
        match parsed {
            Ok(Some(item)) => items.push(item),
            Ok(None) => skipped.push(k),
            Err(e) => {
                skipped.push(k);
                bad_lines.push((k + 1, e.to_string()));
            }
        }
    }
    let index: HashMap<&str, usize> = items
        .iter()
        .enumerate()
        .map(|(i, (m, _))| (m.as_str(), i))
        .collect();
    let resumed_item = |line: &str| -> Result<usize, PartialRowError> {
        let t = crate::game::record::parse_test_line(line)
            .ok()
            .flatten()
            .filter(|t| t.expected.is_some())
            .ok_or(PartialRowError::NotALabelLine)?;
        index
            .get(t.moves.as_str())
            .copied()
            .ok_or(PartialRowError::NotInJob)
    };
    progress.start("positions", items.len());
    let mut make_lines = |chunk: &[(String, Position)]| -> Vec<String> {
        let positions: Vec<Position> = chunk.iter().map(|(_, p)| *p).collect();
        let scores = pool.scores(&positions, mode, progress);
        chunk
            .iter()
            .zip(scores)
            .map(|((m, _), s)| format!("{m} {s}"))
            .collect()
    };
    let start = std::time::Instant::now();
    let resumed = write_resumable(
        &items,
        out,
        resume,
        &resumed_item,
        &mut make_lines,
        progress,
    )?;
    progress.finish();
    let manifest = ShardManifest {
        source_sha256: crate::io::sha256_hex(source.as_bytes()),
        source_lines,
        shard: shard.index,
        shards: shard.count,
        mode: match mode {
            Mode::Strong => "strong",
            Mode::Weak => "weak",
        }
        .to_string(),
        positions: items.len(),
        skipped,
    };
    let mpath = manifest_path(out);
    crate::io::write_json_atomic(&mpath, &manifest).map_err(|source| GenerateError::Io {
        path: mpath,
        source,
    })?;
    Ok(LabelReport {
        manifest,
        positions: items.len(),
        resumed,
        labelled: items.len() - resumed,
        seconds: start.elapsed().as_secs_f64(),
        bad_lines,
    })
}

/// Why parts could not be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A file could not be read.
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A part has no readable manifest beside it.
    #[error("{path}: no readable {manifest} beside it: not a finished shard of `c4 data label` ({why})", path = path.display(), manifest = manifest_path(path).display())]
    Manifest {
        /// The part.
        path: std::path::PathBuf,
        /// What went wrong.
        why: String,
    },
    /// Parts of different jobs (source, shard count or score kind differ).
    #[error("{path}: not a shard of the same job as {first}", path = path.display(), first = first.display())]
    OtherJob {
        /// The odd part.
        path: std::path::PathBuf,
        /// The first part.
        first: std::path::PathBuf,
    },
    /// A shard given twice.
    #[error("shard {shard}/{shards} is given twice")]
    Twice {
        /// The shard.
        shard: usize,
        /// Shards of the job.
        shards: usize,
    },
    /// A shard not given.
    #[error("shard {shard}/{shards} is missing")]
    Missing {
        /// The shard.
        shard: usize,
        /// Shards of the job.
        shards: usize,
    },
    /// A part has more or fewer lines than its manifest says.
    #[error("{path}: {found} lines, its manifest says {expected}", path = path.display())]
    LineCount {
        /// The part.
        path: std::path::PathBuf,
        /// Lines the manifest gives.
        expected: usize,
        /// Lines found.
        found: usize,
    },
    /// A line that is not a labelled position.
    #[error("{path}:{line}: not a valid \"MOVES SCORE\" line", path = path.display())]
    BadLine {
        /// The part.
        path: std::path::PathBuf,
        /// 1-based line.
        line: usize,
    },
    /// The same position (or its mirror image) with two scores.
    #[error("{first} and {second} are the same position (up to mirror) with different scores")]
    Disagree {
        /// One line.
        first: String,
        /// The other.
        second: String,
    },
    /// The source given is not the job's, or a line does not match it.
    #[error("the source does not match the parts: {0}")]
    Source(String),
}

/// The merged file.
#[derive(Clone, Debug)]
pub struct Merged {
    /// "MOVES SCORE" lines in the source's order.
    pub text: String,
    /// Its sha256.
    pub sha256: String,
    /// Positions in it.
    pub positions: usize,
    /// Shards merged.
    pub shards: usize,
}

/// Merges the parts written by [`label_lines`] (each with its manifest beside it): checks
/// that they are every shard of one job once, complete, and that no position (up to mirror)
/// has two scores; with the job's `source` text, also that every line is the source's line.
pub fn merge_shards(
    parts: &[std::path::PathBuf],
    source: Option<&str>,
    geom: Geometry,
) -> Result<Merged, MergeError> {
    use std::collections::{HashMap, HashSet};
    let read = |p: &std::path::Path| {
        std::fs::read_to_string(p).map_err(|source| MergeError::Io {
            path: p.to_path_buf(),
            source,
        })
    };
    let mut manifests = Vec::new();
    for p in parts {
        let text = std::fs::read_to_string(manifest_path(p)).map_err(|e| MergeError::Manifest {
            path: p.clone(),
            why: e.to_string(),
        })?;
        let m: ShardManifest = serde_json::from_str(&text).map_err(|e| MergeError::Manifest {
            path: p.clone(),
            why: e.to_string(),
        })?;
        manifests.push(m);
    }
    let Some(first) = manifests.first().cloned() else {
        return Err(MergeError::Missing {
            shard: 0,
            shards: 1,
        });
    };
    let n = first.shards;
    let mut by_shard: Vec<Option<usize>> = vec![None; n];
    for (i, m) in manifests.iter().enumerate() {
        let same = m.source_sha256 == first.source_sha256
            && m.source_lines == first.source_lines
            && m.shards == n
            && m.mode == first.mode
            && m.shard < n;
        if !same {
            return Err(MergeError::OtherJob {
                path: parts[i].clone(),
                first: parts[0].clone(),
            });
        }
        if by_shard[m.shard].replace(i).is_some() {
            return Err(MergeError::Twice {
                shard: m.shard,
                shards: n,
            });
        }
    }
    if let Some(missing) = by_shard.iter().position(|s| s.is_none()) {
        return Err(MergeError::Missing {
            shard: missing,
            shards: n,
        });
    }
    let source_lines: Option<Vec<&str>> = source.map(|s| s.lines().collect());
    if let Some(src) = source
        && crate::io::sha256_hex(src.as_bytes()) != first.source_sha256
    {
        return Err(MergeError::Source(
            "its sha256 is not the one the parts were labelled from".into(),
        ));
    }
    let mut texts = Vec::with_capacity(n);
    for slot in &by_shard {
        let i = slot.expect("every shard checked present");
        let text = read(&parts[i])?;
        let count = text.lines().count();
        if count != manifests[i].positions {
            return Err(MergeError::LineCount {
                path: parts[i].clone(),
                expected: manifests[i].positions,
                found: count,
            });
        }
        texts.push(text);
    }
    let mut lines: Vec<std::str::Lines> = texts.iter().map(|t| t.lines()).collect();
    let mut line_no = vec![0usize; n];
    let skipped: HashSet<usize> = manifests
        .iter()
        .flat_map(|m| m.skipped.iter().copied())
        .collect();
    let mut scores: HashMap<u64, String> = HashMap::new();
    let mut out = String::new();
    let mut positions = 0;
    for k in 0..first.source_lines {
        if skipped.contains(&k) {
            continue;
        }
        let shard = k % n;
        let i = by_shard[shard].expect("present");
        let bad = || MergeError::BadLine {
            path: parts[i].clone(),
            line: line_no[shard] + 1,
        };
        let line = lines[shard].next().ok_or_else(|| MergeError::LineCount {
            path: parts[i].clone(),
            expected: manifests[i].positions,
            found: line_no[shard],
        })?;
        let t = crate::game::record::parse_test_line(line)
            .ok()
            .flatten()
            .filter(|t| t.expected.is_some())
            .ok_or_else(bad)?;
        let pos = Position::from_moves(geom, &t.moves).map_err(|_| bad())?;
        line_no[shard] += 1;
        if let Some(src) = &source_lines {
            let want = src
                .get(k)
                .and_then(|l| crate::game::record::parse_test_line(l).ok().flatten());
            if want.is_none_or(|w| w.moves != t.moves) {
                return Err(MergeError::Source(format!(
                    "line {} of the source is not {}",
                    k + 1,
                    t.moves
                )));
            }
        }
        if let Some(prev) = scores.get(&pos.canonical_key()) {
            let prev_score = prev.split_once(' ').map(|(_, s)| s);
            if prev_score != line.split_once(' ').map(|(_, s)| s) {
                return Err(MergeError::Disagree {
                    first: prev.clone(),
                    second: line.to_string(),
                });
            }
        } else {
            scores.insert(pos.canonical_key(), line.to_string());
        }
        out.push_str(line);
        out.push('\n');
        positions += 1;
    }
    Ok(Merged {
        sha256: crate::io::sha256_hex(out.as_bytes()),
        text: out,
        positions,
        shards: n,
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
