//! The perfect solver: the oracle that labels data and grades every agent.
//!
//! Negamax with alpha-beta on the bitboard [`Position`], after Pascal Pons' solver
//! (blog.gamesolver.org), in its own words here:
//! - the window is first narrowed to the scores still reachable given the moves left;
//! - losing moves are never searched: a forced block is played alone, two opponent threats
//!   lose at once, and no stone goes under an opponent's winning cell;
//! - moves are tried in order of the threats they create, ties centre first (or, near the
//!   root, by an [`OrderHint`] when one is given);
//! - a transposition table (default 64 MiB) stores upper and lower bounds under exact keys,
//!   and a small one the bounds of end-game positions, whose probes then stay in cache
//!   ([`DEEP_MAX_EMPTY`]);
//! - bounds read off the board by the follow-up rule (claimeven on every column, see
//!   `follow_up`) end many searches late in the game without a move;
//! - the exact score is found by a sequence of null-window probes that narrow the interval
//!   of possible scores, the cheap probes (far from zero) first;
//! - near the root, mirror images share table entries (canonical keys);
//! - one move ahead is looked at with bit operations only: a move that leaves the opponent
//!   no defence wins at once, and when the window says only such a move could matter, no
//!   child is searched; children already in the table may cut off before any search
//!   (enhanced transposition cutoff).
//!
//! Scores follow the benchmark convention (see [`Geometry::win_score`]): from the side to move,
//! 0 a draw, a win with the mover's k-th stone `ceil(cells/2) + 1 - k`, a loss its negative.
//! Weak solving answers only -1 / 0 / +1 with a single window around zero; it is usually
//! faster (the empty board: 18 s against 36 s), but not on positions that are fast wins,
//! where the strong probes near the score prune harder (see docs/results.md).
//!
//! Where things live: this file is the facade ([`Solver`], [`Mode`], errors, the probe
//! sequence); `questions` the answers built on scores (every column, a bound, the best move);
//! `search` the search core; `table` the transposition tables; `shallow` the
//! [`ShallowTable`] a job's solvers share; `order_hint` the [`OrderHint`]; `sorter` the move
//! order; `follow_up` the claimeven bounds; [`analysis`] the per-column analysis; [`book`] the
//! opening book, which every solver reads (positions it holds are looked up: a search stops at
//! the book's depth). The speed benchmarks of the command line are the application's
//! (`connect4_ml::speed`).

pub mod analysis;
pub mod book;
mod follow_up;
mod order_hint;
mod pool;
mod questions;
pub mod review;
mod search;
mod settings;
mod shallow;
mod sorter;
mod table;

pub use order_hint::OrderHint;
pub use pool::{PoolBoard, PooledSolver, SolverPool};
pub use shallow::ShallowTable;

use crate::Interrupt;
use crate::game::{BitBoard, Geometry, Position};
use search::Search;
use table::{Table, TableError};
use thiserror::Error;

/// Default transposition table size.
pub const DEFAULT_TT_MIB: usize = 64;

/// Positions with fewer stones than this share table entries with their mirror images by
/// default: mirror pairs are common early in the game and the extra key work is cheap there.
/// Measured on the empty board (weak): 123.6 s without, 72.7 s below 12 stones, 70.5 s
/// below 20; neutral on the benchmark sets.
pub const DEFAULT_SYMMETRY_PLIES: usize = 20;

/// Positions with at most this many empty cells keep their bounds in a small table of their
/// own ([`DEEP_TABLE_MIB`]), which stays in the processor's cache, instead of the main table.
/// Why: nine in ten nodes of an early position's search lie this deep; their subtrees are
/// small, so their entries are worth little for long, yet in the main table each probe waits
/// for main memory and evicts an entry of a larger subtree. Measured on 100 consecutive UCI
/// positions (weak, one thread): 45.5-48.2 s without, 31.3-31.8 s with, about as many nodes
/// (416M, 439M); a third table of 4-16 MiB between 22 and 28 stones was slower.
pub const DEEP_MAX_EMPTY: usize = 13;

/// Size of the end-game table (see [`DEEP_MAX_EMPTY`]) in `u64` words: 1 and 2 MiB measured
/// the same, 4 MiB and more slower. Boards past 64 bits keep as many entries in `u128` words
/// (4 MiB), so that a board searches alike in either bitboard.
pub const DEEP_TABLE_MIB: usize = 2;

/// Exact (strong) or win/draw/loss (weak) solving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// The exact score: how fast the game is won or lost.
    #[default]
    Strong,
    /// Only the sign of the score: -1 loss, 0 draw, +1 win.
    Weak,
}

/// Invalid solver settings.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SolverError {
    /// The size must be 1..=65536 MiB.
    #[error("transposition table size {mib} MiB is out of range 1..=65536")]
    TableSize {
        /// Requested size.
        mib: usize,
    },
    /// The machine would not give that much memory.
    #[error("cannot allocate a {mib} MiB transposition table: not enough memory")]
    NoMemory {
        /// Requested size.
        mib: usize,
    },
}

/// Bits a table entry needs for a stored bound on `geom` (see `Search::upper`/`lower`).
pub(super) fn stored_value_bits<B: BitBoard>(geom: Geometry<B>) -> u32 {
    32 - (4 * geom.cells().div_ceil(2) as u32 + 2).leading_zeros()
}

enum Tt<B: BitBoard> {
    /// 32-bit entries, when stored key bits and value fit (7x6 with 64 MiB or more).
    Narrow(Table<u32, B>),
    /// Entries of the bitboard's width for everything else (`u64`, or `u128` past 64 bits).
    Wide(Table<B, B>),
}

/// A reusable perfect solver for one board geometry. The table carries over between calls,
/// so solving related positions one after another gets faster.
///
/// `B` is the bitboard's integer (see [`BitBoard`]): `Solver` alone is the solver of boards
/// of up to 64 bits, `Solver<u128>` that of the wider ones (8x8, 9x7, ...), the same code
/// monomorphised.
pub struct Solver<B: BitBoard = u64> {
    geom: Geometry<B>,
    tt: Tt<B>,
    nodes: u64,
    /// Column masks, centre first.
    columns: Vec<B>,
    symmetry_plies: usize,
    /// A second table for positions with few stones, if set (see [`ShallowTable`]).
    shallow: Option<ShallowTable<B>>,
    /// Polled during search when set (see [`Solver::set_interrupt`]).
    interrupt: Option<Interrupt>,
    /// Move ordering near the root, if set (see [`Solver::set_order_hint`]).
    hint: Option<OrderHint<B>>,
    /// Whether the interrupt stopped the last probe.
    stopped: bool,
    /// The small table of the end game (see [`DEEP_MAX_EMPTY`]).
    deep: Table<B, B>,
    /// The opening book: positions it holds are looked up, never searched.
    book: Option<std::sync::Arc<book::Book>>,
}

impl<B: BitBoard> Solver<B> {
    /// A solver for `geom` with the default 64 MiB table.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let mut s = Solver::new(Geometry::STANDARD);
    /// assert_eq!(s.solve(&Position::from_moves(Geometry::STANDARD, "1212121").unwrap()), -18);
    /// ```
    pub fn new(geom: Geometry<B>) -> Self {
        Self::with_table_mib(geom, DEFAULT_TT_MIB).expect("default table size is valid")
    }

    /// A solver for `geom` whose table takes about `mib` MiB.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// assert!(s.table_entries() > 0);
    /// assert!(Solver::with_table_mib(Geometry::STANDARD, 0).is_err());
    /// ```
    pub fn with_table_mib(geom: Geometry<B>, mib: usize) -> Result<Self, SolverError> {
        if mib == 0 || mib > 65536 {
            return Err(SolverError::TableSize { mib });
        }
        let bytes = (mib as u64) << 20;
        let value_bits = stored_value_bits(geom);
        let key_bits = geom.key_bits();
        // The largest power-of-two table within the budget, in 32-bit words if they suffice.
        let log_entries =
            |word_bytes: u64| (63 - (bytes / word_bytes).leading_zeros()).min(key_bits);
        let tt = match Table::<u32, B>::new(log_entries(4), key_bits, value_bits) {
            Ok(t) => Tt::Narrow(t),
            Err(TableError::NoMemory) => return Err(SolverError::NoMemory { mib }),
            // Words of the bitboard's width hold any key remainder with a table of at least
            // 2^8 entries.
            Err(TableError::Unfit) => Tt::Wide(
                Table::new(log_entries(B::BITS as u64 / 8), key_bits, value_bits)
                    .map_err(|_| SolverError::NoMemory { mib })?,
            ),
        };
        Ok(Solver {
            geom,
            tt,
            nodes: 0,
            columns: geom.centre_order().map(|c| geom.column_mask(c)).collect(),
            symmetry_plies: DEFAULT_SYMMETRY_PLIES,
            shallow: None,
            interrupt: None,
            hint: None,
            stopped: false,
            deep: Table::new(
                (63 - ((DEEP_TABLE_MIB as u64) << 20).div_ceil(8).leading_zeros()).min(key_bits),
                key_bits,
                value_bits,
            )
            .map_err(|_| SolverError::NoMemory { mib })?,
            book: geom.narrow().and_then(book::embedded_for),
        })
    }

    /// The board this solver works on.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// assert_eq!(Solver::with_table_mib(Geometry::STANDARD, 8).unwrap().geometry(), Geometry::STANDARD);
    /// ```
    pub fn geometry(&self) -> Geometry<B> {
        self.geom
    }

    /// Faults the tables' pages in now rather than at the first search, so that the first
    /// position's time measures its search alone (benchmarks, timed output).
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// s.ready();
    /// let end = Position::from_moves(Geometry::STANDARD, "2252576253462244111563365343671351441").unwrap();
    /// assert_eq!(s.solve(&end), -1);
    /// ```
    pub fn ready(&mut self) {
        match &mut self.tt {
            Tt::Narrow(t) => t.ready(),
            Tt::Wide(t) => t.ready(),
        }
        self.deep.ready();
    }

    /// Number of table entries (for reports).
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// assert!(s.table_entries() >= 1 << 20);
    /// ```
    pub fn table_entries(&self) -> u64 {
        match &self.tt {
            Tt::Narrow(t) => t.len(),
            Tt::Wide(t) => t.len(),
        }
    }

    /// Nodes searched since the last [`Solver::reset_nodes`].
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// let end = Position::from_moves(Geometry::STANDARD, "2252576253462244111563365343671351441").unwrap();
    /// s.solve(&end);
    /// assert!(s.nodes() > 0);
    /// s.reset_nodes();
    /// assert_eq!(s.nodes(), 0);
    /// ```
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Restarts the node counter.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// s.reset_nodes();
    /// assert_eq!(s.nodes(), 0);
    /// ```
    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
    }

    /// Forgets everything the table learnt.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// let end = Position::from_moves(Geometry::STANDARD, "2252576253462244111563365343671351441").unwrap();
    /// let first = s.solve(&end);
    /// s.clear();
    /// assert_eq!(s.solve(&end), first);
    /// ```
    pub fn clear(&mut self) {
        match &mut self.tt {
            Tt::Narrow(t) => t.clear(),
            Tt::Wide(t) => t.clear(),
        }
        self.deep.clear();
        if let Some(t) = &self.shallow {
            t.table.clear();
        }
    }

    /// The exact score of `pos` from the side to move (see the module docs).
    ///
    /// ```
    /// use connect4_engine::{game::Position, solver::Solver};
    /// let mut s = Solver::with_table_mib(Default::default(), 8).unwrap();
    /// let p = Position::from_moves(Default::default(), "2252576253462244111563365343671351441").unwrap();
    /// assert_eq!(s.solve(&p), -1);
    /// ```
    pub fn solve(&mut self, pos: &Position<B>) -> i32 {
        self.score(pos, Mode::Strong)
    }

    /// -1, 0 or +1: loss, draw or win for the side to move.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let end = Position::from_moves(Geometry::STANDARD, "2252576253462244111563365343671351441").unwrap();
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// assert_eq!(s.solve_weak(&end), -1);
    /// ```
    pub fn solve_weak(&mut self, pos: &Position<B>) -> i32 {
        self.score(pos, Mode::Weak)
    }

    /// The score of `pos` in `mode`. A position whose game is over gets its final score (a
    /// loss for the side to move if the last move won, 0 if the board is full).
    ///
    /// # Panics
    /// If `pos` is on another geometry than the solver's.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let end = Position::from_moves(Geometry::STANDARD, "2252576253462244111563365343671351441").unwrap();
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// assert_eq!(s.score(&end, Mode::Strong), -1);
    /// assert_eq!(s.score(&end, Mode::Weak), -1);
    /// ```
    pub fn score(&mut self, pos: &Position<B>, mode: Mode) -> i32 {
        self.score_bounds(pos, mode).0
    }

    /// Lower and upper bounds of the score of `pos` in `mode`: equal (the exact score) unless
    /// an interrupt (see [`Solver::set_interrupt`]) stopped the search first.
    ///
    /// # Panics
    /// If `pos` is on another geometry than the solver's.
    ///
    /// ```
    /// use connect4_engine::{Geometry, Mode, Position, Solver};
    /// let end = Position::from_moves(Geometry::STANDARD, "2252576253462244111563365343671351441").unwrap();
    /// let mut s = Solver::with_table_mib(Geometry::STANDARD, 8).unwrap();
    /// assert_eq!(s.score_bounds(&end, Mode::Strong), (-1, -1)); // no interrupt: exact
    /// ```
    pub fn score_bounds(&mut self, pos: &Position<B>, mode: Mode) -> (i32, i32) {
        self.stopped = false;
        assert_eq!(
            pos.geometry(),
            self.geom,
            "position and solver are on different boards"
        );
        let weak = mode == Mode::Weak;
        let fit = |s: i32| if weak { s.signum() } else { s };
        let g = self.geom;
        let moves = pos.moves_played();
        if pos.last_move_won() {
            let s = fit(-g.win_score(moves - 1));
            return (s, s);
        }
        if pos.is_full() {
            return (0, 0);
        }
        if pos.can_win_next() {
            let s = fit(g.win_score(moves));
            return (s, s);
        }
        if let Some(s) = self.book_score(pos) {
            return (fit(s), fit(s));
        }
        let (mut min, mut max) = if weak {
            (-1, 1)
        } else {
            (-g.win_score(moves + 1), g.win_score(moves + 2))
        };
        // Null-window probes, each one narrowing [min, max]. The probe point is pushed out
        // from zero to half of the bound on its side: whether a position is a fast win or a
        // fast loss is cheap to decide (only short forcing lines matter), so those probes
        // come first and shrink the interval before the costlier probes near zero.
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(pos, med, med + 1);
            if self.stopped {
                break;
            }
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        (fit(min), fit(max))
    }

    /// The book's score of `pos`, if the solver reads a book that holds it.
    #[inline]
    pub(super) fn book_score(&self, pos: &Position<B>) -> Option<i32> {
        let book = self.book.as_ref()?;
        book.score(&pos.narrow()?)
    }

    pub(super) fn negamax(&mut self, pos: &Position<B>, alpha: i32, beta: i32) -> i32 {
        let (geom, columns, sym) = (self.geom, &self.columns[..], self.symmetry_plies);
        let shallow = self.shallow.as_ref().map(|t| (t.plies, &*t.table));
        let stop = self.interrupt.as_ref();
        let hint = self.hint.as_ref();
        let book = self.book.as_deref();
        let deep = &mut self.deep;
        let (r, nodes, stopped) = match &mut self.tt {
            Tt::Narrow(t) => Search::new(geom, columns, sym, (t, deep), shallow, stop, hint)
                .with_book(book)
                .run(pos, alpha, beta),
            Tt::Wide(t) => Search::new(geom, columns, sym, (t, deep), shallow, stop, hint)
                .with_book(book)
                .run(pos, alpha, beta),
        };
        self.nodes += nodes;
        self.stopped |= stopped;
        r
    }
}

/// The most cells a board may have for the solver to answer any of its positions within
/// seconds without a book: every column of the empty 6x6 board (36 cells) takes 9 s on two
/// cores, 7x5 6 s, 6x5 0.8 s. The standard board (42) needs its opening book for that.
pub const REACHABLE_CELLS: usize = 36;

/// Whether the solver answers every position of boards of `geom` in reasonable time: the
/// standard board (with its book) and boards of at most [`REACHABLE_CELLS`] cells. What
/// decides whether an agent on that board can be graded against the perfect player.
///
/// ```
/// use connect4_engine::{Geometry, solver::reaches};
/// assert!(reaches(Geometry::STANDARD));
/// assert!(reaches(Geometry::new(6, 5).unwrap()));
/// assert!(!reaches(Geometry::new(8, 7).unwrap()));
/// ```
pub fn reaches(geom: Geometry) -> bool {
    geom == Geometry::STANDARD || geom.cells() <= REACHABLE_CELLS
}

/// A score in words for people: "draw", "win with stone k" or "loss: opponent wins with
/// stone k" (strong), or just win / draw / loss (weak).
pub fn describe_score<B: BitBoard>(score: i32, geom: Geometry<B>, mode: Mode) -> String {
    let half = geom.cells().div_ceil(2) as i32;
    match (score.signum(), mode) {
        (0, _) => "draw".into(),
        (1, Mode::Weak) => "win".into(),
        (_, Mode::Weak) => "loss".into(),
        (1, Mode::Strong) => format!("win with stone {}", half + 1 - score),
        (_, Mode::Strong) => format!("loss: opponent wins with stone {}", half + 1 + score),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_words() {
        let g = Geometry::STANDARD;
        assert_eq!(describe_score(0, g, Mode::Strong), "draw");
        assert_eq!(describe_score(18, g, Mode::Strong), "win with stone 4");
        assert_eq!(
            describe_score(-2, g, Mode::Strong),
            "loss: opponent wins with stone 20"
        );
        assert_eq!(describe_score(-1, g, Mode::Weak), "loss");
    }

    #[test]
    fn table_width_follows_geometry_and_size() {
        let s = Solver::new(Geometry::STANDARD);
        assert!(matches!(s.tt, Tt::Narrow(_)));
        assert_eq!(s.table_entries(), 1 << 24);
        let s = Solver::with_table_mib(Geometry::new(8, 7).unwrap(), 1).unwrap();
        assert!(matches!(s.tt, Tt::Wide(_)));
        let s = Solver::with_table_mib(Geometry::STANDARD, 32).unwrap();
        assert!(matches!(s.tt, Tt::Wide(_)));
        assert_eq!(s.table_entries(), 1 << 22);
        assert!(Solver::with_table_mib(Geometry::STANDARD, 0).is_err());
    }
}
