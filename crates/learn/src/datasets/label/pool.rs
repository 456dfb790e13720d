//! One solver per rayon worker: labelling uses every core and keeps each worker's table from
//! one position to the next.

use crate::game::{Geometry, Position};
use crate::solver::{Mode, ShallowTable, Solver, SolverError};
use rayon::prelude::*;
use std::sync::Mutex;

/// One solver per rayon worker thread, created once and reused across calls.
pub struct SolverPool {
    solvers: Vec<Mutex<Solver>>,
}

impl SolverPool {
    /// A pool for `geom` with one `tt_mib`-MiB solver per thread of the current rayon pool.
    pub fn new(geom: Geometry, tt_mib: usize) -> Result<Self, SolverError> {
        let n = rayon::current_num_threads().max(1);
        let solvers = (0..n)
            .map(|_| Solver::with_table_mib(geom, tt_mib).map(Mutex::new))
            .collect::<Result<_, _>>()?;
        Ok(SolverPool { solvers })
    }

    /// The same pool with every solver using `table` for its shallow positions, so what one
    /// worker learns there serves the others (see [`ShallowTable`]).
    pub fn with_shallow_table(self, table: ShallowTable) -> Self {
        for s in &self.solvers {
            s.lock()
                .unwrap_or_else(|e| e.into_inner())
                .set_shallow_table(Some(table.clone()));
        }
        self
    }

    /// The same pool with every solver ordering its moves near the root by `hint` (see
    /// [`Solver::set_order_hint`]).
    pub fn with_order_hint(self, hint: crate::solver::OrderHint) -> Self {
        for s in &self.solvers {
            s.lock()
                .unwrap_or_else(|e| e.into_inner())
                .set_order_hint(Some(hint.clone()));
        }
        self
    }

    /// The score of every position in `mode` (same order), solved in parallel; `progress`
    /// advances once per finished position.
    pub fn scores(
        &self,
        positions: &[Position],
        mode: Mode,
        progress: &dyn crate::progress::Progress,
    ) -> Vec<i32> {
        positions
            .par_iter()
            .with_max_len(1)
            .map(|p| {
                let i = rayon::current_thread_index().unwrap_or(0) % self.solvers.len();
                let score = self.solvers[i]
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .score(p, mode);
                progress.advance(1);
                score
            })
            .collect()
    }
}
