//! A Python value function as the evaluator of the project's search: asked in batches, its
//! values kept for one search (or up to `cache` values), and the agent that searches over it.

use crate::errors::err;
use crate::external::{Failure, Takes, board_cells, is_bad_value};
use crate::position::Position;
use connect4_engine::agents::{Agent, BuildAgent, Turn};
use connect4_engine::eval::Evaluator;
use connect4_engine::search::{SearchParams, Searcher};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

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
    /// Shared by every player of the agent: gathers the games' requests into one call.
    batcher: Arc<crate::batcher::Batcher>,
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
    /// Where every player's requests are gathered across the games played at once.
    pub batcher: Arc<crate::batcher::Batcher>,
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
            batcher: src.batcher.clone(),
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
            Takes::Planes => {
                let (w, h) = (positions[0].width(), positions[0].height());
                let mut cells = Vec::with_capacity(positions.len() * w * h * 2);
                for p in positions {
                    crate::external::board_planes(p, &mut cells);
                }
                let planes: Bound<'_, numpy::PyArray4<i8>> =
                    PyArray1::from_vec(py, cells).reshape([positions.len(), h, w, 2])?;
                func.call1((planes,))?
            }
        };
        py.check_signals()?;
        let bad = |what: String| err(format!("evaluator {}: {what}", self.name));
        // A float64 array is read in place; anything else goes through numpy's conversion.
        let values: Vec<f64> = py
            .import("numpy")?
            .call_method1("asarray", (&answer, "float64"))
            .and_then(|a| a.call_method0("ravel"))
            .and_then(|a| {
                let fast = a
                    .cast::<PyArray1<f64>>()
                    .ok()
                    .and_then(|arr| arr.readonly().as_slice().map(<[f64]>::to_vec).ok());
                match fast {
                    Some(v) => Ok(v),
                    None => a.call_method0("tolist")?.extract(),
                }
            })
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

    /// Values `positions` (not yet kept), gathered with the other games' requests into
    /// calls of up to `batch` positions, and keeps them.
    fn fetch(&self, positions: &[connect4_engine::Position]) {
        if positions.is_empty() || self.failure.failed() {
            return;
        }
        let ask = |all: &[connect4_engine::Position]| -> Option<Vec<f64>> {
            if self.failure.failed() {
                return None;
            }
            let got = Python::attach(|py| -> PyResult<Vec<f64>> {
                let mut out = Vec::with_capacity(all.len());
                for chunk in all.chunks(self.batch) {
                    out.extend(self.ask(py, chunk)?);
                }
                Ok(out)
            });
            got.map_err(|e| self.failure.fail(e)).ok()
        };
        let Some(values) = self.batcher.request(positions, self.batch, ask) else {
            return;
        };
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        // Across searches the cache holds at most `keep` values: past it, it starts again
        // (a search asks again what it needs).
        if self.keep > 0 && kept.len() + values.len() > self.keep {
            kept.clear();
        }
        for (p, v) in positions.iter().zip(values) {
            kept.insert(key(p), v);
        }
    }

    /// Calls of the function by every player of this agent so far, and the positions
    /// they valued.
    pub fn stats(&self) -> (u64, u64) {
        self.batcher.stats()
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
        let _searching = self.eval.batcher.searching();
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
