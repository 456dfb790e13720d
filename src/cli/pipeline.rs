//! `c4 pipeline`: the main job, end to end (see `connect4_ml::pipeline`).

use anyhow::{Result, bail};
use clap::Args;
use connect4_engine::Geometry;
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
    /// The UCI data file, plain or .Z (default on 7x6: the copy the repository ships,
    /// data/uci/connect-4.data.Z; its positions are 7x6, so other boards go without it).
    #[arg(long)]
    uci: Option<PathBuf>,
    /// Leave the UCI file out: the GBT learns from self-play positions only.
    #[arg(long, conflicts_with = "uci")]
    no_uci: bool,
    /// Solver-labelled training positions ("MOVES SCORE", plain or gzip) of the run's board:
    /// the LMS fit's data and more GBT rows (default on 7x6: data/positions/train.txt.gz; on
    /// other boards the fit reads the data stage's own labelled positions).
    #[arg(long)]
    positions: Option<PathBuf>,
    /// Labelled positions no model trains on: the GBT's accuracy on them by stones (default
    /// on 7x6: data/positions/heldout.txt.gz).
    #[arg(long)]
    heldout: Option<PathBuf>,
    /// Leave both labelled position files out (the run of earlier versions).
    #[arg(long, conflicts_with_all = ["positions", "heldout"])]
    no_positions: bool,
    /// Folder of the benchmark sets graded against the solver (end-easy, middle-easy, ...;
    /// default on 7x6: data/bench). They are 7x6 positions: on other boards the bench stage
    /// grades the data stage's held-out positions instead.
    #[arg(long)]
    bench: Option<PathBuf>,
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
    /// The board every stage learns and plays on (boards of up to 64 bits).
    #[command(flatten)]
    board: super::BoardArgs,
}

pub fn run(a: PipelineArgs, book: super::BookChoice) -> Result<()> {
    if a.board.is_wide()? {
        bail!(
            "c4 pipeline plays boards of up to 64 bits; {}x{} takes {}: train its network with `c4 train ntuple --width {} --height {}`",
            a.board.width,
            a.board.height,
            a.board.width * (a.board.height + 1),
            a.board.width,
            a.board.height
        );
    }
    let geometry = a.board.geometry()?;
    // The shipped files are 7x6 ones: on another board only files named on the command
    // line are read (and checked against the board).
    let standard = geometry == Geometry::STANDARD;
    let shipped = |given: Option<PathBuf>, default: &str| {
        given.or_else(|| standard.then(|| PathBuf::from(default)))
    };
    let config = PipelineConfig {
        out: a.out,
        quick: a.quick,
        seed: a.seed,
        geometry,
        uci: shipped(a.uci, connect4_learn::datasets::uci::DEFAULT_UCI_PATH).filter(|_| !a.no_uci),
        positions: shipped(a.positions, "data/positions/train.txt.gz").filter(|_| !a.no_positions),
        heldout: shipped(a.heldout, "data/positions/heldout.txt.gz").filter(|_| !a.no_positions),
        bench: a.pons.or(a.bench).or_else(|| {
            standard
                .then(|| PathBuf::from(connect4_learn::arena::benchmark_sets::DEFAULT_BENCH_DIR))
        }),
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
