//! Checkpoints: the loop's whole state after a game, so an interrupted run can go on and end
//! exactly where an uninterrupted one would, in the format every trainer shares
//! ([`crate::train::checkpoint`]).

use super::config::{LmsConfig, LmsTrainError};
use super::records::{GameRecord, MatchScore};
use connect4_engine::ml::lms::N_WEIGHTS;
use serde::Serialize;

/// Everything the training loop needs to go on after game `games`: with it, a resumed run
/// plays the same games and ends with the same weights as one that was never stopped.
#[derive(Serialize, serde::Deserialize)]
pub(super) struct Checkpoint {
    /// Training games done.
    pub(super) games: usize,
    /// Position of the random stream (ChaCha8 word position) after those games.
    pub(super) rng_word_pos: u128,
    pub(super) initial: [f64; N_WEIGHTS],
    pub(super) weights: [f64; N_WEIGHTS],
    pub(super) records: Vec<GameRecord>,
    pub(super) evaluations: Vec<MatchScore>,
    /// The best weights measured so far.
    pub(super) keep: crate::train::run_loop::KeepBest<[f64; N_WEIGHTS]>,
}

pub(super) fn config_key(config: &LmsConfig) -> String {
    // The board is not part of the JSON form of the settings: name it first.
    format!(
        "{}x{} {}",
        config.geometry.width(),
        config.geometry.height(),
        serde_json::to_string(config).unwrap_or_default()
    )
}

pub(super) fn save_checkpoint(
    path: &std::path::Path,
    config: &LmsConfig,
    c: &Checkpoint,
) -> Result<(), LmsTrainError> {
    Ok(crate::train::checkpoint::save(
        path,
        TRAINER,
        &config_key(config),
        c,
    )?)
}

/// The checkpoint in `path` of a run of `config` (`None`: no file); refused when another
/// trainer, version or run wrote it (see [`crate::train::checkpoint`]).
pub(super) fn load_checkpoint(
    path: &std::path::Path,
    config: &LmsConfig,
) -> Result<Option<Checkpoint>, LmsTrainError> {
    Ok(crate::train::checkpoint::load(
        path,
        TRAINER,
        &config_key(config),
    )?)
}

/// The trainer's name in its checkpoints.
const TRAINER: &str = "lms";
