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

mod negamax;
pub mod speed;
mod table;
mod ties;

use crate::Interrupt;
use crate::clock::Instant;
use crate::eval::Evaluator;
use crate::game::{BitBoard, Player, Position};
use std::sync::Arc;
use std::time::Duration;
use table::Table;

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
}

#[cfg(test)]
mod tests;
