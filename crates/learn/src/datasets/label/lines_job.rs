//! Labelling "MOVES" lines into "MOVES SCORE" lines (`c4 data label`), with the manifest
//! that lets `c4 data merge` put the shards back together.

use super::{GenerateError, PartialRowError, ScoreMany, Shard, SolverPool, write_resumable};
use crate::datasets::labelled::Expect;
use connect4_engine::game::{Geometry, Position};
use connect4_engine::solver::{Mode, PoolBoard};

/// One labelling job: the board (of the integer `B`: `u128` past 64 bits), this process's
/// shard and the kind of score.
#[derive(Clone, Copy, Debug)]
pub struct LabelJob<B: PoolBoard = u64> {
    /// The board of the positions.
    pub geometry: Geometry<B>,
    /// This shard (line index mod N = I).
    pub shard: Shard,
    /// Strong (exact) or weak (sign) scores.
    pub mode: Mode,
    /// Positions solved and flushed to the partial file at a time ([`super::DEFAULT_CHUNK`]
    /// unless set): a killed run loses at most one chunk's work. The output never depends
    /// on it.
    pub chunk: usize,
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
/// source's order to `out`, resumably (as [`super::generate_uci`]). Scores are strong, or the sign
/// only with [`Mode::Weak`]. A line that is not a valid, unfinished position is left out and
/// reported with its line number; the others are still labelled.
pub fn label_lines<B: PoolBoard>(
    source: &str,
    job: &LabelJob<B>,
    out: &std::path::Path,
    resume: bool,
    pool: &SolverPool,
    progress: &dyn connect4_engine::progress::Progress,
) -> Result<LabelReport, GenerateError> {
    use std::collections::HashMap;
    let LabelJob {
        geometry: geom,
        shard,
        mode,
        chunk,
    } = *job;
    let (items, skipped, bad_lines, source_lines) = shard_items(source, geom, shard);
    let index: HashMap<&str, usize> = items
        .iter()
        .enumerate()
        .map(|(i, (m, _))| (m.as_str(), i))
        .collect();
    let resumed_item = |line: &str| -> Result<usize, PartialRowError> {
        let t = connect4_engine::game::record::parse_test_line(line)
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
    let mut make_lines = |chunk: &[(String, Position<B>)]| -> Vec<String> {
        // Solved in the order of their move strings, so that positions sharing a prefix
        // (and so much of their search) follow each other through the solvers' tables.
        let mut order: Vec<usize> = (0..chunk.len()).collect();
        order.sort_by(|&a, &b| chunk[a].0.cmp(&chunk[b].0));
        let positions: Vec<Position<B>> = order.iter().map(|&i| chunk[i].1).collect();
        let solved = pool.scores(&positions, mode, progress);
        let mut scores = vec![0; chunk.len()];
        for (&i, s) in order.iter().zip(solved) {
            scores[i] = s;
        }
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
        chunk,
        &resumed_item,
        &mut make_lines,
        progress,
    )?;
    progress.finish();
    let manifest = manifest_of(source, source_lines, shard, mode, items.len(), skipped);
    let mpath = manifest_path(out);
    connect4_engine::io::write_json_atomic(&mpath, &manifest).map_err(|source| {
        GenerateError::Io {
            path: mpath,
            source,
        }
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

/// The record of a shard's job that `c4 data merge` checks its parts against.
fn manifest_of(
    source: &str,
    source_lines: usize,
    shard: Shard,
    mode: Mode,
    positions: usize,
    skipped: Vec<usize>,
) -> ShardManifest {
    ShardManifest {
        source_sha256: connect4_engine::io::sha256_hex(source.as_bytes()),
        source_lines,
        shard: shard.index,
        shards: shard.count,
        mode: match mode {
            Mode::Strong => "strong",
            Mode::Weak => "weak",
        }
        .to_string(),
        positions,
        skipped,
    }
}

/// This shard's lines of `source` (line k is in shard `k mod count`) as (moves, position):
/// the items, the indices of the lines skipped (blank, comments, unreadable), each
/// unreadable line's number and why, and the source's number of lines.
#[allow(clippy::type_complexity)]
fn shard_items<B: PoolBoard>(
    source: &str,
    geom: Geometry<B>,
    shard: Shard,
) -> (
    Vec<(String, Position<B>)>,
    Vec<usize>,
    Vec<(usize, String)>,
    usize,
) {
    let mut items: Vec<(String, Position<B>)> = Vec::new();
    let mut bad_lines = Vec::new();
    let mut skipped = Vec::new();
    let mut source_lines = 0;
    for (k, line) in source.lines().enumerate() {
        source_lines = k + 1;
        if k % shard.count != shard.index {
            continue;
        }
        let parsed = crate::datasets::labelled::parse_line(line, k + 1, geom, Expect::Any)
            .map(|m| m.map(|m| (m.moves, m.position)));
        match parsed {
            Ok(Some(item)) => items.push(item),
            Ok(None) => skipped.push(k),
            Err(e) => {
                skipped.push(k);
                bad_lines.push((k + 1, e.to_string()));
            }
        }
    }
    (items, skipped, bad_lines, source_lines)
}

/// Why [`label_file`] could not run.
#[derive(Debug, thiserror::Error)]
pub enum LabelFileError {
    /// The source file.
    #[error(transparent)]
    Source(#[from] crate::datasets::labelled::MovesFileError),
    /// The worker threads could not start.
    #[error("cannot start the worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// The solver tables could not be made.
    #[error(transparent)]
    Tables(#[from] connect4_engine::solver::SolverError),
    /// The labelling itself.
    #[error(transparent)]
    Label(#[from] GenerateError),
}

/// `c4 data label`: labels the file at `path` (plain or gzip) as [`label_lines`] does, on
/// `jobs` worker threads (every core for `None`), with solvers set up by `tables` (the
/// shared shallow table sized to this shard's early positions).
pub fn label_file<B: PoolBoard>(
    path: &std::path::Path,
    job: &LabelJob<B>,
    out: &std::path::Path,
    resume: bool,
    jobs: Option<usize>,
    tables: &super::TableConfig,
    progress: &dyn connect4_engine::progress::Progress,
) -> Result<LabelReport, LabelFileError> {
    let source = crate::datasets::labelled::read_text(path)?;
    let threads = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()?;
    threads.install(|| {
        let shard = job.shard;
        let stones = source.lines().enumerate().filter_map(|(k, l)| {
            let t = connect4_engine::game::record::parse_test_line(l).ok()??;
            (k % shard.count == shard.index).then_some(t.moves.len())
        });
        let pool = tables.pool(job.geometry, stones)?;
        Ok(label_lines(&source, job, out, resume, &pool, progress)?)
    })
}
