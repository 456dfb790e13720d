//! An evaluator backed by a gradient-boosted tree model file: the value of a position is
//! P(win) - P(loss) for the side to move, in [-1, 1].

use super::{EvalError, Evaluator};
use crate::features::Extractor;
use crate::game::{Geometry, Position};
use crate::ml::gbt::GbtModel;
use crate::ml::model_file::{GbtFile, load_gbt};
use std::path::Path;

/// Features are computed into a stack buffer of this many values (larger sets allocate).
const STACK_FEATURES: usize = 256;

/// A GBT model with its feature extractor.
#[derive(Clone, Debug)]
pub struct GbtEvaluator {
    model: GbtModel,
    extractor: Extractor,
    name: String,
}

impl GbtEvaluator {
    /// Loads `path` for boards of `geom` (the file must be a GBT model for that board).
    pub fn load(path: &Path, geom: Geometry) -> Result<GbtEvaluator, EvalError> {
        Ok(Self::from_file(load_gbt(path, Some(geom))?, path))
    }

    /// The evaluator of a loaded model file, named `gbt(FILE)` after `path`.
    pub fn from_file(file: GbtFile, path: &Path) -> GbtEvaluator {
        GbtEvaluator {
            extractor: file.features.extractor(file.geometry),
            model: file.model,
            name: format!("gbt({})", super::file_name(path)),
        }
    }

    /// Wraps a model already in memory.
    pub fn new(
        model: GbtModel,
        extractor: Extractor,
        name: impl Into<String>,
    ) -> Result<GbtEvaluator, EvalError> {
        if model.n_features() != extractor.len() || model.n_classes() != 3 {
            return Err(EvalError::Shape {
                model_features: model.n_features(),
                classes: model.n_classes(),
                set: extractor.set().to_string(),
                set_features: extractor.len(),
            });
        }
        Ok(GbtEvaluator {
            model,
            extractor,
            name: name.into(),
        })
    }

    /// P(loss), P(draw), P(win) for the side to move.
    pub fn probabilities(&self, pos: &Position) -> [f64; 3] {
        let n = self.extractor.len();
        let mut out = [0.0; 3];
        if n <= STACK_FEATURES {
            let mut buf = [0.0; STACK_FEATURES];
            self.extractor.extract(pos, &mut buf[..n]);
            self.model.predict_proba_row(&buf[..n], &mut out);
        } else {
            let buf = self.extractor.features(pos);
            self.model.predict_proba_row(&buf, &mut out);
        }
        out
    }

    /// P(loss), P(draw), P(win) of many positions, row-major (3 per position): the features
    /// in one matrix, then the model's blocked prediction on rayon. Batch users' call.
    ///
    /// # Panics
    /// If a position is on another board than the model's.
    pub fn probabilities_batch(&self, positions: &[Position]) -> Vec<f64> {
        self.model
            .predict_proba_flat(self.extractor.matrix(positions).view())
    }

    /// The model.
    pub fn model(&self) -> &GbtModel {
        &self.model
    }

    /// The feature extractor the model reads.
    pub fn extractor(&self) -> &Extractor {
        &self.extractor
    }
}

impl Evaluator for GbtEvaluator {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn evaluate(&self, pos: &Position) -> f64 {
        let p = self.probabilities(pos);
        p[2] - p[0]
    }
}
