//! The search core: negamax with alpha-beta over the null window the facade asks for, the
//! transposition and end-game tables, enhanced transposition cutoffs, the follow-up rule and
//! the threat-based move order. Monomorphised over the table's word so the hot loop has no
//! dispatch.

use super::follow_up::{FollowUp, FollowUpRule};
use super::sorter::MoveSorter;
use super::table::{SharedTable, Slot, Table};
use super::{DEEP_MAX_EMPTY, OrderHint};
use crate::Interrupt;
use crate::game::{BitBoard, Geometry, Position};

/// Enhanced transposition cutoffs are tried in positions with at least this many empty
/// cells: below that the extra probes cost more time than the nodes they save (measured on
/// Test_L1_R2: -10% time at 18, slower at 10).
const ETC_MIN_EMPTY: usize = 18;

/// Whether the player to move in the position with occupancy `mask`, facing the opponent's
/// winning cells `threats`, has no move that avoids losing at once (what
/// [`Position::possible_non_losing_moves`] computes, from the other side).
#[inline]
fn no_defence<B: BitBoard>(g: Geometry<B>, mask: B, threats: B) -> bool {
    let possible = (mask + g.bottom_mask()) & g.board_mask();
    let forced = possible & threats;
    if forced & forced.wrapping_sub(B::ONE) != B::ZERO {
        return true;
    }
    let candidates = if forced != B::ZERO { forced } else { possible };
    candidates & !(threats >> 1u32) == B::ZERO
}

/// The state of one probe, monomorphised over the table's word and the bitboard so the hot
/// loop has no dispatch.
pub(super) struct Search<'a, S: Slot, B: BitBoard = u64> {
    geom: Geometry<B>,
    columns: &'a [B],
    nodes: u64,
    /// ceil(cells / 2): the offset that makes stored bounds positive.
    half: i32,
    symmetry_plies: usize,
    table: &'a mut Table<S, B>,
    /// Positions with at least `deep.0` stones use this table instead (see
    /// [`DEEP_MAX_EMPTY`]).
    deep: (usize, &'a mut Table<B, B>),
    /// Positions with fewer stones than `shallow.0` use this table instead (see
    /// [`Solver::set_shallow_table`]).
    shallow: Option<(usize, &'a SharedTable<B>)>,
    interrupt: Option<&'a Interrupt>,
    hint: Option<&'a OrderHint<B>>,
    /// Bounds read off the board (see [`follow_up`]).
    follow_up: FollowUpRule<B>,
    /// Set once the interrupt fired: every frame then returns at once without storing.
    stopped: bool,
    /// The opening book: a position it holds ends the search there with its exact score.
    book: Option<&'a super::book::Book>,
}

impl<'a, S: Slot, B: BitBoard> Search<'a, S, B> {
    pub(super) fn new(
        geom: Geometry<B>,
        columns: &'a [B],
        symmetry_plies: usize,
        (table, deep): (&'a mut Table<S, B>, &'a mut Table<B, B>),
        shallow: Option<(usize, &'a SharedTable<B>)>,
        interrupt: Option<&'a Interrupt>,
        hint: Option<&'a OrderHint<B>>,
    ) -> Self {
        table.ready();
        deep.ready();
        Search {
            geom,
            columns,
            nodes: 0,
            half: geom.cells().div_ceil(2) as i32,
            symmetry_plies,
            table,
            deep: (geom.cells().saturating_sub(DEEP_MAX_EMPTY), deep),
            shallow,
            interrupt,
            hint,
            follow_up: FollowUpRule::new(geom),
            stopped: false,
            book: None,
        }
    }

    /// Reads `book` (see [`Search::book`]).
    pub(super) fn with_book(mut self, book: Option<&'a super::book::Book>) -> Self {
        self.book = book;
        self
    }

    /// The stored bound of a position with `moves` stones (0 = unknown).
    #[inline]
    fn get(&self, key: B, moves: usize) -> u8 {
        match &self.shallow {
            Some((plies, t)) if moves < *plies => t.get(key),
            _ if moves >= self.deep.0 => self.deep.1.get(key),
            _ => self.table.get(key),
        }
    }

    #[inline]
    fn put(&mut self, key: B, moves: usize, value: u8) {
        match &mut self.shallow {
            Some((plies, t)) if moves < *plies => t.put(key, value),
            _ if moves >= self.deep.0 => self.deep.1.put(key, value),
            _ => self.table.put(key, value),
        }
    }

    #[inline]
    fn prefetch(&self, key: B, moves: usize) {
        match &self.shallow {
            Some((plies, t)) if moves < *plies => t.prefetch(key),
            _ if moves >= self.deep.0 => self.deep.1.prefetch(key),
            _ => self.table.prefetch(key),
        }
    }

    pub(super) fn run(mut self, pos: &Position<B>, alpha: i32, beta: i32) -> (i32, u64, bool) {
        let r = self.negamax(pos, alpha, beta);
        (r, self.nodes, self.stopped)
    }

    /// The table key: shared with the mirror image near the root, where mirror pairs are
    /// common and worth the extra work.
    #[inline]
    fn key_of(&self, pos: &Position<B>) -> B {
        if pos.moves_played() < self.symmetry_plies {
            pos.canonical_key()
        } else {
            pos.key()
        }
    }

    /// Stored as `v + half + 1` (1..=2h+1) for an upper bound and `v + 3h + 2` above that
    /// for a lower bound; 0 means unknown.
    #[inline]
    fn upper(&self, v: i32) -> u8 {
        (v + self.half + 1) as u8
    }

    #[inline]
    fn lower(&self, v: i32) -> u8 {
        (v + 3 * self.half + 2) as u8
    }

    /// Negamax on a position where the side to move cannot win at once; returns a score
    /// within `[alpha, beta]` semantics of fail-soft alpha-beta.
    ///
    /// One long function on purpose: it is the solver's hot loop (billions of calls on the
    /// Pons sets), and its steps (book, tables, bounds, move order, the children) share
    /// locals that splitting would pass by reference through every call; each step is
    /// commented where it is.
    fn negamax(&mut self, pos: &Position<B>, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if let Some(i) = self.interrupt
            && self.nodes & 4095 == 0
            && i.should_stop()
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let g = self.geom;
        let moves = pos.moves_played();
        let possible = pos.possible_non_losing_moves();
        if possible == B::ZERO {
            // Whatever we play, the opponent wins with their next stone.
            return -g.win_score(moves + 1);
        }
        if let Some(book) = self.book
            && moves <= book.plies()
            && let Some(s) = pos.canonical_key().to_u64().and_then(|k| book.get(k))
        {
            // An exact score is a valid result for any window.
            return s;
        }
        if moves + 2 >= g.cells() {
            // Two cells left, we cannot win now and our move leaves no win to the opponent.
            return 0;
        }
        // The opponent cannot win with their next stone (we have a non-losing move)...
        let min = -g.win_score(moves + 3);
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        // ...and we cannot win with this one.
        let mut max = g.win_score(moves + 2);
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        match self.follow_up.bound(pos) {
            FollowUp::Upper(b) if beta > b => {
                beta = b;
                if alpha >= beta {
                    return beta;
                }
            }
            FollowUp::Lower(b) if alpha < b => {
                alpha = b;
                if alpha >= beta {
                    return alpha;
                }
            }
            _ => {}
        }
        let key = self.key_of(pos);
        let stored = self.get(key, moves) as i32;
        if stored != 0 {
            if stored > 2 * self.half + 1 {
                let min = stored - 3 * self.half - 2;
                if alpha < min {
                    alpha = min;
                    if alpha >= beta {
                        return alpha;
                    }
                }
            } else {
                max = stored - self.half - 1;
                if beta > max {
                    beta = max;
                    if alpha >= beta {
                        return beta;
                    }
                }
            }
        }
        // Look one move ahead with bit operations only. For each move, the cells where we
        // would then threaten to win decide whether the opponent has a non-losing reply
        // (the same test the child would make first). No reply: the move wins as fast as we
        // possibly can, so it is the best move. Otherwise the opponent cannot lose before our
        // stone after next, so the move is worth at most win_score(moves + 4): when alpha is
        // already there, no move that leaves a defence can raise it, and nothing needs a
        // search. Both cases would otherwise cost one call each, 45% of all nodes.
        let best_possible = g.win_score(moves + 2);
        let only_killers = alpha >= g.win_score(moves + 4);
        let hint = self.hint.filter(|h| moves < h.plies);
        let mut sorter = MoveSorter::new();
        for &col in self.columns.iter().rev() {
            let bit = possible & col;
            if bit == B::ZERO {
                continue;
            }
            let (stones, mask) = (pos.current_stones() | bit, pos.mask() | bit);
            let threats = g.winning_cells(stones, mask);
            if no_defence(g, mask, threats) {
                let v = self.lower(best_possible);
                self.put(key, moves, v);
                return best_possible;
            }
            if !only_killers {
                let mut child = *pos;
                child.play_bit(bit);
                // The child probes its entry first thing: start that memory load now, so it
                // overlaps with ordering the moves.
                self.prefetch(self.key_of(&child), moves + 1);
                let order = match hint {
                    // The child's value is the opponent's: lower is better for us. Quantised
                    // to 1/1024 (values lie in [-1, 1]) below the threat count.
                    Some(h) => {
                        let v = (h.value)(&child).clamp(-1.0, 1.0);
                        threats.count_ones() << 12 | ((1.0 - v) * 1024.0) as u32
                    }
                    None => threats.count_ones(),
                };
                sorter.add(bit, order);
            }
        }
        if only_killers {
            let v = self.upper(alpha);
            self.put(key, moves, v);
            return alpha;
        }
        // Enhanced transposition cutoff, where subtrees are large enough to pay for the extra
        // probes: a child whose stored upper bound u (their view) gives us -u >= beta cuts
        // here without searching anything. Its entry was prefetched above.
        if g.cells() - moves >= ETC_MIN_EMPTY {
            let mut rest = possible;
            while rest != B::ZERO {
                let bit = rest & rest.wrapping_neg();
                rest &= rest - B::ONE;
                let mut child = *pos;
                child.play_bit(bit);
                let stored = self.get(self.key_of(&child), moves + 1) as i32;
                if stored != 0 && stored <= 2 * self.half + 1 {
                    let ours = -(stored - self.half - 1);
                    if ours >= beta {
                        let v = self.lower(ours);
                        self.put(key, moves, v);
                        return ours;
                    }
                }
            }
        }
        while let Some(bit) = sorter.pop() {
            let mut child = *pos;
            child.play_bit(bit);
            let score = -self.negamax(&child, -beta, -alpha);
            if self.stopped {
                // The child's value is not a result: store nothing on the way out.
                return 0;
            }
            if score >= beta {
                let v = self.lower(score);
                self.put(key, moves, v);
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        let v = self.upper(alpha);
        self.put(key, moves, v);
        alpha
    }
}
