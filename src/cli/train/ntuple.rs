//! `c4 train ntuple`: an n-tuple network by TD self-play and/or supervised LMS on
//! solver-labelled positions, with its learning curve.

use anyhow::{Result, bail};
use clap::Args;
use connect4_ml::Geometry;
use connect4_ml::io::model_format::TrainingMeta;
use connect4_ml::progress::Progress;
use connect4_ml::train::ntuple::{
    Checkpointing, CurveProbe, Machine, NTupleConfig, save_run, train_ntuple,
};
use std::path::PathBuf;

/// `c4 train ntuple`'s options. Those marked (recipe) change one key of the recipe
/// (`--recipe FILE`, default the shipped `recipes/ntuple.toml`); left out, the recipe's value
/// holds. The others say how this machine runs it.
#[derive(Args, Debug)]
pub struct NTupleArgs {
    /// The recipe: a TOML file (as `recipes/ntuple.toml`), or a model file that recorded
    /// the recipe it was trained with (e.g. models/ntuple.bin). Default: the shipped recipe.
    #[arg(long, value_name = "FILE")]
    recipe: Option<PathBuf>,
    /// Change one key of the recipe: `--set rate=0.003 --set layout.cells=7` (after the
    /// recipe file and the flags below).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Print the recipe (after --recipe, the flags and --set) as TOML and stop.
    #[arg(long)]
    print_recipe: bool,
    /// (recipe) Self-play games (0: none).
    #[arg(long)]
    games: Option<usize>,
    /// Solver-labelled "MOVES SCORE" files to fit first (e.g. data/positions/train.txt.gz).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    supervised: Vec<PathBuf>,
    /// Also fit the UCI file's labelled 8-stone positions.
    #[arg(long, value_name = "PATH")]
    uci: Option<PathBuf>,
    /// (recipe) Passes over the labelled positions.
    #[arg(long)]
    epochs: Option<usize>,
    /// (recipe) Step size of the supervised passes.
    #[arg(long)]
    supervised_rate: Option<f32>,
    /// (recipe) What a labelled position teaches: wdl, score.
    #[arg(long)]
    target: Option<String>,
    /// (recipe) Which source first when both are given: supervised-first, self-play-first.
    #[arg(long)]
    order: Option<String>,
    /// (recipe) Self-play step size at the first game.
    #[arg(long)]
    rate: Option<f32>,
    /// (recipe) ... and at the last (geometric decay).
    #[arg(long)]
    rate_final: Option<f32>,
    /// (recipe) Chance of a random move at the first game.
    #[arg(long)]
    epsilon: Option<f32>,
    /// (recipe) ... and at the last.
    #[arg(long)]
    epsilon_final: Option<f32>,
    /// (recipe) TD(lambda)'s trace decay (0: TD(0)).
    #[arg(long)]
    lambda: Option<f32>,
    /// (recipe) Random plies opening each self-play game.
    #[arg(long)]
    opening: Option<usize>,
    /// (recipe) Tuples in the network.
    #[arg(long)]
    tuples: Option<usize>,
    /// (recipe) Cells per tuple.
    #[arg(long)]
    cells: Option<usize>,
    /// (recipe) Tables per tuple: 2 (one per side to move) or 1.
    #[arg(long)]
    sets: Option<usize>,
    /// (recipe) Seed of the random walks that choose the tuples' cells.
    #[arg(long)]
    layout_seed: Option<u64>,
    /// Measure the curve every K self-play games, at the end of the round that reaches K
    /// (0: only after each part).
    #[arg(long, default_value_t = Machine::default().curve_every)]
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
    /// (recipe) Seed of the run.
    #[arg(long)]
    seed: Option<u64>,
    /// Where the network goes; the curve (.curve.csv) and report (.report.json) beside it.
    #[arg(long, default_value = "models/ntuple.bin")]
    out: PathBuf,
    /// Save the training state to OUT's `.checkpoint` file every K games, at the end of the
    /// round that reaches K (0: never).
    #[arg(long, default_value_t = 250_000)]
    checkpoint_every: usize,
    /// Continue from OUT's checkpoint (same recipe; any number of threads).
    #[arg(long)]
    resume: bool,
    /// (recipe) Self-play's learning rule: td, tcl.
    #[arg(long)]
    rule: Option<String>,
    /// (recipe) Self-play's greedy moves take immediate wins and never hand one over (true
    /// in the shipped recipe: it lifts first-player wins against perfect play from 57% to
    /// 90% at 3M games).
    #[arg(long)]
    safe: Option<bool>,
    /// Train R runs of this recipe with seeds SEED, SEED+1, ...: each is saved as
    /// `OUT-STEM.runK.bin` with its curve, every run's matches against the perfect player go
    /// to `OUT-STEM.perfect.csv`, and OUT is a copy of the run that won most as first player
    /// at its last curve point (pick again on fresh games with `c4 train ntuple-pick`).
    #[arg(long, default_value_t = 1, value_parser = crate::cli::at_least_one)]
    runs: usize,
    /// Threads that run self-play's lanes (default: every core). What is learned does not
    /// depend on it: a seed gives the same network on any number of threads.
    #[arg(long, value_parser = crate::cli::at_least_one)]
    threads: Option<usize>,
    /// (recipe) Lanes of self-play: the most threads that add speed, and part of what is
    /// learned.
    #[arg(long)]
    lanes: Option<usize>,
    /// (recipe) Games each lane plays in a round.
    #[arg(long)]
    lane_games: Option<usize>,
    /// (recipe) Hand over the mean of the weights over the run's last share F of self-play
    /// games (a snapshot every round) instead of the last weights (0: no averaging).
    #[arg(long, value_name = "F")]
    tail: Option<f32>,
    /// (recipe) What self-play's step minimizes: mse (squared error through the squash),
    /// log (cross-entropy of the win chance: a wrong saturated value learns).
    #[arg(long)]
    loss: Option<String>,
    /// (recipe) Which columns self-play's random moves are drawn from: any, safe (only those
    /// the one-move rule allows).
    #[arg(long)]
    explore: Option<String>,
    /// (recipe) Whose exploring moves the values learn through instead of cutting the
    /// trace: none (values of greedy play), first (as second player the network learns what
    /// a fallible first player hands it), all (on-policy TD).
    #[arg(long)]
    learn_explored: Option<String>,
}

impl NTupleArgs {
    /// The recipe: the file (or the shipped one), then the recipe flags given, then each
    /// `--set`, each checked.
    fn recipe(&self) -> Result<NTupleConfig> {
        let mut config = match &self.recipe {
            Some(path) => NTupleConfig::from_file(path)?,
            None => NTupleConfig::default(),
        };
        let flags: Vec<(&str, Option<String>)> = vec![
            ("games", self.games.map(|v| v.to_string())),
            ("epochs", self.epochs.map(|v| v.to_string())),
            (
                "supervised_rate",
                self.supervised_rate.map(|v| v.to_string()),
            ),
            ("target", self.target.clone()),
            ("order", self.order.clone()),
            ("rate", self.rate.map(|v| v.to_string())),
            ("rate_final", self.rate_final.map(|v| v.to_string())),
            ("epsilon", self.epsilon.map(|v| v.to_string())),
            ("epsilon_final", self.epsilon_final.map(|v| v.to_string())),
            ("lambda", self.lambda.map(|v| v.to_string())),
            ("opening", self.opening.map(|v| v.to_string())),
            ("layout.tuples", self.tuples.map(|v| v.to_string())),
            ("layout.cells", self.cells.map(|v| v.to_string())),
            ("layout.sets", self.sets.map(|v| v.to_string())),
            ("layout.seed", self.layout_seed.map(|v| v.to_string())),
            ("seed", self.seed.map(|v| v.to_string())),
            ("rule", self.rule.clone()),
            ("safe", self.safe.map(|v| v.to_string())),
            ("lanes", self.lanes.map(|v| v.to_string())),
            ("lane_games", self.lane_games.map(|v| v.to_string())),
            ("tail", self.tail.map(|v| v.to_string())),
            ("loss", self.loss.clone()),
            ("explore", self.explore.clone()),
            ("learn_explored", self.learn_explored.clone()),
        ];
        for (key, value) in flags {
            if let Some(v) = value {
                config
                    .set(key, &quoted(&v))
                    .map_err(|e| anyhow::anyhow!("--{}: {e}", flag_name(key)))?;
            }
        }
        for kv in &self.set {
            let Some((k, v)) = kv.split_once('=') else {
                bail!("--set {kv}: expected KEY=VALUE, e.g. --set rate=0.003");
            };
            config.set(k.trim(), v.trim())?;
        }
        Ok(config)
    }
}

/// The command-line flag that sets a recipe key.
fn flag_name(key: &str) -> String {
    match key {
        "layout.seed" => "layout-seed".into(),
        k => k.trim_start_matches("layout.").replace('_', "-"),
    }
}

/// A flag's value as TOML: numbers and booleans as they are, words as strings.
fn quoted(v: &str) -> String {
    if v.parse::<f64>().is_ok() || v == "true" || v == "false" {
        v.to_string()
    } else {
        format!("{v:?}")
    }
}

pub(super) fn run_ntuple(a: NTupleArgs) -> Result<()> {
    let geom = Geometry::default();
    let config = a.recipe()?;
    if a.print_recipe {
        print!("{}", config.to_toml());
        return Ok(());
    }
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
    if examples.is_empty() && config.games == 0 {
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
                config.seed,
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
            seed: config.seed + k as u64,
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
    let machine = Machine {
        threads: a.threads.unwrap_or_else(rayon::current_num_threads),
        curve_every: a.curve_every,
    };
    let run = train_ntuple(
        config,
        geom,
        examples,
        probe,
        Some(&checkpoint),
        &machine,
        bars,
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
    let mut meta = TrainingMeta::new(crate::cli::command_line(), config.seed)
        .rows(run.labelled + run.games)
        .data(notes)
        .recipe(config.to_toml());
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
