//! `c4 data`: the UCI data set (summary, download, exact reconstruction, label checks,
//! solver labelling) and solver-labelled self-play positions.

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use connect4_ml::Geometry;
use connect4_ml::Mode;
use connect4_ml::datasets::Label;
use connect4_ml::datasets::enumerate::{compare_with_uci, enumerate_uci};
use connect4_ml::datasets::label::{LabelJob, Shard, TableConfig, generate_uci, label_file};
use connect4_ml::datasets::labelled::write_text;
use connect4_ml::datasets::uci::{self, DEFAULT_UCI_PATH, UCI_PLY};
use connect4_ml::progress::Progress;
use connect4_ml::solver::{OrderHint, ShallowTable};
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Subcommand, Debug)]
pub enum DataCommand {
    /// Read and validate the UCI data file; print summary statistics.
    Uci(UciArgs),
    /// Download the official UCI archive, unpack connect-4.data (LZW .Z inside a zip), check
    /// its sha256 and write it (default data/uci/connect-4.data; the repository already ships
    /// the compressed file, data/uci/connect-4.data.Z).
    FetchUci(FetchArgs),
    /// Rebuild the UCI position set from the rules alone and compare it with the file.
    EnumerateUci(EnumerateArgs),
    /// Weak-solve a seeded sample of the file's rows and report agreement with its labels.
    VerifyUci(VerifyArgs),
    /// Solver-labelled positions sampled from games between two agents (CSV: 42 cells, side
    /// to move, ply, label, score, game result).
    Selfplay(SelfplayArgs),
    /// Label the whole reconstructed set with the solver (multi-threaded, resumable), writing
    /// UCI format.
    GenerateUci(GenerateArgs),
    /// Sample N distinct unlabelled positions ("MOVES" lines) spread evenly over a range of
    /// stone counts, from games of a seeded agent mix with random moves mixed in.
    Positions(PositionsArgs),
    /// Label "MOVES" lines with the solver: "MOVES SCORE" lines in the source's order
    /// (strong scores unless --weak), sharded, resumable.
    Label(LabelArgs),
    /// Merge the shards of a `c4 data label` job into one file in the source's order, after
    /// checking they are every shard once, complete, and agree; prints the sha256.
    Merge(MergeArgs),
    /// Make the six benchmark sets (end/middle/begin x easy/medium/hard, "MOVES SCORE" lines,
    /// exact scores) from games of a seeded agent mix: what data/bench/ ships.
    BenchSets(BenchSetsArgs),
}

#[derive(Args, Debug)]
pub struct LabelArgs {
    /// The positions, one "MOVES" line each (e.g. from `c4 data positions`), plain or gzip.
    file: PathBuf,
    /// Output: "MOVES SCORE" lines. Work in progress goes to OUT.partial.
    #[arg(long)]
    out: PathBuf,
    /// Win/draw/loss only (1/0/-1), usually faster.
    #[arg(long)]
    weak: bool,
    /// Label only shard I of N (0-based): the lines whose index mod N is I.
    #[arg(long, default_value = "0/1")]
    shard: Shard,
    /// Continue an interrupted run from OUT.partial.
    #[arg(long)]
    resume: bool,
    /// Worker threads (default: every core).
    #[arg(long, value_parser = super::at_least_one)]
    jobs: Option<usize>,
    #[command(flatten)]
    tables: TableArgs,
}

/// The solver tables of a labelling job.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// Solver table per worker, MiB.
    #[arg(long, default_value_t = 64)]
    tt_mib: usize,
    /// Positions with fewer stones than this share one table across workers and positions,
    /// which makes labelling many positions of the early phase cheaper (0 = none).
    #[arg(long, default_value_t = ShallowTable::DEFAULT_PLIES)]
    shallow_plies: usize,
    /// Largest size of that shared table, MiB (smaller for small jobs: 1 MiB per position
    /// below --shallow-plies stones, at least 16).
    #[arg(long, default_value_t = ShallowTable::DEFAULT_MIB)]
    shallow_mib: usize,
    /// A model file (GBT or linear weights) whose value of each child breaks the ties of the
    /// solver's threat ordering in positions with fewer than --order-plies stones. Labels are
    /// the same; with models/gbt.bin UCI positions labelled 6% faster before the solver's
    /// end-game changes, and no faster since.
    #[arg(long, value_name = "FILE")]
    order_model: Option<PathBuf>,
    /// Positions with fewer stones than this use --order-model.
    #[arg(long, default_value_t = OrderHint::DEFAULT_PLIES)]
    order_plies: usize,
}

impl TableArgs {
    /// The job's solver set-up; an --order-model is loaded here.
    fn config(&self, geom: Geometry) -> Result<TableConfig> {
        let order_hint = match &self.order_model {
            Some(path) => {
                let model = connect4_ml::eval::load_model(path, geom)
                    .with_context(|| format!("--order-model {}", path.display()))?;
                Some(OrderHint {
                    plies: self.order_plies,
                    value: std::sync::Arc::new(move |p| model.evaluate(p)),
                })
            }
            None => None,
        };
        Ok(TableConfig {
            tt_mib: self.tt_mib,
            shallow_plies: self.shallow_plies,
            shallow_mib: self.shallow_mib,
            order_hint,
        })
    }
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The parts (outputs of `c4 data label --shard I/N`, each with its .shard.json).
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// The merged file, written atomically; gzip-compressed when it ends in .gz.
    #[arg(long)]
    out: PathBuf,
    /// The source the parts were labelled from: also check every line against it.
    #[arg(long)]
    source: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct PositionsArgs {
    /// Stones on the board, LO..HI inclusive (spread evenly).
    #[arg(long)]
    plies: String,
    /// Positions wanted.
    #[arg(long, value_parser = super::at_least_one)]
    count: usize,
    /// Seed of every game: the same seed gives the same file.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    mix: MixArgs,
    /// Leave out the positions of these files ("MOVES" or "MOVES SCORE" lines, plain or
    /// gzip), mirror images included: a held-out set that no training set overlaps.
    #[arg(long, num_args = 1..)]
    exclude: Vec<PathBuf>,
    /// Output file ("MOVES" per line), written atomically; gzip-compressed when it ends in .gz.
    #[arg(long)]
    out: PathBuf,
}

/// The games that give positions: which agents play, and how often a move is random.
#[derive(Args, Debug)]
pub struct MixArgs {
    /// The agents whose games give the positions (two drawn per game).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "random,easy,hard,handtuned:depth=3,window:depth=3"
    )]
    mix: Vec<String>,
    /// Chance of a uniformly random move instead of the agent's.
    #[arg(long, default_value_t = 0.15)]
    epsilon: f64,
}

impl MixArgs {
    /// The agents, parsed (model names resolved as everywhere in the CLI).
    fn specs(&self) -> Result<Vec<connect4_ml::agents::AgentSpec>> {
        self.mix.iter().map(|s| super::parse_agent(s)).collect()
    }
}

#[derive(Args, Debug)]
pub struct BenchSetsArgs {
    /// Seed of every game: the same seed gives the same files.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Folder to write the six files (and sets.json) into.
    #[arg(long, default_value = connect4_ml::arena::bench_sets::DEFAULT_BENCH_DIR)]
    out: PathBuf,
    /// Positions per set.
    #[arg(long, default_value_t = 1000, value_parser = super::at_least_one)]
    count: usize,
    /// Positions in begin-hard (each costs about a second of solving; default: --count).
    #[arg(long)]
    begin_hard: Option<usize>,
    /// Fewest stones of a begin-phase position (below 6, solves take up to a minute each).
    #[arg(long, default_value_t = 6)]
    begin_min_stones: usize,
    #[command(flatten)]
    mix: MixArgs,
    /// Solver table per worker, MiB.
    #[arg(long, default_value_t = 64)]
    tt_mib: usize,
}

#[derive(Args, Debug)]
pub struct UciArgs {
    /// The UCI data file.
    #[arg(long, default_value = DEFAULT_UCI_PATH)]
    uci: PathBuf,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct FetchArgs {
    /// Where to download from (the archive, a bare .Z file or the plain file).
    #[arg(long, default_value = connect4_ml::datasets::fetch::UCI_ARCHIVE_URL)]
    url: String,
    /// Where to write the data file (uncompressed; read it with --uci PATH).
    #[arg(long, default_value = "data/uci/connect-4.data")]
    out: PathBuf,
}

#[derive(Args, Debug)]
pub struct EnumerateArgs {
    /// The UCI data file to compare with (skipped, with a note, when it is missing).
    #[arg(long, default_value = DEFAULT_UCI_PATH)]
    uci: PathBuf,
    /// Also write the positions (42 cells per line, UCI order, no class) to this file.
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The UCI data file.
    #[arg(long, default_value = DEFAULT_UCI_PATH)]
    uci: PathBuf,
    /// Rows to check (0 = all).
    #[arg(long, default_value_t = 1000)]
    sample: usize,
    /// Seed of the sample.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    tables: TableArgs,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum LabelMode {
    /// Win / draw / loss (-1, 0, 1).
    Weak,
    /// The exact score.
    Strong,
}

#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// The two agents, e.g. easy,hard (they swap colours every game).
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    agents: Vec<String>,
    /// Games to play.
    #[arg(long, value_parser = super::at_least_one)]
    games: usize,
    /// Plies of the positions kept, LO..HI inclusive (positions with few stones are slow to
    /// solve: about 0.1 s at 8 plies, seconds below 6).
    #[arg(long, default_value = "8..41")]
    plies: String,
    /// Labels: weak (win/draw/loss) or strong (exact score).
    #[arg(long, value_enum, default_value = "weak")]
    label: LabelMode,
    /// Random opening plies before the agents play (variety).
    #[arg(long, default_value_t = 2)]
    opening: usize,
    /// Seed of openings and agents.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Solver table per worker, MiB.
    #[arg(long, default_value_t = 64)]
    tt_mib: usize,
    /// Output CSV.
    #[arg(long)]
    out: PathBuf,
}

fn parse_plies(s: &str) -> Result<std::ops::RangeInclusive<usize>> {
    let (lo, hi) = s
        .split_once("..")
        .ok_or_else(|| anyhow::anyhow!("--plies {s:?}: expected LO..HI, e.g. 8..41"))?;
    let lo: usize = lo
        .trim()
        .parse()
        .with_context(|| format!("--plies {s:?}: LO is not a number"))?;
    let hi: usize = hi
        .trim()
        .trim_start_matches('=')
        .parse()
        .with_context(|| format!("--plies {s:?}: HI is not a number"))?;
    if lo > hi {
        bail!("--plies {s:?}: LO is above HI");
    }
    Ok(lo..=hi)
}

fn run_selfplay(a: SelfplayArgs) -> Result<()> {
    use connect4_ml::agents::AgentSpec;
    use connect4_ml::train::selfplay::{SelfplayConfig, generate};
    if a.agents.len() != 2 {
        bail!(
            "--agents takes exactly two agent specs, e.g. --agents easy,hard (got {})",
            a.agents.len()
        );
    }
    let plies = parse_plies(&a.plies)?;
    let specs: Vec<AgentSpec> = a
        .agents
        .iter()
        .map(|s| super::parse_agent(s))
        .collect::<Result<_, _>>()?;
    let cfg = SelfplayConfig {
        agents: [specs[0].clone(), specs[1].clone()],
        games: a.games,
        plies,
        label: match a.label {
            LabelMode::Weak => Mode::Weak,
            LabelMode::Strong => Mode::Strong,
        },
        opening_plies: a.opening,
        seed: a.seed,
        tt_mib: a.tt_mib,
    };
    let geom = Geometry::default();
    let start = Instant::now();
    let out = generate(&cfg, geom, &super::Bars::new())?;
    connect4_ml::datasets::selfplay_csv::write_positions(&a.out, geom, &out.positions)
        .with_context(|| format!("writing {}", a.out.display()))?;
    let mut classes = [0usize; 3];
    for p in &out.positions {
        classes[p.label.index()] += 1;
    }
    println!(
        "{} games (first player won {}, drawn {}, second won {}); {} positions sampled, {} unique up to mirror; labels loss {} draw {} win {}; {:.1} s; wrote {}",
        a.games,
        out.results[0],
        out.results[1],
        out.results[2],
        out.sampled,
        out.positions.len(),
        classes[0],
        classes[1],
        classes[2],
        start.elapsed().as_secs_f64(),
        a.out.display()
    );
    Ok(())
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Output file (UCI format). Work in progress goes to FILE.partial.
    #[arg(long)]
    out: PathBuf,
    /// Label only shard I of N (0-based): positions k with k % N == I.
    #[arg(long, default_value = "0/1")]
    shard: Shard,
    /// Continue an interrupted run from FILE.partial.
    #[arg(long)]
    resume: bool,
    #[command(flatten)]
    tables: TableArgs,
}

/// Runs a `c4 data` subcommand.
pub fn run(cmd: DataCommand) -> Result<()> {
    match cmd {
        DataCommand::Uci(a) => run_uci(a),
        DataCommand::FetchUci(a) => {
            let n = connect4_ml::datasets::fetch::fetch_uci(&a.url, &a.out)?;
            println!(
                "wrote {} ({n} bytes, sha256 {})",
                a.out.display(),
                connect4_ml::datasets::uci::UCI_SHA256
            );
            Ok(())
        }
        DataCommand::EnumerateUci(a) => run_enumerate(a),
        DataCommand::VerifyUci(a) => run_verify(a),
        DataCommand::GenerateUci(a) => run_generate(a),
        DataCommand::Selfplay(a) => run_selfplay(a),
        DataCommand::BenchSets(a) => run_bench_sets(a),
        DataCommand::Positions(a) => run_positions(a),
        DataCommand::Label(a) => run_label(a),
        DataCommand::Merge(a) => run_merge(a),
    }
}

fn run_label(a: LabelArgs) -> Result<()> {
    let job = LabelJob {
        geometry: Geometry::default(),
        shard: a.shard,
        mode: if a.weak { Mode::Weak } else { Mode::Strong },
    };
    let tables = a.tables.config(job.geometry)?;
    let report = label_file(
        &a.file,
        &job,
        &a.out,
        a.resume,
        a.jobs,
        &tables,
        &super::Bars::new(),
    )?;
    for (line, why) in &report.bad_lines {
        eprintln!("{}: line {line}: {why}", a.file.display());
    }
    println!(
        "{}: {} positions of shard {}/{} ({} from the partial file, {} labelled now in {:.1} s, {:.1} positions/s)",
        a.out.display(),
        report.positions,
        a.shard.index,
        a.shard.count,
        report.resumed,
        report.labelled,
        report.seconds,
        report.labelled as f64 / report.seconds.max(1e-9)
    );
    if !report.bad_lines.is_empty() {
        bail!(
            "{} line(s) of {} are not positions to label (listed above)",
            report.bad_lines.len(),
            a.file.display()
        );
    }
    Ok(())
}

fn run_merge(a: MergeArgs) -> Result<()> {
    let source = match &a.source {
        Some(p) => Some(connect4_ml::datasets::labelled::read_text(p)?),
        None => None,
    };
    let merged = connect4_ml::datasets::label::merge_shards(
        &a.parts,
        source.as_deref(),
        Geometry::default(),
    )?;
    let gzip =
        write_text(&a.out, &merged.text).with_context(|| format!("writing {}", a.out.display()))?;
    println!(
        "{}: {} positions from {} shards; sha256 {}",
        a.out.display(),
        merged.positions,
        merged.shards,
        merged.sha256
    );
    if gzip {
        println!(
            "gzip-compressed: {} bytes, file sha256 {}",
            std::fs::metadata(&a.out)?.len(),
            connect4_ml::io::sha256_file(&a.out)?
        );
    }
    Ok(())
}

fn run_positions(a: PositionsArgs) -> Result<()> {
    use connect4_ml::datasets::labelled::{Expect, read_moves_file};
    use connect4_ml::train::sample_positions::{PositionsConfig, sample_positions};
    let mix = a.mix.specs()?;
    let geometry = Geometry::default();
    let mut exclude = HashSet::new();
    for path in &a.exclude {
        for m in read_moves_file(path, geometry, Expect::Any)? {
            exclude.insert(m.position.canonical_key());
        }
    }
    let cfg = PositionsConfig {
        plies: parse_plies(&a.plies)?,
        count: a.count,
        mix,
        epsilon: a.mix.epsilon,
        seed: a.seed,
        geometry,
        exclude,
    };
    let start = Instant::now();
    let out = sample_positions(&cfg, &super::Bars::new())?;
    let mut text = String::with_capacity(out.positions.len() * 24);
    for (_, moves) in &out.positions {
        text.push_str(moves);
        text.push('\n');
    }
    write_text(&a.out, &text).with_context(|| format!("writing {}", a.out.display()))?;
    println!(
        "{} positions in {:.1} s from {} games: {} reached their stone count open and with no win in one, {} of them repeats (distinct per sampled: {:.3}), {} excluded; wrote {}",
        out.positions.len(),
        start.elapsed().as_secs_f64(),
        out.games,
        out.sampled,
        out.duplicates,
        out.distinct_ratio(),
        out.excluded,
        a.out.display()
    );
    let spread: Vec<String> = out
        .per_stones
        .iter()
        .map(|(s, n)| format!("{s}:{n}"))
        .collect();
    println!("positions per stone count: {}", spread.join(" "));
    Ok(())
}

fn run_bench_sets(a: BenchSetsArgs) -> Result<()> {
    use connect4_ml::train::make_bench_sets::{BenchSetsConfig, make_bench_sets, write_bench_sets};
    let mix = a.mix.specs()?;
    let cfg = BenchSetsConfig {
        count: a.count,
        begin_hard: a.begin_hard.unwrap_or(a.count),
        begin_min_stones: a.begin_min_stones,
        mix,
        epsilon: a.mix.epsilon,
        seed: a.seed,
        tt_mib: a.tt_mib,
    };
    let start = Instant::now();
    let out = make_bench_sets(&cfg, &super::Bars::new())?;
    let command = format!(
        "c4 data bench-sets --seed {} --count {} --begin-hard {} --begin-min-stones {} --mix {} --epsilon {}",
        a.seed,
        cfg.count,
        cfg.begin_hard,
        cfg.begin_min_stones,
        a.mix.mix.join(","),
        a.mix.epsilon
    );
    let written = write_bench_sets(&a.out, &out, &command)
        .with_context(|| format!("writing {}", a.out.display()))?;
    for w in &written {
        println!(
            "{:<14} {:>5} positions  sha256 {}",
            w.set, w.positions, w.sha256
        );
    }
    println!(
        "{} games, {} candidates solved, {} duplicates dropped, {:.1} s; wrote {}",
        out.games,
        out.solved,
        out.duplicates,
        start.elapsed().as_secs_f64(),
        a.out.display()
    );
    Ok(())
}

fn run_uci(a: UciArgs) -> Result<()> {
    let data = uci::load_uci(&a.uci)?;
    let s = uci::summarize(&data.rows);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&s)?);
        return Ok(());
    }
    println!(
        "{}: {} rows, {} distinct positions; sha256 of the uncompressed data {}{}",
        data.source,
        s.rows,
        s.distinct,
        data.sha256,
        if data.is_published() {
            " (the published file)"
        } else {
            ""
        }
    );
    for l in Label::ALL {
        let n = s.classes[l.index()];
        println!(
            "  {:<5} {:>6}  {:>5.1}%",
            l.as_str(),
            n,
            100.0 * n as f64 / s.rows.max(1) as f64
        );
    }
    println!(
        "mirror images: {} symmetric rows, {} rows whose mirror image is also present, {} label conflicts",
        s.symmetric, s.mirror_pairs_present, s.mirror_label_conflicts
    );
    let cols: Vec<String> = s
        .stones_per_column
        .iter()
        .enumerate()
        .map(|(c, n)| {
            format!(
                "{}:{:.2}",
                (b'a' + c as u8) as char,
                *n as f64 / s.rows.max(1) as f64
            )
        })
        .collect();
    println!("mean stones per column: {}", cols.join(" "));
    println!(
        "majority-class baseline accuracy: {:.4}",
        s.majority_baseline
    );
    Ok(())
}

fn run_enumerate(a: EnumerateArgs) -> Result<()> {
    let start = Instant::now();
    let positions = enumerate_uci(Geometry::default(), UCI_PLY);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "enumerated {} positions (8 plies, no four, next move not forced, one per mirror pair) in {:.2} s",
        positions.len(),
        secs
    );
    if let Some(out) = &a.out {
        connect4_ml::io::write_atomic(out, |w| {
            for p in &positions {
                writeln!(w, "{}", p.to_uci_string())?;
            }
            Ok(())
        })
        .with_context(|| format!("writing {}", out.display()))?;
        println!("wrote {}", out.display());
    }
    match compare_with_uci(&positions, &a.uci) {
        Ok(c) => {
            println!(
                "compared with {}: {} rows; {} missing from the enumeration, {} not in the file",
                a.uci.display(),
                c.rows,
                c.missing,
                c.extra
            );
            if c.missing + c.extra > 0 {
                bail!("the enumeration differs from the file");
            }
            println!("identical sets");
        }
        Err(e @ uci::UciError::Missing { .. }) => println!("not compared: {e}"),
        Err(e) => return Err(e.into()),
    }
    Ok(())
}

fn run_verify(a: VerifyArgs) -> Result<()> {
    let rows = uci::read_uci(&a.uci)?;
    let n = if a.sample == 0 {
        rows.len()
    } else {
        a.sample.min(rows.len())
    };
    let pool = a
        .tables
        .config(Geometry::default())?
        .pool(Geometry::default(), std::iter::repeat_n(UCI_PLY, n))?;
    let bars = super::Bars::new();
    bars.start("weak-solving", n);
    let report = connect4_ml::datasets::label::verify_labels(&rows, a.sample, a.seed, &pool, &bars);
    bars.finish();
    let seconds = report.seconds;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "{} of {} sampled rows agree with the solver ({:.2}%), {:.1} s ({:.0} positions/s)",
            report.agree,
            report.checked,
            100.0 * report.agree as f64 / report.checked.max(1) as f64,
            seconds,
            report.checked as f64 / seconds.max(1e-9)
        );
        for d in report.disagreements.iter().take(20) {
            println!("  {d}");
        }
    }
    if report.agree != report.checked {
        bail!(
            "{} row(s) disagree with the solver",
            report.checked - report.agree
        );
    }
    Ok(())
}

fn run_generate(a: GenerateArgs) -> Result<()> {
    let positions = enumerate_uci(Geometry::default(), UCI_PLY);
    let total = a.shard.select(&positions).len();
    let pool = a
        .tables
        .config(Geometry::default())?
        .pool(Geometry::default(), std::iter::repeat_n(UCI_PLY, total))?;
    let bars = super::Bars::new();
    bars.start(
        &format!("labelling shard {}/{}", a.shard.index, a.shard.count),
        total,
    );
    let report = generate_uci(&positions, a.shard, &a.out, a.resume, &pool, &bars)?;
    bars.finish();
    println!(
        "{}: {} positions ({} from the partial file, {} labelled now in {:.1} s, {:.0} positions/s); loss {} draw {} win {}",
        a.out.display(),
        report.total,
        report.resumed,
        report.labelled,
        report.seconds,
        report.labelled as f64 / report.seconds.max(1e-9),
        report.classes[0],
        report.classes[1],
        report.classes[2]
    );
    Ok(())
}
