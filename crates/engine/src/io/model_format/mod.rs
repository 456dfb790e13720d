//! Model files: a fixed preamble, a header saying what the model is, the bincode body and a
//! sha256 checksum, written atomically.
//!
//! ```text
//! "C4MODEL\0"            8 bytes magic
//! format version         u32 little-endian (FORMAT_VERSION)
//! header length          u32 little-endian, then the header (bincode of ModelHeader)
//! body length            u64 little-endian, then the body (bincode of the model)
//! sha256                 32 bytes over everything before it
//! ```
//! Loading checks, in order: size, magic, version, checksum (truncation and corruption),
//! then the header against what the caller expects (kind, feature set, board size).

mod error;

pub use error::{HeaderMismatch, ModelFileError};
use serde::{Serialize, de::DeserializeOwned};
use sha2::{Digest, Sha256};
use std::path::Path;

/// The first eight bytes of every model file.
pub const MAGIC: &[u8; 8] = b"C4MODEL\0";
/// The version of the layout above; loading refuses any other.
pub const FORMAT_VERSION: u32 = 1;
/// Largest header or body the loader decodes (guards against hostile lengths).
const MAX_PART: usize = 1 << 30;

/// What kind of model a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum ModelKind {
    /// Gradient-boosted trees (`c4 train gbt`).
    Gbt,
    /// Weights of a linear evaluator (`c4 train lms`).
    Linear,
    /// An n-tuple network (`c4 train ntuple`).
    NTuple,
}

impl std::fmt::Display for ModelKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ModelKind::Gbt => "gbt",
            ModelKind::Linear => "linear",
            ModelKind::NTuple => "ntuple",
        })
    }
}

/// How a model was trained: enough to reproduce it and to report on it.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize, Default)]
pub struct TrainingMeta {
    /// The command line that made it.
    pub command: String,
    /// The seed.
    pub seed: u64,
    /// Training rows (or games).
    pub rows: u64,
    /// Data sources with their sha256, e.g. "uci:connect-4.data sha256=...".
    pub data: Vec<String>,
    /// Headline metrics, name and value (e.g. "holdout_accuracy", 0.86).
    pub metrics: Vec<(String, f64)>,
    /// The crate version that wrote the file.
    pub crate_version: String,
    /// The recipe a trainer that has one was run with (TOML text; `c4 train ntuple
    /// --recipe FILE` reads it back). Stored after the header's other fields, so files
    /// without it, written before it existed, read as `None`, and older readers skip it.
    #[serde(skip)]
    pub recipe: Option<String>,
}

impl TrainingMeta {
    /// Metadata for a model made by `command` with `seed`, written by this crate version;
    /// the builder methods add the rest.
    pub fn new(command: impl Into<String>, seed: u64) -> Self {
        TrainingMeta {
            command: command.into(),
            seed,
            crate_version: env!("CARGO_PKG_VERSION").into(),
            ..TrainingMeta::default()
        }
    }

    /// Training rows (or games).
    pub fn rows(mut self, rows: usize) -> Self {
        self.rows = rows as u64;
        self
    }

    /// Data sources with their sha256.
    pub fn data(mut self, data: Vec<String>) -> Self {
        self.data = data;
        self
    }

    /// The recipe the model was trained with (TOML).
    pub fn recipe(mut self, recipe: impl Into<String>) -> Self {
        self.recipe = Some(recipe.into());
        self
    }

    /// Headline metrics.
    pub fn metrics(mut self, metrics: Vec<(String, f64)>) -> Self {
        self.metrics = metrics;
        self
    }
}

/// The header every model file starts with.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct ModelHeader {
    /// What the body is.
    pub kind: ModelKind,
    /// Name of the feature set the model reads (see `features::FeatureSet`).
    pub feature_set: String,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// Training metadata.
    pub meta: TrainingMeta,
}

/// What the caller needs the file to be; `None` accepts anything.
#[derive(Clone, Debug, Default)]
pub struct Expect {
    /// Required kind.
    pub kind: Option<ModelKind>,
    /// Required feature set name.
    pub feature_set: Option<String>,
    /// Required board (width, height).
    pub board: Option<(u32, u32)>,
}

fn config() -> bincode::config::Configuration<
    bincode::config::LittleEndian,
    bincode::config::Varint,
    bincode::config::Limit<MAX_PART>,
> {
    bincode::config::standard().with_limit::<MAX_PART>()
}

/// Encodes a model file in memory.
pub fn encode_model<T: Serialize>(
    header: &ModelHeader,
    body: &T,
) -> Result<Vec<u8>, bincode::error::EncodeError> {
    let mut h = bincode::serde::encode_to_vec(header, config())?;
    if let Some(recipe) = &header.meta.recipe {
        h.extend(bincode::serde::encode_to_vec(Some(recipe), config())?);
    }
    let b = bincode::serde::encode_to_vec(body, config())?;
    let mut out = Vec::with_capacity(8 + 4 + 4 + h.len() + 8 + b.len() + 32);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(h.len() as u32).to_le_bytes());
    out.extend_from_slice(&h);
    out.extend_from_slice(&(b.len() as u64).to_le_bytes());
    out.extend_from_slice(&b);
    let sum = Sha256::digest(&out);
    out.extend_from_slice(&sum);
    Ok(out)
}

/// Writes a model file atomically (an interrupted write leaves the old file in place).
pub(crate) fn save_model<T: Serialize>(
    path: &Path,
    header: &ModelHeader,
    body: &T,
) -> Result<(), ModelFileError> {
    let bytes = encode_model(header, body).map_err(|source| ModelFileError::Encode {
        path: path.to_path_buf(),
        source,
    })?;
    super::write_bytes_atomic(path, &bytes).map_err(|source| ModelFileError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Splits and checks the bytes of a model file; returns (header bytes, body bytes).
fn split<'a>(path: &Path, bytes: &'a [u8]) -> Result<(&'a [u8], &'a [u8]), ModelFileError> {
    let p = || path.to_path_buf();
    let len = bytes.len();
    let trunc = |what: &'static str| ModelFileError::Truncated {
        path: p(),
        len,
        what,
    };
    if len < 8 || &bytes[..8] != MAGIC {
        return Err(if len < 8 && MAGIC.starts_with(bytes) && len > 0 {
            trunc("the magic bytes are cut short")
        } else {
            ModelFileError::Magic { path: p() }
        });
    }
    if len < 16 {
        return Err(trunc("the preamble is incomplete"));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(ModelFileError::Version {
            path: p(),
            found: version,
        });
    }
    let hlen = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    let body_at = 16usize
        .checked_add(hlen)
        .filter(|&e| e + 8 <= len)
        .ok_or_else(|| trunc("the header is incomplete"))?;
    let blen = u64::from_le_bytes(bytes[body_at..body_at + 8].try_into().expect("8 bytes"));
    let blen = usize::try_from(blen).map_err(|_| trunc("the body length is impossible"))?;
    let end = (body_at + 8)
        .checked_add(blen)
        .ok_or_else(|| trunc("the body length is impossible"))?;
    if end + 32 > len {
        return Err(trunc("the body or checksum is incomplete"));
    }
    if end + 32 < len {
        return Err(ModelFileError::Checksum { path: p() });
    }
    if Sha256::digest(&bytes[..end]).as_slice() != &bytes[end..] {
        return Err(ModelFileError::Checksum { path: p() });
    }
    Ok((&bytes[16..16 + hlen], &bytes[body_at + 8..end]))
}

fn decode_header(path: &Path, h: &[u8]) -> Result<ModelHeader, ModelFileError> {
    let err = |source| ModelFileError::Decode {
        path: path.to_path_buf(),
        part: "header",
        source,
    };
    let (mut header, used) =
        bincode::serde::decode_from_slice::<ModelHeader, _>(h, config()).map_err(err)?;
    // The fields added after the first release follow the header's own bytes.
    if used < h.len() {
        header.meta.recipe =
            bincode::serde::decode_from_slice::<Option<String>, _>(&h[used..], config())
                .map_err(err)?
                .0;
    }
    Ok(header)
}

fn check(path: &Path, header: &ModelHeader, expect: &Expect) -> Result<(), ModelFileError> {
    let mismatch = |what: HeaderMismatch| {
        Err(ModelFileError::Mismatch {
            path: path.to_path_buf(),
            what,
        })
    };
    if let Some(k) = expect.kind
        && k != header.kind
    {
        return mismatch(HeaderMismatch::Kind {
            expected: k,
            found: header.kind,
        });
    }
    if let Some(f) = &expect.feature_set
        && *f != header.feature_set
    {
        return mismatch(HeaderMismatch::FeatureSet {
            expected: f.clone(),
            found: header.feature_set.clone(),
        });
    }
    if let Some(board) = expect.board
        && board != (header.width, header.height)
    {
        return mismatch(HeaderMismatch::Board {
            expected: board,
            found: (header.width, header.height),
        });
    }
    Ok(())
}

/// A model file whose bytes passed the integrity checks (lengths, checksum) and whose header
/// decoded: what is left is to check the header against what the caller wants and to decode
/// the body, whose type the header's kind decides. Each file is read and checksummed once.
pub struct ModelParts<'a> {
    path: &'a Path,
    /// The decoded header.
    pub header: ModelHeader,
    body: &'a [u8],
}

impl<'a> ModelParts<'a> {
    /// Splits and checks the bytes of a model file (`path` only names it in errors).
    pub fn open(path: &'a Path, bytes: &'a [u8]) -> Result<ModelParts<'a>, ModelFileError> {
        let (h, body) = split(path, bytes)?;
        let header = decode_header(path, h)?;
        Ok(ModelParts { path, header, body })
    }

    /// The encoded body as the file holds it: two files whose bodies are equal hold the same
    /// model, whatever their headers say of how each was made.
    pub fn body_bytes(&self) -> &'a [u8] {
        self.body
    }

    /// The file the bytes came from.
    pub fn path(&self) -> &Path {
        self.path
    }

    /// Checks the header against `expect`.
    pub fn check(&self, expect: &Expect) -> Result<(), ModelFileError> {
        check(self.path, &self.header, expect)
    }

    /// Decodes the body as a `T`; every byte must belong to it.
    pub fn body<T: DeserializeOwned>(&self) -> Result<T, ModelFileError> {
        let (body, used) =
            bincode::serde::decode_from_slice::<T, _>(self.body, config()).map_err(|source| {
                ModelFileError::Decode {
                    path: self.path.to_path_buf(),
                    part: "body",
                    source,
                }
            })?;
        if used != self.body.len() {
            return Err(ModelFileError::TrailingBytes {
                path: self.path.to_path_buf(),
                extra: self.body.len() - used,
            });
        }
        Ok(body)
    }
}

/// Reads a whole file for [`ModelParts::open`], naming it in the error; a missing file that
/// the program carries inside itself is read from there (see [`crate::io::carried`]).
pub(crate) fn read_bytes(path: &Path) -> Result<Vec<u8>, ModelFileError> {
    crate::io::carried::read_or_carried(path).map_err(|source| ModelFileError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Decodes and checks a model file held in memory (`path` only names it in errors).
pub(crate) fn decode_model<T: DeserializeOwned>(
    path: &Path,
    bytes: &[u8],
    expect: &Expect,
) -> Result<(ModelHeader, T), ModelFileError> {
    let parts = ModelParts::open(path, bytes)?;
    parts.check(expect)?;
    let body = parts.body()?;
    Ok((parts.header, body))
}

/// Reads, checks and decodes a model file.
pub fn load_model<T: DeserializeOwned>(
    path: &Path,
    expect: &Expect,
) -> Result<(ModelHeader, T), ModelFileError> {
    decode_model(path, &read_bytes(path)?, expect)
}

#[cfg(test)] // only the tests ask
/// Reads only the header (after the full integrity check).
pub(crate) fn read_header(path: &Path) -> Result<ModelHeader, ModelFileError> {
    Ok(ModelParts::open(path, &read_bytes(path)?)?.header)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> ModelHeader {
        ModelHeader {
            kind: ModelKind::Gbt,
            feature_set: "cells".into(),
            width: 7,
            height: 6,
            meta: TrainingMeta {
                command: "test".into(),
                seed: 3,
                ..Default::default()
            },
        }
    }

    fn body() -> Vec<(u32, f64)> {
        vec![(1, 0.5), (2, -1.25)]
    }

    fn load(
        bytes: &[u8],
        expect: &Expect,
    ) -> Result<(ModelHeader, Vec<(u32, f64)>), ModelFileError> {
        decode_model(Path::new("m.bin"), bytes, expect)
    }

    #[test]
    fn a_recipe_rides_after_the_header_and_files_without_one_read_as_none() {
        let p = Path::new("m.bin");
        let plain = encode_model(&header(), &body()).unwrap();
        let (h, _) = decode_model::<Vec<(u32, f64)>>(p, &plain, &Expect::default()).unwrap();
        assert_eq!(h.meta.recipe, None);
        let mut with = header();
        with.meta = with.meta.recipe("games = 5\n");
        let bytes = encode_model(&with, &body()).unwrap();
        let (h, b) = decode_model::<Vec<(u32, f64)>>(p, &bytes, &Expect::default()).unwrap();
        assert_eq!((h, b), (with, body()));
    }

    #[test]
    fn round_trip_and_every_rejection() {
        let good = encode_model(&header(), &body()).unwrap();
        let (h, b) = load(&good, &Expect::default()).unwrap();
        assert_eq!((h, b), (header(), body()));

        let err = |bytes: &[u8], expect: &Expect| load(bytes, expect).unwrap_err().to_string();
        let any = Expect::default();
        let mut bad = good.clone();
        bad[0] = b'X';
        assert!(err(&bad, &any).contains("wrong magic"));
        assert!(err(b"hello world, not a model", &any).contains("wrong magic"));
        let mut bad = good.clone();
        bad[8] = 9;
        assert!(err(&bad, &any).contains("format version 9"));
        for cut in [4, 12, 20, good.len() - 1] {
            assert!(
                err(&good[..cut], &any).contains("truncated"),
                "cut at {cut}"
            );
        }
        let mut bad = good.clone();
        let mid = good.len() - 40;
        bad[mid] ^= 1;
        assert!(err(&bad, &any).contains("corrupted"));
        let mut long = good.clone();
        long.push(0);
        assert!(err(&long, &any).contains("corrupted"));

        let kind = Expect {
            kind: Some(ModelKind::Linear),
            ..Default::default()
        };
        assert!(err(&good, &kind).contains("holds a gbt model, expected a linear model"));
        let fs = Expect {
            feature_set: Some("onehot".into()),
            ..Default::default()
        };
        assert!(err(&good, &fs).contains("feature set \"cells\", expected \"onehot\""));
        let board = Expect {
            board: Some((6, 5)),
            ..Default::default()
        };
        assert!(err(&good, &board).contains("7x6 board, this board is 6x5"));
        // A body of another type fails to decode instead of panicking.
        let r: Result<(ModelHeader, String), _> = decode_model(Path::new("m.bin"), &good, &any);
        assert!(
            r.unwrap_err()
                .to_string()
                .contains("cannot decode the body")
        );
    }

    #[test]
    fn save_is_atomic_and_loads_back() {
        let dir = std::env::temp_dir().join(format!("c4-model-{}", std::process::id()));
        let path = dir.join("m.bin");
        save_model(&path, &header(), &body()).unwrap();
        let (h, b): (ModelHeader, Vec<(u32, f64)>) = load_model(&path, &Expect::default()).unwrap();
        assert_eq!((h.meta.seed, b), (3, body()));
        assert_eq!(read_header(&path).unwrap().feature_set, "cells");
        assert!(
            load_model::<Vec<(u32, f64)>>(&dir.join("missing.bin"), &Expect::default()).is_err()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
