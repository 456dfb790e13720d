//! `Solver`: exact scores of any position, the opening book when there is one.

use crate::args::Nat;
use crate::board::{Board, geometry, needs_wide};
use crate::bridge::{interruptible, lock_until};
use crate::errors::err;
use crate::position_args::{AnyPos, AnyPositions};
use connect4_engine::game::Geometry;
use connect4_engine::solver::book::Book;
use connect4_engine::{Interrupt, Mode};
use pyo3::prelude::*;
use std::sync::{Arc, Mutex};

/// The perfect solver. Scores are from the side to move: 0 a draw, a win with one's k-th
/// stone `width*height/2 + 1 - k` (22 - k on 7x6), a loss the negative; weak scores are
/// -1 / 0 / 1. One solver keeps its table between calls (later calls are faster); calls
/// release the GIL and Ctrl-C stops them. A solver may be shared by threads: their calls take
/// turns (one table), so give each thread its own solver to solve in parallel. Boards of up
/// to 128 bits (width x (height + 1)) are solved: past 64 (8x8, 9x7, ...) with 128-bit
/// bitboards and no opening book, so early positions there may take very long.
#[pyclass(module = "connect4_ml")]
pub struct Solver {
    inner: Mutex<Engine>,
    width: usize,
    height: usize,
    book_plies: Option<usize>,
}

fn mode(weak: bool) -> Mode {
    if weak { Mode::Weak } else { Mode::Strong }
}

/// The engine's solver in the integer of its board (as [`Board`]).
enum Engine {
    Narrow(connect4_engine::Solver),
    Wide(connect4_engine::Solver<u128>),
}

/// Runs `$body` with `$s` the solver and `$p` the position when both are of one integer
/// (`Some`); `None` when they are not, which [`Solver::check`]'s size test rules out.
macro_rules! on_pair {
    ($engine:expr, $board:expr, |$s:ident, $p:ident| $body:expr) => {
        match ($engine, $board) {
            (Engine::Narrow($s), Board::Narrow($p)) => Some($body),
            (Engine::Wide($s), Board::Wide($p)) => Some($body),
            _ => None,
        }
    };
}

impl Engine {
    fn set_interrupt(&mut self, stop: Option<Interrupt>) {
        match self {
            Engine::Narrow(s) => s.set_interrupt(stop),
            Engine::Wide(s) => s.set_interrupt(stop),
        }
    }

    /// The damage of the book this solver read, if any (books are of 64-bit boards).
    fn book_damage(&self) -> Option<String> {
        match self {
            Engine::Narrow(s) => s.book().and_then(|b| b.damage()).map(|e| e.to_string()),
            Engine::Wide(_) => None,
        }
    }

    fn clear(&mut self) {
        match self {
            Engine::Narrow(s) => s.clear(),
            Engine::Wide(s) => s.clear(),
        }
    }
}

/// The error of a position whose integer is not the solver's (ruled out by the size check).
fn mismatch() -> PyErr {
    err("the position's board is not this solver's")
}

impl Solver {
    fn check(&self, p: &Board) -> PyResult<()> {
        if p.width() != self.width || p.height() != self.height {
            return Err(err(format!(
                "the position is {}x{} but this solver is for {}x{} boards",
                p.width(),
                p.height(),
                self.width,
                self.height
            )));
        }
        if p.is_over() {
            return Err(err("the game is over: there is nothing to solve"));
        }
        Ok(())
    }

    /// Runs `f` on the solver with a fresh interrupt that Ctrl-C fires. The lock is taken on
    /// the worker thread, without the GIL: a thread waiting for another's call never blocks
    /// the interpreter (and never deadlocks with the thread that holds the lock).
    fn run<T: Send>(&self, py: Python<'_>, f: impl FnOnce(&mut Engine) -> T + Send) -> PyResult<T> {
        let stop = crate::bridge::call_interrupt();
        let (out, damage) = interruptible(py, &stop, || {
            let mut guard = lock_until(&self.inner, &stop)?;
            guard.set_interrupt(Some(stop.clone()));
            let out = f(&mut guard);
            guard.set_interrupt(None);
            // A damaged block of the book answered nothing (the answer is still exact), but
            // the book needs making again: the call fails, naming the file.
            let damage = guard.book_damage();
            Some((out, damage))
        })?
        .ok_or_else(|| err("interrupted"))?;
        match damage {
            Some(e) => Err(err(e)),
            None => Ok(out),
        }
    }
}

#[pymethods]
impl Solver {
    /// A solver for `width` x `height` boards with a `table_mib` MiB table. `book`: by default
    /// the 7x6 opening book built into the package (or a deeper `book-7x6.bin` found beside
    /// it); True the same, refused when there is none for this board size; a path reads that
    /// book file (refused when missing, corrupt or of another size); False none. Boards past
    /// 64 bits have no book: True or a path is refused there.
    #[new]
    #[pyo3(signature = (width = Nat(7), height = Nat(6), table_mib = Nat(64), book = None))]
    fn new(
        width: Nat,
        height: Nat,
        table_mib: Nat,
        book: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Solver> {
        let (width, height) = (width.get(), height.get());
        if needs_wide(width, height)? {
            let g = Geometry::<u128>::sized(width, height).map_err(err)?;
            let s = connect4_engine::Solver::with_table_mib(g, table_mib.get()).map_err(err)?;
            let wants_book = match book {
                None => false,
                Some(b) if b.is_instance_of::<pyo3::types::PyBool>() => b.extract()?,
                Some(_) => true,
            };
            if wants_book {
                return Err(err(format!(
                    "book: there is no opening book for {width}x{height} boards (books are of \
                     boards of up to 64 bits, width x (height + 1)); use book=None or False"
                )));
            }
            return Ok(Solver {
                inner: Mutex::new(Engine::Wide(s)),
                width,
                height,
                book_plies: None,
            });
        }
        let g = geometry(width, height)?;
        let mut s = connect4_engine::Solver::with_table_mib(g, table_mib.get()).map_err(err)?;
        match book {
            None => {}
            Some(b) if b.is_instance_of::<pyo3::types::PyBool>() => {
                let wanted: bool = b.extract()?;
                if !wanted {
                    s.set_book(None);
                } else if s.book().is_none() {
                    return Err(err(format!(
                        "book=True: there is no opening book for {width}x{height} boards (the \
                         built-in ones are for 7x6, 6x5 and 5x4; `c4 data book` makes others)"
                    )));
                }
            }
            Some(b) => {
                let path: std::path::PathBuf = b.extract().map_err(|_| {
                    err(format!(
                        "book: expected True, False or a file path, got {}",
                        crate::args::short_repr(b)
                    ))
                })?;
                let book = Book::load(&path, Some(g)).map_err(err)?;
                s.set_book(Some(Arc::new(book)));
            }
        }
        let book_plies = s.book().map(|b| b.plies());
        Ok(Solver {
            inner: Mutex::new(Engine::Narrow(s)),
            width,
            height,
            book_plies,
        })
    }

    /// The exact score of `position` (weak: -1 / 0 / 1).
    #[pyo3(signature = (position, weak = false))]
    fn solve(&self, py: Python<'_>, position: AnyPos, weak: bool) -> PyResult<i32> {
        self.check(&position.0)?;
        let p = position.0;
        self.run(py, move |e| on_pair!(e, &p, |s, p| s.score(p, mode(weak))))?
            .ok_or_else(mismatch)
    }

    /// The score of every column (index 0 = column 1); None for a full column.
    #[pyo3(signature = (position, weak = false))]
    fn analyze(&self, py: Python<'_>, position: AnyPos, weak: bool) -> PyResult<Vec<Option<i32>>> {
        self.check(&position.0)?;
        let p = position.0;
        self.run(py, move |e| {
            on_pair!(e, &p, |s, p| s.analyze(p, mode(weak)))
        })?
        .ok_or_else(mismatch)
    }

    /// The best column (0-based) and its exact score. Ties between columns of the best score
    /// go to the most central (`tie_break="center"`, the default) or to one drawn at random
    /// (`"random"`), with `rng`: None (Python's `random`), an int seed, a `random.Random` or a
    /// numpy `Generator`.
    #[pyo3(signature = (position, tie_break = "center", rng = None))]
    fn best_move(
        &self,
        py: Python<'_>,
        position: AnyPos,
        tie_break: &str,
        rng: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(usize, i32)> {
        self.check(&position.0)?;
        let p = position.0;
        match tie_break {
            "center" | "centre" => self
                .run(py, move |e| on_pair!(e, &p, |s, p| s.best_move(p)))?
                .ok_or_else(mismatch)?
                .ok_or_else(|| err("no move to play")),
            "random" => {
                let scores = self
                    .run(py, move |e| {
                        on_pair!(e, &p, |s, p| s.analyze(p, Mode::Strong))
                    })?
                    .ok_or_else(mismatch)?;
                let best = scores.iter().flatten().max().copied();
                let best = best.ok_or_else(|| err("no move to play"))?;
                let tied: Vec<usize> = (0..scores.len())
                    .filter(|&c| scores[c] == Some(best))
                    .collect();
                let i = crate::random::draw_index(py, rng, tied.len())?;
                Ok((tied[i], best))
            }
            other => Err(err(format!(
                "tie_break={:?}: expected \"center\" or \"random\"",
                other.chars().take(40).collect::<String>()
            ))),
        }
    }

    /// The exact score of every legal column as `{column: score}` (0-based columns).
    fn score_all_moves(
        &self,
        py: Python<'_>,
        position: AnyPos,
    ) -> PyResult<std::collections::BTreeMap<usize, i32>> {
        self.check(&position.0)?;
        let p = position.0;
        let scores = self
            .run(py, move |e| {
                on_pair!(e, &p, |s, p| s.analyze(p, Mode::Strong))
            })?
            .ok_or_else(mismatch)?;
        Ok(scores
            .into_iter()
            .enumerate()
            .filter_map(|(c, s)| s.map(|s| (c, s)))
            .collect())
    }

    /// The scores of many positions (a list), in order, as a list of ints.
    #[pyo3(signature = (positions, weak = false))]
    fn solve_many(
        &self,
        py: Python<'_>,
        positions: AnyPositions,
        weak: bool,
    ) -> PyResult<Vec<i32>> {
        for p in &positions.0 {
            self.check(p)?;
        }
        let ps = positions.0;
        self.run(py, move |e| {
            ps.iter()
                .map(|p| on_pair!(&mut *e, p, |s, p| s.score(p, mode(weak))))
                .collect::<Option<Vec<i32>>>()
        })?
        .ok_or_else(mismatch)
    }

    /// Whether this solver reads an opening book, and how deep it is (stones), else None.
    #[getter]
    fn book_plies(&self) -> Option<usize> {
        self.book_plies
    }

    /// Forgets the table (for timing from a cold start).
    fn clear(&self, py: Python<'_>) -> PyResult<()> {
        self.run(py, |e| e.clear())
    }
}
