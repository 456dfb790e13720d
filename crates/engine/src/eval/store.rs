//! Model files held in memory, for programs without a file system (the WebAssembly engine)
//! or that carry their models inside (`c4 serve` started outside the repository).

use super::{EvalError, Evaluator, LinearEvaluator, ModelEvaluator, NTupleEvaluator};
use crate::game::{BitBoard, Geometry};
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

    /// The evaluator of the model file `path` (any kind) for boards of `geom`.
    pub fn model(&self, path: &Path, geom: Geometry) -> Result<Arc<dyn Evaluator>, EvalError> {
        let Some(bytes) = self.get(path) else {
            return super::load_model(path, geom);
        };
        Ok(
            match ModelEvaluator::from_file(decode_any(path, bytes, Some(geom))?, path)? {
                ModelEvaluator::Gbt(e) => Arc::new(*e),
                ModelEvaluator::Linear(e) => Arc::new(e),
                ModelEvaluator::NTuple(e) => Arc::new(*e),
            },
        )
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
}
