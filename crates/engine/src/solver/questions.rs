//! What a [`Solver`] answers beyond one score: every column's score, whether a score is at
//! most a bound (one probe), and the best move. Each asks the opening book first.

use super::{Mode, Solver};
use crate::game::{BitBoard, Position};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

impl<B: BitBoard> Solver<B> {
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
    pub fn analyze(&mut self, pos: &Position<B>, mode: Mode) -> Vec<Option<i32>> {
        self.analyze_with_helpers(pos, mode, &mut [])
    }

    /// [`Solver::analyze`] with the children that need a search shared out between this
    /// solver and `helpers`, each on a thread of its own: the same scores, sooner on a machine
    /// with cores to spare (a position's children are independent searches, and past the book
    /// they are where `c4 analyze` spends its time). With no helpers it runs on this thread.
    /// The helpers are given this solver's book and interrupt; each keeps its own table, and
    /// their nodes are added to this solver's count. Not for WebAssembly, which has no
    /// threads: give no helpers there.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let g = Geometry::STANDARD;
    /// let p = Position::from_moves(g, "2252576253462244111563365343671").unwrap();
    /// let mut helpers = vec![Solver::with_table_mib(g, 8).unwrap()];
    /// let mut s = Solver::with_table_mib(g, 8).unwrap();
    /// let together = s.analyze_with_helpers(&p, Mode::Strong, &mut helpers);
    /// assert_eq!(together, Solver::with_table_mib(g, 8).unwrap().analyze(&p, Mode::Strong));
    /// ```
    pub fn analyze_with_helpers(
        &mut self,
        pos: &Position<B>,
        mode: Mode,
        helpers: &mut [Solver<B>],
    ) -> Vec<Option<i32>> {
        let fit = |s: i32| if mode == Mode::Weak { s.signum() } else { s };
        if let Some(scores) = (self.book.as_ref())
            .zip(pos.narrow())
            .and_then(|(b, p)| b.analyze(&p))
        {
            return scores.into_iter().map(|s| s.map(fit)).collect();
        }
        let over = pos.last_move_won() || pos.is_full();
        let mut scores = vec![None; pos.width()];
        // The children to search, centre first: the columns likeliest to be best, whose
        // searches fill the table for the others (and start the slowest early on threads).
        let mut todo = Vec::new();
        for col in self.geom.centre_order() {
            if over || !pos.can_play(col) {
                continue;
            }
            if pos.is_winning_move(col) {
                let s = self.geom.win_score(pos.moves_played());
                scores[col] = Some(if mode == Mode::Weak { 1 } else { s });
                continue;
            }
            let mut child = *pos;
            child.play_col(col);
            match self.book_score(&child) {
                Some(s) => scores[col] = Some(-fit(s)),
                None => todo.push((col, child)),
            }
        }
        if helpers.is_empty() || todo.len() < 2 {
            for (col, child) in todo {
                scores[col] = Some(-self.score(&child, mode));
            }
            return scores;
        }
        for h in helpers.iter_mut() {
            h.set_book(self.book.clone());
            h.set_interrupt(self.interrupt.clone());
            h.reset_nodes();
        }
        let next = AtomicUsize::new(0);
        let found = Mutex::new(Vec::with_capacity(todo.len()));
        let stopped = AtomicBool::new(false);
        let workers = std::iter::once(&mut *self).chain(helpers.iter_mut());
        std::thread::scope(|scope| {
            for solver in workers.take(todo.len()) {
                let (next, found, todo, stopped) = (&next, &found, &todo, &stopped);
                scope.spawn(move || {
                    // Each worker takes the next child not yet taken until none is left.
                    while let Some(&(col, child)) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let s = -solver.score(&child, mode);
                        if solver.was_interrupted() {
                            stopped.store(true, Ordering::Relaxed);
                        }
                        found
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .push((col, s));
                    }
                });
            }
        });
        for (col, s) in found.into_inner().unwrap_or_else(PoisonError::into_inner) {
            scores[col] = Some(s);
        }
        self.stopped = stopped.into_inner();
        self.nodes += helpers.iter().map(Solver::nodes).sum::<u64>();
        scores
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
    pub fn score_at_most(&mut self, pos: &Position<B>, bound: i32) -> bool {
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
        if let Some(s) = self.book_score(pos) {
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
    pub fn best_move(&mut self, pos: &Position<B>) -> Option<(usize, i32)> {
        if pos.last_move_won() || pos.is_full() {
            return None;
        }
        if let Some(best) = (self.book.as_ref())
            .zip(pos.narrow())
            .and_then(|(b, p)| b.best_move(&p))
        {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Interrupt;
    use crate::game::Geometry;

    #[test]
    fn helpers_find_every_columns_score_and_count_their_nodes() {
        let g = Geometry::STANDARD;
        // A middle-game position past the book, one with a winning column, a finished game.
        for moves in ["274552224131661", "4455667", "44444412367", "4444333"] {
            let p = Position::from_moves(g, moves).unwrap();
            let mut alone = Solver::with_table_mib(g, 8).unwrap();
            let want = alone.analyze(&p, Mode::Strong);
            for n in [1, 2, 8] {
                let mut helpers: Vec<Solver> = (0..n)
                    .map(|_| Solver::with_table_mib(g, 8).unwrap())
                    .collect();
                let mut s = Solver::with_table_mib(g, 8).unwrap();
                assert_eq!(
                    s.analyze_with_helpers(&p, Mode::Strong, &mut helpers),
                    want,
                    "{moves}"
                );
                assert_eq!(
                    s.analyze_with_helpers(&p, Mode::Weak, &mut helpers),
                    alone.analyze(&p, Mode::Weak),
                    "{moves}"
                );
                assert!(!s.was_interrupted());
                if moves == "274552224131661" {
                    assert!(s.nodes() > helpers.iter().map(Solver::nodes).sum::<u64>());
                }
            }
        }
    }

    #[test]
    fn an_interrupt_reaches_the_helpers() {
        let g = Geometry::STANDARD;
        let p = Position::from_moves(g, "274552224131661").unwrap();
        let mut helpers = vec![Solver::with_table_mib(g, 8).unwrap()];
        let mut s = Solver::with_table_mib(g, 8).unwrap();
        s.set_interrupt(Some(Interrupt::after(std::time::Duration::ZERO)));
        s.analyze_with_helpers(&p, Mode::Strong, &mut helpers);
        assert!(s.was_interrupted());
        // Whether the helper's thread got a child before the others were done varies; that
        // it was given the interrupt does not.
        assert!(helpers[0].interrupt().is_some());
    }
}
