//! The least-mean-squares (LMS) rule that fits the weights of a linear evaluator, as in
//! Mitchell's checkers learner (Machine Learning, 1997, ch. 1).
//!
//! A training example is a feature vector `f` with a target value `v_train`; the estimate is
//! `v = w . f` and the error `v_train - v`. Each example moves every weight by
//! `rate x f_i x error`. This module holds the rule and the weights; the self-play loop that
//! produces examples (and plays no part here) lives in `train::lms`.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Number of weights: the linear evaluator's eight features.
pub const N_WEIGHTS: usize = 8;

/// One training example: features and target, both from the same player's point of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LmsSample {
    /// The features.
    pub features: [f64; N_WEIGHTS],
    /// The value the estimate should have.
    pub target: f64,
}

/// A bad LMS setting.
#[derive(Debug, Error, PartialEq)]
pub enum LmsError {
    /// The learning rate must be a positive finite number.
    #[error("learning rate {0} must be positive and finite")]
    Rate(f64),
    /// Weights given from outside must be finite.
    #[error("weight {index} is {value}, weights must be finite")]
    Weight {
        /// Which weight.
        index: usize,
        /// Its value.
        value: f64,
    },
}

/// The weights and the learning rate; [`Lms::update`] applies one game's examples at once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lms {
    weights: [f64; N_WEIGHTS],
    rate: f64,
}

/// What one update did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UpdateStats {
    /// Mean squared error of the examples before the update.
    pub mse: f64,
    /// Largest absolute change of a weight, after normalisation.
    pub max_change: f64,
}

impl Lms {
    /// A learner starting from `weights` with learning rate `rate`.
    pub fn new(weights: [f64; N_WEIGHTS], rate: f64) -> Result<Lms, LmsError> {
        if !(rate.is_finite() && rate > 0.0) {
            return Err(LmsError::Rate(rate));
        }
        if let Some((index, &value)) = weights.iter().enumerate().find(|(_, w)| !w.is_finite()) {
            return Err(LmsError::Weight { index, value });
        }
        Ok(Lms { weights, rate })
    }

    /// The current weights.
    pub fn weights(&self) -> [f64; N_WEIGHTS] {
        self.weights
    }

    /// The learning rate.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// The estimate `w . f`.
    pub fn estimate(&self, features: &[f64; N_WEIGHTS]) -> f64 {
        dot(&self.weights, features)
    }

    /// Applies the LMS rule for every example (errors measured with the weights as they were
    /// before the update, so the order of examples does not matter), then divides the weights
    /// by the largest absolute weight so that the scale cannot drift. With no examples the
    /// weights stay as they are.
    pub fn update(&mut self, examples: &[LmsSample]) -> UpdateStats {
        if examples.is_empty() {
            return UpdateStats {
                mse: 0.0,
                max_change: 0.0,
            };
        }
        let before = self.weights;
        let mut step = [0.0; N_WEIGHTS];
        let mut sq = 0.0;
        for ex in examples {
            let err = ex.target - dot(&before, &ex.features);
            sq += err * err;
            for (s, f) in step.iter_mut().zip(&ex.features) {
                *s += self.rate * f * err;
            }
        }
        for (w, s) in self.weights.iter_mut().zip(step) {
            *w += s;
        }
        normalise(&mut self.weights);
        let max_change = before
            .iter()
            .zip(&self.weights)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        UpdateStats {
            mse: sq / examples.len() as f64,
            max_change,
        }
    }
}

fn dot(a: &[f64; N_WEIGHTS], b: &[f64; N_WEIGHTS]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Divides `weights` by their largest absolute value (all-zero or non-finite weights are
/// left alone: there is no scale to take out).
pub(crate) fn normalise(weights: &mut [f64; N_WEIGHTS]) {
    let m = weights.iter().fold(0.0f64, |m, w| m.max(w.abs()));
    if m > 0.0 && m.is_finite() {
        for w in weights.iter_mut() {
            *w /= m;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_update_by_hand() {
        let mut lms = Lms::new([0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0], 0.1).unwrap();
        let mut f = [0.0; 8];
        f[0] = 2.0;
        // estimate 1.0, target 3.0: error 2, step on w0 = 0.1 x 2 x 2 = 0.4 -> 0.9;
        // the largest |w| is still 1 (w7), so normalisation changes nothing.
        let stats = lms.update(&[LmsSample {
            features: f,
            target: 3.0,
        }]);
        assert!((stats.mse - 4.0).abs() < 1e-12);
        assert!((lms.weights()[0] - 0.9).abs() < 1e-12);
        assert!((stats.max_change - 0.4).abs() < 1e-12);
        // A second step pushes w0 to 0.9 + 0.1 x 2 x (3 - 1.8) = 1.14; normalised by 1.14.
        lms.update(&[LmsSample {
            features: f,
            target: 3.0,
        }]);
        let w = lms.weights();
        assert!((w[0] - 1.0).abs() < 1e-12);
        assert!((w[7] + 1.0 / 1.14).abs() < 1e-12);
    }

    #[test]
    fn repeated_updates_fit_a_consistent_target() {
        // Targets generated by weights whose largest entry is 1: LMS recovers them.
        let truth = [1.0, -0.5, 0.25, 0.0, 0.0, 0.0, 0.0, 0.0];
        let mut lms = Lms::new([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1], 0.05).unwrap();
        let xs: Vec<[f64; 8]> = (0..8)
            .map(|i| {
                let mut f = [0.0; 8];
                f[i] = 1.0;
                f[(i + 1) % 8] = 0.5;
                f
            })
            .collect();
        for _ in 0..2000 {
            let ex: Vec<LmsSample> = xs
                .iter()
                .map(|f| LmsSample {
                    features: *f,
                    target: dot(&truth, f),
                })
                .collect();
            lms.update(&ex);
        }
        for (w, t) in lms.weights().iter().zip(truth) {
            assert!((w - t).abs() < 1e-3, "{:?}", lms.weights());
        }
    }

    #[test]
    fn bad_settings_are_rejected() {
        assert_eq!(Lms::new([0.0; 8], 0.0).unwrap_err(), LmsError::Rate(0.0));
        assert!(Lms::new([0.0; 8], f64::NAN).is_err());
        let mut w = [0.0; 8];
        w[3] = f64::INFINITY;
        assert!(matches!(
            Lms::new(w, 0.1),
            Err(LmsError::Weight { index: 3, .. })
        ));
    }
}
