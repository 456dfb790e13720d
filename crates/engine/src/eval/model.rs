//! The evaluator of any model file, by the kind its header names: what `model:FILE` agents
//! and the web UI's model list load, read and checksummed once.

use super::{EvalError, Evaluator, Explanation, GbtEvaluator, LinearEvaluator, NTupleEvaluator};
use crate::game::{Geometry, Player, Position};
use crate::ml::model_file::{ModelFile, load_any};
use std::path::Path;

/// A loaded model of any kind, with what reports and explanations need to know of it.
#[derive(Clone, Debug)]
pub enum ModelEvaluator {
    /// Gradient-boosted trees.
    Gbt(Box<GbtEvaluator>),
    /// Linear weights.
    Linear(LinearEvaluator),
    /// An n-tuple network.
    NTuple(Box<NTupleEvaluator>),
}

impl ModelEvaluator {
    /// Loads `path` for boards of `geom`.
    ///
    /// ```
    /// use connect4_engine::eval::{Evaluator, ModelEvaluator};
    /// use connect4_engine::{Geometry, Position};
    /// let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    /// let m = ModelEvaluator::load(&models.join("gbt.bin"), Geometry::STANDARD).unwrap();
    /// assert_eq!(m.kind(), "gbt");
    /// let p = Position::from_moves(Geometry::STANDARD, "4455").unwrap();
    /// let p_wdl = m.probabilities(&[p]).unwrap();
    /// assert_eq!(p_wdl.len(), 3);
    /// ```
    pub fn load(path: &Path, geom: Geometry) -> Result<ModelEvaluator, EvalError> {
        Self::from_file(load_any(path, Some(geom))?, path)
    }

    /// The evaluator of a model file held in memory (`path` names it), for boards of `geom`.
    pub fn decode(path: &Path, bytes: &[u8], geom: Geometry) -> Result<ModelEvaluator, EvalError> {
        Self::from_file(
            crate::ml::model_file::decode_any(path, bytes, Some(geom))?,
            path,
        )
    }

    /// The evaluator of a model file already read (`path` names it).
    pub fn from_file(file: ModelFile, path: &Path) -> Result<ModelEvaluator, EvalError> {
        Ok(match file {
            ModelFile::Gbt(f) => ModelEvaluator::Gbt(Box::new(GbtEvaluator::from_file(*f, path)?)),
            ModelFile::Linear(f) => ModelEvaluator::Linear(LinearEvaluator::from_file(&f, path)),
            ModelFile::NTuple(f) => ModelEvaluator::NTuple(Box::new(NTupleEvaluator::new(
                f.network,
                super::file_name(path),
            ))),
        })
    }

    /// The model kind as the web UI names it: `gbt` or `linear`.
    pub fn kind(&self) -> &'static str {
        match self {
            ModelEvaluator::Gbt(_) => "gbt",
            ModelEvaluator::Linear(_) => "linear",
            ModelEvaluator::NTuple(_) => "ntuple",
        }
    }

    /// The feature set the model reads.
    pub fn features(&self) -> String {
        match self {
            ModelEvaluator::Gbt(e) => e.extractor().set().name().to_string(),
            ModelEvaluator::Linear(_) => crate::ml::model_file::LINEAR_FEATURE_SET.into(),
            ModelEvaluator::NTuple(e) => {
                let l = e.network().layout();
                format!("ntuple({}x{})", l.tuples, l.cells)
            }
        }
    }

    /// The values of many positions (side to move), in order: for a GBT model its batch
    /// prediction ([`GbtEvaluator::values_batch`]), else one evaluation each. What
    /// `c4 predict` prints and the Python package returns.
    ///
    /// # Panics
    /// If a position is on another board than the model's.
    pub fn values(&self, positions: &[Position]) -> Vec<f64> {
        match self {
            ModelEvaluator::Gbt(g) => g.values_batch(positions),
            _ => positions.iter().map(|p| self.evaluate(p)).collect(),
        }
    }

    /// P(loss), P(draw), P(win) of many positions, 3 per position (GBT models; `None` for
    /// models that give no probabilities).
    pub fn probabilities(&self, positions: &[Position]) -> Option<Vec<f64>> {
        match self {
            ModelEvaluator::Gbt(g) => Some(g.probabilities_batch(positions)),
            _ => None,
        }
    }

    /// The value of `pos` with the contributions that make it up.
    pub fn explain(&self, pos: &Position) -> Explanation {
        match self {
            ModelEvaluator::Gbt(e) => e.explain(pos),
            ModelEvaluator::Linear(e) => e.explain(pos),
            ModelEvaluator::NTuple(e) => e.explain(pos),
        }
    }
}

impl Evaluator for ModelEvaluator {
    fn name(&self) -> String {
        match self {
            ModelEvaluator::Gbt(e) => e.name(),
            ModelEvaluator::Linear(e) => e.name(),
            ModelEvaluator::NTuple(e) => e.name(),
        }
    }

    fn evaluate(&self, pos: &Position) -> f64 {
        match self {
            ModelEvaluator::Gbt(e) => e.evaluate(pos),
            ModelEvaluator::Linear(e) => e.evaluate(pos),
            ModelEvaluator::NTuple(e) => e.evaluate(pos),
        }
    }

    fn evaluate_for(&self, pos: &Position, player: Player) -> f64 {
        match self {
            ModelEvaluator::Gbt(e) => e.evaluate_for(pos, player),
            ModelEvaluator::Linear(e) => e.evaluate_for(pos, player),
            ModelEvaluator::NTuple(e) => e.evaluate_for(pos, player),
        }
    }

    fn tie_margin(&self) -> f64 {
        match self {
            ModelEvaluator::Gbt(e) => e.tie_margin(),
            ModelEvaluator::Linear(e) => e.tie_margin(),
            ModelEvaluator::NTuple(e) => e.tie_margin(),
        }
    }
}
