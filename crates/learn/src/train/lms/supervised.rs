//! `c4 train lms --supervised`: the LMS rule on solver-labelled positions instead of (or
//! before) self-play.
//!
//! Each labelled position becomes one example: its eight features from the first player's
//! side, and a target on the evaluator's scale, +`win_value` when the first player wins with
//! perfect play, 0 for a draw, -`win_value` when the first player loses. Examples are shuffled
//! (seeded) and visited once per epoch; each moves the weights by `rate x f x error` at once
//! (the rule in its stochastic form, which a few hundred thousand examples need: one batch
//! step per epoch would take thousands of epochs). The weights are not normalised between
//! steps, which would bias them towards a ridge fit; the result is divided by its largest
//! absolute weight once at the end, the scale every linear model file here uses (search only
//! compares values, so the scale does not change play).

use super::config::LmsTrainError;
use crate::datasets::Example;
use crate::datasets::Label;
use connect4_engine::features::Linear8;
use connect4_engine::game::{Geometry, Player};
use connect4_engine::ml::lms::{LmsSample, N_WEIGHTS};
use connect4_engine::progress::Progress;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

crate::train::setting::settings_record! {
    /// Settings of a supervised fit; [`SupervisedConfig::default`] gives the documented defaults.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    pub struct SupervisedConfig, checked as ValidSupervisedConfig {
        /// Learning rate `c` of the per-example rule (default 0.0002: the features' squared norm
        /// reaches about 2,000 in crowded positions, and the rule diverges above 2 / |f|^2).
        rate: f64,
        /// Passes over the training examples (default 10); the rate falls as `rate / (1 + e/2)`
        /// over epochs `e = 0, 1, ...`, so the weights settle instead of jittering.
        epochs: usize,
        /// The value of a won position (default 1.0, as in self-play).
        win_value: f64,
        /// Share of the examples held out to measure the fit (default 0.1).
        test_fraction: f64,
        /// Seed of the split and of the order of examples.
        seed: u64,
    }
}

impl Default for SupervisedConfig {
    fn default() -> Self {
        SupervisedConfig {
            rate: 0.0002,
            epochs: 10,
            win_value: 1.0,
            test_fraction: 0.1,
            seed: 0,
        }
    }
}

crate::train::setting::checked_settings!(
    /// A supervised fit's settings, checked once (linfa's [`linfa::ParamGuard`]:
    /// `config.check()`, naming the first bad one): what [`fit_supervised`] takes.
    ValidSupervisedConfig(SupervisedConfig),
    LmsTrainError,
    SupervisedConfig::check_settings
);

impl SupervisedConfig {
    /// Checks every setting, naming the first bad one.
    fn check_settings(&self) -> Result<(), LmsTrainError> {
        let bad = |name, value: &dyn std::fmt::Display, expected| {
            Err(LmsTrainError::Setting(
                crate::train::setting::SettingError {
                    name,
                    value: value.to_string(),
                    expected,
                },
            ))
        };
        if !(self.rate.is_finite() && self.rate > 0.0) {
            return bad("rate", &self.rate, "a positive number");
        }
        if self.epochs == 0 {
            return bad("epochs", &self.epochs, "at least 1");
        }
        if !(self.win_value.is_finite() && self.win_value > 0.0) {
            return bad("win_value", &self.win_value, "a positive number");
        }
        if !(0.0..1.0).contains(&self.test_fraction) {
            return bad("test_fraction", &self.test_fraction, "in [0, 1)");
        }
        Ok(())
    }
}

/// The fit after one epoch.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EpochRecord {
    /// 1-based epoch.
    pub epoch: usize,
    /// Mean squared error on the training examples, weights as they were after the epoch.
    pub train_mse: f64,
    /// The same on the held-out examples (NaN without any).
    pub test_mse: f64,
    /// Share of held-out decided positions (win or loss) whose value has the label's sign.
    pub test_sign_accuracy: f64,
}

/// What a supervised fit produced.
#[derive(Clone, Debug, Serialize)]
pub struct SupervisedFit {
    /// The weights, divided by their largest absolute value.
    pub weights: [f64; N_WEIGHTS],
    /// The weights as fitted, before that division.
    pub raw_weights: [f64; N_WEIGHTS],
    /// Examples trained on.
    pub train_rows: usize,
    /// Examples held out.
    pub test_rows: usize,
    /// One record per epoch.
    pub epochs: Vec<EpochRecord>,
}

/// The example of a labelled position: features from the first player's side and the label
/// turned into the first player's value.
pub fn supervised_sample(features: &Linear8, example: &Example, win_value: f64) -> LmsSample {
    let for_mover = match example.label {
        Label::Win => win_value,
        Label::Draw => 0.0,
        Label::Loss => -win_value,
    };
    let target = if example.position.side_to_move() == Player::First {
        for_mover
    } else {
        -for_mover
    };
    LmsSample {
        features: features.extract(&example.position),
        target,
    }
}

/// Fits the weights to `examples` (boards of `geom`), starting from zero; `progress` hears of
/// one step per epoch with the held-out error as its message.
pub fn fit_supervised(
    examples: &[Example],
    geom: Geometry,
    config: &ValidSupervisedConfig,
    progress: &dyn Progress,
) -> Result<SupervisedFit, LmsTrainError> {
    if examples.len() < 2 {
        return Err(LmsTrainError::Setting(
            crate::train::setting::SettingError {
                name: "labelled positions",
                value: examples.len().to_string(),
                expected: "at least 2",
            },
        ));
    }
    let features = Linear8::new(geom);
    let mut samples: Vec<LmsSample> = examples
        .iter()
        .map(|e| supervised_sample(&features, e, config.win_value))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(connect4_engine::seed::derive_seed(
        config.seed,
        connect4_engine::seed::Stream::LmsSupervised,
        &[],
    ));
    samples.shuffle(&mut rng);
    let n_test = ((samples.len() as f64) * config.test_fraction).round() as usize;
    let n_test = n_test.min(samples.len() - 1);
    let (test, train) = samples.split_at_mut(n_test);
    let mut w = [0.0; N_WEIGHTS];
    let mut epochs = Vec::with_capacity(config.epochs);
    progress.start("LMS supervised epochs", config.epochs);
    for e in 0..config.epochs {
        let rate = config.rate / (1.0 + e as f64 / 2.0);
        train.shuffle(&mut rng);
        for s in train.iter() {
            let err = s.target - dot(&w, &s.features);
            for (wi, fi) in w.iter_mut().zip(&s.features) {
                *wi += rate * fi * err;
            }
        }
        if let Some((i, &value)) = w.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(LmsTrainError::Lms(
                connect4_engine::ml::lms::LmsError::Weight { index: i, value },
            ));
        }
        let record = EpochRecord {
            epoch: e + 1,
            train_mse: mse(&w, train),
            test_mse: mse(&w, test),
            test_sign_accuracy: sign_accuracy(&w, test),
        };
        progress.advance(1);
        progress.message(&format!("held-out mse {:.4}", record.test_mse));
        epochs.push(record);
    }
    progress.finish();
    let largest = w.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let weights = if largest > 0.0 {
        w.map(|x| x / largest)
    } else {
        w
    };
    Ok(SupervisedFit {
        weights,
        raw_weights: w,
        train_rows: train.len(),
        test_rows: test.len(),
        epochs,
    })
}

fn dot(a: &[f64; N_WEIGHTS], b: &[f64; N_WEIGHTS]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn mse(w: &[f64; N_WEIGHTS], samples: &[LmsSample]) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples
        .iter()
        .map(|s| (s.target - dot(w, &s.features)).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

fn sign_accuracy(w: &[f64; N_WEIGHTS], samples: &[LmsSample]) -> f64 {
    let decided: Vec<&LmsSample> = samples.iter().filter(|s| s.target != 0.0).collect();
    if decided.is_empty() {
        return f64::NAN;
    }
    let right = decided
        .iter()
        .filter(|s| dot(w, &s.features) * s.target > 0.0)
        .count();
    right as f64 / decided.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use connect4_engine::game::Position;
    use linfa::ParamGuard;

    fn example(moves: &str, label: Label) -> Example {
        Example {
            position: Position::from_moves(Geometry::STANDARD, moves).unwrap(),
            label,
            score: None,
        }
    }

    #[test]
    fn targets_are_the_first_players_value() {
        let f = Linear8::new(Geometry::STANDARD);
        // First player to move and winning: +win_value.
        assert_eq!(
            supervised_sample(&f, &example("4455", Label::Win), 2.0).target,
            2.0
        );
        // Second player to move and winning: the first player loses.
        assert_eq!(
            supervised_sample(&f, &example("445", Label::Win), 2.0).target,
            -2.0
        );
        assert_eq!(
            supervised_sample(&f, &example("445", Label::Loss), 1.0).target,
            1.0
        );
        assert_eq!(
            supervised_sample(&f, &example("445", Label::Draw), 1.0).target,
            0.0
        );
        let s = supervised_sample(&f, &example("4455", Label::Win), 1.0);
        assert_eq!(
            s.features,
            f.extract(&Position::from_moves(Geometry::STANDARD, "4455").unwrap())
        );
    }

    /// Positions where the first player has more open threes than the second win for the
    /// first player: the fit must give threes_first a positive weight and threes_second a
    /// negative one, and be reproducible from its seed.
    #[test]
    fn the_fit_learns_the_sign_of_a_planted_rule_and_is_seeded() {
        let g = Geometry::STANDARD;
        let f = Linear8::new(g);
        let games = [
            "4455667", "3344556", "1122334", "4433221", "5566771", "2233447",
        ];
        let mut examples = Vec::new();
        for m in games {
            for n in 1..m.len() {
                let e = example(&m[..n], Label::Draw);
                let x = f.extract(&e.position);
                let first = if x[2] > x[3] {
                    Label::Win
                } else if x[2] < x[3] {
                    Label::Loss
                } else {
                    Label::Draw
                };
                // The label is for the side to move: flip the first player's result when the
                // second player is to move.
                let label = if e.position.side_to_move() == Player::First {
                    first
                } else {
                    match first {
                        Label::Win => Label::Loss,
                        Label::Loss => Label::Win,
                        Label::Draw => Label::Draw,
                    }
                };
                examples.push(Example { label, ..e });
            }
        }
        let config = SupervisedConfig {
            epochs: 200,
            rate: 0.01,
            test_fraction: 0.0,
            seed: 3,
            ..SupervisedConfig::default()
        };
        let quiet = connect4_engine::progress::Quiet;
        let fit = fit_supervised(&examples, g, &config.clone().check().unwrap(), &quiet).unwrap();
        assert!(fit.weights[2] > 0.0, "{:?}", fit.weights);
        assert!(fit.weights[3] < 0.0, "{:?}", fit.weights);
        let largest = fit.weights.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        assert!((largest - 1.0).abs() < 1e-12);
        assert_eq!(fit.epochs.len(), 200);
        assert!(fit.epochs[199].train_mse < fit.epochs[0].train_mse);
        assert_eq!(
            fit_supervised(&examples, g, &config.clone().check().unwrap(), &quiet)
                .unwrap()
                .weights,
            fit.weights
        );
    }

    #[test]
    fn bad_settings_and_too_few_examples_are_refused() {
        let quiet = connect4_engine::progress::Quiet;
        let g = Geometry::STANDARD;
        let one = vec![example("44", Label::Win)];
        let default = SupervisedConfig::default().check().unwrap();
        assert!(fit_supervised(&one, g, &default, &quiet).is_err());
        let two = vec![example("44", Label::Win), example("4", Label::Loss)];
        for bad in [
            SupervisedConfig {
                rate: 0.0,
                ..SupervisedConfig::default()
            },
            SupervisedConfig {
                epochs: 0,
                ..SupervisedConfig::default()
            },
            SupervisedConfig {
                test_fraction: 1.0,
                ..SupervisedConfig::default()
            },
        ] {
            let e = bad.check().unwrap_err();
            assert!(matches!(e, LmsTrainError::Setting(_)), "{e}");
        }
        assert!(fit_supervised(&two, g, &default, &quiet).is_ok());
    }
}
