//! What a run writes: the checkpoint it resumes from, the network with its curve and report.

use super::config::{NTupleConfig, ValidNTupleConfig};
use super::curve::CurvePoint;
use super::error::NTupleTrainError;
use super::run::{Checkpoint, NTupleRun};
use crate::arena::Side;
use connect4_engine::game::{BitBoard, Geometry};
use connect4_engine::ml::ntuple::NTupleNetwork;
use serde::Serialize;
use std::path::PathBuf;

/// The trainer's name in its checkpoints.
const TRAINER: &str = "ntuple";

/// Writes a run's state in the format every trainer shares ([`crate::train::checkpoint`]),
/// under its recipe.
pub(super) fn save_checkpoint(
    path: &std::path::Path,
    state: &Checkpoint,
) -> Result<(), NTupleTrainError> {
    Ok(crate::train::checkpoint::save(
        path,
        TRAINER,
        &state.config.to_toml(),
        state,
    )?)
}

/// The state in `path` of a run of `config` (`None`: no file); refused when another
/// trainer, version or run wrote it, or its network does not fit the layout.
pub(super) fn load_checkpoint<B: BitBoard>(
    path: &std::path::Path,
    config: &ValidNTupleConfig,
    geom: Geometry<B>,
) -> Result<Option<Checkpoint>, NTupleTrainError> {
    let Some(bytes) = crate::train::checkpoint::read(path)? else {
        return Ok(None);
    };
    decode_checkpoint(path, &bytes, config, geom).map(Some)
}

/// The state in `bytes`, the contents of the checkpoint file `path` (named in errors), of a
/// run of `config` on `geom`: what a resume reads, for callers that hold the bytes (tests,
/// fuzzers). Refused: another trainer's, version's or run's file, a state that does not
/// decode whole, a network that does not fit the layout.
pub fn decode_checkpoint<B: BitBoard>(
    path: &std::path::Path,
    bytes: &[u8],
    config: &ValidNTupleConfig,
    geom: Geometry<B>,
) -> Result<Checkpoint, NTupleTrainError> {
    let state: Checkpoint =
        crate::train::checkpoint::decode(path, bytes, TRAINER, &config.to_toml())?;
    NTupleNetwork::from_data(geom, state.network.clone()).map_err(|source| {
        NTupleTrainError::CheckpointNetwork {
            path: path.to_path_buf(),
            source,
        }
    })?;
    Ok(state)
}

/// What a run's report (`NAME.report.json`) holds.
#[derive(Clone, Debug, Serialize)]
pub struct NTupleReport<'a> {
    /// The settings.
    pub config: &'a NTupleConfig,
    /// Self-play games.
    pub games: usize,
    /// Labelled positions of the supervised part.
    pub labelled: usize,
    /// Training seconds.
    pub seconds: f64,
    /// Where self-play's time went beyond playing (since the run started or resumed).
    pub sync: super::SyncTimes,
    /// Weights in the network.
    pub weights: usize,
    /// The curve.
    pub curve: &'a [CurvePoint],
    /// Self-play games at the curve point whose network was handed over instead of the
    /// last weights (the curve fell clearly below it); absent when none was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept_games: Option<usize>,
}

/// One row of `NAME.curve.csv`.
#[derive(Serialize)]
struct CurveRow<'a> {
    part: &'a str,
    games: usize,
    seconds: f64,
    score: f64,
    score_low: f64,
    score_high: f64,
    set: &'a str,
    mistakes: f64,
}

/// One row of `NAME.perfect.csv`: one match against the perfect player at one curve point.
#[derive(Serialize)]
struct PerfectRow<'a> {
    run: usize,
    seed: u64,
    part: &'a str,
    games: usize,
    seconds: f64,
    side: Side,
    eps: f64,
    match_games: usize,
    wins: usize,
    draws: usize,
    win_rate: f64,
    low: f64,
    high: f64,
}

/// Writes the perfect-player matches of one or more runs' curves, `(run, seed, curve)`,
/// as one CSV (`c4 plot` draws each run thin and their mean thick with a 95% band).
pub fn write_perfect_csv(
    path: &std::path::Path,
    runs: &[(usize, u64, &[CurvePoint])],
) -> std::io::Result<()> {
    let rows: Vec<PerfectRow> = runs
        .iter()
        .flat_map(|&(run, seed, curve)| {
            curve.iter().flat_map(move |pt| {
                pt.vs_perfect.iter().map(move |m| PerfectRow {
                    run,
                    seed,
                    part: &pt.part,
                    games: pt.games,
                    seconds: pt.seconds,
                    side: m.side,
                    eps: m.eps,
                    match_games: m.games,
                    wins: m.wins,
                    draws: m.draws,
                    win_rate: m.win_rate,
                    low: m.low,
                    high: m.high,
                })
            })
        })
        .collect();
    connect4_engine::io::write_csv_atomic(path, &rows)
}

/// Saves the network to `out` (with `meta`) and, beside it, its curve (`.curve.csv`, one
/// row per point and set) and report (`.report.json`), each atomically; returns the paths.
pub fn save_run<B: BitBoard>(
    out: &std::path::Path,
    config: &NTupleConfig,
    run: &NTupleRun<B>,
    meta: connect4_engine::io::model_format::TrainingMeta,
) -> Result<Vec<PathBuf>, connect4_engine::io::model_format::ModelFileError> {
    use crate::train::outputs;
    use connect4_engine::io::model_format::ModelFileError;
    use connect4_engine::io::{write_csv_atomic, write_json_atomic};
    connect4_engine::ml::model_file::save_ntuple(out, &run.network, meta)?;
    let io = |p: &std::path::Path| {
        let p = p.to_path_buf();
        move |source| ModelFileError::Io { path: p, source }
    };
    let mut rows = Vec::new();
    for pt in &run.curve {
        for (set, m) in &pt.mistakes {
            rows.push(CurveRow {
                part: &pt.part,
                games: pt.games,
                seconds: pt.seconds,
                score: pt.score,
                score_low: pt.score_low,
                score_high: pt.score_high,
                set,
                mistakes: *m,
            });
        }
    }
    let curve = outputs::curve_csv(out);
    write_csv_atomic(&curve, &rows).map_err(io(&curve))?;
    let mut written = vec![out.to_path_buf(), curve.clone()];
    if run.curve.iter().any(|pt| !pt.vs_perfect.is_empty()) {
        let p = outputs::perfect_csv(out);
        write_perfect_csv(&p, &[(0, config.seed, &run.curve)]).map_err(io(&p))?;
        written.push(p);
    }
    let report = outputs::report_json(out);
    let r = NTupleReport {
        config,
        games: run.games,
        labelled: run.labelled,
        seconds: run.seconds,
        sync: run.sync,
        weights: run.network.len(),
        curve: &run.curve,
        kept_games: run.kept.and_then(|k| run.curve.get(k)).map(|p| p.games),
    };
    write_json_atomic(&report, &r).map_err(io(&report))?;
    written.push(report);
    Ok(written)
}
