//! The caller's own models in the library's games: a Python policy (a function that picks a
//! column) as an agent, and a Python value function as the evaluator of the project's search,
//! called in batches. Both play wherever an agent spec does (a move, a tournament, an
//! evaluation, a benchmark). An exception in the user's code, or a signal handler of theirs
//! that raises, ends the call with that exception: the agent records it, cancels the call's
//! interrupt, and answers a legal column (or a neutral value) until the call has unwound.

use crate::errors::err;
use crate::position::Position;
use connect4_engine::Interrupt;
use connect4_engine::agents::{Agent, BuildAgent, Turn};
use connect4_engine::eval::Evaluator;
use connect4_engine::search::{SearchParams, Searcher};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Where a call learns that the user's code failed: the first exception, and the interrupt
/// of the call under way (cancelled by the failure, so that games and searches stop).
#[derive(Default)]
pub struct Failure {
    error: Mutex<Option<PyErr>>,
    stop: Mutex<Option<Interrupt>>,
}

impl Failure {
    /// Starts a call: `stop` is cancelled by a failure; an old failure is forgotten.
    pub fn arm(&self, stop: &Interrupt) {
        *self.stop.lock().unwrap_or_else(|p| p.into_inner()) = Some(stop.clone());
        self.error.lock().unwrap_or_else(|p| p.into_inner()).take();
    }

    /// Ends a call: the exception the user's code raised during it, if any.
    pub fn take(&self) -> Option<PyErr> {
        self.stop.lock().unwrap_or_else(|p| p.into_inner()).take();
        self.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    /// Records `e` (the first one only) and stops the call.
    fn fail(&self, e: PyErr) {
        let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some(e);
        }
        if let Some(stop) = self.stop.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
            stop.cancel();
        }
    }

    fn failed(&self) -> bool {
        self.error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
    }
}

/// What the user's function is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takes {
    /// `Position` objects (a list of them for an evaluator).
    Positions,
    /// numpy arrays: a board `height x width` (row 0 at the top, 0 empty, 1 first player, 2
    /// second) and a mask of legal columns for a policy; `n x height x width` for an
    /// evaluator.
    Arrays,
}

impl Takes {
    /// `"positions"` or `"arrays"`.
    pub fn parse(s: &str) -> PyResult<Takes> {
        match s {
            "positions" | "position" => Ok(Takes::Positions),
            "arrays" | "array" => Ok(Takes::Arrays),
            other => Err(err(format!(
                "takes={other:?}: \"positions\" (Position objects) or \"arrays\" (numpy boards)"
            ))),
        }
    }

    /// What a policy takes, from its signature: two required arguments are a board and a
    /// mask, one a `Position`.
    pub fn of_policy(py: Python<'_>, func: &Bound<'_, PyAny>) -> PyResult<Takes> {
        let inspect = py.import("inspect")?;
        let Ok(sig) = inspect.call_method1("signature", (func,)) else {
            return Ok(Takes::Positions);
        };
        let empty = inspect.getattr("Parameter")?.getattr("empty")?;
        let mut required = 0;
        for p in sig
            .getattr("parameters")?
            .call_method0("values")?
            .try_iter()?
        {
            let p = p?;
            let kind: String = p.getattr("kind")?.getattr("name")?.extract()?;
            let positional = kind == "POSITIONAL_ONLY" || kind == "POSITIONAL_OR_KEYWORD";
            if positional && p.getattr("default")?.is(&empty) {
                required += 1;
            }
        }
        Ok(if required >= 2 {
            Takes::Arrays
        } else {
            Takes::Positions
        })
    }
}

/// The board of `p` as the package's arrays draw it: `height x width`, row 0 at the top.
fn board_cells(p: &connect4_engine::Position, out: &mut Vec<i8>) {
    let (w, h) = (p.width(), p.height());
    for r in 0..h {
        for c in 0..w {
            out.push(p.cell(c, h - 1 - r).map_or(0, |pl| match pl {
                connect4_engine::Player::First => 1,
                connect4_engine::Player::Second => 2,
            }));
        }
    }
}

/// Whether `e` says a value was not what was asked (a `TypeError`, `ValueError` or
/// `OverflowError`), not that something else happened meanwhile (`KeyboardInterrupt`).
fn is_bad_value(py: Python<'_>, e: &PyErr) -> bool {
    use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
    e.is_instance_of::<PyTypeError>(py)
        || e.is_instance_of::<PyValueError>(py)
        || e.is_instance_of::<PyOverflowError>(py)
}

/// A Python policy playing as an agent of the library.
pub struct PolicyAgent {
    name: String,
    func: Arc<Py<PyAny>>,
    takes: Takes,
    failure: Arc<Failure>,
}

impl PolicyAgent {
    /// The user's column for `pos`, checked.
    fn ask(&self, py: Python<'_>, pos: &connect4_engine::Position) -> PyResult<usize> {
        let func = self.func.bind(py);
        let answer = match self.takes {
            Takes::Positions => func.call1((Position::wrap(*pos, None),))?,
            Takes::Arrays => {
                let mut cells = Vec::with_capacity(pos.width() * pos.height());
                board_cells(pos, &mut cells);
                let board = PyArray1::from_vec(py, cells).reshape([pos.height(), pos.width()])?;
                let mask: Vec<bool> = (0..pos.width()).map(|c| pos.can_play(c)).collect();
                func.call1((board, PyArray1::from_vec(py, mask)))?
            }
        };
        // A handler the user set (an alarm) runs here, between their calls.
        py.check_signals()?;
        let col: i64 = answer.extract().map_err(|e| {
            if is_bad_value(py, &e) {
                err(format!(
                    "policy {}: returned {}, not a column number",
                    self.name,
                    crate::args::short_repr(&answer)
                ))
            } else {
                e
            }
        })?;
        let w = pos.width();
        if col < 0 || col as usize >= w || !pos.can_play(col as usize) {
            let why = if col < 0 || col as usize >= w {
                format!("off the {w}-column board (columns are 0-based)")
            } else {
                "which is full".to_string()
            };
            return Err(err(format!(
                "policy {}: returned column {col}, {why}",
                self.name
            )));
        }
        Ok(col as usize)
    }
}

impl Agent for PolicyAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, turn: &Turn) -> usize {
        let pos = &turn.position;
        // After a failure every answer is the first legal column: the call is unwinding.
        let fallback = (0..pos.width()).find(|&c| pos.can_play(c)).unwrap_or(0);
        if self.failure.failed() {
            return fallback;
        }
        match Python::attach(|py| self.ask(py, pos)) {
            Ok(col) => col,
            Err(e) => {
                self.failure.fail(e);
                fallback
            }
        }
    }
}

/// Builds a fresh [`PolicyAgent`] per game (the arena asks one per game).
pub struct PolicyBuilder {
    /// The agent's name in reports.
    pub name: String,
    /// The user's function.
    pub func: Arc<Py<PyAny>>,
    /// What it takes.
    pub takes: Takes,
    /// Where its failures go.
    pub failure: Arc<Failure>,
}

impl BuildAgent for PolicyBuilder {
    fn build(&self, _seed: u64) -> Box<dyn Agent> {
        Box::new(PolicyAgent {
            name: self.name.clone(),
            func: self.func.clone(),
            takes: self.takes,
            failure: self.failure.clone(),
        })
    }
}

/// A Python value function as an evaluator: values of the side to move in [-1, 1], asked in
/// batches of up to `batch` positions (the search gathers the leaves a ply or two above them,
/// see [`Evaluator::prefetch`]) and kept by position: for one search (the agent empties the
/// cache before each move), or across searches up to `keep` values. Each player a factory
/// builds has its own, so every game of a tournament asks the function afresh.
pub struct PyEvaluator {
    name: String,
    func: Arc<Py<PyAny>>,
    takes: Takes,
    batch: usize,
    keep: usize,
    kept: Mutex<HashMap<(u64, u64), f64>>,
    /// Bumped by [`PyEvaluator::clear`]: the agent forgets its search table too.
    cleared: AtomicU64,
    /// torch's thread count on the thread that made the agent, set on every thread that
    /// calls the function (a worker's own count is torch's default: every core).
    torch_threads: Option<i64>,
    failure: Arc<Failure>,
}

/// What makes an evaluator agent's players: the user's function and how it is asked.
#[derive(Clone)]
pub struct EvalSource {
    /// The agent's name in reports.
    pub name: String,
    /// The user's function.
    pub func: Arc<Py<PyAny>>,
    /// What it takes.
    pub takes: Takes,
    /// The most positions per call.
    pub batch: usize,
    /// Values kept across searches (0: for one search only).
    pub keep: usize,
    /// torch's thread count where the agent was made (see [`torch_threads`]).
    pub torch_threads: Option<i64>,
    /// Where its failures go.
    pub failure: Arc<Failure>,
}

impl PyEvaluator {
    /// An evaluator over `src`'s function.
    pub fn new(src: &EvalSource) -> PyEvaluator {
        PyEvaluator {
            name: src.name.clone(),
            func: src.func.clone(),
            takes: src.takes,
            batch: src.batch.max(1),
            keep: src.keep,
            kept: Mutex::new(HashMap::new()),
            cleared: AtomicU64::new(0),
            torch_threads: src.torch_threads,
            failure: src.failure.clone(),
        }
    }

    /// Forgets every value kept (and, through the agent, its search table's).
    pub fn clear(&self) {
        self.kept.lock().unwrap_or_else(|p| p.into_inner()).clear();
        self.cleared.fetch_add(1, Ordering::Relaxed);
    }

    /// How many values are kept now.
    pub fn kept(&self) -> usize {
        self.kept.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// The user's values of `positions`, checked: one finite number each, clamped to [-1, 1].
    fn ask(&self, py: Python<'_>, positions: &[connect4_engine::Position]) -> PyResult<Vec<f64>> {
        if let Some(n) = self.torch_threads {
            same_torch_threads(py, n)?;
        }
        let func = self.func.bind(py);
        let answer = match self.takes {
            Takes::Positions => {
                let list = PyList::empty(py);
                for p in positions {
                    list.append(Position::wrap(*p, None))?;
                }
                func.call1((list,))?
            }
            Takes::Arrays => {
                let (w, h) = (positions[0].width(), positions[0].height());
                let mut cells = Vec::with_capacity(positions.len() * w * h);
                for p in positions {
                    board_cells(p, &mut cells);
                }
                let boards: Bound<'_, PyArray3<i8>> =
                    PyArray1::from_vec(py, cells).reshape([positions.len(), h, w])?;
                func.call1((boards,))?
            }
        };
        py.check_signals()?;
        let bad = |what: String| err(format!("evaluator {}: {what}", self.name));
        let values: Vec<f64> = py
            .import("numpy")?
            .call_method1("asarray", (&answer, "float64"))
            .and_then(|a| a.call_method0("ravel"))
            .and_then(|a| a.call_method0("tolist"))
            .and_then(|a| a.extract())
            .map_err(|e| {
                // Only a value that is not numbers is the user's answer's fault: an exception
                // raised meanwhile (Ctrl-C, an alarm's handler) goes on as it is.
                if is_bad_value(py, &e) {
                    bad(format!(
                        "returned {}, not one number per position",
                        crate::args::short_repr(&answer)
                    ))
                } else {
                    e
                }
            })?;
        if values.len() != positions.len() {
            return Err(bad(format!(
                "returned {} values for {} positions",
                values.len(),
                positions.len()
            )));
        }
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            return Err(bad(format!(
                "returned {} for position {i} of the batch",
                values[i]
            )));
        }
        Ok(values.into_iter().map(|v| v.clamp(-1.0, 1.0)).collect())
    }

    /// Values `positions` (not yet kept) in batches and keeps them.
    fn fetch(&self, positions: &[connect4_engine::Position]) {
        if positions.is_empty() || self.failure.failed() {
            return;
        }
        let got = Python::attach(|py| -> PyResult<Vec<f64>> {
            let mut out = Vec::with_capacity(positions.len());
            for chunk in positions.chunks(self.batch) {
                out.extend(self.ask(py, chunk)?);
            }
            Ok(out)
        });
        match got {
            Ok(values) => {
                let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
                // Across searches the cache holds at most `keep` values: past it, it starts
                // again (a search asks again what it needs).
                if self.keep > 0 && kept.len() + values.len() > self.keep {
                    kept.clear();
                }
                for (p, v) in positions.iter().zip(values) {
                    kept.insert(key(p), v);
                }
            }
            Err(e) => self.failure.fail(e),
        }
    }
}

/// torch's intra-op thread count on this thread, when the user has imported torch: read
/// where an agent is made (the user's thread, where `torch.set_num_threads` was called).
pub fn torch_threads(py: Python<'_>) -> Option<i64> {
    let torch = py
        .import("sys")
        .ok()?
        .getattr("modules")
        .ok()?
        .get_item("torch")
        .ok()?;
    torch.call_method0("get_num_threads").ok()?.extract().ok()
}

thread_local! {
    /// torch's thread count this thread was given (0: none yet).
    static TORCH_THREADS_SET: std::cell::Cell<i64> = const { std::cell::Cell::new(0) };
}

/// Gives this thread torch's thread count `n` once: the package's worker threads would
/// otherwise run the user's network on every core each, all at once.
fn same_torch_threads(py: Python<'_>, n: i64) -> PyResult<()> {
    if TORCH_THREADS_SET.with(|c| c.get()) == n {
        return Ok(());
    }
    if let Ok(torch) = py.import("sys")?.getattr("modules")?.get_item("torch") {
        torch.call_method1("set_num_threads", (n,))?;
    }
    TORCH_THREADS_SET.with(|c| c.set(n));
    Ok(())
}

/// A position's identity: the side to move's stones and all stones.
fn key(p: &connect4_engine::Position) -> (u64, u64) {
    (p.current_stones(), p.mask())
}

impl Evaluator for PyEvaluator {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn evaluate(&self, pos: &connect4_engine::Position) -> f64 {
        let k = key(pos);
        let hit = |this: &Self| {
            this.kept
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(&k)
                .copied()
        };
        if let Some(v) = hit(self) {
            return v;
        }
        self.fetch(std::slice::from_ref(pos));
        hit(self).unwrap_or(0.0)
    }

    fn prefetch_depth(&self) -> u32 {
        // 7 children a ply: batches of 49 or more gather two plies, smaller ones one.
        match self.batch {
            0 | 1 => 0,
            2..=48 => 1,
            _ => 2,
        }
    }

    fn prefetch(&self, positions: &[connect4_engine::Position]) {
        let missing: Vec<connect4_engine::Position> = {
            let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
            let mut seen = std::collections::HashSet::new();
            positions
                .iter()
                .filter(|p| !kept.contains_key(&key(p)) && seen.insert(key(p)))
                .copied()
                .collect()
        };
        self.fetch(&missing);
    }
}

/// A player of an evaluator agent: the project's search over its own [`PyEvaluator`] (in
/// the hybrid phases when asked). Before each move it empties the evaluator's cache when
/// values live for one search, and forgets its search table whenever the cache was
/// emptied, so no value of an earlier network is used.
pub struct EvalAgent {
    name: String,
    searcher: Searcher,
    eval: Arc<PyEvaluator>,
    seen_clears: u64,
}

impl EvalAgent {
    /// The evaluator it asks (what `Agent.clear_cache` empties).
    pub fn evaluator(&self) -> Arc<PyEvaluator> {
        self.eval.clone()
    }
}

impl Agent for EvalAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, turn: &Turn) -> usize {
        if self.eval.keep == 0 {
            self.eval.clear();
        }
        let clears = self.eval.cleared.load(Ordering::Relaxed);
        if clears != self.seen_clears {
            self.searcher.clear();
            self.seen_clears = clears;
        }
        self.searcher.choose(&turn.position).column
    }

    fn set_interrupt(&mut self, interrupt: Option<connect4_engine::Interrupt>) {
        self.searcher.set_interrupt(interrupt);
    }
}

/// Builds an [`EvalAgent`] per game, each with its own evaluator and cache.
pub struct EvalBuilder {
    /// The function and how it is asked.
    pub source: EvalSource,
    /// The search's depth or time.
    pub params: SearchParams,
    /// Rollouts a position in the hybrid phases (`None`: the function alone).
    pub hybrid: Option<u32>,
    /// The board.
    pub geometry: connect4_engine::Geometry,
}

impl EvalBuilder {
    /// A player, concrete (the `Agent` object keeps its evaluator for `clear_cache`).
    pub fn player(&self) -> EvalAgent {
        let eval = Arc::new(PyEvaluator::new(&self.source));
        let searched: Arc<dyn Evaluator> = match self.hybrid {
            Some(n) => {
                use connect4_engine::eval::{Hybrid, MonteCarlo, Phases, PlayoutPolicy};
                let rollouts = MonteCarlo::new(self.geometry, n, PlayoutPolicy::Smart, 0);
                Arc::new(Hybrid::new(eval.clone(), rollouts, Phases::default()))
            }
            None => eval.clone(),
        };
        EvalAgent {
            name: self.source.name.clone(),
            searcher: Searcher::new(searched, self.params.clone()),
            eval,
            seen_clears: 0,
        }
    }
}

impl BuildAgent for EvalBuilder {
    fn build(&self, _seed: u64) -> Box<dyn Agent> {
        Box::new(self.player())
    }
}
