//! The LMS self-play loop: a linear evaluator with seeded random weights plays the hand-tuned
//! agent and learns its eight weights from its own games.
//!
//! After every game, each position the trainee met (sampled at a configurable rate) gets a
//! training value: the trainee's current estimate of the next position it met in that game,
//! or the game result for the final position. Every value is taken from the first player's
//! side (the frame the linear evaluator's weights live in), so a successor two plies on needs
//! no sign flip, and the result is +`win_value` for a first-player win whoever the trainee is.
//! The LMS rule ([`crate::ml::lms`]) then moves the weights once for the whole game and
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

pub use checkpoint::Checkpointing;
pub use config::{Keep, LmsConfig, LmsTrainError};
pub use evaluation::evaluation_match;
pub use examples::game_examples;
pub use files::{SaveError, SupervisedReport, save_run, save_supervised_report};
pub use records::{GameRecord, LmsRun, MatchScore, StopReason};
pub use report::LmsReport;
pub use restarts::{Restart, common_match, train_restarts};
pub use supervised::{
    EpochRecord, SupervisedConfig, SupervisedFit, fit_supervised, supervised_sample,
};

use crate::agents::SearchAgent;
use crate::arena::{play_game, random_opening};
use crate::eval::{HAND_TUNED_WEIGHTS, LinearEvaluator};
use crate::features::Linear8;
use crate::game::{Player, Position};
use crate::ml::lms::{Lms, N_WEIGHTS};
use crate::progress::Progress;
use crate::search::{SearchParams, Searcher};
use checkpoint::{Checkpoint, load_checkpoint, save_checkpoint};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Runs LMS training; `progress` hears of one part, the training games (one step per game,
/// with the latest error and match score as its message).
///
/// ```
/// use connect4_learn::train::lms::{LmsConfig, train};
/// let config = LmsConfig {
///     max_games: 20,
///     window: 10,
///     eval_every: 10,
///     eval_games: 4,
///     depth: 1,
///     seed: 5,
///     ..LmsConfig::default()
/// };
/// let quiet = connect4_learn::progress::Quiet;
/// let run = train(&config, &quiet).unwrap();
/// assert!(run.games <= 20);
/// // Weights are normalised by the largest: the largest magnitude is 1.
/// let max = run.weights.iter().fold(0.0f64, |m, w| m.max(w.abs()));
/// assert!((max - 1.0).abs() < 1e-12);
/// // The same seed gives the same weights.
/// assert_eq!(train(&config, &quiet).unwrap().weights, run.weights);
/// ```
pub fn train(config: &LmsConfig, progress: &dyn Progress) -> Result<LmsRun, LmsTrainError> {
    train_with(config, None, progress)
}

/// [`train`], saving its state every `checkpointing.every` games and, with `resume`,
/// continuing from the last saved state: the result is the same as an uninterrupted run's.
pub fn train_with(
    config: &LmsConfig,
    checkpointing: Option<&Checkpointing>,
    progress: &dyn Progress,
) -> Result<LmsRun, LmsTrainError> {
    config.check()?;
    if checkpointing.is_some_and(|c| c.every == 0) {
        return Err(LmsTrainError::Setting(
            crate::train::setting::SettingError {
                name: "checkpoint interval",
                value: "0".into(),
                expected: "at least one game",
            },
        ));
    }
    let geom = config.geometry;
    let mut rng = ChaCha8Rng::seed_from_u64(crate::seed::derive_seed(
        config.seed,
        crate::seed::Stream::LmsSelfPlay,
        &[],
    ));
    let mut initial = [0.0; N_WEIGHTS];
    for w in &mut initial {
        *w = rng.gen_range(-config.init_scale..=config.init_scale);
    }
    // Given starting weights replace the random ones after these were drawn, so the rest of
    // the run (openings, sampling) sees the same random numbers either way.
    if let Some(start) = config.start {
        initial = start;
    }
    let restored = match checkpointing {
        Some(c) if c.resume => load_checkpoint(&c.path, config)?,
        _ => None,
    };
    let features = Linear8::new(geom);
    let handtuned = Arc::new(LinearEvaluator::new(geom, HAND_TUNED_WEIGHTS, "handtuned"));
    let eval_seed = crate::seed::derive_seed(config.seed, crate::seed::Stream::LmsEvaluation, &[]);
    let mut lms = Lms::new(initial, config.rate)?;
    let mut records: Vec<GameRecord> = Vec::new();
    let mut evaluations = Vec::new();
    let mut first_game = 1;
    progress.start("LMS training games", config.max_games);
    if let Some(c) = restored {
        initial = c.initial;
        lms = Lms::new(c.weights, config.rate)?;
        rng.set_word_pos(c.rng_word_pos);
        first_game = c.games + 1;
        records = c.records;
        evaluations = c.evaluations;
        progress.advance(records.len());
    }
    let evaluate = |weights, after_games, evaluations: &mut Vec<MatchScore>| {
        let mut m = evaluation_match(
            geom,
            weights,
            config.depth,
            config.eval_games,
            config.opening,
            eval_seed,
        );
        m.after_games = after_games;
        evaluations.push(m);
    };
    if config.eval_every > 0 && first_game == 1 {
        evaluate(initial, 0, &mut evaluations);
    }
    let mut stop = StopReason::MaxGames;
    for game in first_game..=config.max_games {
        let trainee_player = if game % 2 == 1 {
            Player::First
        } else {
            Player::Second
        };
        let params = SearchParams::depth(config.depth);
        let trainee_eval = Arc::new(LinearEvaluator::new(geom, lms.weights(), "lms"));
        let mut me = SearchAgent::new("lms", Searcher::new(trainee_eval, params.clone()));
        let mut them = SearchAgent::new("handtuned", Searcher::new(handtuned.clone(), params));
        let opening = random_opening(geom, config.opening, &mut rng);
        let start = Position::new(geom);
        let played = if trainee_player == Player::First {
            play_game(&mut me, &mut them, start, &opening)
        } else {
            play_game(&mut them, &mut me, start, &opening)
        };
        let examples = game_examples(
            &lms,
            &features,
            geom,
            &played,
            trainee_player,
            config.win_value,
            || rng.r#gen::<f64>() < config.sample_rate,
        );
        let stats = lms.update(&examples);
        let first_score = played.result.first_score();
        let w = lms.weights();
        records.push(GameRecord {
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
            weights: w,
        });
        progress.advance(1);
        progress.message(&match evaluations.last() {
            Some(m) => format!("mse {:.4}, last match {:.0}%", stats.mse, 100.0 * m.score),
            None => format!("mse {:.4}", stats.mse),
        });

        if config.eval_every > 0 && game % config.eval_every == 0 {
            evaluate(w, game, &mut evaluations);
            let m = evaluations.last().expect("just pushed");
            if m.score >= config.stop_score {
                stop = StopReason::BeatHandTuned;
                break;
            }
        }
        if game >= config.window {
            let window = &records[game - config.window..];
            let then = if game == config.window {
                initial
            } else {
                records[game - config.window - 1].weights()
            };
            let moved = then
                .iter()
                .zip(&w)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            if moved < config.weight_tol {
                stop = StopReason::WeightsConverged;
                break;
            }
            let mean_mse = window.iter().map(|r| r.mse).sum::<f64>() / window.len() as f64;
            if mean_mse < config.error_tol {
                stop = StopReason::ErrorSmall;
                break;
            }
        }
        // Saved after the game's evaluation and stop checks, so a resumed run goes on with
        // the next game exactly as an uninterrupted one would.
        if let Some(c) = checkpointing
            && game % c.every == 0
        {
            save_checkpoint(
                &c.path,
                config,
                &Checkpoint {
                    games: game,
                    rng_word_pos: rng.get_word_pos(),
                    initial,
                    weights: w,
                    records: records.clone(),
                    evaluations: evaluations.clone(),
                },
            )?;
        }
    }
    let last = lms.weights();
    let (weights, kept_after_games) = match config.keep {
        // Random starting weights are never worth keeping; given ones (a supervised fit)
        // compete with the trained ones.
        Keep::Best => evaluations
            .iter()
            .filter(|m| m.after_games > 0 || config.start.is_some())
            .fold(None::<&MatchScore>, |best, m| match best {
                Some(b) if b.score > m.score => Some(b),
                _ => Some(m),
            })
            .map_or((last, records.len()), |m| match m.after_games {
                0 => (initial, 0),
                n => (records[n - 1].weights(), n),
            }),
        Keep::Last => (last, records.len()),
    };
    progress.finish();
    Ok(LmsRun {
        initial_weights: initial,
        weights,
        last_weights: last,
        kept_after_games,
        games: records.len(),
        stop,
        records,
        evaluations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::GameResult;
    use crate::arena::PlayedGame;
    use crate::game::Geometry;
    use crate::progress::Quiet;

    #[test]
    fn examples_target_the_next_met_position_and_the_result() {
        let g = Geometry::STANDARD;
        let f = Linear8::new(g);
        let lms = Lms::new(HAND_TUNED_WEIGHTS, 0.01).unwrap();
        // x plays column 1 four times and wins: "1212121".
        let moves = [0, 1, 0, 1, 0, 1, 0];
        let game = PlayedGame {
            moves: moves.to_vec(),
            result: GameResult::FirstWin,
            ms_per_move: [0.0; 2],
        };
        let ex = game_examples(&lms, &f, g, &game, Player::First, 1.0, || true);
        // x met plies 0, 2, 4, 6: four examples plus the final position.
        assert_eq!(ex.len(), 5);
        let pos = |n: usize| {
            let mut p = Position::new(g);
            for &c in &moves[..n] {
                p.play_col(c);
            }
            f.extract(&p)
        };
        assert_eq!(ex[0].features, pos(0));
        assert_eq!(ex[0].target, lms.estimate(&pos(2)));
        assert_eq!(ex[3].target, lms.estimate(&pos(7)));
        assert_eq!(ex[4].features, pos(7));
        assert_eq!(
            ex[4].target, 1.0,
            "a first-player win is +1 in the first player's frame"
        );
        // The same game seen by o: o met plies 1, 3, 5; the result is still +1 for x.
        let ex = game_examples(&lms, &f, g, &game, Player::Second, 2.0, || false);
        assert_eq!(ex.len(), 1, "nothing sampled but the final position");
        assert_eq!(ex[0].target, 2.0);
    }

    #[test]
    fn an_interrupted_run_resumed_from_its_checkpoint_ends_as_an_uninterrupted_one() {
        let config = LmsConfig {
            max_games: 40,
            window: 10,
            eval_every: 15,
            eval_games: 4,
            depth: 2,
            weight_tol: 0.0,
            seed: 9,
            ..LmsConfig::default()
        };
        let whole = train(&config, &Quiet).unwrap();
        let dir = std::env::temp_dir().join(format!("c4-lms-ck-{}", std::process::id()));
        let cp = Checkpointing {
            path: dir.join("w.checkpoint"),
            every: 10,
            resume: true,
        };
        /// Counts games; panics at game `die_at`; remembers the first step size (a resumed
        /// run first advances by the games its checkpoint held).
        struct Games {
            done: std::sync::atomic::AtomicUsize,
            first_step: std::sync::atomic::AtomicUsize,
            die_at: usize,
        }
        impl Progress for Games {
            fn advance(&self, steps: usize) {
                use std::sync::atomic::Ordering::Relaxed;
                let _ = self.first_step.compare_exchange(0, steps, Relaxed, Relaxed);
                if self.done.fetch_add(steps, Relaxed) + steps == self.die_at {
                    panic!("interrupted");
                }
            }
        }
        let games = |die_at| Games {
            done: 0.into(),
            first_step: 0.into(),
            die_at,
        };
        // The process dies during game 27: the checkpoint after game 20 is on disk.
        let crashed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            train_with(&config, Some(&cp), &games(27))
        }));
        assert!(crashed.is_err());
        let counter = games(usize::MAX);
        let resumed = train_with(&config, Some(&cp), &counter).unwrap();
        assert_eq!(
            counter.first_step.into_inner(),
            20,
            "the checkpoint held 20 games"
        );
        assert_eq!(resumed.weights, whole.weights);
        assert_eq!(resumed.last_weights, whole.last_weights);
        assert_eq!(resumed.records, whole.records);
        assert_eq!(resumed.evaluations, whole.evaluations);
        // Other settings refuse the checkpoint instead of mixing two runs.
        let other = LmsConfig {
            seed: 10,
            ..config.clone()
        };
        let err = train_with(&other, Some(&cp), &Quiet).unwrap_err();
        assert!(err.to_string().contains("other settings"), "{err}");
        std::fs::write(&cp.path, b"junk").unwrap();
        let err = train_with(&config, Some(&cp), &Quiet).unwrap_err();
        assert!(err.to_string().contains("not a checkpoint"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn training_is_reproducible_and_stops_by_its_rules() {
        let config = LmsConfig {
            max_games: 30,
            window: 10,
            eval_every: 15,
            eval_games: 4,
            depth: 2,
            weight_tol: 0.0,
            ..LmsConfig::default()
        };
        let a = train(&config, &Quiet).unwrap();
        let b = train(&config, &Quiet).unwrap();
        assert_eq!(a.weights, b.weights);
        assert_eq!(a.records, b.records);
        assert_eq!(a.stop, StopReason::MaxGames);
        assert_eq!(a.games, 30);
        assert_eq!(
            a.evaluations.len(),
            3,
            "before training, after 15 and 30 games"
        );
        let max = a.weights.iter().fold(0.0f64, |m, w| m.max(w.abs()));
        assert!((max - 1.0).abs() < 1e-12, "normalised: {:?}", a.weights);
        // A stop score of 0 stops at the first evaluation after training starts.
        let quick = LmsConfig {
            stop_score: 0.0,
            ..config.clone()
        };
        let r = train(&quick, &Quiet).unwrap();
        assert_eq!((r.stop, r.games), (StopReason::BeatHandTuned, 15));
        // A huge tolerance stops as soon as the window is full.
        let loose = LmsConfig {
            weight_tol: 100.0,
            ..config
        };
        let r = train(&loose, &Quiet).unwrap();
        assert_eq!((r.stop, r.games), (StopReason::WeightsConverged, 10));
    }

    #[test]
    fn bad_settings_are_named() {
        for (config, want) in [
            (
                LmsConfig {
                    rate: -1.0,
                    ..LmsConfig::default()
                },
                "learning rate",
            ),
            (
                LmsConfig {
                    sample_rate: 0.0,
                    ..LmsConfig::default()
                },
                "sample_rate",
            ),
            (
                LmsConfig {
                    depth: 0,
                    ..LmsConfig::default()
                },
                "depth",
            ),
            (
                LmsConfig {
                    opening: 42,
                    ..LmsConfig::default()
                },
                "opening",
            ),
        ] {
            let err = config.check().unwrap_err().to_string();
            assert!(err.contains(want), "{err}");
        }
    }
}
