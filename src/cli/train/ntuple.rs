//! `c4 train ntuple`: an n-tuple network by TD self-play and/or supervised LMS on
//! solver-labelled positions, with its learning curve.

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use connect4_ml::Geometry;
use connect4_ml::io::model_format::TrainingMeta;
use connect4_ml::ml::ntuple::NTupleLayout;
use connect4_ml::train::ntuple::{
    Checkpointing, CurveProbe, NTupleConfig, Order, Target, save_run, train_ntuple,
};
use std::path::PathBuf;

/// `--target` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum TargetArg {
    /// Win 1, draw 0, loss -1.
    Wdl,
    /// A sooner win is worth more (0.5 to 1).
    Score,
}

/// `--order` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum OrderArg {
    /// The labelled positions first, then self-play.
    SupervisedFirst,
    /// Self-play first, then the labelled positions.
    SelfPlayFirst,
}

#[derive(Args, Debug)]
pub struct NTupleArgs {
    /// Self-play games (0: none).
    #[arg(long, default_value_t = NTupleConfig::default().games)]
    games: usize,
    /// Solver-labelled "MOVES SCORE" files to fit first (e.g. data/positions/train.txt.gz).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    supervised: Vec<PathBuf>,
    /// Also fit the UCI file's labelled 8-stone positions.
    #[arg(long, value_name = "PATH")]
    uci: Option<PathBuf>,
    /// Passes over the labelled positions.
    #[arg(long, default_value_t = NTupleConfig::default().epochs)]
    epochs: usize,
    /// Step size of the supervised passes.
    #[arg(long, default_value_t = NTupleConfig::default().supervised_rate)]
    supervised_rate: f32,
    /// What a labelled position teaches.
    #[arg(long, value_enum, default_value = "wdl")]
    target: TargetArg,
    /// Which source first when both are given.
    #[arg(long, value_enum, default_value = "supervised-first")]
    order: OrderArg,
    /// Self-play step size at the first game.
    #[arg(long, default_value_t = NTupleConfig::default().rate)]
    rate: f32,
    /// ... and at the last (geometric decay).
    #[arg(long, default_value_t = NTupleConfig::default().rate_final)]
    rate_final: f32,
    /// Chance of a random move at the first game.
    #[arg(long, default_value_t = NTupleConfig::default().epsilon)]
    epsilon: f32,
    /// ... and at the last.
    #[arg(long, default_value_t = NTupleConfig::default().epsilon_final)]
    epsilon_final: f32,
    /// TD(lambda)'s trace decay (0: TD(0)).
    #[arg(long, default_value_t = NTupleConfig::default().lambda)]
    lambda: f32,
    /// Random plies opening each self-play game.
    #[arg(long, default_value_t = NTupleConfig::default().opening)]
    opening: usize,
    /// Tuples in the network.
    #[arg(long, default_value_t = NTupleLayout::default().tuples)]
    tuples: usize,
    /// Cells per tuple.
    #[arg(long, default_value_t = NTupleLayout::default().cells)]
    cells: usize,
    /// Tables per tuple: 2 (one per side to move) or 1.
    #[arg(long, default_value_t = NTupleLayout::default().sets)]
    sets: usize,
    /// Seed of the random walks that choose the tuples' cells.
    #[arg(long, default_value_t = NTupleLayout::default().seed)]
    layout_seed: u64,
    /// Measure the curve every K self-play games (0: only after each part).
    #[arg(long, default_value_t = NTupleConfig::default().curve_every)]
    curve_every: usize,
    /// Games of each curve match against handtuned:depth=5 (0: no match).
    #[arg(long, default_value_t = 100)]
    curve_games: usize,
    /// Positions of each benchmark set the curve grades (0: no curve at all).
    #[arg(long, default_value_t = 200)]
    curve_positions: usize,
    /// Benchmark sets the curve grades (data/bench; the Pons files may be shown, never tuned on).
    #[arg(long, default_value = connect4_ml::arena::bench_sets::DEFAULT_BENCH_DIR)]
    curve_bench: PathBuf,
    /// Where the solved columns of the curve's positions are read from and, when they are
    /// not there, written to (default: read `CURVE_BENCH/curve-columns.json`, write beside
    /// OUT as `.curve-columns.json`, so that the shipped data is never overwritten).
    #[arg(long)]
    curve_cache: Option<PathBuf>,
    /// Seed of the run.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Where the network goes; the curve (.curve.csv) and report (.report.json) beside it.
    #[arg(long, default_value = "models/ntuple.bin")]
    out: PathBuf,
    /// Save the training state to OUT's `.checkpoint` file every K games (0: never).
    #[arg(long, default_value_t = 10_000)]
    checkpoint_every: usize,
    /// Continue from OUT's checkpoint (same settings).
    #[arg(long)]
    resume: bool,
}

pub(super) fn run_ntuple(a: NTupleArgs) -> Result<()> {
    let geom = Geometry::default();
    let config = NTupleConfig {
        layout: NTupleLayout {
            tuples: a.tuples,
            cells: a.cells,
            sets: a.sets,
            seed: a.layout_seed,
        },
        games: a.games,
        rate: a.rate,
        rate_final: a.rate_final,
        epsilon: a.epsilon,
        epsilon_final: a.epsilon_final,
        lambda: a.lambda,
        opening: a.opening,
        epochs: a.epochs,
        supervised_rate: a.supervised_rate,
        target: match a.target {
            TargetArg::Wdl => Target::Wdl,
            TargetArg::Score => Target::Score,
        },
        order: match a.order {
            OrderArg::SupervisedFirst => Order::SupervisedFirst,
            OrderArg::SelfPlayFirst => Order::SelfPlayFirst,
        },
        curve_every: a.curve_every,
        seed: a.seed,
    };
    config.check()?;
    let (mut examples, mut notes) = (Vec::new(), Vec::new());
    if a.uci.is_some() || !a.supervised.is_empty() {
        let sources =
            connect4_ml::datasets::sources::gather(a.uci.as_deref(), &[], &a.supervised, geom)?;
        if let Some(e) = sources.uci_missing {
            bail!("{e}");
        }
        examples = sources.main;
        examples.extend(sources.extra);
        notes = sources.notes;
    }
    if examples.is_empty() && a.games == 0 {
        bail!("nothing to train on: give --games N, --supervised FILE... or --uci PATH");
    }
    let bars = crate::cli::Bars::new();
    let probe = if a.curve_positions > 0 {
        let read = a
            .curve_cache
            .clone()
            .unwrap_or_else(|| a.curve_bench.join("curve-columns.json"));
        let write = a
            .curve_cache
            .clone()
            .unwrap_or_else(|| connect4_ml::io::beside(&a.out, ".curve-columns.json"));
        Some(CurveProbe::cached(
            &a.curve_bench,
            &read,
            &write,
            a.curve_positions,
            a.curve_games,
            a.seed,
            &bars,
        )?)
    } else {
        None
    };
    let checkpoint = Checkpointing {
        path: connect4_ml::io::beside(&a.out, ".checkpoint"),
        every: a.checkpoint_every,
        resume: a.resume,
    };
    let run = train_ntuple(
        &config,
        geom,
        &examples,
        probe.as_ref(),
        Some(&checkpoint),
        &bars,
    )?;
    for pt in &run.curve {
        println!("{}", pt.summary());
    }
    println!(
        "{} weights, {} labelled positions x {} epochs, {} self-play games in {:.1} s ({:.0} games/s)",
        run.network.len(),
        run.labelled,
        if run.labelled > 0 { config.epochs } else { 0 },
        run.games,
        run.seconds,
        run.games as f64 / run.seconds.max(1e-9)
    );
    let mut meta = TrainingMeta::new(std::env::args().collect::<Vec<_>>().join(" "), a.seed)
        .rows(run.labelled + run.games)
        .data(notes);
    if let Some(last) = run.curve.last() {
        let mut metrics = vec![("curve_score".to_string(), last.score)];
        metrics.extend(
            last.mistakes
                .iter()
                .map(|(s, m)| (format!("mistakes_{s}"), *m)),
        );
        meta = meta.metrics(metrics);
    }
    let written = save_run(&a.out, &config, &run, meta)?;
    let _ = std::fs::remove_file(&checkpoint.path);
    crate::cli::print_written(&written);
    Ok(())
}
