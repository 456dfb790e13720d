//! Open lines: how many lines of four a player can still complete.

use super::Evaluator;
use crate::game::{BitBoard, Direction, Geometry, Player, Position};

/// Counts each player's open lines: four aligned cells with at least one of their stones and
/// none of the opponent's. Horizontal and diagonal lines count wherever they lie. A column
/// counts as one vertical line at most: when the player's stone is on top of it and that
/// top run of their stones plus the empty cells above it can still make four (lower vertical
/// lines are dead once covered). Value = 5 x own open lines - opponent's open lines.
///
/// "Own" is the player the value is for. This evaluator is not zero-sum: the searching
/// player weighs its own lines five times and its opponent's once at every leaf, whoever is
/// to move there (see [`Evaluator::evaluate_for`]); that is how the agents it comes from
/// played, and it makes depth matter (hard beats easy).
#[derive(Clone, Debug)]
pub struct OpenLines<B: BitBoard = u64> {
    geom: Geometry<B>,
    lines: Vec<B>,
}

impl<B: BitBoard> OpenLines<B> {
    /// The evaluator for boards of `geom`.
    ///
    /// ```
    /// use connect4_engine::eval::{Evaluator, OpenLines};
    /// use connect4_engine::{Geometry, Position};
    /// let e = OpenLines::new(Geometry::STANDARD);
    /// let p = Position::from_moves(Geometry::STANDARD, "4455").unwrap();
    /// assert!(e.evaluate(&p).is_finite());
    /// ```
    pub fn new(geom: Geometry<B>) -> Self {
        let lines = geom
            .lines()
            .into_iter()
            .filter(|l| l.direction != Direction::Vertical)
            .map(|l| l.mask)
            .collect();
        OpenLines { geom, lines }
    }

    /// The number of open lines of `player` in `pos`.
    pub(crate) fn open_lines(&self, pos: &Position<B>, player: Player) -> u32 {
        let own = pos.stones_of(player);
        let opp = pos.stones_of(player.other());
        let mut n = self
            .lines
            .iter()
            .filter(|&&l| l & own != B::ZERO && l & opp == B::ZERO)
            .count() as u32;
        let h = self.geom.height();
        for col in 0..self.geom.width() {
            let filled = pos.column_height(col);
            if filled == 0 || own & self.geom.cell_bit(col, filled - 1) == B::ZERO {
                continue;
            }
            let run = (0..filled)
                .rev()
                .take_while(|&r| own & self.geom.cell_bit(col, r) != B::ZERO)
                .count();
            if run + (h - filled) >= 4 {
                n += 1;
            }
        }
        n
    }
}

impl<B: BitBoard> Evaluator<B> for OpenLines<B> {
    fn name(&self) -> String {
        "openlines".into()
    }

    /// Up to one of the opponent's open lines: moves this close are alike to a player of
    /// this strength (`easy`, `hard`), so varied play draws among them.
    fn tie_margin(&self) -> f64 {
        1.5
    }

    fn evaluate(&self, pos: &Position<B>) -> f64 {
        self.evaluate_for(pos, pos.side_to_move())
    }

    fn evaluate_for(&self, pos: &Position<B>, player: Player) -> f64 {
        5.0 * self.open_lines(pos, player) as f64 - self.open_lines(pos, player.other()) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(moves: &str) -> (OpenLines, Position) {
        let g = Geometry::STANDARD;
        (OpenLines::new(g), Position::from_moves(g, moves).unwrap())
    }

    #[test]
    fn single_centre_stone() {
        // x on the bottom of column 4: horizontal lines through it start at columns 1..4
        // (4), diagonals up from it start at (1,?)..: up-right lines containing c4r1 must
        // start at c4r1 itself (1), down-right lines must end at it (1); the vertical line
        // (1 stone + 5 empty above) counts once. Total 7.
        let (e, p) = at("4");
        assert_eq!(e.open_lines(&p, Player::First), 7);
        assert_eq!(e.open_lines(&p, Player::Second), 0);
        // o to move: 5 x 0 - 7.
        assert_eq!(e.evaluate(&p), -7.0);
    }

    #[test]
    fn corner_stones_and_blocking() {
        // x at c1r1, o at c2r1. x: horizontal c1-c4 is blocked by o, diagonal up from c1r1
        // is open (1), vertical c1 counts (1): 2. o: horizontals starting at c2..c2 (c1-c4
        // holds x, so only c2-c5) = 1, diagonal up from c2r1 = 1, down-right lines ending at
        // c2r1 would start at column -1: none; vertical = 1: 3.
        let (e, p) = at("12");
        assert_eq!(e.open_lines(&p, Player::First), 2);
        assert_eq!(e.open_lines(&p, Player::Second), 3);
        // x to move: 5 x 2 - 3.
        assert_eq!(e.evaluate(&p), 7.0);
    }

    #[test]
    fn vertical_needs_room_above_the_top_run() {
        // Column 1 filled x o x o x from the bottom, o elsewhere at c7: x's top stone at
        // row 5 has one empty cell above: 1 + 1 < 4, no vertical line for x.
        let g = Geometry::STANDARD;
        let e = OpenLines::new(g);
        let p = Position::from_moves(g, "1111177").unwrap();
        let verticals = |player| {
            let full = e.open_lines(&p, player);
            let non_vertical = e
                .lines
                .iter()
                .filter(|&&l| l & p.stones_of(player) != 0 && l & p.stones_of(player.other()) == 0)
                .count() as u32;
            full - non_vertical
        };
        // x: column 1 top is x with 1 empty above: no. column 7: x at row 2 on o: run 1,
        // empty 4: yes.
        assert_eq!(verticals(Player::First), 1);
        // o: no column has o on top.
        assert_eq!(verticals(Player::Second), 0);
    }
}
