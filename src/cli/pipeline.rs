//! `c4 pipeline`: the main job, end to end (see `connect4_ml::pipeline`).

use anyhow::Result;
use clap::Args;
use connect4_engine::progress::Progress;
use connect4_ml::pipeline::{PipelineConfig, run_pipeline};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct PipelineArgs {
    /// The run directory (data, models, tournaments, benchmarks, plots, report.md).
    #[arg(long, default_value = "runs/pipeline")]
    out: PathBuf,
    /// The small run (about 10 s; the tests use it) instead of the default (about 2 minutes).
    #[arg(long)]
    quick: bool,
    /// Seed of every stage: the same seed gives the same data, models and games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The UCI data file, plain or .Z (default: the copy the repository ships).
    #[arg(long, default_value = connect4_learn::datasets::uci::DEFAULT_UCI_PATH)]
    uci: PathBuf,
    /// Leave the UCI file out: the GBT learns from self-play positions only.
    #[arg(long, conflicts_with = "uci")]
    no_uci: bool,
    /// Solver-labelled training positions ("MOVES SCORE", plain or gzip): the LMS fit's data
    /// and more GBT rows.
    #[arg(long, default_value = "data/positions/train.txt.gz")]
    positions: PathBuf,
    /// Labelled positions no model trains on: the GBT's accuracy on them by stones.
    #[arg(long, default_value = "data/positions/heldout.txt.gz")]
    heldout: PathBuf,
    /// Leave both labelled position files out (the run of earlier versions).
    #[arg(long, conflicts_with_all = ["positions", "heldout"])]
    no_positions: bool,
    /// Folder of the benchmark sets graded against the solver (end-easy, middle-easy, ...).
    #[arg(long, default_value = connect4_learn::arena::bench_sets::DEFAULT_BENCH_DIR)]
    bench: PathBuf,
    /// Grade on the Pons benchmark files of this folder (Test_L3_R1, ...) instead of --bench.
    #[arg(long, conflicts_with = "bench")]
    pons: Option<PathBuf>,
    /// Skip the stages whose recorded outputs (stages/NAME.json) are complete and unchanged
    /// and were made with the same settings; run the rest.
    #[arg(long)]
    resume: bool,
    /// Worker threads for games and grading.
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()), value_parser = super::at_least_one)]
    jobs: usize,
}

pub fn run(a: PipelineArgs, book: super::BookChoice) -> Result<()> {
    let config = PipelineConfig {
        out: a.out,
        quick: a.quick,
        seed: a.seed,
        uci: (!a.no_uci).then_some(a.uci),
        positions: (!a.no_positions).then_some(a.positions),
        heldout: (!a.no_positions).then_some(a.heldout),
        bench: a.pons.unwrap_or(a.bench),
        resume: a.resume,
        jobs: a.jobs,
        book,
    };
    let bars = super::Bars::new();
    let t = std::time::Instant::now();
    let result = run_pipeline(&config, &bars);
    bars.finish();
    let report = result?;
    println!(
        "pipeline finished in {:.1} s; report: {}",
        t.elapsed().as_secs_f64(),
        report.display()
    );
    Ok(())
}
