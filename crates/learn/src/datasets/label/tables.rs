//! The solver tables of a labelling job: one table per worker, a shallow table shared by all
//! of them when the job has early positions, and an optional move-ordering hint.

use super::SolverPool;
use connect4_engine::game::Geometry;
use connect4_engine::solver::book::{self, Book};
use connect4_engine::solver::{DEFAULT_TT_MIB, OrderHint, PoolBoard, ShallowTable, SolverError};
use std::sync::Arc;

/// How a labelling job's solvers are set up.
#[derive(Clone)]
pub struct TableConfig {
    /// Table per worker, MiB.
    pub tt_mib: usize,
    /// Positions with fewer stones than this share one table across workers and positions
    /// (0: none).
    pub shallow_plies: usize,
    /// Largest size of that shared table, MiB (smaller for small jobs, see
    /// [`ShallowTable::for_positions`]).
    pub shallow_mib: usize,
    /// A value that breaks the ties of the solver's move order near the root.
    pub order_hint: Option<OrderHint>,
    /// The opening book the solvers read (by default the built-in one; `None`: none).
    pub book: Option<Arc<Book>>,
}

impl Default for TableConfig {
    fn default() -> Self {
        TableConfig {
            tt_mib: DEFAULT_TT_MIB,
            shallow_plies: ShallowTable::DEFAULT_PLIES,
            shallow_mib: ShallowTable::DEFAULT_MIB,
            order_hint: None,
            book: Some(book::embedded()),
        }
    }
}

impl TableConfig {
    /// One solver per worker of the current thread pool for a job whose positions have
    /// `stones` stones each: the shared shallow table is sized to those below
    /// `shallow_plies` (none when there are none, and on boards past 64 bits, whose solvers
    /// take no shared table).
    pub fn pool<B: PoolBoard>(
        &self,
        geom: Geometry<B>,
        stones: impl Iterator<Item = usize>,
    ) -> Result<SolverPool, SolverError> {
        let shallow = stones.filter(|&s| s < self.shallow_plies).count();
        let mut pool = SolverPool::new(self.tt_mib).with_book(self.book.clone());
        if let Some(hint) = &self.order_hint {
            pool = pool.with_order_hint(hint.clone());
        }
        if let Some(narrow) = geom.narrow()
            && let Some(t) =
                ShallowTable::for_positions(narrow, self.shallow_plies, self.shallow_mib, shallow)?
        {
            pool = pool.with_shallow_table(t);
        }
        pool.prepare(geom, rayon::current_num_threads().max(1))?;
        Ok(pool)
    }
}
