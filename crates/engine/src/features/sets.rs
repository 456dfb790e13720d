//! Named feature sets: the rows learners train on and model-backed evaluators compute at every
//! search leaf. Every value is computed from the board alone (no search, no solver) and from
//! the side to move's point of view, so one model serves both colours and every ply.

use super::Linear8;
use super::lines::{line_names, line_values, lines_len};
use super::oddeven::{ODD_EVEN_LEN, odd_even, odd_even_names};
use crate::game::{Geometry, Position};
use std::fmt;
use std::str::FromStr;

/// A feature set by name; the name is recorded in every model file.
///
/// ```
/// use connect4_engine::features::FeatureSet;
/// use connect4_engine::{Geometry, Position};
/// let set: FeatureSet = "cells".parse().unwrap();
/// let ext = set.extractor(Geometry::STANDARD);
/// assert_eq!(ext.len(), 42);
/// let mut row = vec![0.0; ext.len()];
/// // x played column 4; o is to move and sees x's stone as the opponent's (-1).
/// ext.extract(&Position::from_moves(Geometry::STANDARD, "4").unwrap(), &mut row);
/// assert_eq!(row.iter().filter(|&&v| v != 0.0).count(), 1);
/// assert_eq!(row.iter().sum::<f64>(), -1.0);
/// assert!("cels".parse::<FeatureSet>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum FeatureSet {
    /// One number per cell in UCI order (a1..a6, b1, ...): +1 the mover's stone, -1 the
    /// opponent's, 0 empty.
    Cells,
    /// Three indicators per cell (mover, opponent, empty), cell-major in UCI order.
    OneHot,
    /// The linear evaluator's eight features with the mover's value first in each pair.
    Linear8,
    /// Threat structure: per player (mover, opponent) the threat cells per row, odd- and
    /// even-row threats, playable threats, stacked threats, open lines of 1-3 stones, stones in
    /// the centre column and the central three columns; then the ply and whether the mover is
    /// the first player.
    Threats,
    /// `cells` followed by `threats`.
    CellsThreats,
    /// The odd/even threat theory: per player (mover, opponent) threats on their own and the
    /// other parity, playable threats, columns whose lowest threat is theirs (and on their
    /// parity) and the row of the lowest such; who controls zugzwang; stones; the mover's
    /// colour (see `features::oddeven`).
    OddEven,
    /// `cells` followed by `oddeven`.
    CellsOddEven,
    /// One value per line of four: the mover's stones in it if only they have any there,
    /// minus the opponent's if only the opponent has, 0 if empty, -9 if both colours hold
    /// it (see `features::lines`).
    Lines,
    /// `cells` followed by `lines`: the best set on the UCI holdout.
    CellsLines,
}

/// Every feature set, in the order `c4 train gbt --help` lists them.
pub const FEATURE_SETS: [FeatureSet; 9] = [
    FeatureSet::Cells,
    FeatureSet::OneHot,
    FeatureSet::Linear8,
    FeatureSet::Threats,
    FeatureSet::CellsThreats,
    FeatureSet::OddEven,
    FeatureSet::CellsOddEven,
    FeatureSet::Lines,
    FeatureSet::CellsLines,
];

/// A name that is not a feature set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown feature set {0:?}; known: cells, onehot, linear8, threats, cells+threats, oddeven, cells+oddeven, lines, cells+lines"
)]
pub struct UnknownFeatureSet(pub String);

impl FeatureSet {
    /// The set's name as written on the command line and in model files.
    pub fn name(self) -> &'static str {
        match self {
            FeatureSet::Cells => "cells",
            FeatureSet::OneHot => "onehot",
            FeatureSet::Linear8 => "linear8",
            FeatureSet::Threats => "threats",
            FeatureSet::CellsThreats => "cells+threats",
            FeatureSet::OddEven => "oddeven",
            FeatureSet::CellsOddEven => "cells+oddeven",
            FeatureSet::Lines => "lines",
            FeatureSet::CellsLines => "cells+lines",
        }
    }

    /// Number of features on `geom`.
    pub fn len(self, geom: Geometry) -> usize {
        match self {
            FeatureSet::Cells => geom.cells(),
            FeatureSet::OneHot => 3 * geom.cells(),
            FeatureSet::Linear8 => 8,
            FeatureSet::Threats => threats_len(geom),
            FeatureSet::CellsThreats => geom.cells() + threats_len(geom),
            FeatureSet::OddEven => ODD_EVEN_LEN,
            FeatureSet::CellsOddEven => geom.cells() + ODD_EVEN_LEN,
            FeatureSet::Lines => lines_len(geom),
            FeatureSet::CellsLines => geom.cells() + lines_len(geom),
        }
    }

    /// Feature names in column order.
    pub fn names(self, geom: Geometry) -> Vec<String> {
        let cell = |i| crate::game::uci::cell_name(geom, i);
        match self {
            FeatureSet::Cells => (0..geom.cells()).map(cell).collect(),
            FeatureSet::OneHot => (0..geom.cells())
                .flat_map(|i| ["mover", "opponent", "empty"].map(|s| format!("{}_{s}", cell(i))))
                .collect(),
            FeatureSet::Linear8 => super::LINEAR8_NAMES
                .iter()
                .map(|n| {
                    n.replace("_first", "_mover")
                        .replace("_second", "_opponent")
                })
                .collect(),
            FeatureSet::Threats => threat_names(geom),
            FeatureSet::CellsThreats => {
                let mut v = FeatureSet::Cells.names(geom);
                v.extend(threat_names(geom));
                v
            }
            FeatureSet::OddEven => odd_even_names(),
            FeatureSet::CellsOddEven => {
                let mut v = FeatureSet::Cells.names(geom);
                v.extend(odd_even_names());
                v
            }
            FeatureSet::Lines => line_names(geom),
            FeatureSet::CellsLines => {
                let mut v = FeatureSet::Cells.names(geom);
                v.extend(line_names(geom));
                v
            }
        }
    }

    /// An extractor for boards of `geom` (precomputes the lines of four).
    pub fn extractor(self, geom: Geometry) -> Extractor {
        Extractor {
            set: self,
            geom,
            linear8: Linear8::new(geom),
            lines: geom.lines().into_iter().map(|l| l.mask).collect(),
        }
    }
}

impl fmt::Display for FeatureSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for FeatureSet {
    type Err = UnknownFeatureSet;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        FEATURE_SETS
            .iter()
            .copied()
            .find(|f| f.name() == s.trim())
            .ok_or_else(|| UnknownFeatureSet(s.to_string()))
    }
}

fn threats_len(geom: Geometry) -> usize {
    2 * (geom.height() + 10) + 2
}

fn threat_names(geom: Geometry) -> Vec<String> {
    let mut v = Vec::with_capacity(threats_len(geom));
    for who in ["mover", "opponent"] {
        for r in 1..=geom.height() {
            v.push(format!("threats_row{r}_{who}"));
        }
        for n in [
            "threats_odd",
            "threats_even",
            "threats_playable",
            "threats_stacked",
            "threats_total",
            "open_ones",
            "open_twos",
            "open_threes",
            "centre_column",
            "centre_three",
        ] {
            v.push(format!("{n}_{who}"));
        }
    }
    v.push("ply".into());
    v.push("mover_is_first".into());
    v
}

/// Computes one feature set's values for positions of one board size.
#[derive(Clone, Debug)]
pub struct Extractor {
    set: FeatureSet,
    geom: Geometry,
    linear8: Linear8,
    lines: Vec<u64>,
}

impl Extractor {
    /// The feature set.
    pub fn set(&self) -> FeatureSet {
        self.set
    }

    /// Number of values [`Extractor::extract`] writes.
    pub fn len(&self) -> usize {
        self.set.len(self.geom)
    }

    /// Whether the set is empty (never: every set has features).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes the features of `pos` into `out` (exactly [`Extractor::len`] values).
    ///
    /// # Panics
    /// If `out` has the wrong length or `pos` is on another board.
    pub fn extract(&self, pos: &Position, out: &mut [f64]) {
        assert_eq!(out.len(), self.len(), "feature buffer length");
        assert_eq!(pos.geometry(), self.geom, "position on another board");
        match self.set {
            FeatureSet::Cells => self.cells(pos, out),
            FeatureSet::OneHot => {
                let (me, them) = (pos.current_stones(), pos.opponent_stones());
                let h = self.geom.height();
                for i in 0..self.geom.cells() {
                    let bit = self.geom.cell_bit(i / h, i % h);
                    let o = &mut out[3 * i..3 * i + 3];
                    o[0] = f64::from(u8::from(me & bit != 0));
                    o[1] = f64::from(u8::from(them & bit != 0));
                    o[2] = f64::from(u8::from((me | them) & bit == 0));
                }
            }
            FeatureSet::Linear8 => {
                let f = self.linear8.extract(pos);
                let mover_first = pos.side_to_move() == crate::game::Player::First;
                for k in 0..4 {
                    let (a, b) = (f[2 * k], f[2 * k + 1]);
                    (out[2 * k], out[2 * k + 1]) = if mover_first { (a, b) } else { (b, a) };
                }
            }
            FeatureSet::Threats => self.threats(pos, out),
            FeatureSet::CellsThreats => {
                let n = self.geom.cells();
                self.cells(pos, &mut out[..n]);
                self.threats(pos, &mut out[n..]);
            }
            FeatureSet::OddEven => odd_even(self.geom, pos, out),
            FeatureSet::CellsOddEven => {
                let n = self.geom.cells();
                self.cells(pos, &mut out[..n]);
                odd_even(self.geom, pos, &mut out[n..]);
            }
            FeatureSet::Lines => line_values(&self.lines, pos, out),
            FeatureSet::CellsLines => {
                let n = self.geom.cells();
                self.cells(pos, &mut out[..n]);
                line_values(&self.lines, pos, &mut out[n..]);
            }
        }
    }

    /// The features of many positions as one `positions x features` matrix, row by row on
    /// this thread: what batch users (the Python package, scikit-learn) read.
    ///
    /// # Panics
    /// If a position is on another board.
    pub fn matrix(&self, positions: &[Position]) -> ndarray::Array2<f64> {
        let k = self.len();
        let mut m = ndarray::Array2::zeros((positions.len(), k));
        if let Some(flat) = m.as_slice_mut() {
            for (p, row) in positions.iter().zip(flat.chunks_exact_mut(k.max(1))) {
                self.extract(p, row);
            }
        }
        m
    }

    /// The features of `pos` as a new vector.
    pub fn features(&self, pos: &Position) -> Vec<f64> {
        let mut v = vec![0.0; self.len()];
        self.extract(pos, &mut v);
        v
    }

    fn cells(&self, pos: &Position, out: &mut [f64]) {
        let (me, them) = (pos.current_stones(), pos.opponent_stones());
        let h = self.geom.height();
        for (i, o) in out.iter_mut().enumerate() {
            let bit = self.geom.cell_bit(i / h, i % h);
            *o = if me & bit != 0 {
                1.0
            } else if them & bit != 0 {
                -1.0
            } else {
                0.0
            };
        }
    }

    fn threats(&self, pos: &Position, out: &mut [f64]) {
        let g = self.geom;
        let (h, w) = (g.height(), g.width());
        let mask = pos.mask();
        let players = [pos.current_stones(), pos.opponent_stones()];
        let per = h + 10;
        let centre = w / 2;
        let centre_cols = |stones: u64, cols: std::ops::RangeInclusive<usize>| -> f64 {
            cols.filter(|&c| c < w)
                .map(|c| (stones & g.column_mask(c)).count_ones())
                .sum::<u32>() as f64
        };
        for (p, &stones) in players.iter().enumerate() {
            let other = players[1 - p];
            let o = &mut out[p * per..(p + 1) * per];
            let threats = g.winning_cells(stones, mask);
            let (mut odd, mut even) = (0.0, 0.0);
            for (r, slot) in o.iter_mut().take(h).enumerate() {
                let row: u64 = (0..w).map(|c| g.cell_bit(c, r)).fold(0, |a, b| a | b);
                let n = (threats & row).count_ones() as f64;
                *slot = n;
                // Rows are 1-based from the bottom: row r+1.
                if r % 2 == 0 { odd += n } else { even += n }
            }
            o[h] = odd;
            o[h + 1] = even;
            o[h + 2] = (threats & pos.possible()).count_ones() as f64;
            o[h + 3] = (threats & (threats << 1)).count_ones() as f64;
            o[h + 4] = threats.count_ones() as f64;
            let mut open = [0u32; 5];
            for &line in &self.lines {
                if line & other == 0 {
                    open[(line & stones).count_ones() as usize] += 1;
                }
            }
            o[h + 5] = open[1] as f64;
            o[h + 6] = open[2] as f64;
            o[h + 7] = open[3] as f64;
            o[h + 8] = centre_cols(stones, centre..=centre);
            o[h + 9] = centre_cols(stones, centre.saturating_sub(1)..=centre + 1);
        }
        out[2 * per] = pos.moves_played() as f64;
        out[2 * per + 1] = f64::from(u8::from(pos.side_to_move() == crate::game::Player::First));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::DEAD_LINE;

    fn feats(set: FeatureSet, moves: &str) -> Vec<f64> {
        let g = Geometry::default();
        set.extractor(g)
            .features(&Position::from_moves(g, moves).unwrap())
    }

    #[test]
    fn names_match_lengths_and_parse_back() {
        let g = Geometry::default();
        let lens: Vec<usize> = FEATURE_SETS.iter().map(|f| f.len(g)).collect();
        assert_eq!(lens, vec![42, 126, 8, 34, 76, 15, 57, 69, 111]);
        for f in FEATURE_SETS {
            assert_eq!(f.names(g).len(), f.len(g));
            assert_eq!(f.name().parse::<FeatureSet>().unwrap(), f);
        }
        assert!("cell".parse::<FeatureSet>().is_err());
    }

    #[test]
    fn cells_are_from_the_mover_view() {
        // x at d1, o at d2; x to move: d1 (index 18) = +1, d2 = -1.
        let f = feats(FeatureSet::Cells, "44");
        assert_eq!((f[18], f[19]), (1.0, -1.0));
        assert_eq!(f.iter().filter(|&&v| v != 0.0).count(), 2);
        // After one more move o is to move: the signs flip.
        let f = feats(FeatureSet::Cells, "441");
        assert_eq!((f[0], f[18], f[19]), (-1.0, -1.0, 1.0));
        let oh = feats(FeatureSet::OneHot, "44");
        assert_eq!(&oh[54..60], &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
        assert_eq!(oh.iter().sum::<f64>(), 42.0);
    }

    #[test]
    fn lines_by_hand() {
        // "1121": x a1 b1, o a2 a3; x is to move, so x is the mover.
        let g = Geometry::default();
        let names = FeatureSet::Lines.names(g);
        let at = |f: &[f64], name: &str| f[names.iter().position(|n| n == name).unwrap()];
        let f = feats(FeatureSet::Lines, "1121");
        assert_eq!(at(&f, "line_h_a1"), 2.0, "a1 and b1: the mover's two");
        assert_eq!(at(&f, "line_h_a2"), -1.0, "a2: the opponent's");
        assert_eq!(at(&f, "line_h_a3"), -1.0, "a3: the opponent's");
        assert_eq!(at(&f, "line_h_b2"), 0.0, "b2-e2 is empty");
        assert_eq!(at(&f, "line_v_a1"), DEAD_LINE, "a1 (x) and a2 (o)");
        assert_eq!(at(&f, "line_v_a2"), -2.0, "a2 a3 (o), a4 a5 empty");
        assert_eq!(at(&f, "line_v_b1"), 1.0);
        assert_eq!(at(&f, "line_up_a1"), 1.0, "a1 b2 c3 d4: a1 (x)");
        assert_eq!(at(&f, "line_up_a2"), -1.0, "a2 b3 c4 d5: a2 (o)");
        assert_eq!(at(&f, "line_down_a4"), 0.0, "a4 b3 c2 d1: empty");
        assert!(
            !names.contains(&"line_down_a3".to_string()),
            "a3 b2 c1 has three cells"
        );
        // x adds b2, so o is the mover and the live signs flip: a1-d4 holds two of x's,
        // b1-b4 two of x's, a2-d2 both colours.
        let f = feats(FeatureSet::Lines, "11212");
        assert_eq!(at(&f, "line_up_a1"), -2.0);
        assert_eq!(at(&f, "line_v_b1"), -2.0);
        assert_eq!(at(&f, "line_h_a2"), DEAD_LINE);
        assert_eq!(at(&f, "line_h_b2"), -1.0);
        assert_eq!(at(&f, "line_h_a1"), -2.0);
        // Dead: a1-a4 and a2-d2 only (no other line holds both colours).
        assert_eq!(f.iter().filter(|&&v| v == DEAD_LINE).count(), 2, "{f:?}");
        let cl = feats(FeatureSet::CellsLines, "1121");
        assert_eq!(&cl[42..], &feats(FeatureSet::Lines, "1121")[..]);
        assert_eq!(&cl[..42], &feats(FeatureSet::Cells, "1121")[..]);
    }

    #[test]
    fn threats_by_hand() {
        // x: a1 b1 c1, o: a2 b2 c2; x to move. x threatens d1 (row 1, playable); o threatens
        // d2 (row 2, not playable until d1 is filled). No threat sits above another.
        let f = feats(FeatureSet::Threats, "112233");
        let per = 16;
        assert_eq!(
            &f[0..6],
            &[1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            "mover's threats per row"
        );
        assert_eq!(
            &f[6..11],
            &[1.0, 0.0, 1.0, 0.0, 1.0],
            "odd, even, playable, stacked, total"
        );
        assert_eq!(&f[per..per + 6], &[0.0, 1.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(&f[per + 6..per + 11], &[0.0, 1.0, 0.0, 0.0, 1.0]);
        // Open lines: x's only three is a1-d1; o's only three is a2-d2.
        assert_eq!(f[13], 1.0);
        assert_eq!(f[per + 13], 1.0);
        // Centre column d is empty; the central three columns c, d, e hold c1 (x) and c2 (o).
        assert_eq!(
            (f[14], f[15], f[per + 14], f[per + 15]),
            (0.0, 1.0, 0.0, 1.0)
        );
        assert_eq!(f[32], 6.0);
        assert_eq!(f[33], 1.0);
    }
}
