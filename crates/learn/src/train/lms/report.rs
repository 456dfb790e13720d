//! The summary of a run, as JSON and as the text `c4 train lms` prints.

use super::config::ValidLmsConfig;
use super::records::{LmsRun, MatchScore};
use connect4_engine::eval::HAND_TUNED_WEIGHTS;
use connect4_engine::ml::lms::N_WEIGHTS;
use serde::Serialize;

/// The summary of a run: settings, stop, weights beside the hand-tuned ones, matches.
#[derive(Clone, Debug, Serialize)]
pub struct LmsReport {
    /// The settings.
    pub config: ValidLmsConfig,
    /// Games played.
    pub games: usize,
    /// Why training stopped.
    pub stop: String,
    /// Feature names, weights and hand-tuned weights, in order.
    pub features: Vec<String>,
    /// The starting weights.
    pub initial_weights: Vec<f64>,
    /// The learned weights (those the run kept).
    pub weights: Vec<f64>,
    /// Training games before the kept weights.
    pub kept_after_games: usize,
    /// The weights after the last game.
    pub last_weights: Vec<f64>,
    /// The hand-tuned weights, for comparison.
    pub hand_tuned_weights: Vec<f64>,
    /// Cosine similarity of the learned and the hand-tuned weights.
    pub cosine_to_hand_tuned: f64,
    /// Mean squared error over the last window of games.
    pub final_window_mse: f64,
    /// Every evaluation match.
    pub evaluations: Vec<MatchScore>,
}

impl LmsReport {
    /// Summarises `run` of `config`.
    pub fn new(config: &ValidLmsConfig, run: &LmsRun) -> Self {
        let dot: f64 = run
            .weights
            .iter()
            .zip(&HAND_TUNED_WEIGHTS)
            .map(|(a, b)| a * b)
            .sum();
        let norm = |w: &[f64; N_WEIGHTS]| w.iter().map(|x| x * x).sum::<f64>().sqrt();
        let tail = &run.records[run.records.len().saturating_sub(config.window)..];
        LmsReport {
            config: config.clone(),
            games: run.games,
            stop: run.stop.to_string(),
            features: connect4_engine::features::LINEAR8_NAMES
                .iter()
                .map(|s| s.to_string())
                .collect(),
            initial_weights: run.initial_weights.to_vec(),
            weights: run.weights.to_vec(),
            kept_after_games: run.kept_after_games,
            last_weights: run.last_weights.to_vec(),
            hand_tuned_weights: HAND_TUNED_WEIGHTS.to_vec(),
            cosine_to_hand_tuned: dot / (norm(&run.weights) * norm(&HAND_TUNED_WEIGHTS)),
            final_window_mse: tail.iter().map(|r| r.mse).sum::<f64>() / tail.len().max(1) as f64,
            evaluations: run.evaluations.clone(),
        }
    }

    /// Headline numbers for the model file's metadata.
    pub fn metrics(&self) -> Vec<(String, f64)> {
        let mut m = vec![
            ("games".to_string(), self.games as f64),
            ("final_window_mse".to_string(), self.final_window_mse),
            (
                "cosine_to_hand_tuned".to_string(),
                self.cosine_to_hand_tuned,
            ),
        ];
        if let Some(e) = self.evaluations.last() {
            m.push(("last_match_score".to_string(), e.score));
        }
        m
    }

    /// The human-readable summary `c4 train lms` prints.
    pub fn text(&self) -> String {
        use std::fmt::Write;
        let mut t = String::new();
        let _ = writeln!(
            t,
            "LMS: {} games at depth {}, stopped: {}; mean squared error over the last {} games {:.4}",
            self.games, self.config.depth, self.stop, self.config.window, self.final_window_mse
        );
        let _ = writeln!(
            t,
            "kept the weights after game {} ({:?})",
            self.kept_after_games, self.config.keep
        );
        let _ = writeln!(
            t,
            "{:<24} {:>9} {:>10} {:>9}",
            "feature", "start", "learned", "hand-tuned"
        );
        for i in 0..N_WEIGHTS {
            let _ = writeln!(
                t,
                "{:<24} {:>9.3} {:>10.3} {:>9.3}",
                self.features[i],
                self.initial_weights[i],
                self.weights[i],
                self.hand_tuned_weights[i]
            );
        }
        let _ = writeln!(
            t,
            "cosine similarity to the hand-tuned weights: {:.3}",
            self.cosine_to_hand_tuned
        );
        if !self.evaluations.is_empty() {
            let scores: Vec<String> = self
                .evaluations
                .iter()
                .map(|e| format!("{}:{:.0}%", e.after_games, 100.0 * e.score))
                .collect();
            let _ = writeln!(
                t,
                "score against handtuned:depth={} ({} games each; after N games:score): {}",
                self.config.depth,
                self.config.eval_games,
                scores.join(" ")
            );
        }
        t
    }
}
