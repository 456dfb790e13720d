//! `Solver`: exact scores of any position, the opening book when there is one.

use crate::errors::{err, interruptible};
use crate::position::{Position, geometry};
use connect4_ml::solver::book::Book;
use connect4_ml::{Interrupt, Mode};
use pyo3::prelude::*;
use std::sync::{Arc, Mutex, MutexGuard};

/// The perfect solver. Scores are from the side to move: 0 a draw, a win with one's k-th
/// stone `width*height/2 + 1 - k` (22 - k on 7x6), a loss the negative; weak scores are
/// -1 / 0 / 1. One solver keeps its table between calls (later calls are faster); calls
/// release the GIL and Ctrl-C stops them.
#[pyclass(module = "connect4_ml")]
pub struct Solver {
    inner: Mutex<connect4_ml::Solver>,
    width: usize,
    height: usize,
}

fn mode(weak: bool) -> Mode {
    if weak { Mode::Weak } else { Mode::Strong }
}

impl Solver {
    fn lock(&self) -> MutexGuard<'_, connect4_ml::Solver> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn check(&self, p: &Position) -> PyResult<()> {
        if p.inner.width() != self.width || p.inner.height() != self.height {
            return Err(err(format!(
                "the position is {}x{} but this solver is for {}x{} boards",
                p.inner.width(),
                p.inner.height(),
                self.width,
                self.height
            )));
        }
        if p.inner.last_move_won() || p.inner.is_full() {
            return Err(err("the game is over: there is nothing to solve"));
        }
        Ok(())
    }

    /// Runs `f` on the solver with a fresh interrupt that Ctrl-C fires.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut connect4_ml::Solver) -> T + Send,
    ) -> PyResult<T> {
        let stop = Interrupt::new();
        let mut guard = self.lock();
        let solver: &mut connect4_ml::Solver = &mut guard;
        solver.set_interrupt(Some(stop.clone()));
        let out = interruptible(py, &stop, || f(&mut *solver));
        solver.set_interrupt(None);
        out
    }
}

#[pymethods]
impl Solver {
    /// A solver for `width` x `height` boards with a `table_mib` MiB table. `book`: True reads
    /// the repository's `data/book-7x6.bin` from the working folder when it is there, a path
    /// reads that book file (refused when missing, corrupt or of another size), False none.
    #[new]
    #[pyo3(signature = (width = 7, height = 6, table_mib = 64, book = None))]
    fn new(
        width: usize,
        height: usize,
        table_mib: usize,
        book: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Solver> {
        let g = geometry(width, height)?;
        let mut s = connect4_ml::Solver::with_table_mib(g, table_mib).map_err(err)?;
        match book {
            None => {}
            Some(b) if b.is_instance_of::<pyo3::types::PyBool>() => {
                let wanted: bool = b.extract()?;
                if !wanted {
                    s.set_book(None);
                }
            }
            Some(b) => {
                let path: std::path::PathBuf = b.extract()?;
                let book = Book::load(&path, Some(g)).map_err(err)?;
                s.set_book(Some(Arc::new(book)));
            }
        }
        Ok(Solver {
            inner: Mutex::new(s),
            width,
            height,
        })
    }

    /// The exact score of `position` (weak: -1 / 0 / 1).
    #[pyo3(signature = (position, weak = false))]
    fn solve(&self, py: Python<'_>, position: &Position, weak: bool) -> PyResult<i32> {
        self.check(position)?;
        let p = position.inner;
        self.run(py, move |s| s.score(&p, mode(weak)))
    }

    /// The score of every column (index 0 = column 1); None for a full column.
    #[pyo3(signature = (position, weak = false))]
    fn analyze(
        &self,
        py: Python<'_>,
        position: &Position,
        weak: bool,
    ) -> PyResult<Vec<Option<i32>>> {
        self.check(position)?;
        let p = position.inner;
        self.run(py, move |s| s.analyze(&p, mode(weak)))
    }

    /// The best column (0-based) and its exact score.
    fn best_move(&self, py: Python<'_>, position: &Position) -> PyResult<(usize, i32)> {
        self.check(position)?;
        let p = position.inner;
        self.run(py, move |s| s.best_move(&p))?
            .ok_or_else(|| err("no move to play"))
    }

    /// The scores of many positions (a list), in order, as a list of ints.
    #[pyo3(signature = (positions, weak = false))]
    fn solve_many(
        &self,
        py: Python<'_>,
        positions: Vec<PyRef<'_, Position>>,
        weak: bool,
    ) -> PyResult<Vec<i32>> {
        for p in &positions {
            self.check(p)?;
        }
        let ps: Vec<connect4_ml::Position> = positions.iter().map(|p| p.inner).collect();
        self.run(py, move |s| {
            ps.iter().map(|p| s.score(p, mode(weak))).collect()
        })
    }

    /// Whether this solver reads an opening book, and how deep it is (stones), else None.
    #[getter]
    fn book_plies(&self) -> Option<usize> {
        self.lock().book().map(|b| b.plies())
    }

    /// Forgets the table (for timing from a cold start).
    fn clear(&self) {
        self.lock().clear();
    }
}
