//! `c4 train ntuple`: an n-tuple network by TD self-play and/or supervised LMS on
//! solver-labelled positions, with its learning curve.

use anyhow::{Result, bail};
use clap::Args;
use connect4_ml::Geometry;
use connect4_ml::io::model_format::TrainingMeta;
use connect4_ml::train::ntuple::{
    CurveProbe, Job, Machine, NTupleConfig, collapse, kept_summary, train_job,
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
    /// Keep a copy of the network at the curve's best point (first-player wins against the
    /// perfect player) and hand it over instead of the last weights when the last point's
    /// 95% interval lies wholly below it: a run that unlearned what it knew keeps what it
    /// knew. It sees only the points `--curve-every` measures; what is learned never changes.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    keep_best: bool,
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
    let threads = a.threads.unwrap_or_else(rayon::current_num_threads);
    if config.games > 0 && threads > config.lanes {
        // Lanes, not threads, are the recipe's parallelism: say so rather than leave cores idle
        // without a word.
        println!(
            "note: the recipe plays {} lanes, so {} of the {threads} threads add no speed (--lanes N plays more, and learns another network)",
            config.lanes,
            threads - config.lanes
        );
    }
    let job = Job {
        config,
        geom,
        examples: &examples,
        probe: probe.as_ref(),
        machine: Machine {
            threads,
            curve_every: a.curve_every,
            keep_best: a.keep_best,
        },
        checkpoint_every: a.checkpoint_every,
        resume: a.resume,
        runs: a.runs,
        out: a.out.clone(),
        meta: TrainingMeta::new(crate::cli::command_line(), 0).data(notes),
    };
    let outcome = train_job(&job, &bars, &mut |_, run| {
        for pt in &run.curve {
            println!("{}", pt.summary());
        }
        println!(
            "{} weights, {} labelled positions x {} epochs, {} self-play games in {:.1} s ({:.0} games/s)",
            run.weights,
            run.labelled,
            if run.labelled > 0 {
                job.config.epochs
            } else {
                0
            },
            run.games,
            run.seconds,
            run.games as f64 / run.seconds.max(1e-9)
        );
        if let Some(line) = run.sync.summary() {
            println!("{line}");
        }
        if let Some(warning) = collapse(&run.curve) {
            eprintln!("warning: {warning}");
        }
        if let Some(why) = run.kept.and_then(|k| kept_summary(&run.curve, k)) {
            println!("kept: {why} (--keep-best false hands over the last)");
        }
    })?;
    if outcome.runs.len() > 1 {
        let best = &outcome.runs[outcome.best];
        println!(
            "runs: {}; best at the curve point of the network each handed over: run {} (seed {}), {:?} wins (first, second)",
            outcome.runs.len(),
            outcome.best,
            best.seed,
            best.last_wins()
        );
    }
    crate::cli::print_written(&outcome.written);
    Ok(())
}
