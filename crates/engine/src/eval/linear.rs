//! The linear evaluator: weights times the eight [`Linear8`] features.

use super::{Evaluator, from_first};
use crate::features::Linear8;
use crate::game::{Geometry, Position};

/// The hand-tuned weights, in [`crate::features::LINEAR8_NAMES`] order: first player's twos,
/// second's, first's threes, second's, first's fours, second's, first's centre distance,
/// second's.
pub const HAND_TUNED_WEIGHTS: [f64; 8] = [0.072, -0.09, 0.091, -0.273, 0.164, -1.0, 0.091, -0.091];

/// Value = weights . features, computed from the first player's side and negated when the
/// second player is to move, so that it always scores from the side to move. This is the
/// evaluator whose weights the LMS trainer learns.
#[derive(Clone, Debug)]
pub struct LinearEvaluator {
    features: Linear8,
    weights: [f64; 8],
    name: String,
}

impl LinearEvaluator {
    /// A linear evaluator with the given weights, reported under `name`.
    ///
    /// ```
    /// use connect4_engine::eval::{Evaluator, LinearEvaluator};
    /// use connect4_engine::{Geometry, Position};
    /// let e = LinearEvaluator::new(Geometry::STANDARD, [1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0], "mine");
    /// let p = Position::from_moves(Geometry::STANDARD, "4455").unwrap();
    /// assert!(e.evaluate(&p).is_finite());
    /// assert!(e.name().contains("mine"));
    /// ```
    pub fn new(geom: Geometry, weights: [f64; 8], name: impl Into<String>) -> Self {
        LinearEvaluator {
            features: Linear8::new(geom),
            weights,
            name: name.into(),
        }
    }

    /// The evaluator with [`HAND_TUNED_WEIGHTS`], named `handtuned`.
    pub fn hand_tuned(geom: Geometry) -> Self {
        Self::new(geom, HAND_TUNED_WEIGHTS, "handtuned")
    }

    /// Loads weights saved by `c4 train lms` for boards of `geom`; the evaluator is named
    /// `lms(FILE)`.
    pub fn load(path: &std::path::Path, geom: Geometry) -> Result<Self, super::EvalError> {
        let file = crate::ml::model_file::load_linear(path, Some(geom))?;
        Ok(Self::from_file(&file, path))
    }

    /// The evaluator of a loaded linear model file, named `lms(FILE)` after `path`.
    pub fn from_file(file: &crate::ml::model_file::LinearFile, path: &std::path::Path) -> Self {
        let geom = Geometry::new(file.header.width as usize, file.header.height as usize)
            .unwrap_or(Geometry::STANDARD);
        Self::new(
            geom,
            file.weights,
            format!("lms({})", super::file_name(path)),
        )
    }

    /// The feature extractor.
    pub fn features(&self) -> &Linear8 {
        &self.features
    }

    /// The weights in feature order.
    pub fn weights(&self) -> [f64; 8] {
        self.weights
    }

    /// The value from the first player's side: weights . features.
    pub(crate) fn value_for_first(&self, pos: &Position) -> f64 {
        let f = self.features.extract(pos);
        f.iter().zip(&self.weights).map(|(f, w)| f * w).sum()
    }
}

impl Evaluator for LinearEvaluator {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn evaluate(&self, pos: &Position) -> f64 {
        from_first(pos, self.value_for_first(pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(moves: &str) -> f64 {
        let g = Geometry::STANDARD;
        LinearEvaluator::hand_tuned(g).evaluate(&Position::from_moves(g, moves).unwrap())
    }

    #[test]
    fn hand_worked_values() {
        // A lone centre stone: no groups, centre distance 0 for x, no stones for o.
        assert_eq!(eval("4"), 0.0);
        // "4451": x twos 3, x centre distance 0.5, o centre distance 1.5, x to move:
        // 3 x 0.072 + 0.5 x 0.091 - 1.5 x 0.091 = 0.125.
        assert!((eval("4451") - 0.125).abs() < 1e-12);
        // "445": x twos 3, x distance 0.5, o distance 0; o to move, so the value is negated:
        // -(0.216 + 0.0455) = -0.2615.
        assert!((eval("445") + 0.2615).abs() < 1e-12);
    }
}
