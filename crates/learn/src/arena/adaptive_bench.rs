//! The adaptive agent's benchmark: one adaptive agent meets opponents game after game (a
//! steady one, or one that changes: easy for N games, then a stronger one), and every game
//! records its result and the agent's estimate of the opponent's Elo after it.

use super::estimate::{Estimate, score_estimate};
use super::{play_game, random_opening};
use connect4_engine::agents::{
    Adaptive, AgentBoard, AgentError, AgentFactory, AgentSpec, Resources,
};
use connect4_engine::game::moves::format_moves as move_string;
use connect4_engine::game::{BitBoard, Geometry};
use connect4_engine::progress::Progress;
use connect4_engine::seed::{Stream, derive_seed};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use thiserror::Error;

/// Why the benchmark could not run.
#[derive(Debug, Error)]
pub enum AdaptiveBenchError {
    /// An agent could not be built (or the adaptive spec is not adaptive).
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// The thread pool could not start.
    #[error("cannot start {jobs} worker threads: {source}")]
    Threads {
        /// Threads asked for.
        jobs: usize,
        /// The reason.
        source: rayon::ThreadPoolBuildError,
    },
}

/// One run: the opponents the adaptive agent meets in turn and how many games each.
#[derive(Clone, Debug)]
pub struct AdaptiveRunSpec {
    /// (opponent, games), played in this order by one adaptive agent.
    pub stages: Vec<(AgentSpec, usize)>,
}

/// Settings of the benchmark, on boards of the integer `B` (`u128` past 64 bits).
#[derive(Clone, Debug)]
pub struct AdaptiveBenchConfig<B: BitBoard = u64> {
    /// The adaptive agent's spec.
    pub adaptive: AgentSpec,
    /// The runs, each with an adaptive agent of its own (they run side by side).
    pub runs: Vec<AdaptiveRunSpec>,
    /// Random opening plies per game (games 2k and 2k+1 share one, colours swapped).
    pub openings: usize,
    /// Seed of openings and agents.
    pub seed: u64,
    /// Runs played at once.
    pub jobs: usize,
    /// The board.
    pub geometry: Geometry<B>,
}

/// One game of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AdaptiveGame {
    /// The run (index in the config).
    pub run: usize,
    /// Game number within the run.
    pub game: usize,
    /// The opponent's spec.
    pub opponent: String,
    /// Whether the adaptive agent moved first.
    pub adaptive_first: bool,
    /// The adaptive agent's points: 1, 0.5 or 0.
    pub adaptive_score: f64,
    /// The estimate of the opponent's Elo after the game.
    pub estimate: f64,
    /// Every move, a move string.
    pub moves: String,
}

/// A stage's summary: the adaptive agent's score with its 95% interval.
#[derive(Clone, Debug, Serialize)]
pub struct StageSummary {
    /// The run.
    pub run: usize,
    /// The opponent.
    pub opponent: String,
    /// Games in the stage.
    pub games: usize,
    /// Wins, draws, losses of the adaptive agent.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Losses.
    pub losses: usize,
    /// The adaptive agent's score over the stage.
    pub score: Estimate,
    /// Its score over the stage's first 10 games.
    pub first_ten: Estimate,
    /// The estimate of the opponent's Elo after the stage's last game.
    pub final_estimate: f64,
    /// The mean estimate over the stage's games from the 11th on (`None` for 10 or fewer).
    pub settled_estimate: Option<f64>,
}

/// Plays every run (`progress` advances once per game).
pub fn run_adaptive_bench<B: AgentBoard>(
    cfg: &AdaptiveBenchConfig<B>,
    resources: &Resources,
    progress: &dyn Progress,
) -> Result<(Vec<AdaptiveGame>, Vec<StageSummary>), AdaptiveBenchError> {
    let adaptive = cfg.adaptive.factory_on(cfg.geometry, resources)?;
    let mut factories: Vec<Vec<(AgentFactory<B>, usize)>> = Vec::new();
    for run in &cfg.runs {
        let mut stages = Vec::new();
        for (spec, games) in &run.stages {
            stages.push((spec.factory_on(cfg.geometry, resources)?, *games));
        }
        factories.push(stages);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.jobs.max(1))
        .build()
        .map_err(|source| AdaptiveBenchError::Threads {
            jobs: cfg.jobs,
            source,
        })?;
    let runs: Vec<Result<Vec<AdaptiveGame>, AgentError>> = pool.install(|| {
        factories
            .par_iter()
            .enumerate()
            .map(|(r, stages)| play_run(cfg, r, &adaptive, stages, progress))
            .collect()
    });
    let mut games = Vec::new();
    for r in runs {
        games.extend(r?);
    }
    let summaries = summarise(cfg, &games);
    Ok((games, summaries))
}

fn play_run<B: AgentBoard>(
    cfg: &AdaptiveBenchConfig<B>,
    run: usize,
    adaptive: &AgentFactory<B>,
    stages: &[(AgentFactory<B>, usize)],
    progress: &dyn Progress,
) -> Result<Vec<AdaptiveGame>, AgentError> {
    let seed = derive_seed(cfg.seed, Stream::TournamentAgent, &[run as u64]);
    let start = match adaptive.spec().kind() {
        connect4_engine::agents::AgentKind::Adaptive { start, .. } => *start,
        _ => {
            return Err(AgentError::NotAdaptive {
                spec: adaptive.spec().label().to_string(),
            });
        }
    };
    let mut agent: Adaptive<B> =
        adaptive.build_adaptive(seed, connect4_engine::agents::AdaptiveState::new(start))?;
    let mut out = Vec::new();
    let mut opening = Vec::new();
    let mut g = 0usize;
    for (factory, games) in stages {
        for _ in 0..*games {
            if g.is_multiple_of(2) {
                let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(
                    cfg.seed,
                    Stream::TournamentOpening,
                    &[run as u64, g as u64 / 2],
                ));
                opening = random_opening(cfg.geometry, cfg.openings, &mut rng);
            }
            let mut opponent = factory.build(derive_seed(
                cfg.seed,
                Stream::TournamentAgent,
                &[run as u64, g as u64, 1],
            ))?;
            let first = g.is_multiple_of(2);
            let start = connect4_engine::game::Position::new(cfg.geometry);
            let played = if first {
                play_game(&mut agent, opponent.as_mut(), start, &opening)
            } else {
                play_game(opponent.as_mut(), &mut agent, start, &opening)
            };
            let first_points = played.result.first_score();
            let adaptive_score = if first {
                first_points
            } else {
                1.0 - first_points
            };
            out.push(AdaptiveGame {
                run,
                game: g,
                opponent: factory.spec().label().to_string(),
                adaptive_first: first,
                adaptive_score,
                estimate: agent.history().last().copied().unwrap_or(f64::NAN),
                moves: move_string(&played.moves),
            });
            progress.advance(1);
            g += 1;
        }
    }
    Ok(out)
}

fn summarise<B: BitBoard>(
    cfg: &AdaptiveBenchConfig<B>,
    games: &[AdaptiveGame],
) -> Vec<StageSummary> {
    let mut out = Vec::new();
    for (r, run) in cfg.runs.iter().enumerate() {
        let mine: Vec<&AdaptiveGame> = games.iter().filter(|g| g.run == r).collect();
        let mut at = 0;
        for (spec, n) in &run.stages {
            let stage = &mine[at..(at + n).min(mine.len())];
            at += n;
            let scores: Vec<f64> = stage.iter().map(|g| g.adaptive_score).collect();
            let count = |v: f64| scores.iter().filter(|&&s| s == v).count();
            let late: Vec<f64> = stage.iter().skip(10).map(|g| g.estimate).collect();
            out.push(StageSummary {
                run: r,
                opponent: spec.label().to_string(),
                games: stage.len(),
                wins: count(1.0),
                draws: count(0.5),
                losses: count(0.0),
                score: score_estimate(&scores),
                first_ten: score_estimate(&scores[..scores.len().min(10)]),
                final_estimate: stage.last().map_or(f64::NAN, |g| g.estimate),
                settled_estimate: (!late.is_empty())
                    .then(|| late.iter().sum::<f64>() / late.len() as f64),
            });
        }
    }
    out
}
