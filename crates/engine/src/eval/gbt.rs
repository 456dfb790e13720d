//! An evaluator backed by a gradient-boosted tree model file: the value of a position is
//! P(win) - P(loss) for the side to move, in [-1, 1] (for a model of the exact-score target,
//! the expected value of its classes: see [`GbtTarget`]).

use super::{EvalError, Evaluator};
use crate::features::Extractor;
use crate::game::{Geometry, Position};
use crate::ml::gbt::{GbtModel, GbtTarget, wdl_probabilities};
use crate::ml::model_file::{GbtFile, load_gbt};
use std::path::Path;

/// Features are computed into a stack buffer of this many values (larger sets allocate).
const STACK_FEATURES: usize = 256;

/// The most classes a model of ours has (the score target's five).
const MAX_CLASSES: usize = 5;

/// A GBT model with its feature extractor.
#[derive(Clone, Debug)]
pub struct GbtEvaluator {
    model: GbtModel,
    extractor: Extractor,
    target: GbtTarget,
    name: String,
}

impl GbtEvaluator {
    /// Loads `path` for boards of `geom` (the file must be a GBT model for that board).
    pub fn load(path: &Path, geom: Geometry) -> Result<GbtEvaluator, EvalError> {
        Self::from_file(load_gbt(path, Some(geom))?, path)
    }

    /// The evaluator of a loaded model file, named `gbt(FILE)` after `path`; refused when
    /// its classes are not those of a [`GbtTarget`].
    pub fn from_file(file: GbtFile, path: &Path) -> Result<GbtEvaluator, EvalError> {
        Self::new(
            file.model,
            file.features.extractor(file.geometry),
            format!("gbt({})", super::file_name(path)),
        )
    }

    /// Wraps a model already in memory.
    pub fn new(
        model: GbtModel,
        extractor: Extractor,
        name: impl Into<String>,
    ) -> Result<GbtEvaluator, EvalError> {
        let target = GbtTarget::of_classes(model.n_classes());
        let Some(target) = target.filter(|_| model.n_features() == extractor.len()) else {
            return Err(EvalError::Shape {
                model_features: model.n_features(),
                classes: model.n_classes(),
                set: extractor.set().to_string(),
                set_features: extractor.len(),
            });
        };
        Ok(GbtEvaluator {
            model,
            extractor,
            target,
            name: name.into(),
        })
    }

    /// The model's class probabilities (as many as its target has classes), written into a
    /// buffer that is returned with its used length.
    fn class_probabilities(&self, pos: &Position) -> ([f64; MAX_CLASSES], usize) {
        let n = self.extractor.len();
        let k = self.target.classes();
        let mut out = [0.0; MAX_CLASSES];
        if n <= STACK_FEATURES {
            let mut buf = [0.0; STACK_FEATURES];
            self.extractor.extract(pos, &mut buf[..n]);
            self.model.predict_proba_row(&buf[..n], &mut out[..k]);
        } else {
            let buf = self.extractor.features(pos);
            self.model.predict_proba_row(&buf, &mut out[..k]);
        }
        (out, k)
    }

    /// P(loss), P(draw), P(win) for the side to move.
    pub fn probabilities(&self, pos: &Position) -> [f64; 3] {
        let (p, k) = self.class_probabilities(pos);
        self.target.wdl(&p[..k])
    }

    /// P(loss), P(draw), P(win) of many positions, row-major (3 per position): the features
    /// in one matrix, then the model's blocked prediction on rayon. Batch users' call.
    ///
    /// # Panics
    /// If a position is on another board than the model's.
    pub fn probabilities_batch(&self, positions: &[Position]) -> Vec<f64> {
        wdl_probabilities(&self.model, self.class_probabilities_batch(positions))
    }

    /// The values [`Evaluator::evaluate`] gives, of many positions at once (one batch
    /// prediction): P(win) - P(loss), or a score model's expected class value.
    ///
    /// # Panics
    /// If a position is on another board than the model's.
    pub fn values_batch(&self, positions: &[Position]) -> Vec<f64> {
        self.class_probabilities_batch(positions)
            .chunks_exact(self.target.classes())
            .map(|row| self.target.value(row))
            .collect()
    }

    /// The model's class probabilities of many positions, row-major: the features in one
    /// matrix, then the blocked prediction on rayon.
    fn class_probabilities_batch(&self, positions: &[Position]) -> Vec<f64> {
        self.model
            .predict_proba_flat(self.extractor.matrix(positions).view())
    }

    /// What the model's classes are.
    pub fn target(&self) -> GbtTarget {
        self.target
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
        let (p, k) = self.class_probabilities(pos);
        self.target.value(&p[..k])
    }

    /// Two points of win-minus-loss probability: closer than the trees tell positions
    /// apart, so varied play draws among such moves.
    fn tie_margin(&self) -> f64 {
        0.02
    }
}
