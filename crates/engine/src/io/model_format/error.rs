//! What can go wrong with a model file, each error naming the file.

use super::{FORMAT_VERSION, ModelKind};
use std::path::PathBuf;
use thiserror::Error;

/// Why a model file could not be written or read. Every variant names the file.
#[derive(Debug, Error)]
pub enum ModelFileError {
    /// Reading or writing failed.
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Not a model file at all.
    #[error("{path}: not a connect4-ml model file (wrong magic bytes)", path = path.display())]
    Magic {
        /// The file.
        path: PathBuf,
    },
    /// Written by another format version.
    #[error("{path}: model format version {found}, this build reads version {FORMAT_VERSION}", path = path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
    },
    /// Shorter than its own lengths say.
    #[error("{path}: truncated ({len} bytes; {what})", path = path.display())]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Its length.
        len: usize,
        /// What is missing.
        what: &'static str,
    },
    /// The checksum does not match: the bytes were changed after writing.
    #[error("{path}: corrupted (sha256 checksum mismatch)", path = path.display())]
    Checksum {
        /// The file.
        path: PathBuf,
    },
    /// Header or body do not decode.
    #[error("{path}: cannot decode the {part}: {source}", path = path.display())]
    Decode {
        /// The file.
        path: PathBuf,
        /// "header" or "body".
        part: &'static str,
        /// The decoder's error.
        source: bincode::error::DecodeError,
    },
    /// The body decoded but bytes are left after it.
    #[error("{path}: cannot decode the body: {extra} trailing bytes", path = path.display())]
    TrailingBytes {
        /// The file.
        path: PathBuf,
        /// Bytes left over.
        extra: usize,
    },
    /// The model could not be encoded for writing.
    #[error("{path}: cannot encode the model: {source}", path = path.display())]
    Encode {
        /// The file.
        path: PathBuf,
        /// The encoder's error.
        source: bincode::error::EncodeError,
    },
    /// The header is valid but names another model than the caller needs.
    #[error("{path}: {what}", path = path.display())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// Which field differs, expected vs found.
        what: HeaderMismatch,
    },
    /// Header and body decode, but the body is not a usable model of its kind (checked by
    /// the module that owns that kind).
    #[error("{path}: {source}", path = path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What the owning module found wrong.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// A header field that differs from what the caller expects.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HeaderMismatch {
    /// Another kind of model.
    #[error("holds a {found} model, expected a {expected} model")]
    Kind {
        /// Needed.
        expected: ModelKind,
        /// In the file.
        found: ModelKind,
    },
    /// Another feature set.
    #[error("model reads feature set {found:?}, expected {expected:?}")]
    FeatureSet {
        /// Needed.
        expected: String,
        /// In the file.
        found: String,
    },
    /// Another board size.
    #[error("model is for a {}x{} board, this board is {}x{}", found.0, found.1, expected.0, expected.1)]
    Board {
        /// Needed (width, height).
        expected: (u32, u32),
        /// In the file.
        found: (u32, u32),
    },
}
