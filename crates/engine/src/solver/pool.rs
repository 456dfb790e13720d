//! The solver pool: the one place programs take solvers from and give them back to, so that a
//! table stays warm from one question to the next (a game's next move, a server's next
//! request, a labelling worker's next position) and every solver of a job reads the same book.

use super::book::{self, Book};
use super::{OrderHint, ShallowTable, Solver, SolverError};
use crate::game::{BitBoard, Geometry};
use std::sync::{Arc, Mutex};

/// Solvers kept between uses, all made with the same settings: table size, opening book,
/// and optionally a shared [`ShallowTable`] and an [`OrderHint`].
///
/// The book is an explicit value: a pool made with [`SolverPool::new`] reads the book built
/// into the library, [`SolverPool::with_book`] gives it another one (or none).
///
/// ```
/// use connect4_engine::{Geometry, Position};
/// use connect4_engine::solver::SolverPool;
/// use std::sync::Arc;
///
/// let pool = Arc::new(SolverPool::new(8));
/// let start = Position::new(Geometry::STANDARD);
/// {
///     let mut solver = pool.lend(Geometry::STANDARD).unwrap();
///     assert_eq!(solver.solve(&start), 1); // from the built-in book, at once
/// } // back in the pool, its table warm
/// assert_eq!(pool.idle(), 1);
/// let none = SolverPool::new(8).with_book(None);
/// assert!(none.take(Geometry::STANDARD).unwrap().book().is_none());
/// ```
pub struct SolverPool {
    tt_mib: usize,
    other_boards_mib: usize,
    book: Option<Arc<Book>>,
    shallow: Option<ShallowTable>,
    hint: Option<OrderHint>,
    keep: usize,
    idle: Mutex<Vec<Solver>>,
    /// Solvers of boards past 64 bits (no shared table or hint: those are 64-bit).
    idle_wide: Mutex<Vec<Solver<u128>>>,
}

/// The integers of the boards a [`SolverPool`] keeps solvers for: `u64` (every board of up
/// to 64 bits) and `u128` (past them).
pub trait PoolBoard: BitBoard {
    /// The pool's idle solvers of this integer.
    #[doc(hidden)]
    fn idle_of(pool: &SolverPool) -> &Mutex<Vec<Solver<Self>>>;

    /// Gives a new solver the pool's shared table and hint where they are of its integer.
    #[doc(hidden)]
    fn share_tables(pool: &SolverPool, solver: &mut Solver<Self>);
}

impl PoolBoard for u64 {
    fn idle_of(pool: &SolverPool) -> &Mutex<Vec<Solver>> {
        &pool.idle
    }

    fn share_tables(pool: &SolverPool, solver: &mut Solver) {
        solver.set_shallow_table(pool.shallow.clone());
        solver.set_order_hint(pool.hint.clone());
    }
}

impl PoolBoard for u128 {
    fn idle_of(pool: &SolverPool) -> &Mutex<Vec<Solver<u128>>> {
        &pool.idle_wide
    }

    fn share_tables(_: &SolverPool, _: &mut Solver<u128>) {}
}

impl SolverPool {
    /// A pool of solvers whose tables take `tt_mib` MiB, reading the built-in book.
    pub fn new(tt_mib: usize) -> Self {
        SolverPool {
            tt_mib,
            other_boards_mib: tt_mib,
            book: Some(book::embedded()),
            shallow: None,
            hint: None,
            keep: usize::MAX,
            idle: Mutex::new(Vec::new()),
            idle_wide: Mutex::new(Vec::new()),
        }
    }

    /// The same pool reading `book` (`None`: no book; on boards it is not for, the solvers
    /// read that board's built-in book, if any).
    pub fn with_book(mut self, book: Option<Arc<Book>>) -> Self {
        self.book = book;
        self
    }

    /// The same pool with every solver sharing `table` for its shallow positions.
    pub fn with_shallow_table(mut self, table: ShallowTable) -> Self {
        self.shallow = Some(table);
        self
    }

    /// The same pool with every solver ordering its moves near the root by `hint`.
    pub fn with_order_hint(mut self, hint: OrderHint) -> Self {
        self.hint = Some(hint);
        self
    }

    /// The same pool keeping at most `keep` idle solvers (more are dropped when given back).
    pub fn keeping(mut self, keep: usize) -> Self {
        self.keep = keep;
        self
    }

    /// The same pool making tables of at most `mib` MiB for boards other than 7x6 (rarer
    /// questions, which should not each hold a big table).
    pub fn with_other_boards_mib(mut self, mib: usize) -> Self {
        self.other_boards_mib = mib.min(self.tt_mib);
        self
    }

    /// The book the pool's solvers read.
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// The table size of the pool's solvers, MiB.
    pub fn tt_mib(&self) -> usize {
        self.tt_mib
    }

    /// Idle solvers in the pool (of boards of up to 64 bits and past them).
    pub fn idle(&self) -> usize {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).len()
            + self
                .idle_wide
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .len()
    }

    /// An idle solver for `geom`, or a new one (which fails only when its table cannot be
    /// had). Give it back with [`SolverPool::put`], or use [`SolverPool::lend`].
    pub fn take<B: PoolBoard>(&self, geom: Geometry<B>) -> Result<Solver<B>, SolverError> {
        {
            let mut idle = B::idle_of(self).lock().unwrap_or_else(|e| e.into_inner());
            if let Some(i) = idle.iter().rposition(|s| s.geometry() == geom) {
                return Ok(idle.swap_remove(i));
            }
        }
        self.take_new(geom)
    }

    /// Gives a solver back (its interrupt removed), to be handed out again warm.
    pub fn put<B: PoolBoard>(&self, mut solver: Solver<B>) {
        solver.set_interrupt(None);
        let mut idle = B::idle_of(self).lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < self.keep {
            idle.push(solver);
        }
    }

    /// Makes sure `n` solvers for `geom` are idle, so that `n` workers can take one each
    /// without allocating (and a table too big for the machine is refused up front).
    pub fn prepare<B: PoolBoard>(&self, geom: Geometry<B>, n: usize) -> Result<(), SolverError> {
        let have = {
            let idle = B::idle_of(self).lock().unwrap_or_else(|e| e.into_inner());
            idle.iter().filter(|s| s.geometry() == geom).count()
        };
        let new = (have..n)
            .map(|_| self.take_new(geom))
            .collect::<Result<Vec<_>, _>>()?;
        new.into_iter().for_each(|s| self.put(s));
        Ok(())
    }

    fn take_new<B: PoolBoard>(&self, geom: Geometry<B>) -> Result<Solver<B>, SolverError> {
        let mut s = Solver::with_table_mib(
            geom,
            if geom.narrow() == Some(Geometry::STANDARD) {
                self.tt_mib
            } else {
                self.other_boards_mib
            },
        )?;
        s.set_book(self.book.clone());
        B::share_tables(self, &mut s);
        Ok(s)
    }

    /// A solver for `geom` that goes back to this pool when dropped.
    pub fn lend<B: PoolBoard>(
        self: &Arc<Self>,
        geom: Geometry<B>,
    ) -> Result<PooledSolver<B>, SolverError> {
        Ok(PooledSolver {
            solver: Some(self.take(geom)?),
            home: Arc::clone(self),
        })
    }
}

/// A solver lent by a [`SolverPool`]; it derefs to the [`Solver`] and goes back to its pool
/// when dropped.
pub struct PooledSolver<B: PoolBoard = u64> {
    /// Always `Some` until dropped (taken out only by `Drop`).
    solver: Option<Solver<B>>,
    home: Arc<SolverPool>,
}

impl<B: PoolBoard> std::ops::Deref for PooledSolver<B> {
    type Target = Solver<B>;
    fn deref(&self) -> &Solver<B> {
        self.solver
            .as_ref()
            .expect("a lent solver is present until dropped")
    }
}

impl<B: PoolBoard> std::ops::DerefMut for PooledSolver<B> {
    fn deref_mut(&mut self) -> &mut Solver<B> {
        self.solver
            .as_mut()
            .expect("a lent solver is present until dropped")
    }
}

impl<B: PoolBoard> Drop for PooledSolver<B> {
    fn drop(&mut self) {
        if let Some(s) = self.solver.take() {
            self.home.put(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;

    #[test]
    fn solvers_come_back_warm_and_per_board() {
        let pool = Arc::new(SolverPool::new(4).keeping(2));
        let small = Geometry::new(5, 4).unwrap();
        {
            let _a = pool.lend(Geometry::STANDARD).unwrap();
            let _b = pool.lend(Geometry::STANDARD).unwrap();
            let _c = pool.lend(small).unwrap();
        }
        assert_eq!(pool.idle(), 2, "at most `keep` idle");
        pool.prepare(small, 1).unwrap();
        let s = pool.take(small).unwrap();
        assert_eq!(s.geometry(), small);
        // On 5x4 the solvers read that board's built-in book, and 8x7 has none.
        assert_eq!(s.book().map(|b| b.geometry()), Some(small));
        let big = Geometry::new(8, 7).unwrap();
        assert!(pool.take(big).unwrap().book().is_none());
    }

    #[test]
    fn boards_past_64_bits_get_wide_solvers_of_their_own() {
        let pool = Arc::new(SolverPool::new(4).with_other_boards_mib(2));
        let wide = Geometry::<u128>::sized(8, 8).unwrap();
        // x to move wins at once in column 4 of the bottom row.
        let pos = Position::from_moves(wide, "152535").unwrap();
        {
            let mut s = pool.lend(wide).unwrap();
            assert_eq!(s.geometry(), wide);
            assert!(s.book().is_none());
            assert_eq!(s.solve(&pos), wide.win_score(7));
            let _narrow = pool.lend(Geometry::STANDARD).unwrap();
        }
        assert_eq!(pool.idle(), 2, "one of each integer back in the pool");
        let again = pool.take(wide).unwrap();
        assert_eq!(pool.idle(), 1);
        // Made with the pool's table size for other boards.
        let two_mib = Solver::with_table_mib(wide, 2).unwrap().table_entries();
        assert_eq!(again.table_entries(), two_mib);
        assert_ne!(
            Solver::with_table_mib(wide, 4).unwrap().table_entries(),
            two_mib
        );
    }

    #[test]
    fn the_pool_gives_its_book_to_every_solver() {
        let start = Position::from_moves(Geometry::STANDARD, "4").unwrap();
        let with = SolverPool::new(4);
        assert_eq!(
            with.take(Geometry::STANDARD)
                .unwrap()
                .book()
                .map(|b| b.plies()),
            Some(with.book().unwrap().plies())
        );
        let without = SolverPool::new(4).with_book(None);
        let mut s = without.take(Geometry::STANDARD).unwrap();
        assert!(s.book().is_none());
        s.set_interrupt(Some({
            let i = crate::Interrupt::new();
            i.cancel();
            i
        }));
        s.solve(&start);
        assert!(
            s.was_interrupted(),
            "no book: the one-stone position needs a search"
        );
        without.put(s);
        assert!(
            without
                .take(Geometry::STANDARD)
                .unwrap()
                .interrupt()
                .is_none()
        );
    }
}
