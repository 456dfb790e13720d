//! Labelling many positions at once with the engine's [`SolverPool`]: every rayon worker
//! takes a solver, scores a position and gives it back, so each table stays warm from one
//! position to the next.

use connect4_engine::game::{Geometry, Position};
use connect4_engine::solver::{Mode, PoolBoard, SolverError};
use rayon::prelude::*;

pub use connect4_engine::solver::SolverPool;

/// A pool for a job on boards of `geom`, reading `book`, with one `tt_mib`-MiB solver ready
/// per thread of the current rayon pool (so a table too big is refused before any work).
pub fn for_workers(
    geom: Geometry,
    tt_mib: usize,
    book: Option<std::sync::Arc<connect4_engine::solver::book::Book>>,
) -> Result<SolverPool, SolverError> {
    let pool = SolverPool::new(tt_mib).with_book(book);
    pool.prepare(geom, rayon::current_num_threads().max(1))?;
    Ok(pool)
}

/// Scores many positions in parallel with a pool's solvers.
pub trait ScoreMany {
    /// The score of every position in `mode` (same order), solved in parallel; `progress`
    /// advances once per finished position.
    fn scores<B: PoolBoard>(
        &self,
        positions: &[Position<B>],
        mode: Mode,
        progress: &dyn connect4_engine::progress::Progress,
    ) -> Vec<i32>;
}

impl ScoreMany for SolverPool {
    fn scores<B: PoolBoard>(
        &self,
        positions: &[Position<B>],
        mode: Mode,
        progress: &dyn connect4_engine::progress::Progress,
    ) -> Vec<i32> {
        positions
            .par_iter()
            .with_max_len(1)
            .map(|p| {
                // Prepared for every worker (`for_workers`): taking allocates nothing then.
                let mut solver = self
                    .take(p.geometry())
                    .expect("the pool's table size was allocated when it was prepared");
                let score = solver.score(p, mode);
                self.put(solver);
                progress.advance(1);
                score
            })
            .collect()
    }
}
