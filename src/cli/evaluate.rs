//! `c4 evaluate`: each agent against a baseline, with intervals, and graded by the solver.

use anyhow::{Context, Result};
use clap::Args;
use connect4_engine::Geometry;
use connect4_engine::progress::Progress;
use connect4_learn::arena::benchmark_sets::BenchSet;
use connect4_learn::arena::evaluate::{EvaluateConfig, evaluate, work_items};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct EvaluateArgs {
    /// Agents to evaluate (each one against the baseline), e.g.
    /// `--agent model:models/gbt.bin,depth=3 lms:models/lms.bin,depth=3`.
    #[arg(long, num_args = 1.., required = true)]
    agent: Vec<String>,
    /// What every agent plays against.
    #[arg(long, default_value = "handtuned:depth=3")]
    baseline: String,
    /// Games per agent and seed (colours alternate; pairs of games share an opening).
    #[arg(long, default_value_t = 400, value_parser = super::at_least_one)]
    games: usize,
    /// Seeds: the match is played once per seed from --seed on, all games pooled.
    #[arg(long, default_value_t = 1, value_parser = super::at_least_one)]
    seeds: usize,
    /// Random opening plies of every game (0: every game from the empty board).
    #[arg(long, default_value_t = 2)]
    openings: usize,
    /// Which colour the agents play: first, second or both (alternating).
    #[arg(long, default_value = "both")]
    side: connect4_learn::arena::Side,
    /// First seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Folder of benchmark sets to grade moves on.
    #[arg(long, default_value = connect4_learn::arena::benchmark_sets::DEFAULT_BENCH_DIR)]
    bench: PathBuf,
    /// Sets to grade on (begin-hard is left out by default: grading it takes seconds per move).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "end-easy,middle-easy,middle-medium,begin-easy,begin-medium"
    )]
    sets: Vec<String>,
    /// Positions graded per set (0 = no grading).
    #[arg(long, default_value_t = 200)]
    positions: usize,
    /// Also play each agent on the baseline's mean time per move (searching agents only).
    #[arg(long)]
    equal_time: bool,
    /// Worker threads (default: every core).
    #[arg(long, value_parser = super::at_least_one)]
    jobs: Option<usize>,
    /// Solver table per grading worker, MiB.
    #[arg(long, default_value_t = 64)]
    tt_mib: usize,
    /// Output folder: evaluate.json, score.png/svg, errors.png/svg.
    #[arg(long)]
    out: PathBuf,
    /// The board (the benchmark sets are 7x6 positions: on another board no move is graded).
    #[command(flatten)]
    board: super::BoardArgs,
}

pub fn run(a: EvaluateArgs, book: super::BookChoice) -> Result<()> {
    // Boards past 64 bits run the same code on `u128` bitboards.
    if a.board.is_wide()? {
        let geometry = a.board.wide_geometry()?;
        return run_on(geometry, a, book);
    }
    let geometry = a.board.geometry()?;
    run_on(geometry, a, book)
}

fn run_on<B: connect4_engine::agents::AgentBoard>(
    geometry: Geometry<B>,
    a: EvaluateArgs,
    book: super::BookChoice,
) -> Result<()> {
    let agents = connect4_engine::agents::split_agent_list(&a.agent)
        .iter()
        .map(|s| super::parse_agent(s))
        .collect::<Result<Vec<_>>>()?;
    let baseline = super::parse_agent(&a.baseline).context("--baseline")?;
    let mut bench = Vec::new();
    if a.positions > 0 && geometry.narrow() != Some(Geometry::STANDARD) {
        println!("note: the benchmark sets are 7x6 positions: no move graded on {geometry}");
    } else if a.positions > 0 {
        for name in &a.sets {
            let set = BenchSet::named(name).with_context(|| {
                format!(
                    "--sets: unknown benchmark set {name:?}; known: end-easy, middle-easy, middle-medium, begin-easy, begin-medium, begin-hard"
                )
            })?;
            let path = set.file_in(&a.bench).with_context(|| {
                format!(
                    "set {} not found in {} (--bench)",
                    set.name,
                    a.bench.display()
                )
            })?;
            let positions =
                connect4_learn::arena::read_graded_file(&path, geometry, Some(a.positions))?;
            bench.push((set.name.to_string(), positions));
        }
    }
    let cfg = EvaluateConfig {
        agents,
        baseline,
        games: a.games,
        seeds: a.seeds,
        openings: a.openings,
        seed: a.seed,
        bench,
        equal_time: a.equal_time,
        jobs: a.jobs.unwrap_or_else(rayon::current_num_threads),
        tt_mib: a.tt_mib,
        geometry,
        side: a.side,
        book,
    };
    let bars = super::Bars::new();
    bars.start("games and graded positions", work_items(&cfg));
    let report = evaluate(&cfg, &bars)?;
    bars.finish();
    print!("{}", report.text());
    std::fs::create_dir_all(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    let json = a.out.join("evaluate.json");
    connect4_engine::io::write_json_atomic(&json, &report)
        .with_context(|| format!("writing {}", json.display()))?;
    let mut written = vec![json];
    for (stem, chart) in connect4_ml::plot::evaluation::charts(&report) {
        written.extend(chart.save(&a.out.join(stem))?);
    }
    super::print_written(&written);
    Ok(())
}
