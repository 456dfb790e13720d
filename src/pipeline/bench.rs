//! Stage 7, bench: every agent but the oracle graded against the solver, one move per
//! benchmark position: the benchmark sets' on 7x6, the data stage's held-out positions by
//! phase on other boards.

use super::data::DataSplit;
use super::inputs::{GradedInput, Inputs};
use super::{PipelineConfig, PipelineError, Sizes, agents, fail};
use connect4_engine::agents::AgentSpec;
use connect4_engine::game::Geometry;
use connect4_engine::io::{write_csv_atomic, write_json_atomic};
use connect4_engine::progress::Progress;
use connect4_learn::arena::{GradeSummary, grade_positions};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One row of `bench/moves.csv`: a graded move with the position's ply.
#[derive(Serialize)]
struct MoveRow<'a> {
    agent: &'a str,
    set: &'a str,
    index: usize,
    ply: usize,
    column: usize,
    score: i32,
    optimal: bool,
    error: bool,
    ms: f64,
}

/// What the bench stage produced.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BenchResult {
    /// The sets graded (file names), in order.
    pub sets: Vec<String>,
    /// Positions graded per set.
    pub positions: usize,
    /// The agents graded, by roster name.
    pub agents: Vec<String>,
    /// One summary per agent and set.
    pub summaries: Vec<GradeSummary>,
}

/// The phases of the held-out sets off 7x6, by the share of the board's cells filled.
const PHASES: [&str; 3] = ["heldout-begin", "heldout-middle", "heldout-end"];

/// Off 7x6: the data stage's held-out positions (already in a seeded order) in three sets by
/// phase (under a third of the cells filled, under two thirds, the rest), the first
/// `per_set` of each; a phase without positions is left out.
pub(crate) fn heldout_sets(
    split: &DataSplit,
    geom: Geometry,
    per_set: usize,
) -> Vec<(String, Vec<GradedInput>)> {
    let cells = geom.cells();
    let mut sets: Vec<(String, Vec<GradedInput>)> =
        PHASES.iter().map(|n| (n.to_string(), Vec::new())).collect();
    for p in &split.held_out {
        let phase = (3 * p.position.moves_played() / cells).min(2);
        if sets[phase].1.len() < per_set {
            // The labels are win / draw / loss only: the grader solves each position itself.
            sets[phase].1.push((p.position, None));
        }
    }
    sets.retain(|(_, positions)| !positions.is_empty());
    sets
}

/// Grades every agent but `perfect` on the checked benchmark positions (7x6), or without a
/// benchmark folder (other boards) on the held-out positions of the data stage.
pub fn run(
    config: &PipelineConfig,
    sizes: &Sizes,
    inputs: &Inputs,
    split: &DataSplit,
    observer: &dyn Progress,
) -> Result<(BenchResult, Vec<PathBuf>), PipelineError> {
    let geom = config.geometry;
    let heldout;
    let files = if config.bench.is_some() {
        &inputs.bench
    } else {
        heldout = heldout_sets(split, geom, sizes.bench_positions);
        &heldout
    };
    let graded_agents: Vec<(String, AgentSpec)> = agents(&config.out, sizes.depth, config.geometry)
        .map_err(fail("bench"))?
        .into_iter()
        .filter(|(n, _)| n != "perfect")
        .collect();
    let total = graded_agents.len() * files.iter().map(|f| f.1.len()).sum::<usize>();
    observer.start("bench: graded moves", total);
    let mut summaries = Vec::new();
    let mut moves = Vec::new();
    for (name, spec) in &graded_agents {
        let factory = spec
            .factory_with_book(geom, config.book.clone())
            .map_err(fail("bench"))?;
        let solvers = connect4_engine::solver::SolverPool::new(64).with_book(config.book.clone());
        for (set, positions) in files {
            let graded = grade_positions(&factory, positions, config.jobs, &solvers, observer)
                .map_err(fail("bench"))?;
            for (i, (g, (pos, _))) in graded.iter().zip(positions).enumerate() {
                moves.push((name.clone(), set.clone(), i, pos.moves_played(), g.clone()));
            }
            summaries.push(GradeSummary::from_moves(name, set, &graded));
        }
    }
    observer.finish();
    let rates = config.out.join("bench/error_rates.json");
    write_json_atomic(&rates, &summaries).map_err(fail("bench"))?;
    let rows: Vec<MoveRow> = moves
        .iter()
        .map(|(a, s, i, ply, g)| MoveRow {
            agent: a,
            set: s,
            index: *i,
            ply: *ply,
            column: g.column + 1,
            score: g.score,
            optimal: g.optimal,
            error: g.error,
            ms: g.ms,
        })
        .collect();
    let per_move = config.out.join("bench/moves.csv");
    write_csv_atomic(&per_move, &rows).map_err(fail("bench"))?;
    Ok((
        BenchResult {
            sets: files.iter().map(|(n, _)| n.clone()).collect(),
            positions: sizes.bench_positions,
            agents: graded_agents.into_iter().map(|(n, _)| n).collect(),
            summaries,
        },
        vec![rates, per_move],
    ))
}
