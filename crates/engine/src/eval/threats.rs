//! Threats: empty cells that would complete a four, weighed by row parity and height.

use super::{Evaluator, from_first};
use crate::game::{BitBoard, Geometry, Player, Position};

/// Scores threats the way Connect Four end games are decided: an empty cell that would
/// complete four for a player is a threat. Threats are per cell, so a cell completing
/// several lines counts once. A threat directly above an opponent's threat does not count
/// (the opponent's threat below must be resolved first). Only threats on the player's
/// favourable rows count: odd rows (1, 3, 5 from the bottom) for the first player, even rows
/// for the second, as in zugzwang play. A threat on row r weighs `height + 1 - r`: lower
/// threats come into play sooner. A small centre bonus of 0.5 per stone in the centre
/// column(s) breaks ties in quiet positions.
#[derive(Clone, Debug)]
pub struct Threats<B: BitBoard = u64> {
    geom: Geometry<B>,
    /// Cells of odd rows (1-based).
    odd_rows: B,
    /// Cells of the centre column (both middle columns on even widths).
    centre: B,
    /// Cells of each row, bottom first.
    rows: Vec<B>,
}

/// Bonus per stone in the centre column(s).
const CENTRE_BONUS: f64 = 0.5;

impl<B: BitBoard> Threats<B> {
    /// The evaluator for boards of `geom`.
    ///
    /// ```
    /// use connect4_engine::eval::{Evaluator, Threats};
    /// use connect4_engine::{Geometry, Position};
    /// let e = Threats::new(Geometry::STANDARD);
    /// let p = Position::from_moves(Geometry::STANDARD, "4455").unwrap();
    /// assert!(e.evaluate(&p).is_finite());
    /// ```
    pub fn new(geom: Geometry<B>) -> Self {
        let (w, h) = (geom.width(), geom.height());
        let row = |r: usize| (0..w).fold(B::ZERO, |m, c| m | geom.cell_bit(c, r));
        let rows: Vec<B> = (0..h).map(row).collect();
        let odd_rows = rows.iter().step_by(2).fold(B::ZERO, |m, &r| m | r);
        let centre = if w % 2 == 1 {
            geom.column_mask(w / 2)
        } else {
            geom.column_mask(w / 2) | geom.column_mask(w / 2 - 1)
        };
        Threats {
            geom,
            odd_rows,
            centre,
            rows,
        }
    }

    /// Weighted sum of the cells in `threats`: row r (1-based) weighs height + 1 - r.
    fn weigh(&self, threats: B) -> f64 {
        let h = self.geom.height();
        self.rows
            .iter()
            .enumerate()
            .map(|(r, &m)| ((threats & m).count_ones() * (h - r) as u32) as f64)
            .sum()
    }

    /// The value from the first player's side.
    pub(crate) fn value_for_first(&self, pos: &Position<B>) -> f64 {
        let mask = pos.mask();
        let first = pos.stones_of(Player::First);
        let second = pos.stones_of(Player::Second);
        let t1 = self.geom.winning_cells(first, mask);
        let t2 = self.geom.winning_cells(second, mask);
        // One cell up in the same column is one bit up.
        let good1 = t1 & !(t2 << 1u32) & self.odd_rows;
        let good2 = t2 & !(t1 << 1u32) & !self.odd_rows;
        let centre =
            (first & self.centre).count_ones() as f64 - (second & self.centre).count_ones() as f64;
        self.weigh(good1) - self.weigh(good2) + CENTRE_BONUS * centre
    }
}

impl<B: BitBoard> Evaluator<B> for Threats<B> {
    fn name(&self) -> String {
        "threat".into()
    }

    fn evaluate(&self, pos: &Position<B>) -> f64 {
        from_first(pos, self.value_for_first(pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(moves: &str) -> f64 {
        let g = Geometry::STANDARD;
        Threats::new(g).evaluate(&Position::from_moves(g, moves).unwrap())
    }

    #[test]
    fn centre_bonus_only() {
        // x on the centre column, o to move: -0.5.
        assert_eq!(eval("4"), -0.5);
        assert_eq!(eval("44"), 0.0);
    }

    #[test]
    fn odd_threat_counts_and_the_threat_above_it_does_not() {
        // x on c1-c3 of row 1 threatens c4r1 (odd row, weight 6); o on c1-c3 of row 2
        // threatens c4r2, directly above x's threat: ignored. x to move: +6.
        assert_eq!(eval("112233"), 6.0);
    }

    #[test]
    fn even_threat_counts_for_the_second_player() {
        // x c1 c2 c3 c7 on row 1, o c1 c2 c3 on row 2 and c4r1: x's row-1 threat is
        // gone, o threatens c4r2 (even row, weight 5); o has one centre stone.
        // x to move: -5 - 0.5.
        assert_eq!(eval("11223473"), -5.5);
    }

    #[test]
    fn wrong_parity_threats_do_not_count() {
        // x on row 2 (c1-c3) threatens c4r2, even: not x's parity. o on row 1 threatens
        // c4r1, odd: not o's parity. No centre stones. o to move: 0.
        assert_eq!(eval("7112233"), 0.0);
    }
}
