//! The dial's calibration: the Elo that each skill setting measured on the project's ladder
//! (`models/level.json`, made by `c4 calibrate`), and the curve through those points that
//! turns an Elo asked for into a skill.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// One measured setting of the dial.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CalibrationPoint {
    /// The skill played.
    pub skill: f64,
    /// Its Elo on the ladder (the ladder's agents held at their ratings).
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// Games behind it.
    pub games: usize,
    /// Points scored / games, percent.
    pub score_pct: f64,
}

/// A ladder agent and the rating it is held at.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Anchor {
    /// Its spec.
    pub agent: String,
    /// Its Elo on the ladder.
    pub elo: f64,
}

/// The calibration file: the ladder it was measured on, the points, and the curve
/// (skill, Elo) the dial reads, increasing in both.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// The board measured on, e.g. "7x6".
    pub board: String,
    /// The ladder's agents and their ratings.
    pub anchors: Vec<Anchor>,
    /// Games per ladder agent and setting.
    pub games_per_agent: usize,
    /// Random opening plies per game.
    pub openings: usize,
    /// The seed of the games.
    pub seed: u64,
    /// The measured settings, by skill.
    pub points: Vec<CalibrationPoint>,
    /// The fitted curve: (skill, Elo) pairs, skill from 0 to 1, Elo strictly increasing.
    pub curve: Vec<(f64, f64)>,
}

/// Why a calibration or an Elo asked of it is refused.
#[derive(Debug, Error)]
pub enum CalibrationError {
    /// Not the JSON of a calibration.
    #[error("not a dial calibration: {0}")]
    Parse(#[source] serde_json::Error),
    /// A curve that is not increasing or does not run from skill 0 to 1.
    #[error("the calibration curve must run from skill 0 to 1 with Elo strictly increasing")]
    Curve,
    /// An Elo outside the dial's range.
    #[error("Elo {elo} is outside the dial's range {low:.0} to {high:.0}")]
    OutOfRange {
        /// Asked for.
        elo: f64,
        /// The lowest Elo (skill 0).
        low: f64,
        /// The highest Elo (skill 1).
        high: f64,
    },
}

/// The shipped calibration, built into the engine.
static BUILTIN: &str = include_str!("../../../../../models/level.json");

/// The calibrations measured on other boards (`c4 calibrate --width W --height H`, on that
/// board's ladder, models/ladder-WxH.json), built in beside the 7x6 one.
static BOARD_BUILTINS: &[([usize; 2], &str)] = &[
    ([5, 4], include_str!("../../../../../models/level-5x4.json")),
    ([6, 5], include_str!("../../../../../models/level-6x5.json")),
    ([7, 5], include_str!("../../../../../models/level-7x5.json")),
    ([6, 6], include_str!("../../../../../models/level-6x6.json")),
    ([6, 7], include_str!("../../../../../models/level-6x7.json")),
    ([8, 7], include_str!("../../../../../models/level-8x7.json")),
    ([9, 6], include_str!("../../../../../models/level-9x6.json")),
    ([8, 8], include_str!("../../../../../models/level-8x8.json")),
    ([9, 7], include_str!("../../../../../models/level-9x7.json")),
];

impl Calibration {
    /// Reads a calibration from its JSON, checking the curve.
    pub fn from_json(text: &str) -> Result<Self, CalibrationError> {
        let c: Calibration = serde_json::from_str(text).map_err(CalibrationError::Parse)?;
        let ok = c.curve.len() >= 2
            && c.curve.first().is_some_and(|p| p.0 == 0.0)
            && c.curve.last().is_some_and(|p| p.0 == 1.0)
            && c.curve
                .windows(2)
                .all(|w| w[1].0 > w[0].0 && w[1].1 > w[0].1)
            && c.curve.iter().all(|p| p.1.is_finite());
        if !ok {
            return Err(CalibrationError::Curve);
        }
        Ok(c)
    }

    /// The calibration shipped in `models/level.json` (built into the engine).
    ///
    /// ```
    /// use connect4_engine::agents::level::Calibration;
    /// let c = Calibration::builtin();
    /// let (low, high) = c.range();
    /// assert!(low < 1000.0 && high > 1900.0);
    /// let mid = c.skill_of(1500.0).unwrap();
    /// assert!((c.elo_of(mid) - 1500.0).abs() < 1e-6);
    /// assert!(c.skill_of(high + 1.0).is_err());
    /// ```
    pub fn builtin() -> &'static Calibration {
        static ONCE: std::sync::OnceLock<Calibration> = std::sync::OnceLock::new();
        ONCE.get_or_init(|| {
            Calibration::from_json(BUILTIN).expect("the built-in calibration is sound")
        })
    }

    /// The calibration the dial reads on `geom`: the one measured there when it ships (see
    /// [`Calibration::calibrated_boards`]), else the 7x6 one, whose skills then stand for
    /// the same settings but not for measured Elo.
    ///
    /// ```
    /// use connect4_engine::{Geometry, agents::level::Calibration};
    /// assert_eq!(Calibration::for_board(Geometry::STANDARD).board, "7x6");
    /// assert_eq!(Calibration::for_board(Geometry::new(6, 5).unwrap()).board, "6x5");
    /// assert_eq!(Calibration::for_board(Geometry::new(8, 5).unwrap()).board, "7x6");
    /// ```
    pub fn for_board<B: crate::game::BitBoard>(
        geom: crate::game::Geometry<B>,
    ) -> &'static Calibration {
        static ONCE: std::sync::OnceLock<Vec<([usize; 2], Calibration)>> =
            std::sync::OnceLock::new();
        let boards = ONCE.get_or_init(|| {
            BOARD_BUILTINS
                .iter()
                .map(|(b, text)| {
                    let c = Calibration::from_json(text).expect("a built-in calibration is sound");
                    (*b, c)
                })
                .collect()
        });
        boards
            .iter()
            .find(|(b, _)| *b == [geom.width(), geom.height()])
            .map_or_else(Calibration::builtin, |(_, c)| c)
    }

    /// The boards with a calibration of their own (7x6 first).
    pub fn calibrated_boards() -> Vec<[usize; 2]> {
        std::iter::once([7, 6])
            .chain(BOARD_BUILTINS.iter().map(|(b, _)| *b))
            .collect()
    }

    /// The lowest and the highest Elo the dial plays (skills 0 and 1).
    pub fn range(&self) -> (f64, f64) {
        (self.curve[0].1, self.curve[self.curve.len() - 1].1)
    }

    /// The Elo of `skill` (clamped to [0, 1]) on the curve.
    pub fn elo_of(&self, skill: f64) -> f64 {
        interpolate(&self.curve, skill.clamp(0.0, 1.0), |p| p.0, |p| p.1)
    }

    /// The skill that plays at `elo`, which must lie in [`Calibration::range`].
    pub fn skill_of(&self, elo: f64) -> Result<f64, CalibrationError> {
        let (low, high) = self.range();
        if !(low..=high).contains(&elo) {
            return Err(CalibrationError::OutOfRange { elo, low, high });
        }
        Ok(self.skill_at(elo))
    }

    /// The skill of `elo` clamped into the range: what the adaptive agent plays.
    pub fn skill_at(&self, elo: f64) -> f64 {
        let (low, high) = self.range();
        interpolate(&self.curve, elo.clamp(low, high), |p| p.1, |p| p.0)
    }
}

/// Piecewise-linear interpolation of `y` at `x` over points increasing in `x`.
fn interpolate(
    points: &[(f64, f64)],
    at: f64,
    x: impl Fn(&(f64, f64)) -> f64,
    y: impl Fn(&(f64, f64)) -> f64,
) -> f64 {
    let i = points
        .windows(2)
        .position(|w| at <= x(&w[1]))
        .unwrap_or(points.len() - 2);
    let (a, b) = (&points[i], &points[i + 1]);
    let t = ((at - x(a)) / (x(b) - x(a))).clamp(0.0, 1.0);
    y(a) + t * (y(b) - y(a))
}

/// A curve through measured `points` (skill, Elo): isotonic regression (pooled adjacent
/// violators, weighted by `weights`) makes it non-decreasing, then the ends are pinned to
/// skills 0 and 1 and a tiny slope keeps it strictly increasing so it can be inverted.
///
/// ```
/// use connect4_engine::agents::level::monotone_curve;
/// let c = monotone_curve(&[(0.0, 700.0), (0.5, 1600.0), (0.6, 1500.0), (1.0, 2100.0)], &[1.0; 4]);
/// assert_eq!(c[0], (0.0, 700.0));
/// assert!((c[1].1 - 1550.0).abs() < 0.01 && c[2].1 > c[1].1);
/// assert_eq!(c[3].1, 2100.0);
/// ```
pub fn monotone_curve(points: &[(f64, f64)], weights: &[f64]) -> Vec<(f64, f64)> {
    // Blocks of (sum of w*y, sum of w, count).
    let mut blocks: Vec<(f64, f64, usize)> = Vec::new();
    for (p, &w) in points.iter().zip(weights) {
        blocks.push((p.1 * w, w, 1));
        while blocks.len() >= 2 {
            let n = blocks.len();
            let (a, b) = (blocks[n - 2], blocks[n - 1]);
            if a.0 / a.1 <= b.0 / b.1 {
                break;
            }
            blocks.truncate(n - 2);
            blocks.push((a.0 + b.0, a.1 + b.1, a.2 + b.2));
        }
    }
    let mut fitted = Vec::with_capacity(points.len());
    for (sum, w, count) in blocks {
        fitted.extend(std::iter::repeat_n(sum / w, count));
    }
    let mut curve: Vec<(f64, f64)> = points.iter().zip(fitted).map(|(p, y)| (p.0, y)).collect();
    for i in 1..curve.len() {
        let floor = curve[i - 1].1 + 0.01;
        if curve[i].1 < floor {
            curve[i].1 = floor;
        }
    }
    curve
}
