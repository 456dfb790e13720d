//! The LMS self-play loop: a linear evaluator with seeded random weights plays the hand-tuned
//! agent and learns its eight weights from its own games.
//!
//! After every game, each position the trainee met (sampled at a configurable rate) gets a
//! training value: the trainee's current estimate of the next position it met in that game,
//! or the game result for the final position. Every value is taken from the first player's
//! side (the frame the linear evaluator's weights live in), so a successor two plies on needs
//! no sign flip, and the result is +`win_value` for a first-player win whoever the trainee is.
//! The LMS rule ([`connect4_engine::ml::lms`]) then moves the weights once for the whole game and
//! normalises them by the largest absolute weight.
//!
//! Training stops at the first of: the weights moved less than `weight_tol` (largest absolute
//! change of any weight) over the last `window` games; the mean squared error of the last
//! `window` games fell below `error_tol`; an evaluation match against the hand-tuned agent
//! scored at least `stop_score`; or `max_games` games.

mod checkpoint;
mod config;
mod evaluation;
mod examples;
mod files;
mod records;
mod report;
mod restarts;
mod supervised;

pub use crate::train::run_loop::Checkpointing;
pub use config::{Keep, LmsConfig, LmsTrainError, ValidLmsConfig};
pub use evaluation::evaluation_match;
pub use examples::game_examples;
pub use files::{SaveError, SupervisedReport, save_run, save_supervised_report};
pub use records::{GameRecord, LmsRun, MatchScore, StopReason};
pub use report::LmsReport;
pub use restarts::{Restart, common_match, train_restarts};
pub use supervised::{
    EpochRecord, SupervisedConfig, SupervisedFit, ValidSupervisedConfig, fit_supervised,
    supervised_sample,
};

use crate::arena::{play_game, random_opening};
use crate::train::run_loop::{self, Cadence, KeepBest, Trainer};
pub use checkpoint::{Checkpoint, decode_checkpoint};
use checkpoint::{load_checkpoint, save_checkpoint};
use connect4_engine::agents::SearchAgent;
use connect4_engine::eval::{HAND_TUNED_WEIGHTS, LinearEvaluator};
use connect4_engine::features::Linear8;
use connect4_engine::game::{Player, Position};
use connect4_engine::ml::lms::{Lms, N_WEIGHTS};
use connect4_engine::progress::Progress;
use connect4_engine::search::{SearchParams, Searcher};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::ops::ControlFlow;
use std::sync::Arc;

/// Runs LMS training; `progress` hears of one part, the training games (one step per game,
/// with the latest error and match score as its message).
///
/// ```
/// use connect4_learn::train::lms::{LmsConfig, train};
/// use linfa::ParamGuard;
/// let config = LmsConfig::default()
///     .max_games(20)
///     .window(10)
///     .evaluation(10, 4)
///     .depth(1)
///     .seed(5)
///     .check()
///     .unwrap();
/// let quiet = connect4_engine::progress::Quiet;
/// let run = train(&config, &quiet).unwrap();
/// assert!(run.games <= 20);
/// // Weights are normalised by the largest: the largest magnitude is 1.
/// let max = run.weights.iter().fold(0.0f64, |m, w| m.max(w.abs()));
/// assert!((max - 1.0).abs() < 1e-12);
/// // The same seed gives the same weights.
/// assert_eq!(train(&config, &quiet).unwrap().weights, run.weights);
/// ```
pub fn train(config: &ValidLmsConfig, progress: &dyn Progress) -> Result<LmsRun, LmsTrainError> {
    train_with(config, None, progress)
}

/// [`train`], saving its state every `checkpointing.every` games and, with `resume`,
/// continuing from the last saved state: the result is the same as an uninterrupted run's.
pub fn train_with(
    config: &ValidLmsConfig,
    checkpointing: Option<&Checkpointing>,
    progress: &dyn Progress,
) -> Result<LmsRun, LmsTrainError> {
    if let Some(c) = checkpointing {
        c.check()?;
    }
    let (rng, initial) = starting_weights(config);
    let restored = match checkpointing {
        Some(c) if c.resume => load_checkpoint(&c.path, config)?,
        _ => None,
    };
    let geom = config.geometry;
    let mut run = SelfPlay {
        config,
        rng,
        initial,
        lms: Lms::new(initial, config.rate)?,
        features: Linear8::new(geom),
        handtuned: Arc::new(LinearEvaluator::new(geom, HAND_TUNED_WEIGHTS, "handtuned")),
        eval_seed: connect4_engine::seed::derive_seed(
            config.seed,
            connect4_engine::seed::Stream::LmsEvaluation,
            &[],
        ),
        records: Vec::new(),
        evaluations: Vec::new(),
        keep: KeepBest::default(),
        progress,
    };
    progress.start("LMS training games", config.max_games);
    if let Some(c) = restored {
        run.initial = c.initial;
        run.lms = Lms::new(c.weights, config.rate)?;
        run.rng.set_word_pos(c.rng_word_pos);
        run.records = c.records;
        run.evaluations = c.evaluations;
        run.keep = c.keep;
        progress.advance(run.records.len());
    } else if config.eval_every > 0 {
        // The starting weights' match: a reference point, it never stops the run.
        let _ = run.measure(0)?;
    }
    let cadence = Cadence {
        measure_every: config.eval_every,
        measure_at_end: false,
    };
    let done = run.records.len();
    let stop = run_loop::run(&mut run, done, config.max_games, cadence, checkpointing)?
        .unwrap_or(StopReason::MaxGames);
    let last = run.lms.weights();
    let (weights, kept_after_games) = match (config.keep, run.keep.best()) {
        (Keep::Best, Some(k)) => (k.weights, k.point),
        _ => (last, run.records.len()),
    };
    progress.finish();
    Ok(LmsRun {
        initial_weights: run.initial,
        weights,
        last_weights: last,
        kept_after_games,
        games: run.records.len(),
        stop,
        records: run.records,
        evaluations: run.evaluations,
    })
}

/// The run's random stream and its starting weights: seeded random ones, or the given ones
/// (drawn over all the same, so the rest of the run, openings and sampling, sees the same
/// random numbers either way).
fn starting_weights(config: &LmsConfig) -> (ChaCha8Rng, [f64; N_WEIGHTS]) {
    let mut rng = ChaCha8Rng::seed_from_u64(connect4_engine::seed::derive_seed(
        config.seed,
        connect4_engine::seed::Stream::LmsSelfPlay,
        &[],
    ));
    let mut initial = [0.0; N_WEIGHTS];
    for w in &mut initial {
        *w = rng.gen_range(-config.init_scale..=config.init_scale);
    }
    (rng, config.start.unwrap_or(initial))
}

/// The self-play loop's state: the trainee, its games and matches, the best weights so far.
struct SelfPlay<'a> {
    config: &'a LmsConfig,
    rng: ChaCha8Rng,
    initial: [f64; N_WEIGHTS],
    lms: Lms,
    features: Linear8,
    handtuned: Arc<LinearEvaluator>,
    eval_seed: u64,
    records: Vec<GameRecord>,
    evaluations: Vec<MatchScore>,
    keep: KeepBest<[f64; N_WEIGHTS]>,
    progress: &'a dyn Progress,
}

impl Trainer for SelfPlay<'_> {
    type Stop = StopReason;
    type Error = LmsTrainError;

    /// One game against the hand-tuned agent (the trainee moves first in odd games), then
    /// one LMS step on the positions it met: the stopping rules look after every game.
    fn play(&mut self, games: std::ops::Range<usize>) -> Result<usize, LmsTrainError> {
        let (config, geom) = (self.config, self.config.geometry);
        let game = games.start + 1;
        let trainee_player = if game % 2 == 1 {
            Player::First
        } else {
            Player::Second
        };
        let params = SearchParams::depth(config.depth);
        let trainee_eval = Arc::new(LinearEvaluator::new(geom, self.lms.weights(), "lms"));
        let mut me = SearchAgent::new("lms", Searcher::new(trainee_eval, params.clone()));
        let mut them = SearchAgent::new("handtuned", Searcher::new(self.handtuned.clone(), params));
        let opening = random_opening(geom, config.opening, &mut self.rng);
        let start = Position::new(geom);
        let played = if trainee_player == Player::First {
            play_game(&mut me, &mut them, start, &opening)
        } else {
            play_game(&mut them, &mut me, start, &opening)
        };
        let rng = &mut self.rng;
        let examples = game_examples(
            &self.lms,
            &self.features,
            geom,
            &played,
            trainee_player,
            config.win_value,
            || rng.r#gen::<f64>() < config.sample_rate,
        );
        let stats = self.lms.update(&examples);
        let first_score = played.result.first_score();
        self.records.push(GameRecord {
            game,
            trainee_first: trainee_player == Player::First,
            trainee_score: if trainee_player == Player::First {
                first_score
            } else {
                1.0 - first_score
            },
            plies: played.moves.len(),
            examples: examples.len(),
            mse: stats.mse,
            max_change: stats.max_change,
            weights: self.lms.weights(),
        });
        self.progress.advance(1);
        self.progress.message(&match self.evaluations.last() {
            Some(m) => format!("mse {:.4}, last match {:.0}%", stats.mse, 100.0 * m.score),
            None => format!("mse {:.4}", stats.mse),
        });
        Ok(game)
    }

    /// A match against the hand-tuned agent; the best weights are kept (random starting
    /// weights never are: given ones, a supervised fit, compete with the trained ones).
    fn measure(&mut self, games: usize) -> Result<ControlFlow<StopReason>, LmsTrainError> {
        let config = self.config;
        let weights = match games {
            0 => self.initial,
            _ => self.lms.weights(),
        };
        let mut m = evaluation_match(
            config.geometry,
            weights,
            config.depth,
            config.eval_games,
            config.opening,
            self.eval_seed,
        );
        m.after_games = games;
        if games > 0 || config.start.is_some() {
            self.keep.offer(games, m.score, || weights);
        }
        let beat = games > 0 && m.score >= config.stop_score;
        self.evaluations.push(m);
        Ok(match beat {
            true => ControlFlow::Break(StopReason::BeatHandTuned),
            false => ControlFlow::Continue(()),
        })
    }

    /// Converged: the weights moved less than `weight_tol` over the last `window` games, or
    /// the mean squared error of those games fell below `error_tol`.
    fn stop(&mut self, game: usize) -> ControlFlow<StopReason> {
        let config = self.config;
        if game < config.window {
            return ControlFlow::Continue(());
        }
        let window = &self.records[game - config.window..];
        let then = match game - config.window {
            0 => self.initial,
            n => self.records[n - 1].weights(),
        };
        let moved = then
            .iter()
            .zip(&self.lms.weights())
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        if moved < config.weight_tol {
            return ControlFlow::Break(StopReason::WeightsConverged);
        }
        let mean_mse = window.iter().map(|r| r.mse).sum::<f64>() / window.len() as f64;
        if mean_mse < config.error_tol {
            return ControlFlow::Break(StopReason::ErrorSmall);
        }
        ControlFlow::Continue(())
    }

    fn save(&mut self, games: usize, c: &Checkpointing) -> Result<(), LmsTrainError> {
        save_checkpoint(
            &c.path,
            self.config,
            &Checkpoint {
                games,
                rng_word_pos: self.rng.get_word_pos(),
                initial: self.initial,
                weights: self.lms.weights(),
                records: self.records.clone(),
                evaluations: self.evaluations.clone(),
                keep: self.keep.clone(),
            },
        )
    }
}

#[cfg(test)]
mod tests;
