//! Model files held in memory, for programs without a file system (the WebAssembly engine)
//! or that carry their models inside (`c4 serve` started outside the repository).

use super::{EvalError, Evaluator, LinearEvaluator, ModelEvaluator, NTupleEvaluator};
use crate::game::{BitBoard, Geometry};
use crate::kept::Kept;
use crate::ml::model_file::{decode_any, decode_linear, decode_ntuple_on};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Model files by the path agent specs name them with (`models/ntuple.bin`): a spec's model
/// is taken from here when the store holds its path, else read from the file system.
/// Cheap to clone (the bytes are shared).
///
/// ```
/// use connect4_engine::eval::{Evaluator, ModelStore};
/// use connect4_engine::Geometry;
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../models/lms.bin")).unwrap();
/// let mut store = ModelStore::default();
/// store.insert("nowhere/lms.bin", bytes);
/// let e = store.model("nowhere/lms.bin".as_ref(), Geometry::STANDARD).unwrap();
/// assert!(e.name().starts_with("lms("));
/// assert!(store.model("nowhere/other.bin".as_ref(), Geometry::STANDARD).is_err());
/// ```
#[derive(Clone, Default)]
pub struct ModelStore {
    files: HashMap<PathBuf, Arc<[u8]>>,
    /// The models last decoded from `files` (shared by the store's clones).
    decoded: Decoded,
}

/// Models decoded from a store's bytes, kept for the next request: the page (and so the
/// WebAssembly engine) builds an agent per move, and decoding a board's network takes about
/// 90 ms there, where the network's move takes under 1. The [`KEPT`] most recently used are
/// kept: a game reads one board's network (every preset that plays there shares it) and
/// perhaps one other model.
#[derive(Clone)]
struct Decoded(Arc<Kept<DecodedKey>>);

/// What a decoded model is found by: its bytes and the board (width, height, bits of its
/// integer) it was decoded for.
type DecodedKey = (SameBytes, (usize, usize, u32));

impl Default for Decoded {
    fn default() -> Self {
        Decoded(Arc::new(Kept::new(KEPT)))
    }
}

/// How many decoded models a store keeps.
const KEPT: usize = 2;

/// The bytes a model was decoded from, equal only to the same allocation: held, so that a
/// file replaced by [`ModelStore::insert`] never matches.
struct SameBytes(Arc<[u8]>);

impl PartialEq for SameBytes {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Decoded {
    /// The model of `bytes` for `board` as `T` (an `Arc` of the evaluator), decoded by
    /// `decode` unless kept.
    fn get_or<T: Clone + Send + Sync + 'static, E>(
        &self,
        bytes: &Arc<[u8]>,
        board: (usize, usize, u32),
        decode: impl FnOnce() -> Result<T, E>,
    ) -> Result<T, E> {
        self.0.get_or((SameBytes(Arc::clone(bytes)), board), decode)
    }
}

/// The key of `geom` among decoded models.
fn board_key<B: BitBoard>(geom: Geometry<B>) -> (usize, usize, u32) {
    (geom.width(), geom.height(), B::BITS)
}

impl std::fmt::Debug for ModelStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.files.keys()).finish()
    }
}

impl ModelStore {
    /// Holds `bytes` as the file `path`.
    pub fn insert(&mut self, path: impl Into<PathBuf>, bytes: impl Into<Arc<[u8]>>) {
        self.files.insert(path.into(), bytes.into());
    }

    /// The bytes held for `path`.
    pub fn get(&self, path: &Path) -> Option<&[u8]> {
        self.files.get(path).map(|b| &b[..])
    }

    /// Whether the store holds `path`.
    pub fn contains(&self, path: &Path) -> bool {
        self.files.contains_key(path)
    }

    /// The paths held, in no particular order.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.files.keys().map(PathBuf::as_path)
    }

    /// The evaluator of the model file `path` (any kind) for boards of `geom` (decoded once
    /// while the store keeps it, see [`ModelStore::shared_ntuple`]).
    pub fn model(&self, path: &Path, geom: Geometry) -> Result<Arc<dyn Evaluator>, EvalError> {
        let Some(bytes) = self.files.get(path) else {
            return super::load_model(path, geom);
        };
        self.decoded.get_or(bytes, board_key(geom), || {
            Ok(
                match ModelEvaluator::from_file(decode_any(path, bytes, Some(geom))?, path)? {
                    ModelEvaluator::Gbt(e) => Arc::new(*e) as Arc<dyn Evaluator>,
                    ModelEvaluator::Linear(e) => Arc::new(e),
                    ModelEvaluator::NTuple(e) => Arc::new(*e),
                },
            )
        })
    }

    /// The evaluator of the linear model file `path` (other kinds refused).
    pub fn linear(&self, path: &Path, geom: Geometry) -> Result<LinearEvaluator, EvalError> {
        match self.get(path) {
            Some(bytes) => Ok(LinearEvaluator::from_file(
                &decode_linear(path, bytes, Some(geom))?,
                path,
            )),
            None => LinearEvaluator::load(path, geom),
        }
    }

    /// The evaluator of the n-tuple network file `path` (other kinds refused).
    pub fn ntuple<B: BitBoard>(
        &self,
        path: &Path,
        geom: Geometry<B>,
    ) -> Result<NTupleEvaluator<B>, EvalError> {
        match self.get(path) {
            Some(bytes) => Ok(NTupleEvaluator::new(
                decode_ntuple_on(path, bytes, geom)?,
                super::file_name(path),
            )),
            None => NTupleEvaluator::load(path, geom),
        }
    }

    /// As [`ModelStore::ntuple`], shared: a network the store holds is decoded once and
    /// handed out again while it is among the two models last used, so an agent built
    /// per move does not decode it each time (90 ms a move in a browser).
    ///
    /// ```
    /// use connect4_engine::eval::ModelStore;
    /// use connect4_engine::Geometry;
    /// use std::sync::Arc;
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../models/ntuple-5x4.bin")).unwrap();
    /// let g = Geometry::new(5, 4).unwrap();
    /// let mut store = ModelStore::default();
    /// store.insert("ntuple-5x4.bin", bytes.clone());
    /// let a = store.shared_ntuple("ntuple-5x4.bin".as_ref(), g).unwrap();
    /// assert!(Arc::ptr_eq(&a, &store.shared_ntuple("ntuple-5x4.bin".as_ref(), g).unwrap()));
    /// store.insert("ntuple-5x4.bin", bytes); // a new file: decoded again
    /// assert!(!Arc::ptr_eq(&a, &store.shared_ntuple("ntuple-5x4.bin".as_ref(), g).unwrap()));
    /// ```
    pub fn shared_ntuple<B: BitBoard>(
        &self,
        path: &Path,
        geom: Geometry<B>,
    ) -> Result<Arc<NTupleEvaluator<B>>, EvalError> {
        match self.files.get(path) {
            Some(bytes) => self.decoded.get_or(bytes, board_key(geom), || {
                self.ntuple(path, geom).map(Arc::new)
            }),
            None => self.ntuple(path, geom).map(Arc::new),
        }
    }
}
