//! Stage 2, lms: the linear evaluator's weights: the LMS rule on the shipped labelled
//! positions (off 7x6: the data stage's training half), then self-play against the hand-tuned agent from those weights, keeping the
//! weights (the fitted ones included) that score best in the evaluation matches.

use super::data::DataSplit;
use super::inputs::Inputs;
use super::{PipelineConfig, PipelineError, Sizes, fail};
use connect4_engine::io::model_format::TrainingMeta;
use connect4_engine::progress::Progress;
use connect4_learn::train::lms::{
    EpochRecord, LmsConfig, LmsReport, SupervisedConfig, SupervisedReport, ValidLmsConfig,
    fit_supervised, save_run, save_supervised_report, train,
};
use linfa::ParamGuard;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The supervised fit that started self-play.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SupervisedSummary {
    /// Positions fitted.
    pub train_rows: usize,
    /// Positions held out of the fit.
    pub test_rows: usize,
    /// Epochs.
    pub epochs: usize,
    /// Mean squared error on the held-out positions after the last epoch (none without
    /// held-out positions).
    pub heldout_mse: Option<f64>,
    /// Share of held-out decided positions whose value had the right sign.
    pub heldout_sign_accuracy: Option<f64>,
    /// The fitted weights, in feature order.
    pub weights: Vec<f64>,
}

/// What the LMS stage produced.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LmsResult {
    /// The supervised fit self-play started from, when the run has labelled positions.
    pub supervised: Option<SupervisedSummary>,
    /// Training games played.
    pub games: usize,
    /// Search depth of trainee and opponent.
    pub depth: u32,
    /// Why training stopped.
    pub stop: String,
    /// The weights kept were those after this many games.
    pub kept_after_games: usize,
    /// Games in the error window.
    pub window: usize,
    /// Mean squared error over the last window.
    pub final_window_mse: f64,
    /// Cosine similarity of the learned and the hand-tuned weights.
    pub cosine_to_hand_tuned: f64,
    /// Feature names, learned weights and hand-tuned weights, in feature order.
    pub weights: Vec<(String, f64, f64)>,
    /// Games per evaluation match.
    pub eval_games: usize,
    /// Evaluation matches: training games before the match, score in [0, 1].
    pub evaluations: Vec<(usize, f64)>,
}

/// Trains and saves `models/lms.bin` with its curves.
pub fn run(
    config: &PipelineConfig,
    sizes: &Sizes,
    inputs: &Inputs,
    split: &DataSplit,
    observer: &dyn Progress,
) -> Result<(LmsResult, Vec<PathBuf>), PipelineError> {
    let model = config.out.join("models/lms.bin");
    let fitted = supervised_start(config, sizes, inputs, split, observer)?;
    let cfg = LmsConfig::default()
        .geometry(config.geometry)
        .start(fitted.as_ref().map(|f| f.fit.weights))
        .max_games(sizes.lms_games)
        .evaluation(sizes.lms_eval_every, sizes.lms_eval_games)
        .window(
            ValidLmsConfig::default()
                .window()
                .min(sizes.lms_games / 2)
                .max(1),
        )
        .depth(sizes.depth)
        .seed(config.seed)
        .check()
        .map_err(fail("lms"))?;
    let lms_run = train(&cfg, observer).map_err(fail("lms"))?;
    let report = LmsReport::new(&cfg, &lms_run);
    let mut data = vec![format!("self-play against handtuned:depth={}", cfg.depth())];
    if let Some(f) = &fitted {
        data.extend(
            f.data
                .iter()
                .map(|d| format!("start: supervised fit to {d}")),
        );
    }
    let meta = TrainingMeta::new("c4 pipeline (stage lms)", config.seed)
        .rows(lms_run.games)
        .data(data)
        .metrics(report.metrics());
    let mut written = save_run(&model, &cfg, &lms_run, meta).map_err(fail("lms"))?;
    if let Some(f) = &fitted {
        written.push(save_supervised_report(&model, f).map_err(fail("lms"))?);
    }
    let result = LmsResult {
        supervised: fitted.map(|f| {
            // The last epoch's held-out figures; NaN (no held-out rows) becomes none.
            let last =
                |m: fn(&EpochRecord) -> f64| f.fit.epochs.last().map(m).filter(|v| v.is_finite());
            SupervisedSummary {
                train_rows: f.fit.train_rows,
                test_rows: f.fit.test_rows,
                epochs: f.fit.epochs.len(),
                heldout_mse: last(|e| e.test_mse),
                heldout_sign_accuracy: last(|e| e.test_sign_accuracy),
                weights: f.fit.weights.to_vec(),
            }
        }),
        games: lms_run.games,
        depth: cfg.depth(),
        stop: lms_run.stop.to_string(),
        kept_after_games: lms_run.kept_after_games,
        window: cfg.window(),
        final_window_mse: report.final_window_mse,
        cosine_to_hand_tuned: report.cosine_to_hand_tuned,
        weights: report
            .features
            .iter()
            .zip(&report.weights)
            .zip(&report.hand_tuned_weights)
            .map(|((f, &w), &h)| (f.clone(), w, h))
            .collect(),
        eval_games: cfg.eval_games(),
        evaluations: lms_run
            .evaluations
            .iter()
            .map(|e| (e.after_games, e.score))
            .collect(),
    };
    Ok((result, written))
}

/// The supervised fit that starts self-play: on the labelled positions the run reads, else
/// off 7x6 on the data stage's training half (there are no shipped positions of that board);
/// none on 7x6 without positions (the run of earlier versions).
fn supervised_start(
    config: &PipelineConfig,
    sizes: &Sizes,
    inputs: &Inputs,
    split: &DataSplit,
    observer: &dyn Progress,
) -> Result<Option<SupervisedReport>, PipelineError> {
    let (rows, note) = match &inputs.positions {
        Some(set) => (
            &set.rows,
            format!(
                "positions:{} rows={} sha256={}",
                set.source,
                set.rows.len(),
                set.sha256
            ),
        ),
        None if config.geometry != connect4_engine::game::Geometry::STANDARD => (
            &split.train,
            format!(
                "selfplay:{} (the training half) rows={}",
                super::data::SELFPLAY_FILE,
                split.train.len()
            ),
        ),
        None => return Ok(None),
    };
    let sup = SupervisedConfig::default()
        .epochs(sizes.lms_epochs)
        .seed(config.seed)
        .check()
        .map_err(fail("lms"))?;
    let fit = fit_supervised(rows, config.geometry, &sup, observer).map_err(fail("lms"))?;
    Ok(Some(SupervisedReport {
        config: sup,
        fit,
        data: vec![note],
        evaluation: None,
    }))
}
