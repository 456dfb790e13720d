//! The caller's own models in the library's games: a Python policy (a function that picks a
//! column) as an agent, and what it and the Python evaluator (`evaluator.rs`) share: what
//! the user's function takes, and where its failures go. Both play wherever an agent spec
//! does (a move, a tournament, an evaluation, a benchmark). An exception in the user's code, or a signal handler of theirs
//! that raises, ends the call with that exception: the agent records it, cancels the call's
//! interrupt, and answers a legal column (or a neutral value) until the call has unwound.

use crate::errors::err;
use crate::position::Position;
use connect4_engine::Interrupt;
use connect4_engine::agents::{Agent, BuildAgent, Turn};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
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
    pub(crate) fn fail(&self, e: PyErr) {
        let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some(e);
        }
        if let Some(stop) = self.stop.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
            stop.cancel();
        }
    }

    pub(crate) fn failed(&self) -> bool {
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
    /// numpy side-to-move planes, the environments' observation: `height x width x 2` (plane
    /// 0 the side to move's stones, 1 the opponent's), `n x height x width x 2` for an
    /// evaluator.
    Planes,
}

impl Takes {
    /// `"positions"`, `"arrays"` or `"planes"`.
    pub fn parse(s: &str) -> PyResult<Takes> {
        match s {
            "positions" | "position" => Ok(Takes::Positions),
            "arrays" | "array" => Ok(Takes::Arrays),
            "planes" => Ok(Takes::Planes),
            other => Err(err(format!(
                "takes={other:?}: \"positions\" (Position objects), \"arrays\" (numpy boards, \
                 1 and 2) or \"planes\" (numpy side-to-move planes)"
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
pub(crate) fn board_cells(p: &connect4_engine::Position, out: &mut Vec<i8>) {
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

/// The board of `p` as side-to-move planes: `height x width x 2`, row 0 at the top, plane 0
/// the stones of the side to move, plane 1 the opponent's.
pub(crate) fn board_planes(p: &connect4_engine::Position, out: &mut Vec<i8>) {
    let (w, h) = (p.width(), p.height());
    let me = p.side_to_move();
    for r in 0..h {
        for c in 0..w {
            let cell = p.cell(c, h - 1 - r);
            out.push(i8::from(cell == Some(me)));
            out.push(i8::from(cell.is_some_and(|pl| pl != me)));
        }
    }
}

/// Whether `e` says a value was not what was asked (a `TypeError`, `ValueError` or
/// `OverflowError`), not that something else happened meanwhile (`KeyboardInterrupt`).
pub(crate) fn is_bad_value(py: Python<'_>, e: &PyErr) -> bool {
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
            Takes::Arrays | Takes::Planes => {
                let board = if self.takes == Takes::Planes {
                    let mut cells = Vec::with_capacity(pos.width() * pos.height() * 2);
                    board_planes(pos, &mut cells);
                    PyArray1::from_vec(py, cells)
                        .reshape([pos.height(), pos.width(), 2])?
                        .into_any()
                } else {
                    let mut cells = Vec::with_capacity(pos.width() * pos.height());
                    board_cells(pos, &mut cells);
                    PyArray1::from_vec(py, cells)
                        .reshape([pos.height(), pos.width()])?
                        .into_any()
                };
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

/// Runs `work` (a call that plays the agents of `args`) with their Python code's failures
/// routed to `stop`: the first exception their code raised ends the call with it.
pub fn with_failures<T>(
    failures: &[Arc<Failure>],
    stop: &connect4_engine::Interrupt,
    work: impl FnOnce() -> PyResult<T>,
) -> PyResult<T> {
    for f in failures {
        f.arm(stop);
    }
    let out = work();
    let mut first = None;
    for f in failures {
        if let Some(e) = f.take() {
            first.get_or_insert(e);
        }
    }
    match first {
        Some(e) => Err(e),
        None => out,
    }
}
