//! `c4 train ntuple`: an n-tuple network by TD self-play and/or supervised LMS on
//! solver-labelled positions, with its learning curve.

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use connect4_ml::Geometry;
use connect4_ml::io::model_format::TrainingMeta;
use connect4_ml::ml::ntuple::NTupleLayout;
use connect4_ml::progress::Progress;
use connect4_ml::train::ntuple::{
    Checkpointing, CurveProbe, Explore, LearnExplored, Loss, NTupleConfig, Order, Rule, Target,
    save_run, train_ntuple,
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

/// `--loss` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LossArg {
    /// Squared error through the squash: steps shrink where the value saturates.
    Mse,
    /// Cross-entropy of the win chance: the step is the error alone.
    Log,
}

/// `--explore` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ExploreArg {
    /// Any legal column.
    Any,
    /// Only the columns the one-move rule allows.
    Safe,
}

/// `--learn-explored` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LearnExploredArg {
    /// Every exploring move cuts the trace.
    None,
    /// Learn through the first player's exploring moves only.
    First,
    /// Learn through every exploring move.
    All,
}

/// `--rule` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum RuleArg {
    /// One step size for every weight.
    Td,
    /// Temporal coherence learning: per-weight steps that shrink as updates disagree.
    Tcl,
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
    /// Games of each curve match against the perfect player (`perfect:ties=random`): as
    /// first player from the empty board, and as second against each `--curve-eps` (0: none).
    #[arg(long, default_value_t = 100)]
    curve_perfect: usize,
    /// The perfect player's shares of random safe moves in the second-player matches.
    #[arg(long, value_delimiter = ',', default_value = "0.1,0.2,0.3")]
    curve_eps: Vec<f64>,
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
    #[arg(long, default_value_t = 250_000)]
    checkpoint_every: usize,
    /// Continue from OUT's checkpoint (same settings).
    #[arg(long)]
    resume: bool,
    /// Self-play's learning rule.
    #[arg(long, value_enum, default_value = "td")]
    rule: RuleArg,
    /// Self-play's greedy moves take immediate wins and never hand one over (true by
    /// default: it lifts first-player wins against perfect play from 57% to 90% at 3M games).
    #[arg(long, default_value_t = NTupleConfig::default().safe, action = clap::ArgAction::Set)]
    safe: bool,
    /// Train R runs of this recipe with seeds SEED, SEED+1, ...: each is saved as
    /// `OUT-STEM.runK.bin` with its curve, every run's matches against the perfect player go
    /// to `OUT-STEM.perfect.csv`, and OUT is a copy of the run that won most as first player
    /// at its last curve point (pick again on fresh games with `c4 train ntuple-pick`).
    #[arg(long, default_value_t = 1, value_parser = crate::cli::at_least_one)]
    runs: usize,
    /// Self-play workers sharing one network (default: every core; 1 replays a seed exactly).
    #[arg(long, value_parser = crate::cli::at_least_one)]
    threads: Option<usize>,
    /// Hand over the mean of the weights over the run's last share F of self-play games
    /// (a snapshot every round of 2,000 games per worker) instead of the last weights
    /// (0: no averaging).
    #[arg(long, value_name = "F", default_value_t = NTupleConfig::default().tail)]
    tail: f32,
    /// What self-play's step minimizes: squared error through the squash, or
    /// cross-entropy of the win chance (no slope factor: a wrong saturated value learns).
    #[arg(long, value_enum, default_value = "log")]
    loss: LossArg,
    /// Which columns self-play's random moves are drawn from: any legal one, or only those
    /// the one-move rule allows (no exploring move hands over a win at once).
    #[arg(long, value_enum, default_value = "safe")]
    explore: ExploreArg,
    /// Whose exploring moves the values learn through instead of cutting the trace: nobody's
    /// (values of greedy play), the first player's only (as second player the network
    /// learns what a fallible first player hands it), or everyone's (on-policy TD).
    #[arg(long, value_enum, default_value = "none")]
    learn_explored: LearnExploredArg,
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
        rule: match a.rule {
            RuleArg::Td => Rule::Td,
            RuleArg::Tcl => Rule::Tcl,
        },
        safe: a.safe,
        threads: a.threads.unwrap_or_else(rayon::current_num_threads),
        tail: a.tail,
        loss: match a.loss {
            LossArg::Mse => Loss::Mse,
            LossArg::Log => Loss::Log,
        },
        explore: match a.explore {
            ExploreArg::Any => Explore::Any,
            ExploreArg::Safe => Explore::Safe,
        },
        learn_explored: match a.learn_explored {
            LearnExploredArg::None => LearnExplored::None,
            LearnExploredArg::First => LearnExplored::First,
            LearnExploredArg::All => LearnExplored::All,
        },
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
        Some(
            CurveProbe::cached(
                &a.curve_bench,
                &read,
                &write,
                a.curve_positions,
                a.curve_games,
                a.seed,
                &bars,
            )?
            .with_perfect(a.curve_perfect, &a.curve_eps)?,
        )
    } else {
        None
    };
    if a.runs == 1 {
        let (_, written) = train_one(
            &a,
            &config,
            geom,
            &examples,
            probe.as_ref(),
            &bars,
            &a.out,
            notes,
        )?;
        crate::cli::print_written(&written);
        return Ok(());
    }
    let mut runs = Vec::new();
    let mut written = Vec::new();
    for k in 0..a.runs {
        let cfg = NTupleConfig {
            seed: a.seed + k as u64,
            ..config.clone()
        };
        let out = connect4_ml::io::beside(&a.out, &format!(".run{k}.bin"));
        bars.note(&format!("run {k} of {}: seed {}", a.runs, cfg.seed));
        let (run, w) = train_one(
            &a,
            &cfg,
            geom,
            &examples,
            probe.as_ref(),
            &bars,
            &out,
            notes.clone(),
        )?;
        written.extend(w);
        runs.push((k, cfg.seed, run.curve, out));
    }
    let table: Vec<(usize, u64, &[connect4_ml::train::ntuple::CurvePoint])> =
        runs.iter().map(|(k, s, c, _)| (*k, *s, &c[..])).collect();
    let perfect = connect4_ml::io::beside(&a.out, ".perfect.csv");
    connect4_ml::train::ntuple::write_perfect_csv(&perfect, &table)?;
    written.push(perfect);
    // The run that won most as first player at its last point (then most as second).
    let last_wins = |c: &[connect4_ml::train::ntuple::CurvePoint]| -> (usize, usize) {
        c.last().map_or((0, 0), |pt| {
            let wins = |side: &str| -> usize {
                pt.vs_perfect
                    .iter()
                    .filter(|m| m.side == side)
                    .map(|m| m.wins)
                    .sum()
            };
            (wins("first"), wins("second"))
        })
    };
    let best = runs
        .iter()
        .max_by_key(|(k, _, c, _)| (last_wins(c), std::cmp::Reverse(*k)))
        .expect("at least one run");
    println!(
        "runs: {}; best at the last curve point: run {} (seed {}), {:?} wins (first, second)",
        a.runs,
        best.0,
        best.1,
        last_wins(&best.2)
    );
    connect4_ml::io::write_bytes_atomic(&a.out, &std::fs::read(&best.3)?)?;
    written.push(a.out.clone());
    crate::cli::print_written(&written);
    Ok(())
}

/// Trains and saves one run to `out`; returns it and the files written.
#[allow(clippy::too_many_arguments)]
fn train_one(
    a: &NTupleArgs,
    config: &NTupleConfig,
    geom: Geometry,
    examples: &[connect4_ml::datasets::Example],
    probe: Option<&CurveProbe>,
    bars: &crate::cli::Bars,
    out: &std::path::Path,
    notes: Vec<String>,
) -> Result<(connect4_ml::train::ntuple::NTupleRun, Vec<PathBuf>)> {
    let checkpoint = Checkpointing {
        path: connect4_ml::io::beside(out, ".checkpoint"),
        every: a.checkpoint_every,
        resume: a.resume,
    };
    let run = train_ntuple(config, geom, examples, probe, Some(&checkpoint), bars)?;
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
    let mut meta = TrainingMeta::new(crate::cli::command_line(), config.seed)
        .rows(run.labelled + run.games)
        .data(notes);
    if let Some(last) = run.curve.last() {
        let mut metrics = vec![("curve_score".to_string(), last.score)];
        metrics.extend(
            last.mistakes
                .iter()
                .map(|(s, m)| (format!("mistakes_{s}"), *m)),
        );
        metrics.extend(
            last.vs_perfect
                .iter()
                .map(|m| (format!("perfect_{}_eps{}_wins", m.side, m.eps), m.win_rate)),
        );
        meta = meta.metrics(metrics);
    }
    let written = save_run(out, config, &run, meta)?;
    let _ = std::fs::remove_file(&checkpoint.path);
    Ok((run, written))
}
