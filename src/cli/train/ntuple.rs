//! `c4 train ntuple`: an n-tuple network by TD self-play and/or supervised LMS on
//! solver-labelled positions, with its learning curve.

use anyhow::{Result, bail};
use clap::Args;
use connect4_engine::Geometry;
use connect4_engine::io::model_format::TrainingMeta;
use connect4_learn::train::ntuple::{
    CurveProbe, Guide, Job, Machine, NTupleConfig, RecipeError, ValidNTupleConfig, collapse,
    kept_summary, recipe_keys, train_job,
};
use linfa::ParamGuard;
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
    /// One flag per key of the recipe (`--games N`, `--rate A`, `--cells C`, `--layout-seed
    /// S`, ...), made from recipes/ntuple.toml: its keys, and its comments as their help.
    #[command(flatten)]
    keys: RecipeFlags,
    /// Solver-labelled "MOVES SCORE" files to fit first (e.g. data/positions/train.txt.gz).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    supervised: Vec<PathBuf>,
    /// Also fit the UCI file's labelled 8-stone positions.
    #[arg(long, value_name = "PATH")]
    uci: Option<PathBuf>,
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
    #[arg(long, default_value = connect4_learn::arena::benchmark_sets::DEFAULT_BENCH_DIR)]
    curve_bench: PathBuf,
    /// Where the solved columns of the curve's positions are read from and, when they are
    /// not there, written to (default: read `CURVE_BENCH/curve-columns.json`, write beside
    /// OUT as `.curve-columns.json`, so that the shipped data is never overwritten).
    #[arg(long)]
    curve_cache: Option<PathBuf>,
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
}

impl NTupleArgs {
    /// Whether guided openings are asked for, not the shipped recipe's default: a recipe
    /// file (`--recipe`: it says what it wants, e.g. recipes/ntuple-6x5.toml), a flag or
    /// `--set` of their share or their guide.
    fn guided_given(&self) -> bool {
        self.recipe.is_some()
            || self
                .keys
                .given
                .iter()
                .any(|(k, _, _)| k.starts_with("guide"))
            || self
                .set
                .iter()
                .any(|kv| kv.trim_start().starts_with("guide"))
    }

    /// The recipe: the file (or the shipped one), then the recipe flags given, then each
    /// `--set`, each checked.
    fn recipe(&self) -> Result<NTupleConfig> {
        let mut config = match &self.recipe {
            Some(path) => NTupleConfig::from_file(path)?,
            None => NTupleConfig::default(),
        };
        for (key, flag, value) in &self.keys.given {
            config.set(key, &quoted(value)).map_err(|e| match e {
                RecipeError::Set { problem, .. } => anyhow::anyhow!("--{flag} {value}: {problem}"),
                e => anyhow::anyhow!("--{flag} {value}: {e}"),
            })?;
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

/// The recipe's keys as flags (`--rate 0.003`, `--cells 7`, `--layout-seed 3`): one per key
/// of the shipped recipe, named and explained by it ([`recipe_keys`]), so that a key added
/// to the recipe is a flag without a line here.
#[derive(Clone, Debug, Default)]
pub struct RecipeFlags {
    /// The keys given, in the recipe's order: (key, flag, value as typed).
    given: Vec<(String, String, String)>,
}

impl clap::FromArgMatches for RecipeFlags {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = RecipeFlags::default();
        flags.update_from_arg_matches(m)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        for k in recipe_keys() {
            if let Some(v) = m.get_one::<String>(&k.flag) {
                self.given.push((k.key, k.flag, v.clone()));
            }
        }
        Ok(())
    }
}

impl clap::Args for RecipeFlags {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        recipe_keys().into_iter().fold(cmd, |cmd, k| {
            cmd.arg(
                clap::Arg::new(k.flag.clone())
                    .long(k.flag)
                    .value_name("VALUE")
                    .help(format!("(recipe `{}`) {}", k.key, k.help)),
            )
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
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

pub(super) fn run_ntuple(a: NTupleArgs, book: crate::cli::BookChoice) -> Result<()> {
    let recipe = a.recipe()?;
    // The board first: a size out of range is the command line's to fix (exit 2).
    let (width, height) = recipe.board_size();
    let wide = connect4_engine::game::needs_wide(width, height)?;
    let geom: Geometry<u128> = Geometry::sized(width, height)?;
    let config = guided_off_7x6(&a, recipe.check()?, geom)?;
    if a.print_recipe {
        print!("{}", config.to_toml());
        return Ok(());
    }
    let (examples, notes) = labelled(&a, geom)?;
    if examples.is_empty() && config.games() == 0 {
        bail!("nothing to train on: give --games N, --supervised FILE... or --uci PATH");
    }
    let bars = crate::cli::Bars::new();
    let threads = a.threads.unwrap_or_else(rayon::current_num_threads);
    if config.games() > 0 && threads > config.lanes() {
        // Lanes, not threads, are the recipe's parallelism: say so rather than leave cores idle
        // without a word.
        println!(
            "note: the recipe plays {} lanes, so {} of the {threads} threads add no speed (--lanes N plays more, and learns another network)",
            config.lanes(),
            threads - config.lanes()
        );
    }
    let machine = Machine {
        threads,
        curve_every: a.curve_every,
        keep_best: a.keep_best,
        // The guided openings' solver reads the run's book (`--book`; the 12-ply one
        // in the repository answers every opening by lookups).
        guide: Guide::with_book(book),
        // The job checkpoints each run beside its file (`--checkpoint-every`, `--resume`).
        checkpointing: None,
    };
    let meta = TrainingMeta::new(crate::cli::command_line(), 0).data(notes);
    if wide {
        // Boards past 64 bits: the curve plays its match against `hard` (the hand-tuned
        // weights read 64-bit features) and no perfect player (the solver does not reach).
        let probe = if a.curve_positions == 0 {
            None
        } else {
            if a.curve_perfect > 0 {
                println!(
                    "note: the curve on {geom} plays no perfect player (the solver does not reach its positions in time), only hard"
                );
            }
            Some(CurveProbe::new(
                geom,
                "hard".parse()?,
                a.curve_games,
                config.seed(),
                Vec::new(),
                &bars,
            )?)
        };
        run_job(&a, config, &examples, probe.as_ref(), machine, meta, &bars)
    } else {
        let narrow = geom.narrow().expect("a board of at most 64 bits");
        let probe = curve_probe(&a, narrow, config.seed(), &bars)?;
        run_job(&a, config, &examples, probe.as_ref(), machine, meta, &bars)
    }
}

/// Guided openings off 7x6: they ask the solver for opening moves, which the 7x6 book
/// answers at once; on another board they cost a solve each (seconds on 7x5 and 6x6,
/// forever past them). They are off there unless the command line asks for them by name or
/// by a recipe file, and refused where the solver does not reach unless an agent guides
/// them (`--guide SPEC`).
fn guided_off_7x6(
    a: &NTupleArgs,
    config: ValidNTupleConfig,
    geom: Geometry<u128>,
) -> Result<ValidNTupleConfig> {
    let reaches = geom.narrow().is_some_and(connect4_engine::solver::reaches);
    if geom.narrow() == Some(Geometry::STANDARD) || config.guided() == 0.0 {
        return Ok(config);
    }
    if !a.guided_given() {
        println!(
            "note: no guided openings on {geom} (pure self-play; --guided S asks for them where the solver answers in time, --guide SPEC with an agent anywhere)"
        );
        return Ok(config.into_inner().guided(0.0).guided_final(0.0).check()?);
    }
    // An agent guide (`--guide hard`) plays on every board; the solver only where it reaches.
    if !reaches && config.solver_guides() {
        bail!(
            "guided openings (--guided, or the recipe's `guided`) on {geom}: the solver answers from the empty board only on 7x6 and boards of at most {} cells; set --guided 0, or name an agent to guide them (--guide hard)",
            connect4_engine::solver::REACHABLE_CELLS
        );
    }
    Ok(config)
}

/// The labelled positions of `--uci` and `--supervised` (none without them) and the notes
/// that name them.
fn labelled(
    a: &NTupleArgs,
    geom: Geometry<u128>,
) -> Result<(Vec<connect4_learn::datasets::Example>, Vec<String>)> {
    let (mut examples, mut notes) = (Vec::new(), Vec::new());
    if a.uci.is_some() || !a.supervised.is_empty() {
        let Some(narrow) = geom.narrow() else {
            bail!(
                "--uci and --supervised on {geom}: labelled positions are for boards of up to 64 bits; train by self-play there"
            );
        };
        let sources = connect4_learn::datasets::sources::gather(
            a.uci.as_deref(),
            &[],
            &a.supervised,
            narrow,
        )?;
        if let Some(e) = sources.uci_missing {
            bail!("{e}");
        }
        examples = sources.main;
        examples.extend(sources.extra);
        notes = sources.notes;
    }
    Ok((examples, notes))
}

/// Trains the job on boards of `B`'s bitboards and prints its runs.
fn run_job<B: connect4_engine::agents::AgentBoard>(
    a: &NTupleArgs,
    config: ValidNTupleConfig,
    examples: &[connect4_learn::datasets::Example],
    probe: Option<&CurveProbe<B>>,
    machine: Machine,
    meta: TrainingMeta,
    bars: &crate::cli::Bars,
) -> Result<()> {
    let job = Job {
        config,
        examples,
        probe,
        machine,
        checkpoint_every: a.checkpoint_every,
        resume: a.resume,
        runs: a.runs,
        out: a.out.clone(),
        meta,
    };
    let outcome = train_job(&job, bars, &mut |_, run| {
        print_run(run, job.config.epochs())
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

/// The curve probe of a run: the benchmark sets' solved columns read from the cache (or
/// solved and written beside OUT), and the perfect player's matches; none without a curve.
fn curve_probe(
    a: &NTupleArgs,
    geom: Geometry,
    seed: u64,
    bars: &crate::cli::Bars,
) -> Result<Option<CurveProbe>> {
    if a.curve_positions == 0 {
        return Ok(None);
    }
    if geom != Geometry::STANDARD {
        // The benchmark sets are 7x6 positions: on another board the curve plays its
        // matches alone, and the perfect player's only where the solver reaches.
        let perfect = if connect4_engine::solver::reaches(geom) {
            a.curve_perfect
        } else {
            if a.curve_perfect > 0 {
                println!(
                    "note: the curve on {geom} plays no perfect player (the solver does not reach its positions in time), only handtuned:depth=5"
                );
            }
            0
        };
        return Ok(Some(
            CurveProbe::new(
                geom,
                "handtuned:depth=5".parse()?,
                a.curve_games,
                seed,
                Vec::new(),
                bars,
            )?
            .with_perfect(perfect, &a.curve_eps)?,
        ));
    }
    let read = a
        .curve_cache
        .clone()
        .unwrap_or_else(|| a.curve_bench.join("curve-columns.json"));
    let write = a
        .curve_cache
        .clone()
        .unwrap_or_else(|| connect4_learn::train::outputs::curve_columns(&a.out));
    Ok(Some(
        CurveProbe::cached(
            &a.curve_bench,
            &read,
            &write,
            a.curve_positions,
            a.curve_games,
            seed,
            bars,
        )?
        .with_perfect(a.curve_perfect, &a.curve_eps)?,
    ))
}

/// What a finished run prints: its curve, its sizes and speed, where self-play's time went,
/// a collapse warning, and the point kept.
fn print_run(run: &connect4_learn::train::ntuple::JobRun, epochs: usize) {
    for pt in &run.curve {
        println!("{}", pt.summary());
    }
    println!(
        "{} weights, {} labelled positions x {} epochs, {} self-play games in {:.1} s ({:.0} games/s)",
        run.weights,
        run.labelled,
        if run.labelled > 0 { epochs } else { 0 },
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
}
