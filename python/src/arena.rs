//! The arena from Python: tournaments, evaluations against a baseline, benchmark grading and
//! ratings of agents given as specs or `Agent`s (those made from Python code among them).
//! Each returns the dict the CLI writes as JSON with the CLI's table under "table";
//! `connect4_ml` makes them its result objects.

use crate::agent::{AgentArg, parse_spec};
use crate::args::Nat;
use crate::board::{geometry, needs_wide};
use crate::bridge::interruptible;
use crate::errors::err;
use crate::external::{Failure, with_failures};
use crate::model::to_python;
use connect4_engine::agents::AgentBoard;
use connect4_engine::game::Geometry;
use connect4_learn::arena::{self, GradeSummary, Tournament, TournamentConfig, TournamentSummary};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// Runs the arena's `work` without the GIL, stopped by Ctrl-C and by the first exception of
/// the Python agents whose `failures` are given (that exception is what the call raises).
fn run_arena<T: Send, E: std::fmt::Display + Send>(
    py: Python<'_>,
    failures: &[Arc<Failure>],
    work: impl FnOnce(&connect4_engine::Interrupt) -> Result<T, E> + Send,
) -> PyResult<T> {
    let stop = crate::bridge::call_interrupt();
    with_failures(failures, &stop, || {
        interruptible(py, &stop, || work(&stop))?.map_err(err)
    })
}

/// The agents of `agents`: a list (or tuple) of specs and `Agent`s.
fn agent_list<'py>(agents: &Bound<'py, PyAny>) -> PyResult<Vec<AgentArg<'py>>> {
    if agents.is_instance_of::<pyo3::types::PyString>() {
        return Err(err(format!(
            "agents: expected a list of agent specs, e.g. [\"easy\", \"gbt:depth=3\"], got the \
             string {}",
            crate::args::short_repr(agents)
        )));
    }
    let items = agents.try_iter().map_err(|_| {
        err(format!(
            "agents: expected a list of agent specs (strings) or Agents, got {}",
            crate::args::short_repr(agents)
        ))
    })?;
    items
        .enumerate()
        .map(|(i, a)| AgentArg::read(&a?, &format!("agents[{i}]")))
        .collect()
}

/// A round robin between `agents` (specs, or `Agent`s: those made from Python code play
/// too): `games` per pairing, colours alternating,
/// `openings` random plies first. Returns the summary dict `c4 tournament` writes (pairings,
/// Elo, ms per move) with every game under "games".
#[pyfunction]
#[pyo3(signature = (agents, games = Nat(20), openings = Nat(2), seed = Nat(0), jobs = Nat(1), width = Nat(7), height = Nat(6), models = None))]
#[allow(clippy::too_many_arguments)]
pub fn _tournament<'py>(
    py: Python<'py>,
    agents: &Bound<'py, PyAny>,
    games: Nat,
    openings: Nat,
    seed: Nat,
    jobs: Nat,
    width: Nat,
    height: Nat,
    models: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let agents = agent_list(agents)?;
    let schedule = Schedule {
        games: games.get(),
        openings: openings.get(),
        seed: seed.0,
        jobs: jobs.get(),
    };
    let (width, height) = (width.get(), height.get());
    let models = models.as_deref();
    let summary = if needs_wide(width, height)? {
        let g = Geometry::<u128>::sized(width, height).map_err(err)?;
        play_round_robin(py, &agents, g, models, schedule)?
    } else {
        play_round_robin(py, &agents, geometry(width, height)?, models, schedule)?
    };
    let out = to_python(py, &summary)?;
    out.set_item("games", to_python(py, &summary.rows)?)?;
    out.set_item("table", summary.table())?;
    Ok(out)
}

/// How a round robin is played: games per pairing, random opening plies, seed, threads.
#[derive(Clone, Copy)]
struct Schedule {
    games: usize,
    openings: usize,
    seed: u64,
    jobs: usize,
}

/// The round robin of `agents` on boards of `g` (of either integer), as `c4 tournament`
/// plays it.
fn play_round_robin<B: AgentBoard>(
    py: Python<'_>,
    agents: &[AgentArg<'_>],
    g: Geometry<B>,
    models: Option<&std::path::Path>,
    s: Schedule,
) -> PyResult<TournamentSummary> {
    let factories = agents
        .iter()
        .map(|a| a.factory(g, models))
        .collect::<PyResult<Vec<_>>>()?;
    let failures: Vec<Arc<Failure>> = agents.iter().filter_map(AgentArg::failure).collect();
    let t = Tournament::from_factories(
        TournamentConfig {
            agents: Vec::new(),
            games: s.games,
            openings: s.openings,
            seed: s.seed,
            jobs: s.jobs,
            geometry: g,
            side: Default::default(),
        },
        factories,
    )
    .map_err(err)?;
    run_arena(py, &failures, |stop| {
        t.run_until(&connect4_engine::progress::Quiet, stop)
    })
}

/// Benchmark files as `{name: path}` or a list of paths (each named by its file name); a
/// path may be a benchmark set's name ("middle-easy") or its repository path
/// ("data/bench/middle-easy"), found from any folder (see [`crate::datasets::resolve`]).
fn named_sets(sets: &Bound<'_, PyAny>) -> PyResult<Vec<(String, PathBuf)>> {
    named_paths(sets)?
        .into_iter()
        .map(|(name, path)| Ok((name, crate::datasets::resolve(&path)?)))
        .collect()
}

/// `sets` as (name, path) pairs, as given.
fn named_paths(sets: &Bound<'_, PyAny>) -> PyResult<Vec<(String, PathBuf)>> {
    Ok(if let Ok(d) = sets.cast::<pyo3::types::PyDict>() {
        d.iter()
            .map(|(k, v)| {
                let bad = || err("sets: expected {name: path} or a list of paths");
                Ok((
                    k.extract::<String>().map_err(|_| bad())?,
                    v.extract::<PathBuf>().map_err(|_| bad())?,
                ))
            })
            .collect::<PyResult<_>>()?
    } else {
        if sets.is_instance_of::<pyo3::types::PyString>() {
            return Err(err(format!(
                "sets: expected a list of paths or {{name: path}}, got the string {}",
                crate::args::short_repr(sets)
            )));
        }
        sets.extract::<Vec<PathBuf>>()
            .map_err(|_| err("sets: expected a list of paths or {name: path}"))?
            .into_iter()
            .map(|p| {
                let name = p
                    .file_name()
                    .map_or_else(|| p.display().to_string(), |f| f.to_string_lossy().into());
                (name, p)
            })
            .collect()
    })
}

/// Plays `agent` (a spec or an `Agent`) against `baseline` and grades its moves on `sets`
/// (`{name: path}` or a list of benchmark files, the first `positions` of each; none: no
/// grading), as `c4 evaluate` does: returns the report `evaluate.json` holds, with the
/// score's and the Elo difference's 95% intervals and the results as first and as second
/// player. `side` is "both" (colours alternate), "first" or "second".
#[pyfunction]
#[pyo3(signature = (agent, baseline = "handtuned:depth=3", side = "both", games = Nat(400), seeds = Nat(1), openings = Nat(2), seed = Nat(0), sets = None, positions = Nat(200), jobs = Nat(1), tt_mib = Nat(64), width = Nat(7), height = Nat(6), models = None))]
#[allow(clippy::too_many_arguments)]
pub fn _evaluate<'py>(
    py: Python<'py>,
    agent: &Bound<'py, PyAny>,
    baseline: &str,
    side: &str,
    games: Nat,
    seeds: Nat,
    openings: Nat,
    seed: Nat,
    sets: Option<&Bound<'py, PyAny>>,
    positions: Nat,
    jobs: Nat,
    tt_mib: Nat,
    width: Nat,
    height: Nat,
    models: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let side = match side {
        "both" => arena::Side::Both,
        "first" | "x" => arena::Side::First,
        "second" | "o" => arena::Side::Second,
        other => {
            return Err(err(format!(
                "side={other:?}: \"both\" (alternating), \"first\" or \"second\""
            )));
        }
    };
    let agent = AgentArg::read(agent, "agent")?;
    let sets = match sets {
        Some(sets) => named_sets(sets)?,
        None => Vec::new(),
    };
    let e = Evaluation {
        agent: &agent,
        baseline: parse_spec(baseline, models.as_deref())?,
        side,
        sets,
        schedule: Schedule {
            games: games.get(),
            openings: openings.get(),
            seed: seed.0,
            jobs: jobs.get(),
        },
        seeds: seeds.get(),
        positions: positions.get(),
        tt_mib: tt_mib.get(),
        models: models.as_deref(),
    };
    let (width, height) = (width.get(), height.get());
    let report = if needs_wide(width, height)? {
        e.run(py, Geometry::<u128>::sized(width, height).map_err(err)?)?
    } else {
        e.run(py, geometry(width, height)?)?
    };
    let out = to_python(py, &report)?;
    out.set_item("table", report.text())?;
    Ok(out)
}

/// What `evaluate` was asked, read from its arguments.
struct Evaluation<'a, 'py> {
    agent: &'a AgentArg<'py>,
    baseline: connect4_engine::agents::AgentSpec,
    side: arena::Side,
    sets: Vec<(String, PathBuf)>,
    schedule: Schedule,
    seeds: usize,
    positions: usize,
    tt_mib: usize,
    models: Option<&'a std::path::Path>,
}

impl Evaluation<'_, '_> {
    /// The evaluation on boards of `g` (of either integer).
    fn run<B: AgentBoard>(
        self,
        py: Python<'_>,
        g: Geometry<B>,
    ) -> PyResult<arena::evaluate::EvaluateReport> {
        let factory = self.agent.factory(g, self.models)?;
        let failures: Vec<Arc<Failure>> = self.agent.failure().into_iter().collect();
        let mut bench = Vec::new();
        for (name, path) in self.sets {
            let graded = arena::read_graded_file(&path, g, Some(self.positions)).map_err(err)?;
            bench.push((name, graded));
        }
        let cfg = arena::evaluate::EvaluateConfig {
            agents: Vec::new(),
            baseline: self.baseline,
            games: self.schedule.games,
            seeds: self.seeds,
            openings: self.schedule.openings,
            seed: self.schedule.seed,
            bench,
            equal_time: false,
            jobs: self.schedule.jobs,
            tt_mib: self.tt_mib,
            geometry: g,
            side: self.side,
            book: Some(connect4_engine::solver::book::embedded()),
        };
        run_arena(py, &failures, |stop| {
            arena::evaluate::evaluate_with(
                &cfg,
                std::slice::from_ref(&factory),
                &connect4_engine::progress::Quiet,
                stop,
            )
        })
    }
}

/// Grades `agent` (a spec or an `Agent`) on benchmark files (`{name: path}` or a list of paths): per set the
/// mistakes (moves whose win/draw/loss value is below the best move's) with their 95% Wilson
/// interval, as `c4 bench agent` reports them. `limit` takes the first N positions of each.
#[pyfunction]
#[pyo3(signature = (agent, sets, limit = None, jobs = Nat(1), tt_mib = Nat(64), width = Nat(7), height = Nat(6), models = None))]
#[allow(clippy::too_many_arguments)]
pub fn _bench_agent<'py>(
    py: Python<'py>,
    agent: &Bound<'py, PyAny>,
    sets: &Bound<'py, PyAny>,
    limit: Option<Nat>,
    jobs: Nat,
    tt_mib: Nat,
    width: Nat,
    height: Nat,
    models: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let limit = limit.map(Nat::get);
    let (jobs, tt_mib, width, height) = (jobs.get(), tt_mib.get(), width.get(), height.get());
    let named = named_sets(sets)?;
    let agent = AgentArg::read(agent, "agent")?;
    let grading = Grading {
        agent: &agent,
        named,
        limit,
        jobs,
        tt_mib,
        models: models.as_deref(),
    };
    let summaries = if needs_wide(width, height)? {
        grading.run(py, Geometry::<u128>::sized(width, height).map_err(err)?)?
    } else {
        grading.run(py, geometry(width, height)?)?
    };
    let out = pyo3::types::PyDict::new(py);
    out.set_item("sets", to_python(py, &summaries)?)?;
    out.set_item("table", GradeSummary::table(&summaries))?;
    Ok(out.into_any())
}

/// What `bench_agent` was asked, read from its arguments.
struct Grading<'a, 'py> {
    agent: &'a AgentArg<'py>,
    named: Vec<(String, PathBuf)>,
    limit: Option<usize>,
    jobs: usize,
    tt_mib: usize,
    models: Option<&'a std::path::Path>,
}

impl Grading<'_, '_> {
    /// Every set graded on boards of `g` (of either integer).
    fn run<B: AgentBoard>(self, py: Python<'_>, g: Geometry<B>) -> PyResult<Vec<GradeSummary>> {
        let factory = self.agent.factory(g, self.models)?;
        let label = factory.spec().label().to_string();
        let failures: Vec<Arc<Failure>> = self.agent.failure().into_iter().collect();
        let solvers = connect4_engine::solver::SolverPool::new(self.tt_mib);
        let mut summaries = Vec::new();
        for (name, path) in &self.named {
            let positions = arena::read_graded_file(path, g, self.limit).map_err(err)?;
            let graded = run_arena(py, &failures, |stop| {
                arena::grade_positions_until(
                    &factory,
                    &positions,
                    self.jobs,
                    &solvers,
                    &connect4_engine::progress::Quiet,
                    stop,
                )
            })?;
            summaries.push(GradeSummary::from_moves(&label, name, &graded));
        }
        Ok(summaries)
    }
}

/// Rates `agent` (a spec or an `Agent`) on the fixed ladder of its board, as `c4 rate`
/// does: `games` against each ladder agent, its Elo fitted with the ladder's agents held at
/// their ratings (the scale of the dial and the page's presets). Returns the rating as the
/// CLI's JSON writes it, with the CLI's table under "table"; `connect4_ml.rate` makes it a
/// `Rating`.
#[pyfunction]
#[pyo3(signature = (agent, games = Nat(40), openings = Nat(2), seed = Nat(0), jobs = Nat(1), width = Nat(7), height = Nat(6), models = None))]
#[allow(clippy::too_many_arguments)]
pub fn _rate<'py>(
    py: Python<'py>,
    agent: &Bound<'py, PyAny>,
    games: Nat,
    openings: Nat,
    seed: Nat,
    jobs: Nat,
    width: Nat,
    height: Nat,
    models: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let agent = AgentArg::read(agent, "agent")?;
    let schedule = Schedule {
        games: games.get(),
        openings: openings.get(),
        seed: seed.0,
        jobs: jobs.get(),
    };
    let (width, height) = (width.get(), height.get());
    let models = models.as_deref();
    let rating = if needs_wide(width, height)? {
        let g = Geometry::<u128>::sized(width, height).map_err(err)?;
        rate_on(py, &agent, g, schedule, models)?
    } else {
        rate_on(py, &agent, geometry(width, height)?, schedule, models)?
    };
    let out = to_python(py, &rating)?;
    out.set_item("table", rating.table())?;
    Ok(out)
}

/// `agent` rated on the fixed ladder of boards of `g` (of either integer).
fn rate_on<B: AgentBoard>(
    py: Python<'_>,
    agent: &AgentArg<'_>,
    g: Geometry<B>,
    s: Schedule,
    models: Option<&std::path::Path>,
) -> PyResult<arena::Rating> {
    let anchors = arena::fixed_ladder(g).ok_or_else(|| {
        err(format!(
            "no ladder for {g}: the package has one for {} (make a board's with `c4 calibrate \
             --width {} --height {}`)",
            connect4_engine::agents::level::Calibration::calibrated_boards()
                .iter()
                .map(|[w, h]| format!("{w}x{h}"))
                .collect::<Vec<_>>()
                .join(", "),
            g.width(),
            g.height()
        ))
    })?;
    let player = agent.factory(g, models)?;
    // The ladder's model files are looked for as a spec's are: the shipped ones by default.
    let ladder = anchors
        .iter()
        .map(|a| AgentArg::Spec(a.agent.clone()).factory(g, models))
        .collect::<PyResult<Vec<_>>>()?;
    let failures: Vec<Arc<Failure>> = agent.failure().into_iter().collect();
    let cfg = arena::RateConfig {
        anchors,
        games: s.games,
        openings: s.openings,
        seed: s.seed,
        jobs: s.jobs,
        geometry: g,
    };
    run_arena(py, &failures, |stop| {
        arena::rate(
            &cfg,
            &player,
            &ladder,
            &connect4_engine::progress::Quiet,
            stop,
        )
    })
}
