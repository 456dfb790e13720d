//! Window score: every line of four scored by what it holds.

use super::Evaluator;
use crate::game::{BitBoard, Geometry, Player, Position};

/// Scores every line of four (all four directions) from the side to move: four own +10000,
/// three own and one empty +6, two own and two empty +4, two opponent and two empty -4,
/// three opponent and one empty -2, four opponent -10000; mixed or near-empty lines 0.
///
/// The scores are not symmetric (an opponent's three costs less than an own three gains), so
/// search keeps the searching player as "own" at every leaf (see
/// [`Evaluator::evaluate_for`]).
#[derive(Clone, Debug)]
pub struct WindowScore<B: BitBoard = u64> {
    lines: Vec<B>,
}

impl<B: BitBoard> WindowScore<B> {
    /// The evaluator for boards of `geom`.
    ///
    /// ```
    /// use connect4_engine::eval::{Evaluator, WindowScore};
    /// use connect4_engine::{Geometry, Position};
    /// let e = WindowScore::new(Geometry::STANDARD);
    /// let p = Position::from_moves(Geometry::STANDARD, "4455").unwrap();
    /// assert!(e.evaluate(&p).is_finite());
    /// ```
    pub fn new(geom: Geometry<B>) -> Self {
        WindowScore {
            lines: geom.lines().into_iter().map(|l| l.mask).collect(),
        }
    }

    /// The score of one window holding `own` stones of the side to move and `opp` of the
    /// opponent's.
    pub(crate) fn window_value(own: u32, opp: u32) -> f64 {
        match (own, opp) {
            (4, 0) => 10000.0,
            (3, 0) => 6.0,
            (2, 0) => 4.0,
            (0, 2) => -4.0,
            (0, 3) => -2.0,
            (0, 4) => -10000.0,
            _ => 0.0,
        }
    }
}

impl<B: BitBoard> Evaluator<B> for WindowScore<B> {
    fn name(&self) -> String {
        "window".into()
    }

    fn evaluate(&self, pos: &Position<B>) -> f64 {
        self.evaluate_for(pos, pos.side_to_move())
    }

    fn evaluate_for(&self, pos: &Position<B>, player: Player) -> f64 {
        let (own, opp) = (pos.stones_of(player), pos.stones_of(player.other()));
        self.lines
            .iter()
            .map(|&l| Self::window_value((l & own).count_ones(), (l & opp).count_ones()))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(moves: &str) -> f64 {
        let g = Geometry::STANDARD;
        WindowScore::new(g).evaluate(&Position::from_moves(g, moves).unwrap())
    }

    #[test]
    fn single_stones_score_nothing() {
        assert_eq!(eval(""), 0.0);
        assert_eq!(eval("4"), 0.0);
    }

    #[test]
    fn pairs_for_and_against() {
        // x c4r1 and c5r1, o c4r2 and c1r1; x to move. Windows with two x and two empty:
        // row 1 from columns 2, 3 and 4: 3 x (+4). o's stones share no window.
        assert_eq!(eval("4451"), 12.0);
        // x adds c7r1: row 1 2-5 and 3-6 still hold two x (-4 each); 4-7 now holds three x
        // and one empty (-2). o to move: -10.
        assert_eq!(eval("44517"), -10.0);
    }

    #[test]
    fn threes_for_the_side_to_move() {
        // "1122" + "7": x c1r1 c2r1 c7r1, o c1r2 c2r2; o to move.
        // x windows on row 1: 1-4 two x (-4 for o), 2-5 one x, 4-7 one x (c7).
        // o windows on row 2: 1-4 two o two empty (+4), 2-5 one o.
        // Diagonals: c1r1-c2r2 hold x and o: 0. Total 0.
        assert_eq!(eval("11227"), 0.0);
        // x to move after "112276": o at c6r1 blocks x's 4-7; windows unchanged otherwise
        // apart from 3-6 and 4-7 holding o and x (0). From x: row 1 1-4 two x (+4), row 2
        // 1-4 two o (-4): 0.
        assert_eq!(eval("112276"), 0.0);
        // "11223": x on c1-c3 of row 1, o to move. Row 1: 1-4 three x one empty (-2), 2-5
        // two x (-4); row 2: 1-4 two o (+4). Total -2.
        assert_eq!(eval("11223"), -2.0);
    }

    #[test]
    fn the_searching_player_keeps_its_point_of_view() {
        // "11223": o to move; from x's side the same windows score +6 (three x) + 4 (two x)
        // - 4 (two o) = +6, not the +2 that negating o's -2 would give.
        let g = Geometry::STANDARD;
        let p = Position::from_moves(g, "11223").unwrap();
        let e = WindowScore::new(g);
        assert_eq!(e.evaluate_for(&p, Player::First), 6.0);
        assert_eq!(e.evaluate_for(&p, Player::Second), -2.0);
    }
}
