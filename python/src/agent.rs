//! `Agent`: any agent spec as a player; tournaments and `bench agent` as functions that
//! return plain dicts (the JSON the CLI writes).

use crate::errors::{err, interruptible, quick};
use crate::model::to_python;
use crate::position::{Position, geometry};
use connect4_ml::Interrupt;
use connect4_ml::agents::{AgentSpec, Turn};
use connect4_ml::arena::{self, GradeSummary, Tournament, TournamentConfig};
use pyo3::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Parses `spec`, model paths that do not exist as written looked up in `models`
/// (`gbt` -> `models/gbt.bin`, `models/ntuple.bin` -> `models/ntuple.bin` under that folder).
pub fn parse_spec(spec: &str, models: Option<&Path>) -> PyResult<AgentSpec> {
    let parsed: AgentSpec = spec.parse().map_err(err)?;
    let Some(dir) = models else {
        return Ok(parsed);
    };
    Ok(parsed.map_model_paths(|p| {
        if p.exists() {
            return p.to_path_buf();
        }
        let candidates = [
            dir.join(p),
            dir.join(p).with_extension("bin"),
            p.file_name().map_or_else(|| dir.join(p), |f| dir.join(f)),
        ];
        candidates
            .into_iter()
            .find(|c| c.exists())
            .unwrap_or_else(|| p.to_path_buf())
    }))
}

/// A player named by an agent spec (`c4 evaluate --help` lists them): `"ntuple:ms=10"`,
/// `"gbt:depth=3"`, `"perfect"`, `"mcts:sims=1000"`, ... `move` returns a 0-based column.
#[pyclass(module = "connect4_ml")]
pub struct Agent {
    inner: Mutex<Box<dyn connect4_ml::agents::Agent>>,
    spec: String,
    width: usize,
    height: usize,
}

#[pymethods]
impl Agent {
    /// Builds the agent of `spec` for `width` x `height` boards, seeded by `seed` (random
    /// agents). Model paths are read as written, else in the `models` folder.
    #[new]
    #[pyo3(signature = (spec, width = 7, height = 6, seed = 0, models = Some(PathBuf::from("models"))))]
    fn new(
        spec: &str,
        width: usize,
        height: usize,
        seed: u64,
        models: Option<PathBuf>,
    ) -> PyResult<Agent> {
        let g = geometry(width, height)?;
        let parsed = parse_spec(spec, models.as_deref())?;
        let agent = parsed.factory(g).map_err(err)?.build(seed).map_err(err)?;
        Ok(Agent {
            inner: Mutex::new(agent),
            spec: spec.to_string(),
            width,
            height,
        })
    }

    /// The column (0-based) the agent plays in `position`.
    #[pyo3(name = "move")]
    fn choose(&self, py: Python<'_>, position: &Position) -> PyResult<usize> {
        let p = position.inner;
        if p.width() != self.width || p.height() != self.height {
            return Err(err(format!(
                "the position is {}x{} but the agent plays {}x{} boards",
                p.width(),
                p.height(),
                self.width,
                self.height
            )));
        }
        if p.last_move_won() || p.is_full() {
            return Err(err("the game is over: there is no move to play"));
        }
        let mut agent = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let a: &mut dyn connect4_ml::agents::Agent = agent.as_mut();
        quick(py, move || a.choose(&Turn::new(p)))
    }

    /// The spec as given.
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn __repr__(&self) -> String {
        format!("Agent({:?})", self.spec)
    }
}

/// A round robin between `agents` (specs): `games` per pairing, colours alternating,
/// `openings` random plies first. Returns the summary dict `c4 tournament` writes (pairings,
/// Elo, ms per move) with every game under "games".
#[pyfunction]
#[pyo3(signature = (agents, games = 20, openings = 2, seed = 0, jobs = 1, width = 7, height = 6, models = Some(PathBuf::from("models"))))]
#[allow(clippy::too_many_arguments)]
pub fn tournament<'py>(
    py: Python<'py>,
    agents: Vec<String>,
    games: usize,
    openings: usize,
    seed: u64,
    jobs: usize,
    width: usize,
    height: usize,
    models: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let specs = agents
        .iter()
        .map(|a| parse_spec(a, models.as_deref()))
        .collect::<PyResult<Vec<_>>>()?;
    let t = Tournament::new(TournamentConfig {
        agents: specs,
        games,
        openings,
        seed,
        jobs,
        geometry: geometry(width, height)?,
        side: Default::default(),
    })
    .map_err(err)?;
    let stop = Interrupt::new();
    let summary = interruptible(py, &stop, || {
        t.run_until(&connect4_ml::progress::Quiet, &stop)
    })?
    .map_err(err)?;
    let out = to_python(py, &summary)?;
    out.set_item("games", to_python(py, &summary.rows)?)?;
    Ok(out)
}

/// Grades `agent` on benchmark files (`{name: path}` or a list of paths): per set the
/// mistakes (moves whose win/draw/loss value is below the best move's) with their 95% Wilson
/// interval, as `c4 bench agent` reports them. `limit` takes the first N positions of each.
#[pyfunction]
#[pyo3(signature = (agent, sets, limit = None, jobs = 1, tt_mib = 64, width = 7, height = 6, models = Some(PathBuf::from("models"))))]
#[allow(clippy::too_many_arguments)]
pub fn bench_agent<'py>(
    py: Python<'py>,
    agent: &str,
    sets: &Bound<'py, PyAny>,
    limit: Option<usize>,
    jobs: usize,
    tt_mib: usize,
    width: usize,
    height: usize,
    models: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let named: Vec<(String, PathBuf)> = if let Ok(d) = sets.cast::<pyo3::types::PyDict>() {
        d.iter()
            .map(|(k, v)| Ok((k.extract::<String>()?, v.extract::<PathBuf>()?)))
            .collect::<PyResult<_>>()?
    } else {
        sets.extract::<Vec<PathBuf>>()?
            .into_iter()
            .map(|p| {
                let name = p
                    .file_name()
                    .map_or_else(|| p.display().to_string(), |f| f.to_string_lossy().into());
                (name, p)
            })
            .collect()
    };
    let g = geometry(width, height)?;
    let factory = parse_spec(agent, models.as_deref())?
        .factory(g)
        .map_err(err)?;
    let mut summaries = Vec::new();
    for (name, path) in &named {
        let positions = arena::read_graded_file(path, g, limit).map_err(err)?;
        let stop = Interrupt::new();
        let graded = interruptible(py, &stop, || {
            arena::grade_positions_until(
                &factory,
                &positions,
                jobs,
                tt_mib,
                &connect4_ml::progress::Quiet,
                &stop,
            )
        })?
        .map_err(err)?;
        summaries.push(GradeSummary::from_moves(agent, name, &graded));
    }
    to_python(py, &summaries)
}
