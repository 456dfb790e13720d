//! One checkpoint format for every trainer (the LMS and n-tuple ones): a run's whole state
//! after some games, so that an interrupted run resumes to exactly what an uninterrupted one
//! ends with, and refuses a file of another trainer, version or run.
//!
//! | bytes | what |
//! |---|---|
//! | 0..8 | magic `C4-CKPT\n` |
//! | 8..10 | format version: 1 |
//! | 10 | length k of the trainer's name, then its k bytes (`lms`, `ntuple`) |
//! | then 4 bytes | length r of the run's recipe (its settings as text), then its r bytes |
//! | then | the trainer's state, bincode (standard configuration) |
//!
//! The recipe is what makes a checkpoint belong to a run: a resume with other settings is
//! refused before the state is decoded. Files are written atomically.

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"C4-CKPT\n";
/// The format version written.
const VERSION: u16 = 1;
/// The most bytes a checkpoint's state may decode from (a corrupt length cannot ask more).
const LIMIT: usize = 1 << 30;

/// Why a checkpoint could not be written or resumed from.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file could not be read or written.
    #[error("checkpoint {path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// Not a checkpoint of this program (or one from before this format).
    #[error("checkpoint {path}: not a checkpoint of this version of c4; start again without --resume", path = path.display())]
    NotACheckpoint {
        /// The file.
        path: PathBuf,
    },
    /// A format version this program does not read.
    #[error("checkpoint {path}: format version {found}, this program reads {VERSION}; start again without --resume", path = path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// The version found.
        found: u16,
    },
    /// Another trainer's checkpoint.
    #[error("checkpoint {path}: written by the {found} trainer, not the {expected} one", path = path.display())]
    Trainer {
        /// The file.
        path: PathBuf,
        /// The trainer that wrote it.
        found: String,
        /// The trainer reading it.
        expected: &'static str,
    },
    /// A checkpoint of a run with other settings.
    #[error("checkpoint {path}: written by a run with other settings", path = path.display())]
    OtherRun {
        /// The file.
        path: PathBuf,
    },
    /// The state does not decode (a damaged file).
    #[error("checkpoint {path}: cannot decode the state: {source}", path = path.display())]
    Decode {
        /// The file.
        path: PathBuf,
        /// The decoder's error.
        #[source]
        source: bincode::error::DecodeError,
    },
    /// The state could not be encoded.
    #[error("checkpoint {path}: cannot encode the state: {source}", path = path.display())]
    Encode {
        /// The file.
        path: PathBuf,
        /// The encoder's error.
        #[source]
        source: bincode::error::EncodeError,
    },
}

/// Writes `state`, the state of a run of `trainer` with settings `recipe`, to `path`.
pub fn save<T: Serialize>(
    path: &Path,
    trainer: &'static str,
    recipe: &str,
    state: &T,
) -> Result<(), CheckpointError> {
    let body =
        bincode::serde::encode_to_vec(state, bincode::config::standard()).map_err(|source| {
            CheckpointError::Encode {
                path: path.to_path_buf(),
                source,
            }
        })?;
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.push(trainer.len() as u8);
    bytes.extend_from_slice(trainer.as_bytes());
    bytes.extend_from_slice(&(recipe.len() as u32).to_le_bytes());
    bytes.extend_from_slice(recipe.as_bytes());
    bytes.extend_from_slice(&body);
    connect4_engine::io::write_bytes_atomic(path, &bytes).map_err(|source| CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// The state in `path` of a run of `trainer` with settings `recipe`; `None` when there is
/// no such file. Refused: another program's file, another version, another trainer, another
/// run's settings, a state that does not decode whole.
pub fn load<T: DeserializeOwned>(
    path: &Path,
    trainer: &'static str,
    recipe: &str,
) -> Result<Option<T>, CheckpointError> {
    let Some(bytes) = read(path)? else {
        return Ok(None);
    };
    decode(path, &bytes, trainer, recipe).map(Some)
}

/// The bytes of the checkpoint file `path`; `None` when there is no such file.
pub fn read(path: &Path) -> Result<Option<Vec<u8>>, CheckpointError> {
    match std::fs::read(path) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// The state in `bytes`, the contents of the checkpoint file `path` (named in errors), of a
/// run of `trainer` with settings `recipe`: [`load`] for callers that hold the bytes (tests,
/// fuzzers). Refused as [`load`] refuses.
pub fn decode<T: DeserializeOwned>(
    path: &Path,
    bytes: &[u8],
    trainer: &'static str,
    recipe: &str,
) -> Result<T, CheckpointError> {
    let path_buf = || path.to_path_buf();
    let not_one = || CheckpointError::NotACheckpoint { path: path_buf() };
    let rest = bytes.strip_prefix(MAGIC).ok_or_else(not_one)?;
    let (version, rest) = rest.split_first_chunk::<2>().ok_or_else(not_one)?;
    let version = u16::from_le_bytes(*version);
    if version != VERSION {
        return Err(CheckpointError::Version {
            path: path_buf(),
            found: version,
        });
    }
    let (&k, rest) = rest.split_first().ok_or_else(not_one)?;
    let (name, rest) = rest.split_at_checked(k as usize).ok_or_else(not_one)?;
    if name != trainer.as_bytes() {
        return Err(CheckpointError::Trainer {
            path: path_buf(),
            found: String::from_utf8_lossy(name).into_owned(),
            expected: trainer,
        });
    }
    let (r, rest) = rest.split_first_chunk::<4>().ok_or_else(not_one)?;
    let (written, body) = rest
        .split_at_checked(u32::from_le_bytes(*r) as usize)
        .ok_or_else(not_one)?;
    if written != recipe.as_bytes() {
        return Err(CheckpointError::OtherRun { path: path_buf() });
    }
    let decode = |source| CheckpointError::Decode {
        path: path_buf(),
        source,
    };
    let (state, used) =
        bincode::serde::decode_from_slice(body, bincode::config::standard().with_limit::<LIMIT>())
            .map_err(decode)?;
    if used != body.len() {
        return Err(decode(bincode::error::DecodeError::Other(
            "bytes after the state's end",
        )));
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_resumes_only_its_own_run() {
        let dir = std::env::temp_dir().join(format!("c4-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.checkpoint");
        let state = (7usize, vec![1.5f32, -2.0]);
        assert!(
            load::<(usize, Vec<f32>)>(&path, "lms", "a")
                .unwrap()
                .is_none()
        );
        save(&path, "lms", "a = 1", &state).unwrap();
        assert_eq!(load(&path, "lms", "a = 1").unwrap(), Some(state.clone()));
        let e = |t, r| {
            load::<(usize, Vec<f32>)>(&path, t, r)
                .unwrap_err()
                .to_string()
        };
        assert!(e("lms", "a = 2").contains("other settings"));
        assert!(e("ntuple", "a = 1").contains("by the lms trainer, not the ntuple one"));
        let bytes = std::fs::read(&path).unwrap();
        for (name, damaged) in [
            ("foreign", b"not a checkpoint".to_vec()),
            ("cut", bytes[..bytes.len() - 3].to_vec()),
            ("header cut", bytes[..12].to_vec()),
            ("version", {
                let mut b = bytes.clone();
                b[8] = 9;
                b
            }),
        ] {
            std::fs::write(&path, &damaged).unwrap();
            let e = e("lms", "a = 1");
            assert!(e.contains("run.checkpoint"), "{name}: {e}");
        }
        std::fs::write(&path, b"not a checkpoint").unwrap();
        assert!(e("lms", "a = 1").contains("not a checkpoint"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
