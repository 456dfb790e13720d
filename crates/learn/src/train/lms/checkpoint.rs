//! Checkpoints: the loop's whole state after a game, so an interrupted run can go on and end
//! exactly where an uninterrupted one would, in the format every trainer shares
//! ([`crate::train::checkpoint`]).

use super::config::{LmsConfig, LmsTrainError, ValidLmsConfig};
use super::records::{GameRecord, MatchScore};
use connect4_engine::ml::lms::N_WEIGHTS;
use serde::Serialize;

/// Everything the training loop needs to go on after game `games`: with it, a resumed run
/// plays the same games and ends with the same weights as one that was never stopped.
#[derive(Serialize, serde::Deserialize)]
pub struct Checkpoint {
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
    config: &ValidLmsConfig,
) -> Result<Option<Checkpoint>, LmsTrainError> {
    let Some(bytes) = crate::train::checkpoint::read(path)? else {
        return Ok(None);
    };
    decode_checkpoint(path, &bytes, config).map(Some)
}

/// The checkpoint in `bytes`, the contents of the file `path` (named in errors), of a run of
/// `config`: what a resume reads, for callers that hold the bytes (tests, fuzzers). Refused:
/// another trainer's, version's or run's file, a state that does not decode whole, weights
/// the rule cannot start from.
pub fn decode_checkpoint(
    path: &std::path::Path,
    bytes: &[u8],
    config: &ValidLmsConfig,
) -> Result<Checkpoint, LmsTrainError> {
    let c: Checkpoint =
        crate::train::checkpoint::decode(path, bytes, TRAINER, &config_key(config))?;
    connect4_engine::ml::lms::Lms::new(c.weights, config.rate)?;
    connect4_engine::ml::lms::Lms::new(c.initial, config.rate)?;
    Ok(c)
}

/// The trainer's name in its checkpoints.
const TRAINER: &str = "lms";

#[cfg(test)]
mod tests {
    use super::*;

    fn state(weights: [f64; N_WEIGHTS]) -> Checkpoint {
        Checkpoint {
            games: 3,
            rng_word_pos: 17,
            initial: [0.5; N_WEIGHTS],
            weights,
            records: Vec::new(),
            evaluations: Vec::new(),
            keep: Default::default(),
        }
    }

    #[test]
    fn a_checkpoint_decodes_from_its_bytes_and_weights_that_cannot_start_are_refused() {
        let dir = std::env::temp_dir().join(format!("c4-lms-decode-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.checkpoint");
        let config = ValidLmsConfig::default();
        save_checkpoint(&path, &config, &state([0.25; N_WEIGHTS])).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let back = decode_checkpoint(&path, &bytes, &config).unwrap();
        assert_eq!((back.games, back.rng_word_pos), (3, 17));
        assert_eq!(back.weights, [0.25; N_WEIGHTS]);
        assert!(
            load_checkpoint(&dir.join("none"), &config)
                .unwrap()
                .is_none()
        );

        let mut nan = [0.25; N_WEIGHTS];
        nan[4] = f64::NAN;
        save_checkpoint(&path, &config, &state(nan)).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let err = decode_checkpoint(&path, &bytes, &config)
            .err()
            .expect("a NaN weight cannot resume");
        assert!(err.to_string().contains("finite"), "{err}");
        // Cut short: refused, naming the file.
        let err = decode_checkpoint(&path, &bytes[..bytes.len() - 3], &config)
            .err()
            .expect("a cut file cannot resume");
        assert!(err.to_string().contains("w.checkpoint"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
