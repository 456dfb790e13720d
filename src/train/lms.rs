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

use crate::agents::SearchAgent;
use crate::arena::{PlayedGame, play_game, random_opening};
use crate::eval::{HAND_TUNED_WEIGHTS, LinearEvaluator};
use crate::features::Linear8;
use crate::game::{Geometry, Player, Position};
use crate::ml::lms::{Lms, LmsError, LmsSample, N_WEIGHTS};
use crate::search::{SearchParams, Searcher};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::Arc;
use thiserror::Error;

/// Every setting of an LMS run; [`LmsConfig::default`] gives the documented defaults.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LmsConfig {
    /// Board size.
    #[serde(skip)]
    pub geometry: Geometry,
    /// Learning rate `c` (default 0.0005).
    pub rate: f64,
    /// Search depth of both players (default 3).
    pub depth: u32,
    /// Probability that a position the trainee meets becomes a training example (default
    /// 1.0); the final position always does.
    pub sample_rate: f64,
    /// Random opening plies per game (default 2).
    pub opening: usize,
    /// The value of a won game on the evaluator's scale (default 1.0: the hand-tuned
    /// weights give a lone four about 1).
    pub win_value: f64,
    /// Most games to play (default 2000).
    pub max_games: usize,
    /// Games over which the stop rules look (default 200).
    pub window: usize,
    /// Stop when no weight moved more than this over the window (default 0.05).
    pub weight_tol: f64,
    /// Stop when the window's mean squared error is below this (default 0: off).
    pub error_tol: f64,
    /// Play an evaluation match every this many games (default 100; 0: never).
    pub eval_every: usize,
    /// Games per evaluation match (default 100).
    pub eval_games: usize,
    /// Stop when an evaluation match scores at least this fraction (default 0.75; above 1:
    /// never).
    pub stop_score: f64,
    /// Largest absolute starting weight (default 1.0).
    pub init_scale: f64,
    /// Which weights the run returns (default [`Keep::Best`]).
    pub keep: Keep,
    /// Seed of the starting weights, openings and sampling.
    pub seed: u64,
}

/// Which weights a run returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Keep {
    /// The weights after the last game.
    Last,
    /// The weights that scored best in an evaluation match (the later one on ties; the
    /// last weights when no match was played). Self-play LMS keeps moving around its fixed
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
    #[error("{name} = {value}: {expected}")]
    Setting {
        /// The setting.
        name: &'static str,
        /// Its value.
        value: String,
        /// What is allowed.
        expected: &'static str,
    },
    /// The checkpoint file could not be read or written.
    #[error("checkpoint {path}: {source}", path = path.display())]
    CheckpointIo {
        /// The file.
        path: std::path::PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The checkpoint file does not decode.
    #[error("checkpoint {path}: cannot decode: {source}", path = path.display())]
    CheckpointDecode {
        /// The file.
        path: std::path::PathBuf,
        /// The decoder's error.
        source: bincode::error::DecodeError,
    },
    /// The state could not be encoded.
    #[error("checkpoint: cannot encode: {0}")]
    CheckpointEncode(#[from] bincode::error::EncodeError),
    /// The file is not a checkpoint of this run.
    #[error("checkpoint {path}: {problem}", path = path.display())]
    CheckpointMismatch {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong.
        problem: &'static str,
    },
}

impl LmsConfig {
    /// Checks every setting, naming the first bad one.
    pub fn check(&self) -> Result<(), LmsTrainError> {
        let bad = |name, value: &dyn ToString, expected| {
            Err(LmsTrainError::Setting {
                name,
                value: value.to_string(),
                expected,
            })
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
        Lms::new([0.0; N_WEIGHTS], self.rate)?;
        Ok(())
    }
}

/// One training game, as the learning-curve CSV records it.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct GameRecord {
    /// 1-based game number.
    pub game: usize,
    /// Whether the trainee moved first.
    pub trainee_first: bool,
    /// The trainee's points: 1 win, 0.5 draw, 0 loss.
    pub trainee_score: f64,
    /// Plies in the game.
    pub plies: usize,
    /// Training examples taken from it.
    pub examples: usize,
    /// Mean squared error of those examples before the update.
    pub mse: f64,
    /// Largest absolute weight change of this update.
    pub max_change: f64,
    /// The weights after the update, [`crate::features::LINEAR8_NAMES`] order.
    pub w_twos_first: f64,
    /// See `w_twos_first`.
    pub w_twos_second: f64,
    /// See `w_twos_first`.
    pub w_threes_first: f64,
    /// See `w_twos_first`.
    pub w_threes_second: f64,
    /// See `w_twos_first`.
    pub w_fours_first: f64,
    /// See `w_twos_first`.
    pub w_fours_second: f64,
    /// See `w_twos_first`.
    pub w_centre_distance_first: f64,
    /// See `w_twos_first`.
    pub w_centre_distance_second: f64,
}

impl GameRecord {
    /// The weights after this game's update.
    pub fn weights(&self) -> [f64; N_WEIGHTS] {
        [
            self.w_twos_first,
            self.w_twos_second,
            self.w_threes_first,
            self.w_threes_second,
            self.w_fours_first,
            self.w_fours_second,
            self.w_centre_distance_first,
            self.w_centre_distance_second,
        ]
    }
}

/// One evaluation match against the hand-tuned agent.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct MatchScore {
    /// Training games played before the match (0: the starting weights).
    pub after_games: usize,
    /// Games in the match.
    pub games: usize,
    /// The trainee's wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// The trainee's losses.
    pub losses: usize,
    /// (wins + draws / 2) / games.
    pub score: f64,
}

/// Why training stopped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum StopReason {
    /// The weights moved less than the tolerance over the window.
    WeightsConverged,
    /// The window's mean squared error fell below the tolerance.
    ErrorSmall,
    /// An evaluation match reached the stop score.
    BeatHandTuned,
    /// The game limit.
    MaxGames,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::WeightsConverged => "weights converged",
            StopReason::ErrorSmall => "mean error below tolerance",
            StopReason::BeatHandTuned => "beat the hand-tuned agent in an evaluation match",
            StopReason::MaxGames => "game limit reached",
        })
    }
}

/// What a run produced.
#[derive(Clone, Debug, Serialize)]
pub struct LmsRun {
    /// The weights at the start.
    pub initial_weights: [f64; N_WEIGHTS],
    /// The weights the run returns (see [`Keep`]).
    pub weights: [f64; N_WEIGHTS],
    /// The weights after the last game.
    pub last_weights: [f64; N_WEIGHTS],
    /// Training games before the returned weights (the match that chose them, with
    /// [`Keep::Best`]).
    pub kept_after_games: usize,
    /// Games played.
    pub games: usize,
    /// Why it stopped.
    pub stop: StopReason,
    /// One record per game.
    #[serde(skip)]
    pub records: Vec<GameRecord>,
    /// Every evaluation match, in order.
    pub evaluations: Vec<MatchScore>,
}

/// Progress events for a caller's progress bar.
pub enum Progress<'a> {
    /// A training game finished.
    Game(&'a GameRecord),
    /// An evaluation match finished.
    Evaluation(&'a MatchScore),
}

/// The examples of one finished game (moves as 0-based columns from the empty board), from
/// the first player's side: each position where `trainee` was to move, kept when `keep`
/// says so, targets the current estimate of the next position the trainee met; the final
/// position targets the result.
pub fn game_examples(
    lms: &Lms,
    features: &Linear8,
    geom: Geometry,
    played: &PlayedGame,
    trainee: Player,
    win_value: f64,
    mut keep: impl FnMut() -> bool,
) -> Vec<LmsSample> {
    let result = played.result;
    let mut met: Vec<[f64; N_WEIGHTS]> = Vec::new();
    let mut pos = Position::new(geom);
    for &c in &played.moves {
        if pos.side_to_move() == trainee {
            met.push(features.extract(&pos));
        }
        pos.play_col(c);
    }
    let final_features = features.extract(&pos);
    let final_value = win_value * (2.0 * result.first_score() - 1.0);
    let mut examples = Vec::with_capacity(met.len() + 1);
    for (i, f) in met.iter().enumerate() {
        let next = met.get(i + 1).unwrap_or(&final_features);
        let target = lms.estimate(next);
        // Sampling is drawn for every position, kept or not, so that the stream of random
        // numbers does not depend on the weights.
        if keep() {
            examples.push(LmsSample {
                features: *f,
                target,
            });
        }
    }
    examples.push(LmsSample {
        features: final_features,
        target: final_value,
    });
    examples
}

/// A match of `games` games between linear weights and the hand-tuned agent, both at
/// `depth`, colours alternating, openings of `opening` random plies drawn from `seed` (the
/// same openings for every match with that seed). Games run in parallel.
pub fn evaluation_match(
    geom: Geometry,
    weights: [f64; N_WEIGHTS],
    depth: u32,
    games: usize,
    opening: usize,
    seed: u64,
) -> MatchScore {
    let trainee = Arc::new(LinearEvaluator::new(geom, weights, "lms"));
    let handtuned = Arc::new(LinearEvaluator::new(geom, HAND_TUNED_WEIGHTS, "handtuned"));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // One opening per pair of games, so each opening is played with both colours.
    let openings: Vec<Vec<usize>> = (0..games.div_ceil(2))
        .map(|_| random_opening(geom, opening, &mut rng))
        .collect();
    let scores: Vec<f64> = (0..games)
        .into_par_iter()
        .map(|g| {
            let params = SearchParams::depth(depth);
            let mut me = SearchAgent::new("lms", Searcher::new(trainee.clone(), params.clone()));
            let mut them = SearchAgent::new("handtuned", Searcher::new(handtuned.clone(), params));
            let opening = &openings[g / 2];
            let start = Position::new(geom);
            if g % 2 == 0 {
                play_game(&mut me, &mut them, start, opening)
                    .result
                    .first_score()
            } else {
                1.0 - play_game(&mut them, &mut me, start, opening)
                    .result
                    .first_score()
            }
        })
        .collect();
    let wins = scores.iter().filter(|&&s| s == 1.0).count();
    let draws = scores.iter().filter(|&&s| s == 0.5).count();
    MatchScore {
        after_games: 0,
        games,
        wins,
        draws,
        losses: games - wins - draws,
        score: scores.iter().sum::<f64>() / games.max(1) as f64,
    }
}

/// Runs LMS training; `progress` hears about every game and evaluation.
///
/// ```
/// use connect4_ml::train::lms::{LmsConfig, train};
/// let config = LmsConfig {
///     max_games: 20,
///     window: 10,
///     eval_every: 10,
///     eval_games: 4,
///     depth: 1,
///     seed: 5,
///     ..LmsConfig::default()
/// };
/// let run = train(&config, &mut |_| {}).unwrap();
/// assert!(run.games <= 20);
/// // Weights are normalised by the largest: the largest magnitude is 1.
/// let max = run.weights.iter().fold(0.0f64, |m, w| m.max(w.abs()));
/// assert!((max - 1.0).abs() < 1e-12);
/// // The same seed gives the same weights.
/// assert_eq!(train(&config, &mut |_| {}).unwrap().weights, run.weights);
/// ```
pub fn train(
    config: &LmsConfig,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<LmsRun, LmsTrainError> {
    train_with(config, None, progress)
}

/// Where and how often [`train_with`] saves its state, and whether it starts from it.
#[derive(Clone, Debug)]
pub struct Checkpointing {
    /// The checkpoint file (written atomically).
    pub path: std::path::PathBuf,
    /// Games between checkpoints.
    pub every: usize,
    /// Continue from the checkpoint if there is one (otherwise start afresh).
    pub resume: bool,
}

/// Everything the training loop needs to go on after game `games`: with it, a resumed run
/// plays the same games and ends with the same weights as one that was never stopped.
#[derive(Serialize, serde::Deserialize)]
struct Checkpoint {
    /// The settings as JSON: a checkpoint only continues the run it belongs to.
    config: String,
    /// Training games done.
    games: usize,
    /// Position of the random stream (ChaCha8 word position) after those games.
    rng_word_pos: u128,
    initial: [f64; N_WEIGHTS],
    weights: [f64; N_WEIGHTS],
    records: Vec<GameRecord>,
    evaluations: Vec<MatchScore>,
}

/// Checkpoint files start with this, then bincode.
const CHECKPOINT_MAGIC: &[u8; 8] = b"C4LMSCK1";

fn config_key(config: &LmsConfig) -> String {
    serde_json::to_string(config).unwrap_or_default()
}

fn save_checkpoint(path: &std::path::Path, c: &Checkpoint) -> Result<(), LmsTrainError> {
    let body = bincode::serde::encode_to_vec(c, bincode::config::standard())?;
    let mut bytes = CHECKPOINT_MAGIC.to_vec();
    bytes.extend_from_slice(&body);
    crate::io::write_bytes_atomic(path, &bytes).map_err(|source| LmsTrainError::CheckpointIo {
        path: path.to_path_buf(),
        source,
    })
}

fn load_checkpoint(path: &std::path::Path) -> Result<Option<Checkpoint>, LmsTrainError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(LmsTrainError::CheckpointIo {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let mismatch = |problem| LmsTrainError::CheckpointMismatch {
        path: path.to_path_buf(),
        problem,
    };
    let body = bytes
        .strip_prefix(CHECKPOINT_MAGIC)
        .ok_or_else(|| mismatch("not an LMS checkpoint"))?;
    let (c, used): (Checkpoint, usize) = bincode::serde::decode_from_slice(
        body,
        bincode::config::standard().with_limit::<{ 256 << 20 }>(),
    )
    .map_err(|source| LmsTrainError::CheckpointDecode {
        path: path.to_path_buf(),
        source,
    })?;
    if used != body.len() {
        return Err(mismatch("bytes after the checkpoint's end"));
    }
    Ok(Some(c))
}

/// [`train`], saving its state every `checkpointing.every` games and, with `resume`,
/// continuing from the last saved state: the result is the same as an uninterrupted run's.
pub fn train_with(
    config: &LmsConfig,
    checkpointing: Option<&Checkpointing>,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<LmsRun, LmsTrainError> {
    config.check()?;
    if checkpointing.is_some_and(|c| c.every == 0) {
        return Err(LmsTrainError::Setting {
            name: "checkpoint interval",
            value: "0".into(),
            expected: "at least one game",
        });
    }
    let geom = config.geometry;
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut initial = [0.0; N_WEIGHTS];
    for w in &mut initial {
        *w = rng.gen_range(-config.init_scale..=config.init_scale);
    }
    let restored = match checkpointing {
        Some(c) if c.resume => load_checkpoint(&c.path)?,
        _ => None,
    };
    if let (Some(c), Some(cp)) = (&restored, checkpointing)
        && c.config != config_key(config)
    {
        return Err(LmsTrainError::CheckpointMismatch {
            path: cp.path.clone(),
            problem: "written by a run with other settings",
        });
    }
    let features = Linear8::new(geom);
    let handtuned = Arc::new(LinearEvaluator::new(geom, HAND_TUNED_WEIGHTS, "handtuned"));
    let eval_seed = config.seed ^ 0x5eed_e7a1;
    let mut lms = Lms::new(initial, config.rate)?;
    let mut records: Vec<GameRecord> = Vec::new();
    let mut evaluations = Vec::new();
    let mut first_game = 1;
    if let Some(c) = restored {
        initial = c.initial;
        lms = Lms::new(c.weights, config.rate)?;
        rng.set_word_pos(c.rng_word_pos);
        first_game = c.games + 1;
        records = c.records;
        evaluations = c.evaluations;
        for m in &evaluations {
            progress(Progress::Evaluation(m));
        }
        for r in &records {
            progress(Progress::Game(r));
        }
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
        progress(Progress::Evaluation(
            evaluations.last().expect("just pushed"),
        ));
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
            w_twos_first: w[0],
            w_twos_second: w[1],
            w_threes_first: w[2],
            w_threes_second: w[3],
            w_fours_first: w[4],
            w_fours_second: w[5],
            w_centre_distance_first: w[6],
            w_centre_distance_second: w[7],
        });
        progress(Progress::Game(records.last().expect("just pushed")));

        if config.eval_every > 0 && game % config.eval_every == 0 {
            evaluate(w, game, &mut evaluations);
            let m = evaluations.last().expect("just pushed");
            progress(Progress::Evaluation(m));
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
                &Checkpoint {
                    config: config_key(config),
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
        Keep::Best => evaluations
            .iter()
            .filter(|m| m.after_games > 0)
            .fold(None::<&MatchScore>, |best, m| match best {
                Some(b) if b.score > m.score => Some(b),
                _ => Some(m),
            })
            .map_or((last, records.len()), |m| {
                (records[m.after_games - 1].weights(), m.after_games)
            }),
        Keep::Last => (last, records.len()),
    };
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

/// The summary of a run: settings, stop, weights beside the hand-tuned ones, matches.
#[derive(Clone, Debug, Serialize)]
pub struct LmsReport {
    /// The settings.
    pub config: LmsConfig,
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
    pub fn new(config: &LmsConfig, run: &LmsRun) -> Self {
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
            features: crate::features::LINEAR8_NAMES
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

/// Why a run's files could not be written.
#[derive(Debug, Error)]
pub enum SaveError {
    /// The model file.
    #[error(transparent)]
    Model(#[from] crate::io::model_format::ModelFileError),
    /// A CSV or JSON file beside it.
    #[error("writing {path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

/// Writes the weights to `out` (a linear model file) and, beside it, the learning curve
/// (`NAME.curve.csv`, one row per game), the evaluation matches (`NAME.eval.csv`) and the
/// report (`NAME.report.json`), each atomically. Returns the paths written.
pub fn save_run(
    out: &std::path::Path,
    config: &LmsConfig,
    run: &LmsRun,
    meta: crate::io::model_format::TrainingMeta,
) -> Result<Vec<std::path::PathBuf>, SaveError> {
    use crate::io::{beside, write_csv_atomic, write_json_atomic};
    crate::ml::model_file::save_linear(out, run.weights, config.geometry, meta)?;
    let io = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |source| SaveError::Io { path, source }
    };
    let curve = beside(out, ".curve.csv");
    write_csv_atomic(&curve, &run.records).map_err(io(&curve))?;
    let evals = beside(out, ".eval.csv");
    write_csv_atomic(&evals, &run.evaluations).map_err(io(&evals))?;
    let report = beside(out, ".report.json");
    write_json_atomic(&report, &LmsReport::new(config, run)).map_err(io(&report))?;
    Ok(vec![out.to_path_buf(), curve, evals, report])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::GameResult;

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
        let whole = train(&config, &mut |_| {}).unwrap();
        let dir = std::env::temp_dir().join(format!("c4-lms-ck-{}", std::process::id()));
        let cp = Checkpointing {
            path: dir.join("w.checkpoint"),
            every: 10,
            resume: true,
        };
        // The process dies during game 27: the checkpoint after game 20 is on disk.
        let crashed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            train_with(&config, Some(&cp), &mut |p| {
                if let Progress::Game(r) = p
                    && r.game == 27
                {
                    panic!("interrupted");
                }
            })
        }));
        assert!(crashed.is_err());
        let mut replayed = 0;
        let resumed = train_with(&config, Some(&cp), &mut |p| {
            if let Progress::Game(r) = p
                && r.game <= 20
            {
                replayed += 1;
            }
        })
        .unwrap();
        assert_eq!(replayed, 20, "the checkpoint held 20 games");
        assert_eq!(resumed.weights, whole.weights);
        assert_eq!(resumed.last_weights, whole.last_weights);
        assert_eq!(resumed.records, whole.records);
        assert_eq!(resumed.evaluations, whole.evaluations);
        // Other settings refuse the checkpoint instead of mixing two runs.
        let other = LmsConfig {
            seed: 10,
            ..config.clone()
        };
        let err = train_with(&other, Some(&cp), &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("other settings"), "{err}");
        std::fs::write(&cp.path, b"junk").unwrap();
        let err = train_with(&config, Some(&cp), &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("not an LMS checkpoint"), "{err}");
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
        let a = train(&config, &mut |_| {}).unwrap();
        let b = train(&config, &mut |_| {}).unwrap();
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
        let r = train(&quick, &mut |_| {}).unwrap();
        assert_eq!((r.stop, r.games), (StopReason::BeatHandTuned, 15));
        // A huge tolerance stops as soon as the window is full.
        let loose = LmsConfig {
            weight_tol: 100.0,
            ..config
        };
        let r = train(&loose, &mut |_| {}).unwrap();
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
