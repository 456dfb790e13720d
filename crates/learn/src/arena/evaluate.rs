//! `c4 evaluate`: how much better than a baseline an agent plays, with the uncertainty of the
//! measurement. Each agent plays the baseline (games over several seeds, random openings,
//! colours alternating), optionally again on the baseline's time per move, and is graded move
//! by move against the solver on benchmark sets.

use super::estimate::{Estimate, elo_difference, score_estimate, wilson};
use super::grade::{GradeError, grade_positions_until};
use super::tournament::{Side, Tournament, TournamentConfig, TournamentError};
use connect4_engine::Interrupt;
use connect4_engine::agents::{AgentBoard, AgentError, AgentFactory, AgentSpec, Resources};
use connect4_engine::game::{Geometry, Position};
use connect4_engine::progress::Progress;
use connect4_engine::solver::SolverPool;

mod optimum;
mod report;
pub use optimum::{OPTIMUM_MAX_CELLS, Optimum};
pub use report::{AgentReport, EvaluateReport, MatchReport, SetErrors, SideRecord};

/// A named benchmark set: positions with their exact score when the file gives it.
pub type BenchSet<B = u64> = (String, Vec<(Position<B>, Option<i32>)>);

/// What to evaluate and how, on a board of the integer `B` (`u128` past 64 bits).
#[derive(Clone, Debug)]
pub struct EvaluateConfig<B: AgentBoard = u64> {
    /// The agents to evaluate.
    pub agents: Vec<AgentSpec>,
    /// What they are measured against.
    pub baseline: AgentSpec,
    /// Games per agent and seed (colours alternate, openings shared by pairs of games).
    pub games: usize,
    /// Seeds: the match is played once per seed (seed, seed + 1, ...), all games pooled.
    pub seeds: usize,
    /// Random opening plies of every game.
    pub openings: usize,
    /// First seed.
    pub seed: u64,
    /// Benchmark sets to grade moves on: (name, positions with their exact score if known).
    pub bench: Vec<BenchSet<B>>,
    /// Also play each agent on the baseline's mean time per move.
    pub equal_time: bool,
    /// Worker threads.
    pub jobs: usize,
    /// Solver table per grading worker, MiB.
    pub tt_mib: usize,
    /// The board.
    pub geometry: Geometry<B>,
    /// Which colour the evaluated agents play (both: alternating).
    pub side: Side,
    /// The opening book of grading and of perfect agents (`None`: none).
    pub book: Option<std::sync::Arc<connect4_engine::solver::book::Book>>,
}

/// Why an evaluation could not run.
#[derive(Debug, thiserror::Error)]
pub enum EvaluateError {
    /// A match could not be played.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// Grading failed.
    #[error(transparent)]
    Grade(#[from] GradeError),
    /// An agent could not be built.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// Nothing to do.
    #[error("no agents to evaluate")]
    NoAgents,
    /// No games or seeds.
    #[error("no games to play: the games per pairing and the seeds must each be at least 1")]
    NoGames,
}

/// The factory of `agent`'s agents on the evaluation's board, perfect agents reading its book.
fn factory_of<B: AgentBoard>(
    cfg: &EvaluateConfig<B>,
    agent: &AgentSpec,
) -> Result<AgentFactory<B>, AgentError> {
    let resources = Resources {
        book: cfg.book.clone(),
        ..Resources::default()
    };
    agent.factory_on(cfg.geometry, &resources)
}

/// Plays `agent` against the baseline over every seed and pools the games.
fn play_match<B: AgentBoard>(
    cfg: &EvaluateConfig<B>,
    agent: &AgentSpec,
    progress: &dyn Progress,
    stop: &Interrupt,
) -> Result<MatchReport, EvaluateError> {
    let make = || Ok(factory_of(cfg, agent)?);
    match_against_baseline(cfg, agent.label(), &make, progress, stop)
}

/// An external agent's match against the baseline.
fn play_factory_match<B: AgentBoard>(
    cfg: &EvaluateConfig<B>,
    factory: &AgentFactory<B>,
    progress: &dyn Progress,
    stop: &Interrupt,
) -> Result<MatchReport, EvaluateError> {
    let make = || Ok(factory.clone());
    match_against_baseline(cfg, factory.spec().label(), &make, progress, stop)
}

/// The agent `make` builds (fresh for every seed, as a tournament of specs builds it)
/// against the baseline, all seeds pooled.
fn match_against_baseline<B: AgentBoard>(
    cfg: &EvaluateConfig<B>,
    label: &str,
    make: &dyn Fn() -> Result<AgentFactory<B>, EvaluateError>,
    progress: &dyn Progress,
    stop: &Interrupt,
) -> Result<MatchReport, EvaluateError> {
    let mut scores = Vec::new();
    let mut per_seed = Vec::new();
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let (mut ms, mut base_ms) = (0.0, 0.0);
    let (mut as_first, mut as_second) = (SideRecord::default(), SideRecord::default());
    let label = label.to_string();
    for k in 0..cfg.seeds {
        let baseline = factory_of(cfg, &cfg.baseline)?;
        let t = Tournament::from_factories(
            TournamentConfig {
                agents: Vec::new(),
                games: cfg.games,
                openings: cfg.openings,
                seed: cfg.seed + k as u64,
                jobs: cfg.jobs,
                geometry: cfg.geometry,
                side: cfg.side,
            },
            vec![make()?, baseline],
        )?;
        let summary = t.run_until(progress, stop)?;
        let p = &summary.pairings[0];
        wins += p.wins;
        draws += p.draws;
        losses += p.losses;
        per_seed.push(p.score_pct / 100.0);
        for row in &summary.rows {
            let mine = match row.winner.as_str() {
                "" => 0.5,
                w if w == label => 1.0,
                _ => 0.0,
            };
            scores.push(mine);
            if row.first == label {
                as_first.add(mine);
            } else {
                as_second.add(mine);
            }
        }
        let time = |name: &str| {
            summary
                .ms_per_move
                .iter()
                .find(|(a, _)| a == name)
                .map_or(0.0, |(_, t)| *t)
        };
        ms += time(&label);
        base_ms += time(cfg.baseline.label());
    }
    let games = scores.len();
    let score = score_estimate(&scores);
    Ok(MatchReport {
        agent: label,
        baseline: cfg.baseline.label().to_string(),
        games,
        wins,
        draws,
        losses,
        score,
        elo: Estimate {
            value: elo_difference(score.value, games),
            low: elo_difference(score.low, games),
            high: elo_difference(score.high, games),
        },
        ms_per_move: ms / cfg.seeds as f64,
        baseline_ms_per_move: base_ms / cfg.seeds as f64,
        score_per_seed: per_seed,
        as_first,
        as_second,
    })
}

/// Grades `agent` on every benchmark set.
fn grade_sets<B: AgentBoard>(
    cfg: &EvaluateConfig<B>,
    agent: &AgentSpec,
    progress: &dyn Progress,
    stop: &Interrupt,
) -> Result<Vec<SetErrors>, EvaluateError> {
    let factory = factory_of(cfg, agent)?;
    grade_factory(cfg, &factory, progress, stop)
}

/// Grades the agents of `factory` on every benchmark set.
fn grade_factory<B: AgentBoard>(
    cfg: &EvaluateConfig<B>,
    factory: &AgentFactory<B>,
    progress: &dyn Progress,
    stop: &Interrupt,
) -> Result<Vec<SetErrors>, EvaluateError> {
    let solvers = SolverPool::new(cfg.tt_mib).with_book(cfg.book.clone());
    let mut out = Vec::new();
    for (name, positions) in &cfg.bench {
        let moves = grade_positions_until(factory, positions, cfg.jobs, &solvers, progress, stop)?;
        let errors = moves.iter().filter(|m| m.error).count();
        out.push(SetErrors {
            set: name.clone(),
            positions: moves.len(),
            errors,
            error_rate: wilson(errors, moves.len()),
            mean_ms: moves.iter().map(|m| m.ms).sum::<f64>() / moves.len().max(1) as f64,
        });
    }
    Ok(out)
}

/// Games and graded positions an evaluation will go through (for a progress bar).
pub fn work_items<B: AgentBoard>(cfg: &EvaluateConfig<B>) -> usize {
    let games = cfg.games * cfg.seeds * if cfg.equal_time { 2 } else { 1 };
    let graded: usize = cfg.bench.iter().map(|(_, p)| p.len()).sum();
    cfg.agents.len() * (games + graded) + graded
}

/// Runs the evaluation; `progress` advances once per game and per graded position.
pub fn evaluate<B: AgentBoard>(
    cfg: &EvaluateConfig<B>,
    progress: &dyn Progress,
) -> Result<EvaluateReport, EvaluateError> {
    evaluate_with(cfg, &[], progress, &Interrupt::new())
}

/// [`evaluate`], with the agents of `external` (factories the caller built: Python policies
/// and evaluators) evaluated after the specs of `cfg.agents`, alike but for the equal-time
/// match (an external agent has no time budget to set), and ended early by `stop` (then an
/// error: [`TournamentError::Interrupted`] or the grading's).
pub fn evaluate_with<B: AgentBoard>(
    cfg: &EvaluateConfig<B>,
    external: &[AgentFactory<B>],
    progress: &dyn Progress,
    stop: &Interrupt,
) -> Result<EvaluateReport, EvaluateError> {
    if cfg.agents.is_empty() && external.is_empty() {
        return Err(EvaluateError::NoAgents);
    }
    if cfg.games == 0 || cfg.seeds == 0 {
        return Err(EvaluateError::NoGames);
    }
    let baseline_errors = grade_sets(cfg, &cfg.baseline, progress, stop)?;
    let mut agents = Vec::new();
    for agent in &cfg.agents {
        let vs_baseline = play_match(cfg, agent, progress, stop)?;
        let equal_time = match cfg.equal_time {
            true => match agent.with_time_budget(vs_baseline.baseline_ms_per_move) {
                Some(timed) => Some(play_match(cfg, &timed, progress, stop)?),
                None => None,
            },
            false => None,
        };
        let errors = grade_sets(cfg, agent, progress, stop)?;
        agents.push(AgentReport {
            agent: agent.label().to_string(),
            vs_baseline,
            equal_time,
            errors,
        });
    }
    for factory in external {
        let vs_baseline = play_factory_match(cfg, factory, progress, stop)?;
        let errors = grade_factory(cfg, factory, progress, stop)?;
        agents.push(AgentReport {
            agent: factory.spec().label().to_string(),
            vs_baseline,
            equal_time: None,
            errors,
        });
    }
    Ok(EvaluateReport {
        baseline: cfg.baseline.label().to_string(),
        games: cfg.games,
        seeds: cfg.seeds,
        openings: cfg.openings,
        seed: cfg.seed,
        side: cfg.side,
        baseline_errors,
        agents,
        optimum: optimum::optimum(cfg),
    })
}

#[cfg(test)]
mod tests;
