//! Stage 2, lms: the linear evaluator's weights by self-play against the hand-tuned agent.

use super::{PipelineConfig, PipelineError, Sizes, fail};
use crate::io::model_format::TrainingMeta;
use crate::progress::Progress;
use crate::train::lms::{LmsConfig, LmsReport, save_run, train};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What the LMS stage produced.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LmsResult {
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
    observer: &dyn Progress,
) -> Result<(LmsResult, Vec<PathBuf>), PipelineError> {
    let cfg = LmsConfig {
        max_games: sizes.lms_games,
        eval_every: sizes.lms_eval_every,
        eval_games: sizes.lms_eval_games,
        window: LmsConfig::default().window.min(sizes.lms_games / 2).max(1),
        depth: sizes.depth,
        seed: config.seed,
        ..LmsConfig::default()
    };
    let lms_run = train(&cfg, observer).map_err(fail("lms"))?;
    let report = LmsReport::new(&cfg, &lms_run);
    let meta = TrainingMeta::new("c4 pipeline (stage lms)", config.seed)
        .rows(lms_run.games)
        .data(vec![format!(
            "self-play against handtuned:depth={}",
            cfg.depth
        )])
        .metrics(report.metrics());
    let written =
        save_run(&config.out.join("models/lms.bin"), &cfg, &lms_run, meta).map_err(fail("lms"))?;
    let result = LmsResult {
        games: lms_run.games,
        depth: cfg.depth,
        stop: lms_run.stop.to_string(),
        kept_after_games: lms_run.kept_after_games,
        window: cfg.window,
        final_window_mse: report.final_window_mse,
        cosine_to_hand_tuned: report.cosine_to_hand_tuned,
        weights: report
            .features
            .iter()
            .zip(&report.weights)
            .zip(&report.hand_tuned_weights)
            .map(|((f, &w), &h)| (f.clone(), w, h))
            .collect(),
        eval_games: cfg.eval_games,
        evaluations: lms_run
            .evaluations
            .iter()
            .map(|e| (e.after_games, e.score))
            .collect(),
    };
    Ok((result, written))
}
