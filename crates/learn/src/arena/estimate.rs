//! Estimates with 95% intervals: a score over games (normal interval, Wilson's at the edges),
//! a proportion of graded moves (Wilson), and the Elo difference a score implies.

use serde::{Deserialize, Serialize};

/// The 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// A proportion with its 95% interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The point estimate.
    pub value: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// Mean of per-game scores with a 95% normal interval, clipped to [0, 1].
pub fn score_estimate(scores: &[f64]) -> Estimate {
    let n = scores.len() as f64;
    if scores.is_empty() {
        return Estimate {
            value: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let mean = scores.iter().sum::<f64>() / n;
    let var = if n > 1.0 {
        scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.25
    };
    if var == 0.0 {
        // Every game gave the same score (a clean sweep, say): the normal interval would
        // have no width, so take Wilson's on the points instead.
        let points = scores.iter().sum::<f64>().round() as usize;
        return wilson(points, scores.len());
    }
    let half = Z95 * (var / n).sqrt();
    Estimate {
        value: mean,
        low: (mean - half).max(0.0),
        high: (mean + half).min(1.0),
    }
}

/// Wilson's 95% interval for `k` successes in `n` trials.
pub fn wilson(k: usize, n: usize) -> Estimate {
    if n == 0 {
        return Estimate {
            value: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Estimate {
        value: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// The Elo difference that makes `score` the expected score; a score of 0 or 1 is taken as
/// half a game from it (`games`), so the value stays finite.
pub fn elo_difference(score: f64, games: usize) -> f64 {
    let eps = 0.5 / games.max(1) as f64;
    let s = score.clamp(eps, 1.0 - eps);
    400.0 * (s / (1.0 - s)).log10()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_by_hand() {
        // 10 games: 6 wins, 2 draws, 2 losses -> mean 0.7; sample variance
        // (6 * 0.09 + 2 * 0.04 + 2 * 0.49) / 9 = 1.6 / 9; half width 1.96 * sqrt(1.6 / 90).
        let mut s = vec![1.0; 6];
        s.extend([0.5, 0.5, 0.0, 0.0]);
        let e = score_estimate(&s);
        assert!((e.value - 0.7).abs() < 1e-12);
        // A clean sweep still has an interval: Wilson's, 10 of 10 -> (72.2%, 100%).
        let sweep = score_estimate(&[1.0; 10]);
        assert_eq!(sweep.value, 1.0);
        assert!(
            (sweep.low - 0.7225).abs() < 5e-4 && (sweep.high - 1.0).abs() < 1e-12,
            "{sweep:?}"
        );
        let half = Z95 * (1.6f64 / 90.0).sqrt();
        assert!((e.low - (0.7 - half)).abs() < 1e-12 && (e.high - (0.7 + half)).abs() < 1e-12);
        // Wilson, 4 of 200, worked by hand: centre 0.029046, half width 0.021242.
        let w = wilson(4, 200);
        assert!(
            (w.low - 0.00780).abs() < 5e-5 && (w.high - 0.05029).abs() < 5e-5,
            "{w:?}"
        );
        assert_eq!(wilson(0, 0).high, 1.0);
        // Elo: 50% is even, 76% is about +200, and a clean sweep stays finite.
        assert!(elo_difference(0.5, 100).abs() < 1e-9);
        assert!((elo_difference(0.7597, 100) - 200.0).abs() < 0.5);
        assert!(elo_difference(1.0, 400).is_finite());
        assert!(elo_difference(0.0, 400) < -900.0);
    }
}
