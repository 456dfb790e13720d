//! `Agent`: any agent spec as a player, or a Python policy or evaluator made one; the
//! arguments that name an agent (a spec or an `Agent`). The arena's functions are in
//! `arena.rs`.

use crate::args::Nat;
use crate::board::{Board, geometry, needs_wide};
use crate::bridge::{interruptible, lock_until};
use crate::errors::err;
use crate::external::{Failure, Takes};
use crate::held::{Built, Held, build_player};
use connect4_engine::agents::{AgentBoard, AgentSpec, Resources};
use connect4_engine::game::Geometry;
use pyo3::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Parses `spec` and finds its model files. A path that exists as written is read; else the
/// file is looked for in `models` when given (an explicit folder always wins: nothing else
/// is tried), else in `./models` and then in the models shipped with the package. A missing
/// file is named with the folders that were searched.
pub fn parse_spec(spec: &str, models: Option<&Path>) -> PyResult<AgentSpec> {
    let parsed: AgentSpec = spec.parse().map_err(err)?;
    let dirs: Vec<PathBuf> = match models {
        Some(dir) => vec![dir.to_path_buf()],
        None => crate::model::default_model_dirs(),
    };
    let missing = std::cell::RefCell::new(None);
    let found = parsed.map_model_paths(|p| {
        if models.is_none() && p.exists() {
            return p.to_path_buf();
        }
        let name = p.file_name().map(Path::new).unwrap_or(p);
        let candidates = dirs.iter().flat_map(|dir| {
            [
                dir.join(p),
                dir.join(p).with_extension("bin"),
                dir.join(name),
                dir.join(name).with_extension("bin"),
            ]
        });
        let hit = candidates.into_iter().find(|c| c.is_file());
        hit.unwrap_or_else(|| {
            missing.borrow_mut().get_or_insert_with(|| p.to_path_buf());
            p.to_path_buf()
        })
    });
    if let Some(p) = missing.into_inner() {
        let searched: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        return Err(err(format!(
            "agent {spec:?}: model file {} not found (looked in {}; pass models=FOLDER or a path)",
            p.display(),
            searched.join(", ")
        )));
    }
    Ok(found)
}

/// A player named by an agent spec (`c4 evaluate --help` lists them): `"ntuple:ms=10"`,
/// `"gbt:depth=3"`, `"perfect"`, `"mcts:sims=1000"`, `"level:elo=1500"`, ...; options
/// follow the kind after a colon, separated by commas (`"perfect:ties=random,seed=7"`).
/// `move` returns a 0-based column. An agent may be shared by threads: their moves take
/// turns. The adaptive agent (`"adaptive"`) also reads finished games (`end_game`) and
/// keeps its estimate of the opponent's Elo in `state` (JSON), which a new `Agent` takes
/// back (`state=`).
#[pyclass(module = "connect4_ml", frozen)]
pub struct Agent {
    inner: Mutex<Held>,
    spec: String,
    width: usize,
    height: usize,
    /// The factory of an agent made from Python code (`from_policy`, `from_evaluator`):
    /// what tournaments and benchmarks build its players from. `None`: a spec agent.
    external: Option<connect4_engine::agents::AgentFactory>,
    /// Where the Python code's exceptions go during a call.
    failure: Arc<Failure>,
    /// The evaluator of an agent made by `from_evaluator`: what `clear_cache` empties.
    evaluator: Option<Arc<crate::evaluator::PyEvaluator>>,
}

impl Agent {
    /// An agent of Python code: `factory` builds its players, `failure` hears of their
    /// exceptions.
    fn external(
        factory: connect4_engine::agents::AgentFactory,
        failure: Arc<Failure>,
        width: usize,
        height: usize,
    ) -> PyResult<Agent> {
        let player = factory.build(0).map_err(err)?;
        Ok(Agent {
            inner: Mutex::new(Held::Plain(player)),
            spec: factory.spec().label().to_string(),
            width,
            height,
            external: Some(factory),
            failure,
            evaluator: None,
        })
    }

    /// The factory a tournament or benchmark builds this agent's players from, for boards
    /// of `g` (of either integer), with `models` searched for a spec's files. An agent made
    /// from Python code plays boards of up to 64 bits.
    fn factory<B: AgentBoard>(
        &self,
        g: Geometry<B>,
        models: Option<&Path>,
    ) -> PyResult<connect4_engine::agents::AgentFactory<B>> {
        if (self.width, self.height) != (g.width(), g.height()) {
            return Err(err(format!(
                "agent {}: plays {}x{} boards, not {}x{}",
                self.spec,
                self.width,
                self.height,
                g.width(),
                g.height()
            )));
        }
        match &self.external {
            // Python code's factories are built for 64-bit boards (where `B` is `u64`).
            Some(f) => (f as &dyn std::any::Any)
                .downcast_ref::<connect4_engine::agents::AgentFactory<B>>()
                .cloned()
                .ok_or_else(|| {
                    err(format!(
                        "agent {}: agents made from Python code play boards of up to 64 bits, \
                         not {}x{}",
                        self.spec,
                        g.width(),
                        g.height()
                    ))
                }),
            None => parse_spec(&self.spec, models)?
                .factory_on(g, &Resources::default())
                .map_err(err),
        }
    }
}

/// Checks what `Agent.from_*` (`what`) was given: a function, and a board it can play on.
fn user_code(
    f: &Bound<'_, PyAny>,
    what: &str,
    width: Nat,
    height: Nat,
) -> PyResult<(usize, usize, connect4_engine::Geometry)> {
    if !f.is_callable() {
        return Err(err(format!(
            "{what}: expected a function, got {}",
            crate::args::short_repr(f)
        )));
    }
    let (width, height) = (width.get(), height.get());
    Ok((width, height, geometry(width, height)?))
}

/// An agent argument: a spec string or an `Agent` (one made from Python code among them).
pub enum AgentArg<'py> {
    /// A spec.
    Spec(String),
    /// An `Agent` object.
    Object(Bound<'py, Agent>),
}

impl<'py> AgentArg<'py> {
    pub(crate) fn read(ob: &Bound<'py, PyAny>, what: &str) -> PyResult<AgentArg<'py>> {
        if let Ok(a) = ob.cast::<Agent>() {
            return Ok(AgentArg::Object(a.clone()));
        }
        ob.extract::<String>().map(AgentArg::Spec).map_err(|_| {
            err(format!(
                "{what}: expected an agent spec (a string) or an Agent, got {}",
                crate::args::short_repr(ob)
            ))
        })
    }

    /// Its factory for boards of `g` (of either integer).
    pub(crate) fn factory<B: AgentBoard>(
        &self,
        g: Geometry<B>,
        models: Option<&Path>,
    ) -> PyResult<connect4_engine::agents::AgentFactory<B>> {
        match self {
            AgentArg::Spec(s) => parse_spec(s, models)?
                .factory_on(g, &Resources::default())
                .map_err(err),
            AgentArg::Object(a) => a.get().factory(g, models),
        }
    }

    /// Where its Python code's exceptions go (none for a spec).
    pub(crate) fn failure(&self) -> Option<Arc<Failure>> {
        match self {
            AgentArg::Object(a) => Some(a.get().failure.clone()),
            AgentArg::Spec(_) => None,
        }
    }
}

#[pymethods]
impl Agent {
    /// Builds the agent of `spec` for `width` x `height` boards, seeded by `seed` (random
    /// agents). Model paths are read as written, else in the `models` folder. Past 64 bits
    /// (8x8, 9x7, ...) the kinds that play there do (`random`, `mcts`, `easy`, `hard`, the
    /// searches, `ntuple` with the board's network, `level`, `adaptive`); `move` plays them,
    /// tournaments take boards of up to 64 bits.
    #[new]
    #[pyo3(signature = (spec, width = Nat(7), height = Nat(6), seed = Nat(0), models = None, state = None))]
    fn new(
        spec: crate::args::Text,
        width: Nat,
        height: Nat,
        seed: Nat,
        models: Option<PathBuf>,
        state: Option<String>,
    ) -> PyResult<Agent> {
        let (width, height) = (width.get(), height.get());
        let spec = spec.0.as_str();
        let parsed = parse_spec(spec, models.as_deref())?;
        let held = if needs_wide(width, height)? {
            let g = Geometry::<u128>::sized(width, height).map_err(err)?;
            match build_player(spec, &parsed, g, &Resources::default(), seed.0, state)? {
                Built::Plain(a) => Held::WidePlain(a),
                Built::Adaptive(a) => Held::WideAdaptive(a),
            }
        } else {
            let g = geometry(width, height)?;
            match build_player(spec, &parsed, g, &Resources::default(), seed.0, state)? {
                Built::Plain(a) => Held::Plain(a),
                Built::Adaptive(a) => Held::Adaptive(a),
            }
        };
        Ok(Agent {
            inner: Mutex::new(held),
            spec: spec.to_string(),
            width,
            height,
            external: None,
            failure: Arc::default(),
            evaluator: None,
        })
    }

    /// An agent that plays `policy`'s columns: a function of a `Position` returning a
    /// 0-based column, or of a numpy board (`height x width`, row 0 at the top, 0 empty, 1
    /// first player, 2 second) and a boolean mask of the legal columns. It plays wherever a
    /// spec does (`tournament`, `evaluate`, `bench_agent`). An exception in `policy` ends
    /// the call with that exception; a column off the board or full is an error naming it.
    #[staticmethod]
    #[pyo3(signature = (policy, name = "python".to_string(), width = Nat(7), height = Nat(6)))]
    fn from_policy(
        py: Python<'_>,
        policy: Bound<'_, PyAny>,
        name: String,
        width: Nat,
        height: Nat,
    ) -> PyResult<Agent> {
        let (width, height, g) = user_code(&policy, "from_policy", width, height)?;
        let failure = Arc::new(Failure::default());
        let builder = crate::external::PolicyBuilder {
            name: name.clone(),
            takes: Takes::of_policy(py, &policy)?,
            func: Arc::new(policy.unbind()),
            failure: failure.clone(),
        };
        let factory = connect4_engine::agents::AgentFactory::external(&name, g, Arc::new(builder));
        Agent::external(factory, failure, width, height)
    }

    /// An agent that searches with the project's negamax (alpha-beta, the one-move tactics,
    /// a transposition table) over `evaluator`, a Python value function: it takes a list of
    /// `Position`s (or, with `takes="arrays"`, an `n x height x width` numpy array; with
    /// `takes="planes"`, `n x height x width x 2` side-to-move planes) and
    /// returns one value per position, from the side to move's point of view, in [-1, 1]
    /// (clamped). The search gathers the leaves a ply or two above them and asks in batches
    /// of up to `batch` positions, so a vectorised model or a network is not called once
    /// per node. `depth` plies (default 3) or `ms` milliseconds a move. With `hybrid=True`
    /// the evaluation is phase-based as the `hybrid` evaluator's: the function alone to ply
    /// 9, blended half and half with `playouts` Monte Carlo rollouts to ply 19, rollouts
    /// after. Values are kept for one search (one move) by default, so a network trained
    /// further plays its new values at once; `cache=N` keeps up to N values across moves
    /// (`clear_cache()` empties them). Games played at once (`jobs` in the arena functions)
    /// share one batcher, so their leaves fill the same calls (`evaluator_stats`).
    #[staticmethod]
    #[pyo3(signature = (evaluator, depth = None, ms = None, name = "python-eval".to_string(), batch = Nat(64), takes = "positions", hybrid = false, playouts = None, width = Nat(7), height = Nat(6), cache = None))]
    #[allow(clippy::too_many_arguments)]
    fn from_evaluator(
        evaluator: Bound<'_, PyAny>,
        depth: Option<Nat>,
        ms: Option<Nat>,
        name: String,
        batch: Nat,
        takes: &str,
        hybrid: bool,
        playouts: Option<Nat>,
        width: Nat,
        height: Nat,
        cache: Option<Nat>,
    ) -> PyResult<Agent> {
        let (width, height, g) = user_code(&evaluator, "from_evaluator", width, height)?;
        let depth = depth.map_or(3, Nat::get);
        if !(1..=20).contains(&depth) {
            return Err(err(format!("depth={depth}: from 1 to 20 plies")));
        }
        let mut params = connect4_engine::search::SearchParams::depth(depth as u32);
        if let Some(ms) = ms {
            // A time budget searches as deep as the time allows.
            params.depth = 20;
            params.time_budget = Some(std::time::Duration::from_millis(ms.get() as u64));
        } else if depth <= 6 {
            // The table is emptied before every move (fresh values): a shallow search fills
            // a few hundred slots, and emptying 2^16 of them each move cost more than the
            // search (a third of a tournament's time with 64 games at once).
            params.table_log2 = 12;
        }
        let failure = Arc::new(Failure::default());
        let hybrid = if hybrid {
            Some(
                playouts
                    .map_or(connect4_engine::eval::DEFAULT_PLAYOUTS, |p| p.get() as u32)
                    .max(1),
            )
        } else {
            if playouts.is_some() {
                return Err(err(
                    "playouts: only with hybrid=True (the rollouts of the later phases)",
                ));
            }
            None
        };
        let torch_threads = crate::evaluator::torch_threads(evaluator.py());
        let builder = crate::evaluator::EvalBuilder {
            source: crate::evaluator::EvalSource {
                name: name.clone(),
                func: Arc::new(evaluator.unbind()),
                takes: Takes::parse(takes)?,
                batch: batch.get(),
                keep: cache.map_or(0, Nat::get),
                torch_threads,
                failure: failure.clone(),
                batcher: Default::default(),
            },
            params,
            hybrid,
            geometry: g,
        };
        let player = builder.player();
        let evaluator = player.evaluator();
        let factory = connect4_engine::agents::AgentFactory::external(&name, g, Arc::new(builder));
        let mut agent = Agent::external(factory, failure, width, height)?;
        agent.inner = Mutex::new(Held::Plain(Box::new(player)));
        agent.evaluator = Some(evaluator);
        Ok(agent)
    }

    /// Forgets the values an agent made by `from_evaluator` keeps (and its search table's),
    /// so that its next move asks the function afresh: after training its network further,
    /// or with `cache=N`, which keeps values across moves. Tournaments, `evaluate`, `rate`
    /// and `bench_agent` always start every game afresh.
    fn clear_cache(&self) -> PyResult<()> {
        match &self.evaluator {
            Some(e) => {
                e.clear();
                Ok(())
            }
            None => Err(err(format!(
                "agent {}: only an agent made by from_evaluator keeps values",
                self.spec
            ))),
        }
    }

    /// What an agent made by `from_evaluator` has asked its function so far, over every game
    /// it played: `{"calls": C, "positions": P, "mean_batch": P / C}` (None for other
    /// agents). Games played at once (`jobs`) are gathered into the same calls.
    #[getter]
    fn evaluator_stats<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, pyo3::types::PyDict>>> {
        let Some(e) = &self.evaluator else {
            return Ok(None);
        };
        let (calls, positions) = e.stats();
        let d = pyo3::types::PyDict::new(py);
        d.set_item("calls", calls)?;
        d.set_item("positions", positions)?;
        d.set_item(
            "mean_batch",
            if calls > 0 {
                positions as f64 / calls as f64
            } else {
                0.0
            },
        )?;
        Ok(Some(d))
    }

    /// How many values an agent made by `from_evaluator` keeps now (0 for other agents).
    #[getter]
    fn cached(&self) -> usize {
        self.evaluator.as_ref().map_or(0, |e| e.kept())
    }

    /// The column (0-based) the agent plays in `position`.
    #[pyo3(name = "move")]
    fn choose(&self, py: Python<'_>, position: crate::position_args::AnyPos) -> PyResult<usize> {
        let p = position.0;
        if p.width() != self.width || p.height() != self.height {
            return Err(err(format!(
                "the position is {}x{} but the agent plays {}x{} boards",
                p.width(),
                p.height(),
                self.width,
                self.height
            )));
        }
        if p.is_over() {
            return Err(err("the game is over: there is no move to play"));
        }
        // The lock is taken on the worker, without the GIL (see `Solver::run`); Ctrl-C stops
        // the move through the agent's interrupt.
        let stop = crate::bridge::call_interrupt();
        crate::external::with_failures(std::slice::from_ref(&self.failure), &stop, || {
            interruptible(py, &stop, || {
                let mut held = lock_until(&self.inner, &stop)?;
                Some(held.choose(&p, &stop))
            })?
            .ok_or_else(|| err("interrupted"))?
            .ok_or_else(|| err("the position's board is not this agent's"))?
            .map_err(err)
        })
    }

    /// The spec as given.
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    /// The adaptive agent reads a finished game it played as `side` (`"x"`, first, or
    /// `"o"`): `moves` is the whole game as a move string: columns 1-9, then a-z. Returns its new estimate
    /// of the opponent's Elo.
    fn end_game(&self, py: Python<'_>, moves: &str, side: &str) -> PyResult<f64> {
        let side = match side {
            "x" | "first" => connect4_engine::Player::First,
            "o" | "second" => connect4_engine::Player::Second,
            other => {
                return Err(err(format!(
                    "side {other:?}: \"x\" (first) or \"o\" (second)"
                )));
            }
        };
        let end = Board::from_moves(self.width, self.height, moves.trim())
            .map_err(|e| err(format!("moves {moves:?}: {e}")))?;
        if !end.is_over() {
            return Err(err(format!("moves {moves:?}: the game is not over")));
        }
        // `end` was built from these moves: each names a column of the board.
        let cols = connect4_engine::game::moves::parse_moves(moves.trim(), self.width)
            .map_err(|e| err(format!("moves {moves:?}: {e}")))?;
        let stop = crate::bridge::call_interrupt();
        interruptible(py, &stop, || {
            let mut held = lock_until(&self.inner, &stop)?;
            held.replay(&end, &cols, side, &stop)
        })?
        .ok_or_else(|| {
            let adaptive = self.inner.lock().map(|h| h.is_adaptive());
            if matches!(adaptive, Ok(false)) {
                err("only the adaptive agent reads games (spec \"adaptive\")")
            } else {
                err("interrupted")
            }
        })
    }

    /// The adaptive agent's estimate of its opponent's Elo.
    #[getter]
    fn estimate(&self) -> PyResult<f64> {
        let held = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        held.estimate()
    }

    /// The adaptive agent's state as JSON: give it to `Agent(..., state=...)` to go on from
    /// it (a player's estimate across sessions).
    #[getter]
    fn state(&self) -> PyResult<String> {
        let held = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        held.state_json()
    }

    fn __repr__(&self) -> String {
        format!("Agent({:?})", self.spec)
    }
}
