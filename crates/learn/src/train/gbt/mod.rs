//! The GBT trainer: one function, [`train_gbt`], that `c4 train gbt` and the pipeline both
//! call. It runs the experiment (holdout split, optional K-fold CV and linfa baselines),
//! scores held-out positions by band of stones (and, for a table of every position,
//! [`phase_rows`]), and saves the model with its curve, report
//! and gain importance beside it.

pub mod experiment;
mod phases;
mod report_text;

pub use phases::{PhaseRow, phase_rows};

use crate::datasets::Example;
use crate::datasets::sources::{SourcesError, gather, read_labelled_examples};
use connect4_engine::features::FeatureSet;
use connect4_engine::game::Geometry;
use connect4_engine::io::model_format::{ModelFileError, TrainingMeta};
use connect4_engine::ml::by_stones::{DEFAULT_BANDS, metrics_by_stones};
use connect4_engine::ml::gbt::{GbtError, GbtParams};
use connect4_engine::ml::model_file::save_gbt;
use connect4_engine::progress::Progress;
use experiment::{ExperimentConfig, ExperimentOutput, run_experiment};
use std::path::{Path, PathBuf};

/// Named hyperparameter sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GbtPreset {
    /// The report's configuration: lr 0.34, 490 iterations, 58 leaves, depth 7, 42 rows per
    /// leaf, L2 3.11, early stopping on 20%, seed 229.
    Reference,
    /// scikit-learn's HistGradientBoostingClassifier defaults.
    Default,
    /// Our best configuration: smaller steps, more iterations, more leaves.
    Best,
}

impl GbtPreset {
    /// The preset's (unchecked) hyperparameters, to adjust before `check()`.
    pub fn params(self) -> GbtParams {
        match self {
            GbtPreset::Reference => GbtParams::reference(),
            GbtPreset::Default => GbtParams::new(),
            GbtPreset::Best => GbtParams::best(),
        }
    }
}

/// The rows a GBT trains and is tested on.
#[derive(Clone, Debug, Default)]
pub struct GbtData {
    /// Rows split into training and test parts (the UCI rows; the others when there is no
    /// UCI file).
    pub main: Vec<Example>,
    /// Rows that only ever train.
    pub extra: Vec<Example>,
    /// Rows never trained on, scored by band of stones.
    pub held_out: Vec<Example>,
    /// One note per source for the model file's metadata.
    pub notes: Vec<String>,
    /// Why the UCI file was left out, when it was asked for but not found.
    pub uci_missing: Option<String>,
}

impl GbtData {
    /// Reads the sources: the UCI file (if given), self-play CSV files, labelled "MOVES
    /// SCORE" files (training), and labelled files held out from training.
    pub fn from_files(
        uci: Option<&Path>,
        selfplay: &[PathBuf],
        positions: &[PathBuf],
        held_out: &[PathBuf],
        geom: Geometry,
    ) -> Result<GbtData, SourcesError> {
        let sources = gather(uci, selfplay, positions, geom)?;
        let mut rows = Vec::new();
        for f in held_out {
            rows.extend(read_labelled_examples(f, geom)?.0);
        }
        Ok(GbtData {
            main: sources.main,
            extra: sources.extra,
            held_out: rows,
            notes: sources.notes,
            uci_missing: sources.uci_missing.map(|e| e.to_string()),
        })
    }
}

/// Why training failed.
#[derive(Debug, thiserror::Error)]
pub enum TrainGbtError {
    /// Too few rows to split into training and test parts.
    #[error("only {0} labelled positions: too few to train on")]
    TooFew(usize),
    /// The score target needs every row's exact score.
    #[error(
        "the score target needs each position's exact score, and {0} of the rows have none \
         (the UCI file's rows give win / draw / loss only: leave them out with --no-uci)"
    )]
    NoScores(usize),
    /// The fit itself.
    #[error(transparent)]
    Gbt(#[from] GbtError),
    /// Saving the model or the files beside it.
    #[error(transparent)]
    File(#[from] ModelFileError),
}

/// A trained and saved GBT.
pub struct GbtTrained {
    /// The model, its curve and report.
    pub output: ExperimentOutput,
    /// The files written, the model first.
    pub written: Vec<PathBuf>,
}

/// Fits the GBT of `cfg` on `data`, scores `data.held_out` by band of stones, and saves the
/// model to `out` with its metadata (`meta`, to which the data notes are added) and its
/// curve (`.curve.csv`), report (`.report.json`) and importance (`.importance.csv`).
pub fn train_gbt(
    cfg: &ExperimentConfig,
    data: &GbtData,
    out: &Path,
    geom: Geometry,
    meta: TrainingMeta,
    observer: &dyn Progress,
) -> Result<GbtTrained, TrainGbtError> {
    if data.main.len() < 10 {
        return Err(TrainGbtError::TooFew(data.main.len()));
    }
    let missing = experiment::missing_scores(cfg.target, &data.main)
        + experiment::missing_scores(cfg.target, &data.extra);
    if missing > 0 {
        return Err(TrainGbtError::NoScores(missing));
    }
    let mut output = run_experiment(cfg, &data.main, &data.extra, observer)?;
    if !data.held_out.is_empty() {
        output.report.by_stones =
            metrics_by_stones(&output.model, cfg.features, &data.held_out, &DEFAULT_BANDS);
    }
    let meta = meta
        .rows(output.report.holdout.train_rows)
        .data(data.notes.clone())
        .metrics(output.report.holdout.headline_metrics());
    let written = save_gbt_experiment(out, &output, cfg.features, geom, meta)?.to_vec();
    Ok(GbtTrained { output, written })
}

/// Saves an experiment's model to `path` and, beside it, its per-iteration curve
/// (`NAME.curve.csv`), report (`NAME.report.json`) and gain importance
/// (`NAME.importance.csv`), each atomically. Returns the four paths, model first.
fn save_gbt_experiment(
    path: &Path,
    out: &ExperimentOutput,
    features: FeatureSet,
    geom: Geometry,
    meta: TrainingMeta,
) -> Result<[std::path::PathBuf; 4], ModelFileError> {
    use connect4_engine::io::{write_csv_atomic, write_json_atomic};
    save_gbt(path, &out.model, features, geom, meta)?;
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |source| ModelFileError::Io { path: p, source }
    };
    let curve = crate::train::outputs::curve_csv(path);
    write_csv_atomic(&curve, &out.history).map_err(io(&curve))?;
    let report = crate::train::outputs::report_json(path);
    write_json_atomic(&report, &out.report).map_err(io(&report))?;
    #[derive(serde::Serialize)]
    struct Importance<'a> {
        feature: &'a str,
        importance: f64,
    }
    let rows: Vec<Importance> = out
        .report
        .importance
        .iter()
        .map(|(feature, importance)| Importance {
            feature,
            importance: *importance,
        })
        .collect();
    let importance = crate::train::outputs::importance_csv(path);
    write_csv_atomic(&importance, &rows).map_err(io(&importance))?;
    Ok([path.to_path_buf(), curve, report, importance])
}
