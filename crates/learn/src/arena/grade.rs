//! Grading an agent's moves against the perfect solver, position by position.

use crate::datasets::labelled::{Expect, MovesFileError, read_moves_head};
use connect4_engine::Interrupt;
use connect4_engine::agents::{AgentBoard, AgentError, AgentFactory, Turn};
use connect4_engine::game::{BitBoard, Geometry, Position};
use connect4_engine::solver::{Solver, SolverError, SolverPool};
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// Positions with the score a file gives them (`None`: the grader solves them).
pub type ScoredPositions<B = u64> = Vec<(Position<B>, Option<i32>)>;

/// How one move compares with perfect play.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GradedMove {
    /// The agent's column (0-based).
    pub column: usize,
    /// The position's exact score (from the file or the solver).
    pub score: i32,
    /// The move kept the exact score: the fastest win or slowest loss was kept.
    pub optimal: bool,
    /// The move lost game-theoretic value: a win became a draw or loss, or a draw a loss.
    pub error: bool,
    /// Wall time of the agent's choice, ms.
    pub ms: f64,
}

/// Summary of one graded set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct GradeSummary {
    /// The agent.
    pub agent: String,
    /// The set's name (usually its file).
    pub set: String,
    /// Positions graded.
    pub positions: usize,
    /// Moves that lost value.
    pub errors: usize,
    /// errors / positions.
    pub error_rate: f64,
    /// Lower end of the error rate's 95% Wilson interval.
    #[serde(default)]
    pub error_low: f64,
    /// Upper end of the error rate's 95% Wilson interval.
    #[serde(default)]
    pub error_high: f64,
    /// Moves that kept the exact score.
    pub optimal: usize,
    /// optimal / positions.
    pub optimal_rate: f64,
    /// Mean time per move, ms.
    pub mean_ms: f64,
}

impl GradeSummary {
    /// Sums up `moves`.
    pub fn from_moves(agent: &str, set: &str, moves: &[GradedMove]) -> Self {
        let n = moves.len();
        let errors = moves.iter().filter(|m| m.error).count();
        let optimal = moves.iter().filter(|m| m.optimal).count();
        let rate = |k: usize| if n > 0 { k as f64 / n as f64 } else { 0.0 };
        GradeSummary {
            agent: agent.into(),
            set: set.into(),
            positions: n,
            errors,
            error_rate: rate(errors),
            error_low: super::wilson(errors, n).low,
            error_high: super::wilson(errors, n).high,
            optimal,
            optimal_rate: rate(optimal),
            mean_ms: if n > 0 {
                moves.iter().map(|m| m.ms).sum::<f64>() / n as f64
            } else {
                0.0
            },
        }
    }

    /// Graded sets as `c4 bench agent` prints them: a row per set (errors and optimal
    /// moves in percent, ms per move), then, when any is one of the six benchmark sets,
    /// their mistakes in AlphaZero.jl's layout with 95% Wilson intervals.
    pub fn table(summaries: &[GradeSummary]) -> String {
        use std::fmt::Write;
        // The agent column widens for long specs (a model path) so the columns stay aligned.
        let w = summaries.iter().map(|s| s.agent.len()).fold(24, usize::max);
        let mut t = String::new();
        let _ = writeln!(
            t,
            "{:<w$} {:<14} {:>9} {:>8} {:>10} {:>10} {:>10}",
            "agent", "set", "positions", "errors", "error %", "optimal %", "ms/move"
        );
        for s in summaries {
            let _ = writeln!(
                t,
                "{:<w$} {:<14} {:>9} {:>8} {:>10.2} {:>10.2} {:>10.3}",
                s.agent,
                s.set,
                s.positions,
                s.errors,
                100.0 * s.error_rate,
                100.0 * s.optimal_rate,
                s.mean_ms
            );
        }
        if summaries
            .iter()
            .any(|s| super::benchmark_sets::BenchSet::named(&s.set).is_some())
        {
            t.push_str("\nmistakes in AlphaZero.jl's layout (95% Wilson intervals):\n");
            t.push_str(&super::benchmark_sets::six_set_table(summaries));
        }
        t
    }
}

/// The positions of a benchmark file of "MOVES \[SCORE\]" lines (plain or gzip; the first
/// `limit`, or all) with their scores where the file gives them, as grading takes them. The
/// reading is [`crate::datasets::labelled`]'s; its errors name the file and line.
pub fn read_graded_file<B: BitBoard>(
    path: &std::path::Path,
    geom: Geometry<B>,
    limit: Option<usize>,
) -> Result<ScoredPositions<B>, GradeError> {
    let lines = read_moves_head(path, geom, Expect::Any, limit).map_err(|e| match e {
        MovesFileError::Line {
            path,
            line,
            problem,
        } => GradeError::Line {
            path,
            line,
            problem,
        },
        e => GradeError::File(e),
    })?;
    Ok(lines.into_iter().map(|m| (m.position, m.score)).collect())
}

/// Why grading failed.
#[derive(Debug, thiserror::Error)]
pub enum GradeError {
    /// An agent could not be built.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// The solver could not be set up.
    #[error(transparent)]
    Solver(#[from] SolverError),
    /// A benchmark file could not be read.
    #[error(transparent)]
    File(#[from] MovesFileError),
    /// A line of a benchmark file is not a position to grade.
    #[error("{}: line {line}: {problem}", path.display())]
    Line {
        /// The file.
        path: std::path::PathBuf,
        /// The 1-based line.
        line: usize,
        /// What is wrong.
        problem: crate::datasets::labelled::MovesLineError,
    },
    /// The caller's interrupt stopped the grading.
    #[error("the grading was interrupted")]
    Interrupted,
    /// The worker threads could not start.
    #[error("cannot start {jobs} worker threads: {source}")]
    Threads {
        /// Threads asked for.
        jobs: usize,
        /// The reason.
        source: rayon::ThreadPoolBuildError,
    },
}

/// Grades one move: `score` is the exact score of `pos` (the game must not be over).
pub fn grade_move<B: BitBoard>(
    solver: &mut Solver<B>,
    pos: &Position<B>,
    score: i32,
    column: usize,
    ms: f64,
) -> GradedMove {
    let g = pos.geometry();
    let (optimal, move_sign) = if pos.is_winning_move(column) {
        (score == g.win_score(pos.moves_played()), 1)
    } else {
        let mut child = *pos;
        child.play_col(column);
        // The move scores -child; it is optimal when that reaches the position's score.
        if solver.score_at_most(&child, -score) {
            (true, score.signum())
        } else {
            (false, -solver.solve_weak(&child))
        }
    };
    GradedMove {
        column,
        score,
        optimal,
        error: move_sign < score.signum(),
        ms,
    }
}

/// Grades a fresh agent of `factory` on every position (`(position, known exact score)`),
/// `jobs` positions at once, each worker with its own solver of `tt_mib` MiB. A fresh agent
/// per position keeps every move independent of the order of work, so results are
/// reproducible. `progress` advances once per position.
pub fn grade_positions<B: AgentBoard>(
    factory: &AgentFactory<B>,
    positions: &[(Position<B>, Option<i32>)],
    jobs: usize,
    solvers: &SolverPool,
    progress: &dyn connect4_engine::progress::Progress,
) -> Result<Vec<GradedMove>, GradeError> {
    grade_positions_until(
        factory,
        positions,
        jobs,
        solvers,
        progress,
        &Interrupt::new(),
    )
}

/// [`grade_positions`] that `stop` can end early: each position checks it first, and the
/// agent and the solver poll it; then [`GradeError::Interrupted`] (a move cut short is not the
/// agent's move, so no partial grades).
pub fn grade_positions_until<B: AgentBoard>(
    factory: &AgentFactory<B>,
    positions: &[(Position<B>, Option<i32>)],
    jobs: usize,
    solvers: &SolverPool,
    progress: &dyn connect4_engine::progress::Progress,
    stop: &Interrupt,
) -> Result<Vec<GradedMove>, GradeError> {
    let geom = match positions.first() {
        Some((p, _)) => p.geometry(),
        None => return Ok(Vec::new()),
    };
    // One solver per worker, made now: a table too big fails here, clearly.
    solvers.prepare(geom, jobs.max(1))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|source| GradeError::Threads { jobs, source })?;
    pool.install(|| {
        positions
            .par_iter()
            .enumerate()
            .map(|(i, (pos, known))| {
                if stop.should_stop() {
                    return Err(GradeError::Interrupted);
                }
                let mut agent = factory.build(i as u64)?;
                agent.set_interrupt(Some(stop.clone()));
                // Prepared above for every worker: taking allocates nothing.
                let mut solver = solvers.take(geom)?;
                solver.set_interrupt(Some(stop.clone()));
                let t = Instant::now();
                let column = agent.choose(&Turn::new(*pos));
                let ms = t.elapsed().as_secs_f64() * 1e3;
                let score = known.unwrap_or_else(|| solver.solve(pos));
                let graded = grade_move(&mut solver, pos, score, column, ms);
                solvers.put(solver);
                if stop.should_stop() {
                    return Err(GradeError::Interrupted);
                }
                progress.advance(1);
                Ok(graded)
            })
            .collect()
    })
}
