//! The eight features of the linear evaluator.

use crate::game::{Geometry, Player, Position};

/// Feature names in vector order: per feature, the first player's value then the second's.
pub const LINEAR8_NAMES: [&str; 8] = [
    "twos_first",
    "twos_second",
    "threes_first",
    "threes_second",
    "fours_first",
    "fours_second",
    "centre_distance_first",
    "centre_distance_second",
];

/// Counts, for each player, the groups of two, three and four stones that can still become
/// (or are) four in a row, and the mean distance of the player's stones from the centre.
///
/// A "group of k" is a line of four cells holding exactly k of the player's stones and none
/// of the opponent's: a line cut by an opponent's stone or running off the board cannot
/// become four, so it is not counted. The order is fixed by the players, not by the side to
/// move (see [`LINEAR8_NAMES`]), so learned weights mean the same thing in every position.
#[derive(Clone, Debug)]
pub struct Linear8 {
    lines: Vec<u64>,
    centre: f64,
    height: usize,
}

impl Linear8 {
    /// The extractor for boards of `geom`.
    pub fn new(geom: Geometry) -> Self {
        Linear8 {
            lines: geom.lines().into_iter().map(|l| l.mask).collect(),
            centre: (geom.width() as f64 - 1.0) / 2.0,
            height: geom.height(),
        }
    }

    /// The eight features of `pos` in [`LINEAR8_NAMES`] order.
    pub fn extract(&self, pos: &Position) -> [f64; 8] {
        let first = pos.stones_of(Player::First);
        let second = pos.stones_of(Player::Second);
        let mut counts = [[0u32; 5]; 2];
        for &line in &self.lines {
            let (a, b) = ((line & first).count_ones(), (line & second).count_ones());
            if b == 0 {
                counts[0][a as usize] += 1;
            }
            if a == 0 {
                counts[1][b as usize] += 1;
            }
        }
        [
            counts[0][2] as f64,
            counts[1][2] as f64,
            counts[0][3] as f64,
            counts[1][3] as f64,
            counts[0][4] as f64,
            counts[1][4] as f64,
            self.centre_distance(first),
            self.centre_distance(second),
        ]
    }

    /// Mean |column - centre| over the stones in `stones`; 0 without stones.
    fn centre_distance(&self, stones: u64) -> f64 {
        let n = stones.count_ones();
        if n == 0 {
            return 0.0;
        }
        let stride = self.height + 1;
        let mut total = 0.0;
        let mut bits = stones;
        while bits != 0 {
            let col = bits.trailing_zeros() as usize / stride;
            total += (col as f64 - self.centre).abs();
            bits &= bits - 1;
        }
        total / n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn features(moves: &str) -> [f64; 8] {
        let g = Geometry::STANDARD;
        Linear8::new(g).extract(&Position::from_moves(g, moves).unwrap())
    }

    #[test]
    fn empty_board_is_all_zero() {
        assert_eq!(features(""), [0.0; 8]);
    }

    #[test]
    fn two_stones_side_by_side() {
        // x on columns 4 and 5 (bottom row), o stacked on column 4 row 2 and column 1.
        // x's twos: horizontal lines holding both c4 and c5 and no o: starting at columns
        // 2, 3 and 4 (1-based) -> 3; no other line holds both. o has no two.
        // x's stones sit 0 and 1 columns from the centre: mean 0.5. o: (0 + 3) / 2 = 1.5.
        let f = features("4451");
        assert_eq!(f[0], 3.0);
        assert_eq!(f[1], 0.0);
        assert_eq!(f[2..6], [0.0; 4]);
        assert_eq!(f[6], 0.5);
        assert_eq!(f[7], 1.5);
    }

    #[test]
    fn threes_and_fours() {
        // x: columns 1, 2, 3 of the bottom row; o on top of them; x to move would win at 4.
        // x's threes: the line columns 1-4 only (columns 2-5 holds two). x's twos: line 2-5.
        let f = features("112233");
        assert_eq!(f[2], 1.0);
        assert_eq!(f[0], 1.0);
        // o (row 2, columns 1-3) mirrors that one row up.
        assert_eq!(f[3], 1.0);
        assert_eq!(f[1], 1.0);
        let won = features("1122334");
        assert_eq!(won[4], 1.0);
        assert_eq!(won[5], 0.0);
    }
}
