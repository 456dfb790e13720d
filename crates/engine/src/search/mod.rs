//! Depth-limited negamax with alpha-beta over any [`Evaluator`].
//!
//! Not here: evaluators (`eval`), agents built on the search (`agents`), the perfect solver
//! (`solver`).
//!
//! What every searcher here does: immediate wins are taken first; moves that let the
//! opponent win at once are never searched (a forced reply is played at the root without
//! searching); columns are tried best-known first, then centre first; a transposition table
//! keeps values and best moves between iterations and moves; iterative deepening runs depth
//! 1, 2, ... up to the target (optionally stopping when a time budget runs out); and a won
//! game is worth [`WIN`] minus its distance in plies, so a sooner win and a later loss are
//! preferred.

pub mod speed;
mod table;
mod ties;

use crate::Interrupt;
use crate::clock::Instant;
use crate::eval::Evaluator;
use crate::game::{BitBoard, Player, Position};
use std::sync::Arc;
use std::time::Duration;
use table::{Bound, Table};

/// The value of a win on the next ply is `WIN - 1`; a win in `d` plies is `WIN - d`.
pub const WIN: f64 = 1_000_000.0;

/// Values at least this large in magnitude are proven wins or losses.
pub(crate) const DECISIVE: f64 = WIN - 1000.0;

/// Whether `value` is a proven win or loss.
pub(crate) fn is_decisive(value: f64) -> bool {
    value.abs() >= DECISIVE
}

#[cfg(test)] // only the tests ask
/// Plies to the end of the game for a decisive value (positive for a win), or `None`.
pub(crate) fn decisive_plies(value: f64) -> Option<i32> {
    is_decisive(value).then(|| (WIN - value.abs()).round() as i32 * value.signum() as i32)
}

/// How deep to search and for how long.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Depth in plies from the root.
    pub depth: u32,
    /// Variable depth: `(ply, depth)` steps; from the first ply of a step on, the search
    /// depth is at least that step's depth (boards that have filled up are cheaper to
    /// search, so they can go deeper).
    pub schedule: Vec<(usize, u32)>,
    /// Stop deepening once this much time has passed; the last completed depth decides.
    pub time_budget: Option<Duration>,
    /// Transposition table entries as a power of two.
    pub table_log2: u32,
    /// The tactics around the evaluator: `None` (the default) takes immediate wins, never
    /// searches a move that hands the opponent one, and scores leaves where the side to
    /// move wins at once or has no safe move exactly; `Some(true)` is the n-tuple
    /// literature's one-move rule alone (take a win, never hand one over, unless every
    /// move does) with the evaluator's own value at every leaf; `Some(false)` no rule at
    /// all (the evaluator's raw choice; finished games still count as won or drawn).
    pub safe: Option<bool>,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            depth: 5,
            schedule: Vec::new(),
            time_budget: None,
            table_log2: 16,
            safe: None,
        }
    }
}

impl SearchParams {
    /// Fixed-depth search of `depth` plies.
    pub fn depth(depth: u32) -> Self {
        SearchParams {
            depth,
            ..Self::default()
        }
    }

    /// The depth to search a position with `ply` stones on the board.
    pub(crate) fn depth_at(&self, ply: usize) -> u32 {
        self.schedule
            .iter()
            .filter(|&&(from, _)| ply >= from)
            .map(|&(_, d)| d)
            .fold(self.depth, u32::max)
    }
}

/// The outcome of one search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchResult {
    /// The chosen column (0-based).
    pub column: usize,
    /// Its value for the side to move.
    pub value: f64,
    /// The deepest completed iteration (0 when the move was forced or an immediate win).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl SearchResult {
    /// Nodes per second of this search (0 when it took no measurable time).
    pub fn nodes_per_second(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 { self.nodes as f64 / s } else { 0.0 }
    }
}

/// A reusable searcher: the table carries over from one move to the next. Generic over the
/// board's integer like the [`Evaluator`] it searches with (`Searcher` alone: 64-bit boards).
pub struct Searcher<B: BitBoard = u64> {
    eval: Arc<dyn Evaluator<B>>,
    params: SearchParams,
    table: Table<B>,
    nodes: u64,
    deadline: Option<Instant>,
    /// Polled with the deadline (see [`Searcher::set_interrupt`]).
    interrupt: Option<Interrupt>,
    aborted: bool,
    order: Vec<usize>,
    /// The player searching (to move at the root): leaves are valued from their side.
    me: Player,
    /// Plies above the leaves where the evaluator's batches are gathered (0: never).
    prefetch_depth: u32,
    /// The batch being gathered.
    batch: Vec<Position<B>>,
    /// Vary the play: root moves are tried in an order drawn from this seed and the ply, so
    /// that among moves of equal value each is as likely to be played (`None`: the centre
    /// first, always the same move).
    ties: Option<u64>,
}

impl<B: BitBoard> Searcher<B> {
    /// A searcher that evaluates leaves with `eval`.
    pub fn new(eval: Arc<dyn Evaluator<B>>, params: SearchParams) -> Self {
        Searcher {
            prefetch_depth: eval.prefetch_depth(),
            batch: Vec::new(),
            eval,
            table: Table::new(params.table_log2),
            params,
            nodes: 0,
            deadline: None,
            interrupt: None,
            aborted: false,
            order: Vec::new(),
            me: Player::First,
            ties: None,
        }
    }

    /// With `Some(seed)`, [`Searcher::choose`] plays any of the moves of equal best value,
    /// drawn from `seed` and the ply (the same seed plays the same game); `None`: always the
    /// most central of them.
    pub fn set_ties(&mut self, seed: Option<u64>) {
        self.ties = seed;
    }

    /// Lets `interrupt` cut [`Searcher::choose`] short like a spent time budget: the move
    /// of the deepest finished iteration is played (depth 1 always finishes).
    pub fn set_interrupt(&mut self, interrupt: Option<Interrupt>) {
        self.interrupt = interrupt;
    }

    /// Whether the deadline or the interrupt says stop now.
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.interrupt.as_ref().is_some_and(Interrupt::should_stop)
    }

    /// The evaluator at the leaves.
    pub fn evaluator(&self) -> &Arc<dyn Evaluator<B>> {
        &self.eval
    }

    /// The parameters.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Forgets the table.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Chooses a move for `pos` (whose game must not be over) at the depth the parameters
    /// give for its ply.
    ///
    /// # Panics
    /// If the game is over.
    pub fn choose(&mut self, pos: &Position<B>) -> SearchResult {
        assert!(
            !pos.last_move_won() && !pos.is_full(),
            "search needs a position with moves left"
        );
        let start = Instant::now();
        self.nodes = 0;
        self.aborted = false;
        self.order = pos.geometry().centre_order().collect();
        self.me = pos.side_to_move();
        let done = |column, value, depth, nodes| SearchResult {
            column,
            value,
            depth,
            nodes,
            elapsed: start.elapsed(),
        };
        let geom = pos.geometry();
        let possible = pos.possible();
        if self.params.safe == Some(false) {
            // No rule: every legal move is searched, wins found by the search itself.
            return self.deepen(pos, possible, start);
        }
        if let Some(col) = self.first_in_order(pos.winning_cells() & possible, pos) {
            return done(col, WIN - 1.0, 0, 1);
        }
        let safe = pos.possible_non_losing_moves();
        if safe == B::ZERO {
            // Every move loses at once: play the most central one.
            let col = self.first_in_order(possible, pos).expect("a legal move");
            return done(col, -(WIN - 2.0), 0, 1);
        }
        if safe.count_ones() == 1 {
            let col = (0..geom.width())
                .find(|&c| safe & geom.column_mask(c) != B::ZERO)
                .expect("the forced column");
            return done(col, self.static_child_value(pos, col), 0, 1);
        }
        self.deepen(pos, safe, start)
    }

    /// Iterative deepening over the root `moves` up to the target depth or the deadline.
    fn deepen(&mut self, pos: &Position<B>, moves: B, start: Instant) -> SearchResult {
        let target = self.params.depth_at(pos.moves_played()).max(1);
        self.deadline = self.params.time_budget.map(|b| start + b);
        let mut best = None;
        for depth in 1..=target {
            // No new iteration once the budget is spent: it could only be cut short.
            if depth > 1 && self.out_of_time() {
                break;
            }
            let r = self.root(pos, moves, depth, depth == 1);
            if self.aborted {
                break;
            }
            best = Some((r.0, r.1, depth));
            if is_decisive(r.1) {
                break;
            }
        }
        let (column, value, depth) = best.expect("depth 1 always completes");
        SearchResult {
            column,
            value,
            depth,
            nodes: self.nodes,
            elapsed: start.elapsed(),
        }
    }

    /// The value, for the side to move in `pos`, of every column (index 0 = column 1) at
    /// `depth` plies; `None` for full columns or when the game is over. Each value is exact
    /// for the depth (a full-window search per move, not an alpha-beta bound), so moves can
    /// be ranked.
    pub fn analyze(&mut self, pos: &Position<B>, depth: u32) -> Vec<Option<f64>> {
        self.nodes = 0;
        self.aborted = false;
        self.deadline = None;
        self.order = pos.geometry().centre_order().collect();
        self.me = pos.side_to_move();
        let over = pos.last_move_won() || pos.is_full();
        (0..pos.width())
            .map(|col| {
                if over || !pos.can_play(col) {
                    return None;
                }
                if pos.is_winning_move(col) {
                    return Some(WIN - 1.0);
                }
                let mut child = *pos;
                child.play_col(col);
                if child.is_full() {
                    return Some(0.0);
                }
                Some(-self.negamax(&child, depth.max(1) - 1, 1, -f64::INFINITY, f64::INFINITY))
            })
            .collect()
    }

    /// Nodes visited by the last [`Searcher::choose`] or [`Searcher::analyze`].
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The table key: values depend on whose point of view the leaves take, so the two
    /// points of view get separate entries (the side also flips the key's top bit, which
    /// spreads the two over the table).
    #[inline]
    fn key(&self, pos: &Position<B>) -> (B, bool) {
        let second = self.me == Player::Second;
        let side = if second {
            B::ONE << (B::BITS - 1)
        } else {
            B::ZERO
        };
        (pos.key() ^ side, second)
    }

    fn first_in_order(&self, moves: B, pos: &Position<B>) -> Option<usize> {
        let g = pos.geometry();
        self.order
            .iter()
            .copied()
            .find(|&c| moves & g.column_mask(c) != B::ZERO)
    }

    /// The static value of playing `col`, for reports on forced moves.
    fn static_child_value(&self, pos: &Position<B>, col: usize) -> f64 {
        let mut child = *pos;
        child.play_col(col);
        if child.is_full() {
            0.0
        } else {
            self.eval.evaluate_for(&child, self.me)
        }
    }

    /// One iteration at the root over the `safe` moves; returns (column, value).
    fn root(&mut self, pos: &Position<B>, safe: B, depth: u32, no_abort: bool) -> (usize, f64) {
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

    fn negamax(
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
fn leaves_below<B: BitBoard>(pos: &Position<B>, depth: u32, out: &mut Vec<Position<B>>) {
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

#[cfg(test)]
mod tests;
