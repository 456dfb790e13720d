//! The settings of an LMS run, their defaults and their checks.

use connect4_engine::game::Geometry;
use connect4_engine::ml::lms::{Lms, LmsError, N_WEIGHTS};
use serde::Serialize;
use thiserror::Error;

crate::train::setting::settings_record! {
    /// Every setting of an LMS run; [`LmsConfig::default`] gives the documented defaults.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct LmsConfig, checked as ValidLmsConfig {
        /// Board size.
        #[serde(skip)]
        geometry: Geometry,
        /// Learning rate `c` (default 0.0005).
        rate: f64,
        /// Search depth of both players (default 3).
        depth: u32,
        /// Probability that a position the trainee meets becomes a training example (default
        /// 1.0); the final position always does.
        sample_rate: f64,
        /// Random opening plies per game (default 2).
        opening: usize,
        /// The value of a won game on the evaluator's scale (default 1.0: the hand-tuned
        /// weights give a lone four about 1).
        win_value: f64,
        /// Most games to play (default 2000).
        max_games: usize,
        /// Games over which the stop rules look (default 200).
        window: usize,
        /// Stop when no weight moved more than this over the window (default 0.05).
        weight_tol: f64,
        /// Stop when the window's mean squared error is below this (default 0: off).
        error_tol: f64,
        /// Play an evaluation match every this many games (default 100; 0: never).
        eval_every: usize,
        /// Games per evaluation match (default 100).
        eval_games: usize,
        /// Stop when an evaluation match scores at least this fraction (default 0.75; above 1:
        /// never).
        stop_score: f64,
        /// Largest absolute starting weight (default 1.0).
        init_scale: f64,
        /// Which weights the run returns (default [`Keep::Best`]).
        keep: Keep,
        /// Starting weights (e.g. a supervised fit's) instead of seeded random ones (default
        /// none).
        start: Option<[f64; N_WEIGHTS]>,
        /// Seed of the starting weights, openings and sampling.
        seed: u64,
    }
}

/// Which weights a run returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Keep {
    /// The weights after the last game.
    Last,
    /// The weights that scored best in an evaluation match (the later one on ties; the
    /// last weights when no match was played; given starting weights compete too). Self-play LMS keeps moving around its fixed
    /// point, and from one match to the next the score swings by 10-20 points, so the best
    /// evaluated weights are the ones worth keeping.
    Best,
}

impl Default for LmsConfig {
    fn default() -> Self {
        LmsConfig {
            geometry: Geometry::STANDARD,
            rate: 0.0005,
            depth: 3,
            sample_rate: 1.0,
            opening: 2,
            win_value: 1.0,
            max_games: 2000,
            window: 200,
            weight_tol: 0.05,
            error_tol: 0.0,
            eval_every: 100,
            eval_games: 100,
            stop_score: 0.75,
            init_scale: 1.0,
            keep: Keep::Best,
            start: None,
            seed: 0,
        }
    }
}

/// A setting out of range.
#[derive(Debug, Error)]
pub enum LmsTrainError {
    /// The learning rate or starting weights.
    #[error(transparent)]
    Lms(#[from] LmsError),
    /// Any other setting, named.
    #[error(transparent)]
    Setting(#[from] crate::train::setting::SettingError),
    /// The checkpoint could not be written or resumed from.
    #[error(transparent)]
    Checkpoint(#[from] crate::train::checkpoint::CheckpointError),
}

crate::train::setting::checked_settings!(
    /// Settings whose every value was checked once (linfa's [`linfa::ParamGuard`]:
    /// `config.check()`, naming the first bad one): what the trainers take.
    ValidLmsConfig(LmsConfig),
    LmsTrainError,
    LmsConfig::check_settings
);

impl ValidLmsConfig {
    /// The same settings with another seed (any seed is valid).
    pub fn with_seed(&self, seed: u64) -> ValidLmsConfig {
        ValidLmsConfig(LmsConfig {
            seed,
            ..self.0.clone()
        })
    }
}

impl LmsConfig {
    /// Checks every setting, naming the first bad one.
    fn check_settings(&self) -> Result<(), LmsTrainError> {
        let bad = |name, value: &dyn ToString, expected| {
            Err(LmsTrainError::Setting(
                crate::train::setting::SettingError {
                    name,
                    value: value.to_string(),
                    expected,
                },
            ))
        };
        let cells = self.geometry.cells();
        if !(1..=20).contains(&self.depth) {
            return bad("depth", &self.depth, "a depth from 1 to 20");
        }
        if !(self.sample_rate > 0.0 && self.sample_rate <= 1.0) {
            return bad("sample_rate", &self.sample_rate, "a fraction in (0, 1]");
        }
        if self.opening + 1 >= cells {
            return bad(
                "opening",
                &self.opening,
                "fewer plies than the board has cells",
            );
        }
        if !(self.win_value.is_finite() && self.win_value > 0.0) {
            return bad("win_value", &self.win_value, "a positive number");
        }
        if self.max_games == 0 {
            return bad("max_games", &self.max_games, "at least 1");
        }
        if self.window == 0 {
            return bad("window", &self.window, "at least 1");
        }
        if !(self.weight_tol >= 0.0 && self.error_tol >= 0.0) {
            return bad(
                "weight_tol/error_tol",
                &format!("{}/{}", self.weight_tol, self.error_tol),
                "non-negative numbers",
            );
        }
        if self.eval_every > 0 && self.eval_games == 0 {
            return bad("eval_games", &self.eval_games, "at least 1 when evaluating");
        }
        if !(self.init_scale.is_finite() && self.init_scale > 0.0) {
            return bad("init_scale", &self.init_scale, "a positive number");
        }
        if !self.stop_score.is_finite() {
            return bad(
                "stop_score",
                &self.stop_score,
                "a number (above 1 never stops)",
            );
        }
        Lms::new(self.start.unwrap_or([0.0; N_WEIGHTS]), self.rate)?;
        Ok(())
    }
}

/// A builder for two settings at once (each setting has its own, made with the record).
impl LmsConfig {
    /// Sets the evaluation interval and match size.
    #[must_use]
    pub fn evaluation(mut self, every: usize, games: usize) -> Self {
        self.eval_every = every;
        self.eval_games = games;
        self
    }
}
