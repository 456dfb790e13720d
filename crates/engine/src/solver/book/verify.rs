//! Checking a book against the solver: every entry against its children's (the negamax rule
//! that made it, [`super::build::check_negamax`]) and a seeded sample of its leaves, the only
//! entries the solver labelled, solved again by solvers that read no book. A damaged or
//! hand-made file fails one or the other; a sound one passes both.

use super::{Book, BuildError, enumerate_leaves};
use crate::game::Position;
use crate::progress::Progress;
use crate::solver::Solver;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;

/// What [`verify`] checked.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct VerifyReport {
    /// Positions in the book, each checked against its children (the leaves: present).
    pub positions: usize,
    /// Leaves of the book (positions of exactly its plies stones).
    pub leaves: usize,
    /// Leaves solved again, all equal to the book's scores.
    pub sampled: usize,
    /// Seconds the sample's solves took (wall time).
    pub seconds: f64,
}

/// Why a book failed [`verify`].
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// Not a whole book, or an entry that is not its children's negamax.
    #[error(transparent)]
    Structure(#[from] BuildError),
    /// A leaf whose stored score is not the solver's.
    #[error("{moves}: the book says {stored}, the solver {solved}")]
    Leaf {
        /// The leaf.
        moves: String,
        /// The book's score.
        stored: i32,
        /// The solver's, without a book.
        solved: i32,
    },
    /// A solver could not be made (the table size).
    #[error(transparent)]
    Solver(#[from] crate::solver::SolverError),
    /// The system refused the worker threads.
    #[error("no worker threads: {0}")]
    Threads(#[source] rayon::ThreadPoolBuildError),
}

/// Checks every entry of `book` against its children, then solves `sample` of its leaves
/// (drawn with `seed`; all of them when `sample` is larger) on `threads` workers (`None`:
/// every core), each with a `tt_mib` table and no book.
pub fn verify(
    book: &Book,
    sample: usize,
    seed: u64,
    tt_mib: usize,
    threads: Option<usize>,
    progress: &dyn Progress,
) -> Result<VerifyReport, VerifyError> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        pool = pool.num_threads(n.max(1));
    }
    let pool = pool.build().map_err(VerifyError::Threads)?;
    pool.install(|| verify_here(book, sample, seed, tt_mib, progress))
}

fn verify_here(
    book: &Book,
    sample: usize,
    seed: u64,
    tt_mib: usize,
    progress: &dyn Progress,
) -> Result<VerifyReport, VerifyError> {
    let positions = super::build::check_negamax(book)?;
    let mut leaves = enumerate_leaves(book.geometry(), book.plies())?;
    let total = leaves.len();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(crate::seed::derive_seed(
        seed,
        crate::seed::Stream::BookSample,
        &[],
    ));
    leaves.shuffle(&mut rng);
    leaves.truncate(sample);
    let start = crate::clock::Instant::now();
    progress.start("leaves solved", leaves.len());
    let solver = || -> Result<Solver, crate::solver::SolverError> {
        let mut s = Solver::with_table_mib(book.geometry(), tt_mib)?;
        s.set_book(None);
        Ok(s)
    };
    let wrong = leaves
        .par_iter()
        .map_init(solver, |s, (moves, p): &(String, Position)| {
            let s = s.as_mut().map_err(|e| VerifyError::Solver(e.clone()))?;
            let solved = s.solve(p);
            progress.advance(1);
            let stored = book.score(p).expect("check_negamax found every leaf");
            if solved == stored {
                Ok(())
            } else {
                Err(VerifyError::Leaf {
                    moves: moves.clone(),
                    stored,
                    solved,
                })
            }
        })
        .find_any(Result::is_err);
    progress.finish();
    if let Some(Err(e)) = wrong {
        return Err(e);
    }
    Ok(VerifyReport {
        positions,
        leaves: total,
        sampled: leaves.len(),
        seconds: start.elapsed().as_secs_f64(),
    })
}
