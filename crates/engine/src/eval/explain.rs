//! Why a learned evaluator values a position as it does, feature by feature: for the linear
//! evaluator weight times feature, for the GBT the trees' path attribution
//! ([`crate::ml::gbt::Attribution`]). The web UI draws these as bars.

use super::{Evaluator, GbtEvaluator, LinearEvaluator, from_first};
use crate::features::LINEAR8_NAMES;
use crate::game::Position;

/// One feature's share of a value.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Contribution {
    /// The feature's name (as in `c4 train` reports).
    pub feature: String,
    /// The feature's value in this position.
    pub value: f64,
    /// What it adds to the explained quantity (see [`Explanation::scale`]).
    pub contribution: f64,
}

/// A model's verdict on a position, from the side to move, and its reasons.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Explanation {
    /// The evaluator's value (what search compares).
    pub value: f64,
    /// P(loss), P(draw), P(win) for the side to move (GBT models only).
    pub probabilities: Option<[f64; 3]>,
    /// What the contributions explain: `value` (linear: `bias` plus the contributions is the
    /// value) or `win-loss logit` (GBT: raw win score minus raw loss score, before the
    /// softmax).
    pub scale: &'static str,
    /// The part that no feature explains.
    pub bias: f64,
    /// Every feature's share, in the feature set's order.
    pub contributions: Vec<Contribution>,
}

impl LinearEvaluator {
    /// Weight times feature for each of the eight features, signed for the side to move:
    /// they add up to the value exactly.
    ///
    /// ```
    /// use connect4_engine::eval::{Evaluator, LinearEvaluator};
    /// use connect4_engine::{Geometry, Position};
    /// let e = LinearEvaluator::hand_tuned(Geometry::STANDARD);
    /// let p = Position::from_moves(Geometry::STANDARD, "4451").unwrap();
    /// let x = e.explain(&p);
    /// let sum: f64 = x.contributions.iter().map(|c| c.contribution).sum();
    /// assert!((sum - e.evaluate(&p)).abs() < 1e-12);
    /// ```
    pub fn explain(&self, pos: &Position) -> Explanation {
        let f = self.features().extract(pos);
        let contributions = LINEAR8_NAMES
            .iter()
            .zip(f.iter().zip(self.weights()))
            .map(|(name, (&value, w))| Contribution {
                feature: name.to_string(),
                value,
                contribution: from_first(pos, w * value),
            })
            .collect();
        Explanation {
            value: from_first(pos, self.value_for_first(pos)),
            probabilities: None,
            scale: "value",
            bias: 0.0,
            contributions,
        }
    }
}

impl GbtEvaluator {
    /// The class probabilities and each feature's share of the win-minus-loss raw score.
    pub fn explain(&self, pos: &Position) -> Explanation {
        let x = self.extractor().features(pos);
        let names = self.extractor().set().names(pos.geometry());
        let a = self.model().attribution(&x);
        let margin = |v: &[f64]| self.target().margin(v);
        let contributions = names
            .into_iter()
            .zip(x.iter().zip(&a.features))
            .map(|(feature, (&value, c))| Contribution {
                feature,
                value,
                contribution: margin(c),
            })
            .collect();
        let p = self.probabilities(pos);
        Explanation {
            value: self.evaluate(pos),
            probabilities: Some(p),
            scale: "win-loss logit",
            bias: margin(&a.bias),
            contributions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::game::Geometry;
    use std::path::Path;

    #[test]
    fn linear_contributions_follow_the_side_to_move() {
        let g = Geometry::STANDARD;
        let e = LinearEvaluator::hand_tuned(g);
        // "445": x has three twos (0.216) and centre distance 0.5 (0.0455); o to move, so
        // both count against the mover.
        let x = e.explain(&Position::from_moves(g, "445").unwrap());
        let twos = &x.contributions[0];
        assert_eq!(twos.feature, "twos_first");
        assert_eq!(twos.value, 3.0);
        assert!((twos.contribution + 0.216).abs() < 1e-12);
        assert!((x.value + 0.2615).abs() < 1e-12);
    }

    #[test]
    fn shipped_gbt_explanation_adds_up() {
        let g = Geometry::STANDARD;
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join("models/gbt.bin");
        let e = GbtEvaluator::load(&path, g).expect("the repository ships models/gbt.bin");
        let p = Position::from_moves(g, "4453").unwrap();
        let x = e.explain(&p);
        assert_eq!(x.contributions.len(), e.extractor().len());
        let probs = x.probabilities.unwrap();
        assert!((x.value - e.evaluate(&p)).abs() < 1e-12);
        // softmax: log(P(win) / P(loss)) is the raw margin the contributions add up to.
        let margin = x.bias + x.contributions.iter().map(|c| c.contribution).sum::<f64>();
        // (The flattened trees keep leaf values as f32, hence the tolerance.)
        assert!((margin - (probs[2] / probs[0]).ln()).abs() < 1e-6);
    }
}
