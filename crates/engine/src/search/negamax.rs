//! The search itself: one iteration at the root and the alpha-beta negamax below it, over
//! the transposition table (see the module docs of [`super`] for what every search does).

use super::table::{self, Bound};
use super::ties;
use super::{Searcher, WIN};
use crate::game::{BitBoard, Player, Position};

impl<B: BitBoard> Searcher<B> {
    /// The table key: values depend on whose point of view the leaves take, so the two
    /// points of view get separate entries (the side also flips the key's top bit, which
    /// spreads the two over the table).
    #[inline]
    pub(super) fn key(&self, pos: &Position<B>) -> (B, bool) {
        let second = self.me == Player::Second;
        let side = if second {
            B::ONE << (B::BITS - 1)
        } else {
            B::ZERO
        };
        (pos.key() ^ side, second)
    }

    pub(super) fn first_in_order(&self, moves: B, pos: &Position<B>) -> Option<usize> {
        let g = pos.geometry();
        self.order
            .iter()
            .copied()
            .find(|&c| moves & g.column_mask(c) != B::ZERO)
    }

    /// One iteration at the root over the `safe` moves; returns (column, value).
    pub(super) fn root(
        &mut self,
        pos: &Position<B>,
        safe: B,
        depth: u32,
        no_abort: bool,
    ) -> (usize, f64) {
        let g = pos.geometry();
        let (key, second) = self.key(pos);
        let hint = self.table.best_move(key, second);
        let mut cols: Vec<usize> = self
            .order
            .iter()
            .copied()
            .filter(|&c| safe & g.column_mask(c) != B::ZERO)
            .collect();
        // The first of the tied moves in this order is played: a drawn order draws among
        // them. The previous iteration's best (drawn the same way) still goes first.
        if let Some(seed) = self.ties {
            ties::shuffle_root(seed, pos.moves_played(), &mut cols);
        }
        if let Some(h) = hint
            && let Some(i) = cols.iter().position(|&c| c == h)
        {
            let c = cols.remove(i);
            cols.insert(0, c);
        }
        let (deadline, interrupt) = (self.deadline, self.interrupt.clone());
        if no_abort {
            self.deadline = None;
            self.interrupt = None;
        }
        if depth <= self.prefetch_depth {
            self.batch.clear();
            for &col in &cols {
                let mut child = *pos;
                child.play_col(col);
                if !child.last_move_won() && !child.is_full() {
                    leaves_below(&child, depth - 1, &mut self.batch);
                }
            }
            self.eval.prefetch(&self.batch);
        }
        // Varied play with an evaluator whose near values are alike: the moves within the
        // margin of the best are searched to their exact values (a window lowered by the
        // margin), and one of them is drawn.
        let margin = if self.ties.is_some() {
            self.eval.tie_margin()
        } else {
            0.0
        };
        let mut near = Vec::new();
        let (mut best_col, mut alpha) = (cols[0], -f64::INFINITY);
        for &col in &cols {
            let mut child = *pos;
            child.play_col(col);
            let v = if child.last_move_won() {
                WIN - 1.0
            } else if child.is_full() {
                0.0
            } else {
                -self.negamax(&child, depth - 1, 1, -f64::INFINITY, -(alpha - margin))
            };
            if self.aborted {
                break;
            }
            if margin > 0.0 {
                near.push((col, v));
            }
            if v > alpha {
                alpha = v;
                best_col = col;
            }
        }
        if let Some(seed) = self.ties
            && margin > 0.0
            && !self.aborted
        {
            (best_col, alpha) = ties::draw_near(
                seed,
                pos.moves_played(),
                depth,
                near,
                best_col,
                alpha,
                margin,
            );
        }
        self.deadline = deadline;
        self.interrupt = interrupt;
        if !self.aborted {
            self.table
                .store(self.key(pos), depth, alpha, Bound::Exact, best_col);
        }
        (best_col, alpha)
    }

    pub(super) fn negamax(
        &mut self,
        pos: &Position<B>,
        depth: u32,
        ply: u32,
        mut alpha: f64,
        mut beta: f64,
    ) -> f64 {
        self.nodes += 1;
        // The clock is read every 64 nodes (about 20 ns each time): budgets of a fraction
        // of a millisecond, as equal-time matches against a fast baseline give, hold.
        if self.nodes & 63 == 0 && self.out_of_time() {
            self.aborted = true;
        }
        if self.aborted {
            return 0.0;
        }
        if depth == 0 && self.params.safe.is_some() {
            // The rule (or none) sits at the root only: leaves are the evaluator's.
            let v = self.eval.evaluate_for(pos, self.me);
            return if pos.side_to_move() == self.me { v } else { -v };
        }
        let ply_f = ply as f64;
        if pos.can_win_next() {
            return WIN - (ply_f + 1.0);
        }
        let safe = pos.possible_non_losing_moves();
        if safe == B::ZERO {
            return -(WIN - (ply_f + 2.0));
        }
        if depth == 0 {
            let v = self.eval.evaluate_for(pos, self.me);
            return if pos.side_to_move() == self.me { v } else { -v };
        }
        // No win is possible before ply + 3, no loss before ply + 4 now.
        beta = beta.min(WIN - (ply_f + 3.0));
        alpha = alpha.max(-(WIN - (ply_f + 4.0)));
        if alpha >= beta {
            return alpha;
        }
        let key = self.key(pos);
        let mut hint = None;
        if let Some(e) = self.table.probe(key.0, key.1) {
            hint = Some(e.best as usize);
            if e.depth as u32 >= depth {
                let v = table::from_stored(e.value, ply);
                match e.bound {
                    Bound::Exact => return v,
                    Bound::Lower if v >= beta => return v,
                    Bound::Upper if v <= alpha => return v,
                    _ => {}
                }
            }
        }
        // An evaluator that batches hears of the leaves below here at once (the root does
        // it for searches shallower than its batches).
        if depth == self.prefetch_depth {
            self.batch.clear();
            leaves_below(pos, depth, &mut self.batch);
            self.eval.prefetch(&self.batch);
        }
        let alpha_in = alpha;
        let g = pos.geometry();
        let mut best = -f64::INFINITY;
        let mut best_col = usize::MAX;
        let width = g.width();
        // The hinted move first, then centre first.
        for i in 0..=width {
            let col = if i == 0 {
                match hint {
                    Some(h) if h < width => h,
                    _ => continue,
                }
            } else {
                let c = self.order[i - 1];
                if Some(c) == hint {
                    continue;
                }
                c
            };
            if safe & g.column_mask(col) == B::ZERO {
                continue;
            }
            let mut child = *pos;
            child.play_col(col);
            let v = if child.is_full() {
                0.0
            } else {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
            };
            if self.aborted {
                return 0.0;
            }
            if v > best {
                best = v;
                best_col = col;
            }
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        let bound = if best <= alpha_in {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table
            .store(key, depth, table::to_stored(best, ply), bound, best_col);
        best
    }
}

/// The positions `depth` plies below `pos` that the search may value with the evaluator:
/// reached by moves that do not hand over a win, from positions whose side to move cannot
/// win at once, and not full.
pub(super) fn leaves_below<B: BitBoard>(pos: &Position<B>, depth: u32, out: &mut Vec<Position<B>>) {
    if depth == 0 {
        out.push(*pos);
        return;
    }
    if pos.can_win_next() {
        return;
    }
    let safe = pos.possible_non_losing_moves();
    let g = pos.geometry();
    for col in 0..g.width() {
        if safe & g.column_mask(col) != B::ZERO {
            let mut child = *pos;
            child.play_col(col);
            if !child.is_full() {
                leaves_below(&child, depth - 1, out);
            }
        }
    }
}
