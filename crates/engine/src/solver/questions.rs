//! What a [`Solver`] answers beyond one score: every column's score, whether a score is at
//! most a bound (one probe), and the best move. Each asks the opening book first.

use super::{Mode, Solver};
use crate::game::Position;

impl Solver {
    /// The score of every column (index 0 = column 1) in `mode`; `None` where the column is
    /// full or the game is already over.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 16).unwrap();
    /// // x to move after 4, 4, 5, 3 (the first line of the end-game benchmark set is harder):
    /// // every column of a 7-stone-deep end game is scored exactly.
    /// let p = Position::from_moves(Geometry::STANDARD, "2252576253462244111563365343671351").unwrap();
    /// let scores = s.analyze(&p, Mode::Strong);
    /// assert_eq!(scores.len(), 7);
    /// // The best column keeps the position's score.
    /// let best = scores.iter().flatten().max().copied();
    /// assert_eq!(best, Some(s.solve(&p)));
    /// ```
    pub fn analyze(&mut self, pos: &Position, mode: Mode) -> Vec<Option<i32>> {
        if let Some(scores) = self.book.as_ref().and_then(|b| b.analyze(pos)) {
            let fit = |s: i32| if mode == Mode::Weak { s.signum() } else { s };
            return scores.into_iter().map(|s| s.map(fit)).collect();
        }
        let over = pos.last_move_won() || pos.is_full();
        (0..pos.width())
            .map(|col| {
                if over || !pos.can_play(col) {
                    None
                } else if pos.is_winning_move(col) {
                    let s = self.geom.win_score(pos.moves_played());
                    Some(if mode == Mode::Weak { 1 } else { s })
                } else {
                    let mut child = *pos;
                    child.play_col(col);
                    Some(-self.score(&child, mode))
                }
            })
            .collect()
    }

    /// Whether the strong score of `pos` is at most `bound`: one null-window probe, much
    /// cheaper than the exact score. Grading a move against a known score needs only this.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let end = Position::from_moves(Geometry::STANDARD, "2252576253462244111563365343671351441").unwrap();
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// assert!(s.score_at_most(&end, -1));
    /// assert!(!s.score_at_most(&end, -2));
    /// ```
    pub fn score_at_most(&mut self, pos: &Position, bound: i32) -> bool {
        let g = self.geom;
        let moves = pos.moves_played();
        if pos.last_move_won() {
            return -g.win_score(moves - 1) <= bound;
        }
        if pos.is_full() {
            return 0 <= bound;
        }
        if pos.can_win_next() {
            return g.win_score(moves) <= bound;
        }
        if let Some(s) = self.book.as_ref().and_then(|b| b.score(pos)) {
            return s <= bound;
        }
        let (min, max) = (-g.win_score(moves + 1), g.win_score(moves + 2));
        if bound < min {
            return false;
        }
        if bound >= max {
            return true;
        }
        self.negamax(pos, bound, bound + 1) <= bound
    }

    /// The best column (0-based) of `pos` with its exact score, or `None` once the game is
    /// over. "Best" means the highest strong score, so a win is taken by the fastest route and
    /// a lost position is defended as long as possible; ties go to the most central column.
    ///
    /// Cheaper than [`Solver::analyze`]: one exact solve, then a null-window test per column
    /// (centre first) until one child reaches the score, where `analyze` solves every child.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// assert_eq!(s.best_move(&Position::new(Geometry::STANDARD)), Some((3, 1)));
    /// ```
    pub fn best_move(&mut self, pos: &Position) -> Option<(usize, i32)> {
        if pos.last_move_won() || pos.is_full() {
            return None;
        }
        if let Some(best) = self.book.as_ref().and_then(|b| b.best_move(pos)) {
            self.stopped = false;
            return Some(best);
        }
        let target = self.solve(pos);
        let g = self.geom;
        for col in g.centre_order() {
            if self.stopped {
                // Interrupted: nothing is proved; the caller checks `was_interrupted`.
                if pos.can_play(col) {
                    return Some((col, target));
                }
                continue;
            }
            if !pos.can_play(col) {
                continue;
            }
            if pos.is_winning_move(col) {
                if target == g.win_score(pos.moves_played()) {
                    return Some((col, target));
                }
                continue;
            }
            let mut child = *pos;
            child.play_col(col);
            // Every child scores at least -target from its own side; this one is optimal
            // exactly when it scores no more than that.
            let optimal = self.score_at_most(&child, -target);
            if optimal {
                return Some((col, target));
            }
        }
        if self.stopped {
            let col = g.centre_order().find(|&c| pos.can_play(c));
            return col.map(|c| (c, target));
        }
        unreachable!("some column reaches the solved score")
    }
}
