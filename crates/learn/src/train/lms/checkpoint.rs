//! Checkpoints: the loop's whole state after a game, so an interrupted run can go on and end
//! exactly where an uninterrupted one would.

use super::config::{LmsConfig, LmsTrainError};
use super::records::{GameRecord, MatchScore};
use crate::ml::lms::N_WEIGHTS;
use serde::Serialize;

/// Where and how often [`super::train_with`] saves its state, and whether it starts from it.
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
pub(super) struct Checkpoint {
    /// The settings as JSON: a checkpoint only continues the run it belongs to.
    pub(super) config: String,
    /// Training games done.
    pub(super) games: usize,
    /// Position of the random stream (ChaCha8 word position) after those games.
    pub(super) rng_word_pos: u128,
    pub(super) initial: [f64; N_WEIGHTS],
    pub(super) weights: [f64; N_WEIGHTS],
    pub(super) records: Vec<GameRecord>,
    pub(super) evaluations: Vec<MatchScore>,
}

/// Checkpoint files start with this, then bincode.
const CHECKPOINT_MAGIC: &[u8; 8] = b"C4LMSCK1";

pub(super) fn config_key(config: &LmsConfig) -> String {
    // The board is not part of the JSON form of the settings: name it first.
    format!(
        "{}x{} {}",
        config.geometry.width(),
        config.geometry.height(),
        serde_json::to_string(config).unwrap_or_default()
    )
}

pub(super) fn save_checkpoint(path: &std::path::Path, c: &Checkpoint) -> Result<(), LmsTrainError> {
    let body = bincode::serde::encode_to_vec(c, bincode::config::standard())?;
    let mut bytes = CHECKPOINT_MAGIC.to_vec();
    bytes.extend_from_slice(&body);
    crate::io::write_bytes_atomic(path, &bytes).map_err(|source| LmsTrainError::CheckpointIo {
        path: path.to_path_buf(),
        source,
    })
}

pub(super) fn load_checkpoint(path: &std::path::Path) -> Result<Option<Checkpoint>, LmsTrainError> {
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
