//! Argument structs (clap derive) and one `run` per subcommand.
//!
//! Each file parses its subcommand's flags (value ranges checked by clap), calls the library
//! and prints. Not here: any work the library could do for another caller.

mod analyze;
mod bench;
mod calibrate;
mod data;
mod deploy;
mod evaluate;
mod pipeline;
mod play;
mod plot;
mod predict;
mod rate;
mod serve;
mod site;
mod solve;
mod tournament;
mod train;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};
use connect4_engine::Geometry;

/// connect4-ml: learn to play Connect Four, measured against a perfect solver.
#[derive(Parser, Debug)]
#[command(name = "c4", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The opening book every exact answer reads (solve, analyze, the perfect agent, grading,
    /// labelling, serve, hints; `c4 site` ships it beside the page when it is not the
    /// built-in one); made by `c4 data book`. Default: book-7x6.bin beside the c4
    /// binary, data/book-7x6-12.bin or data/book-7x6.bin when one is there, else the 7x6 book built into c4.
    #[arg(long, global = true, value_name = "FILE")]
    book: Option<std::path::PathBuf>,
    /// Read no opening book: exact answers search from scratch.
    #[arg(long, global = true, conflicts_with = "book")]
    no_book: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve positions read from FILE or stdin: prints "MOVES SCORE NODES MICROS" per line.
    #[command(
        after_help = "Examples:\n  echo 4453 | c4 solve\n  c4 solve --best data/bench/end-easy"
    )]
    Solve(solve::SolveArgs),
    /// Draw a position and the solver's score of every column.
    #[command(after_help = "Examples:\n  c4 analyze 4453\n  c4 analyze 33 --width 6 --height 5")]
    Analyze(analyze::AnalyzeArgs),
    /// Play against an agent in the terminal (or line by line with --plain).
    #[command(
        after_help = "Examples:\n  c4 play --agent ntuple:ms=10\n  c4 play --agent easy --first agent"
    )]
    Play(play::PlayArgs),
    /// A model's value (and a GBT's probabilities) of every position of a file, as CSV:
    /// moves,value,p_loss,p_draw,p_win.
    #[command(
        after_help = "Examples:\n  c4 predict models/ntuple.bin data/positions/opening-6.txt.gz --limit 5"
    )]
    Predict(predict::PredictArgs),
    /// Round-robin tournament between agents: pairing table, Elo, games.csv, summary.json.
    #[command(
        after_help = "Examples:\n  c4 tournament --agents easy hard gbt:depth=2 --games 10 --seed 1"
    )]
    Tournament(tournament::TournamentArgs),
    /// Measure the strength dial (`level:skill=S`) against the ladder's agents and write the
    /// calibration `level:elo=E` reads: models/level.json, level.csv, level.png/.svg.
    #[command(
        after_help = "Examples:\n  c4 calibrate\n  c4 calibrate --games 20 --skills 0,0.5,1 --out runs/level.json"
    )]
    Calibrate(calibrate::CalibrateArgs),
    /// An agent's Elo on the fixed ladder (its agents held at their ratings, the scale of
    /// the dial and the page's presets) with a 95% interval, comparable across runs.
    #[command(
        after_help = "Examples:\n  c4 rate --agent gbt:depth=3\n  c4 rate --agent hard level:elo=1500 --games 20 --seed 7 --json"
    )]
    Rate(rate::RateArgs),
    /// Each agent against a baseline (score and Elo difference with 95% intervals, time per
    /// move) and graded by the solver on benchmark sets; table, evaluate.json and charts.
    #[command(
        after_help = "Examples:\n  c4 evaluate --agent gbt:depth=3 --games 200 --out runs/evaluate\n  c4 evaluate --agent ntuple:depth=1,safe=true --baseline perfect:ties=random --side first --openings 0 --games 500 --positions 0 --out runs/yardstick"
    )]
    Evaluate(evaluate::EvaluateArgs),
    /// Benchmarks.
    #[command(subcommand)]
    #[command(
        after_help = "Examples:\n  c4 bench solver --sets end-easy,middle-easy\n  c4 bench agent --agent ntuple:depth=1,safe=true --sets middle-easy --limit 100"
    )]
    Bench(bench::BenchCommand),
    /// Data sets: the UCI file (summary, fetch, reconstruction, label checks) and
    /// solver-labelled self-play positions.
    #[command(subcommand)]
    #[command(
        after_help = "Examples:\n  c4 data uci\n  c4 data label positions.txt --out labelled.txt"
    )]
    Data(data::DataCommand),
    /// Train learners (gradient-boosted trees, LMS weights) and save their models.
    #[command(subcommand)]
    #[command(
        after_help = "Examples:\n  c4 train ntuple --out models/ntuple.bin\n  c4 train gbt --out models/gbt.bin"
    )]
    Train(train::TrainCommand),
    /// The main job: data, LMS, GBT, tournament ladder with Elo, error rates against the
    /// solver, plots and report.md, in one run directory.
    #[command(after_help = "Examples:\n  c4 pipeline\n  c4 pipeline --quick --out runs/quick")]
    Pipeline(pipeline::PipelineArgs),
    /// Charts (PNG and SVG) from training curves, tournament summaries and benchmark JSON.
    #[command(
        after_help = "Examples:\n  c4 plot models/ntuple.perfect.csv --out plots\n  c4 plot runs/pipeline"
    )]
    Plot(plot::PlotArgs),
    /// The web UI: play any agent, the solver's analysis, the models' values and reasons,
    /// pipeline runs; a JSON API under /api.
    #[command(after_help = "Examples:\n  c4 serve\n  c4 serve --addr 127.0.0.1:0 --move-ms 5000")]
    Serve(serve::ServeArgs),
    /// The page with the engine in WebAssembly as a static site: play and analyse in any
    /// browser with no server (any static file host serves it). A book deeper than the
    /// engine's built-in one (`--book FILE`, or the default beside the binary) ships beside
    /// the page; its engine fetches it in the background after the first request.
    #[command(
        after_help = "Examples:\n  c4 site --out site\n  c4 site --out site --book book-7x6-12.bin\n  python3 -m http.server --directory site"
    )]
    Site(site::SiteArgs),
    /// The cluster jobs (Kubernetes Jobs and Slurm scripts) from their one description,
    /// deploy/jobs.toml: writes deploy/k8s/ and deploy/slurm/, or checks them with --check.
    #[command(after_help = "Examples:\n  c4 deploy\n  c4 deploy --check")]
    Deploy(deploy::DeployArgs),
}

/// Board size options shared by every command that builds positions.
#[derive(Args, Debug, Clone, Copy)]
pub struct BoardArgs {
    /// Number of columns.
    #[arg(long, default_value_t = 7)]
    width: usize,
    /// Number of rows.
    #[arg(long, default_value_t = 6)]
    height: usize,
}

impl BoardArgs {
    /// The geometry, or an error naming the bad size.
    pub fn geometry(&self) -> Result<Geometry> {
        Ok(Geometry::new(self.width, self.height)?)
    }

    /// Whether the board needs the wide (`u128`) code: past 64 bits, up to 128; an error
    /// naming the bad size past that.
    pub fn is_wide(&self) -> Result<bool> {
        Ok(connect4_engine::game::needs_wide(self.width, self.height)?)
    }

    /// The geometry in `u128` bitboards (boards of up to 128 bits).
    pub fn wide_geometry(&self) -> Result<Geometry<u128>> {
        Ok(Geometry::sized(self.width, self.height)?)
    }
}

/// The long help of an agent flag: its first line, then every kind from the library's table.
pub fn agents_long_help(first: &str) -> String {
    format!("{first}\n\n{}", connect4_engine::agents::kinds_help())
}

/// Parses an agent spec given on the command line. A model path that does not exist but is a
/// bare name (`gbt`, `lms`) stands for the shipped `models/NAME.bin`, so `model:gbt` works from
/// the repository root; the library itself takes paths as given.
pub fn parse_agent(spec: &str) -> Result<connect4_engine::agents::AgentSpec> {
    let parsed: connect4_engine::agents::AgentSpec = spec.parse()?;
    Ok(parsed.map_model_paths(resolve_model_path))
}

/// `path` as given if it exists; otherwise, for a bare name like `gbt`, `models/NAME.bin`
/// when that exists (so that an error, if any, names what was asked for).
fn resolve_model_path(path: &std::path::Path) -> std::path::PathBuf {
    if path.exists() || path.components().count() != 1 || path.extension().is_some() {
        return path.to_path_buf();
    }
    let shipped = std::path::Path::new("models")
        .join(path)
        .with_extension("bin");
    if shipped.exists() {
        shipped
    } else {
        path.to_path_buf()
    }
}

/// Prints "wrote A, B, ..." for the files a command wrote.
pub fn print_written(paths: &[std::path::PathBuf]) {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    println!("wrote {}", names.join(", "));
}

/// The progress bar every long command shows: `label [=====>   ] done/total elapsed eta`.
pub fn progress_bar(len: usize, label: impl Into<String>) -> Result<indicatif::ProgressBar> {
    let bar = indicatif::ProgressBar::new(len as u64).with_style(
        indicatif::ProgressStyle::with_template(
            "{msg} [{bar:30}] {pos}/{len} {elapsed} eta {eta}",
        )?
        .progress_chars("=> "),
    );
    bar.set_message(label.into());
    Ok(bar)
}

/// The CLI's one [`connect4_engine::progress::Progress`]: a bar per part of a job (a spinner
/// when the part's size is unknown), replaced as parts go; the part's label stays in front
/// of its message. Bars draw only on a terminal (indicatif hides them otherwise).
pub struct Bars {
    current: std::sync::Mutex<Option<(indicatif::ProgressBar, String)>>,
}

impl Bars {
    /// No bar yet: the first part's start makes one.
    pub fn new() -> Bars {
        Bars {
            current: std::sync::Mutex::new(None),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<(indicatif::ProgressBar, String)>> {
        self.current.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl connect4_engine::progress::Progress for Bars {
    fn start(&self, label: &str, total: usize) {
        let bar = if total == 0 {
            let b = indicatif::ProgressBar::new_spinner();
            b.set_message(label.to_string());
            b.enable_steady_tick(std::time::Duration::from_millis(200));
            b
        } else {
            progress_bar(total, label).unwrap_or_else(|_| indicatif::ProgressBar::new(total as u64))
        };
        if let Some((old, _)) = self.lock().replace((bar, label.to_string())) {
            old.finish_and_clear();
        }
    }

    fn advance(&self, steps: usize) {
        if let Some((b, _)) = self.lock().as_ref() {
            b.inc(steps as u64);
        }
    }

    fn message(&self, text: &str) {
        if let Some((b, label)) = self.lock().as_ref() {
            b.set_message(format!("{label} ({text})"));
        }
    }

    fn finish(&self) {
        if let Some((b, _)) = self.lock().take() {
            b.finish_and_clear();
        }
    }

    fn note(&self, text: &str) {
        match self.lock().as_ref() {
            Some((b, _)) => b.suspend(|| eprintln!("note: {text}")),
            None => eprintln!("note: {text}"),
        }
    }
}

/// The message printed for a failed command: the error and its causes, each said once
/// (library errors often repeat their source's text in their own), then what to do about it
/// in terms of this command line's flags, which the library does not know.
pub fn describe_error(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let msg = cause.to_string();
        if !text.contains(&msg) {
            if !text.is_empty() {
                text.push_str(": ");
            }
            text.push_str(&msg);
        }
    }
    if let Some(hint) = flag_hint(e) {
        text.push_str(" (");
        text.push_str(hint);
        text.push(')');
    }
    text
}

/// Whether an error is the command line's own: a bad agent spec (`level:elo=abc`, an Elo
/// outside the dial's range) or a saved adaptive state that cannot be read. Such errors end
/// with exit status 2, as clap's own usage errors do.
pub fn is_bad_input(e: &anyhow::Error) -> bool {
    use connect4_engine::agents::level::CalibrationError;
    use connect4_engine::agents::{AgentError, StateError};
    use connect4_engine::game::GameError;
    e.chain().any(|c| {
        c.downcast_ref::<StateError>().is_some()
            || matches!(
                c.downcast_ref::<GameError>(),
                Some(
                    GameError::BoardEmpty { .. }
                        | GameError::BoardTooLarge { .. }
                        | GameError::TooWide { .. }
                )
            )
            || c.downcast_ref::<CalibrationError>().is_some()
            || matches!(
                c.downcast_ref::<AgentError>(),
                Some(
                    AgentError::BadValue { .. }
                        | AgentError::MissingKey { .. }
                        | AgentError::UnknownKey { .. }
                        | AgentError::UnknownKind { .. }
                        | AgentError::NotKeyValue { .. }
                        | AgentError::OpenQuote { .. }
                )
            )
    })
}

/// The flag that fixes an error, for errors whose fix is a flag.
fn flag_hint(e: &anyhow::Error) -> Option<&'static str> {
    use connect4_engine::solver::SolverError;
    use connect4_learn::arena::TournamentError;
    use connect4_learn::datasets::label::{GenerateError, LabelFileError};
    e.chain().find_map(|c| {
        if let Some(SolverError::NoMemory { .. }) = c.downcast_ref() {
            Some("try a smaller --tt-mib")
        } else if let Some(TournamentError::NoGames) = c.downcast_ref() {
            Some("--games must be at least 1")
        } else if let Some(GenerateError::PartialExists { .. }) = c.downcast_ref() {
            Some("pass --resume to continue it")
        } else if let Some(LabelFileError::Label(GenerateError::PartialExists { .. })) =
            c.downcast_ref()
        {
            Some("pass --resume to continue it")
        } else {
            None
        }
    })
}

/// Runs the parsed command. The book is read only by the commands that answer exactly, so
/// that the others do not pay for a deep book's load; a `--book` file that does not load is
/// refused whatever the command.
pub fn run(cli: Cli) -> Result<()> {
    let reads_book = !matches!(
        cli.command,
        Command::Predict(_) | Command::Plot(_) | Command::Deploy(_)
    );
    let book = if reads_book || cli.book.is_some() {
        choose_book(cli.book.as_deref(), cli.no_book)?
    } else {
        None
    };
    // Damage a lookup finds in the book (a block failing its checksum) made that lookup
    // answer nothing, so what the command printed is exact; but the book needs making again,
    // and saying so is the command's last word.
    let watched = book.clone();
    let result = match cli.command {
        Command::Solve(a) => solve::run(a, book),
        Command::Analyze(a) => analyze::run(a, book),
        Command::Predict(a) => predict::run(a),
        Command::Bench(b) => bench::run(b, book),
        Command::Tournament(a) => tournament::run(a, book),
        Command::Calibrate(a) => calibrate::run(a, book),
        Command::Rate(a) => rate::run(a, book),
        Command::Evaluate(a) => evaluate::run(a, book),
        Command::Play(a) => play::run(a, book),
        Command::Data(c) => data::run(c, book),
        Command::Train(c) => train::run(c, book),
        Command::Plot(a) => plot::run(a),
        Command::Serve(a) => serve::run(a, book),
        Command::Pipeline(a) => pipeline::run(a, book),
        Command::Site(a) => site::run(a, book),
        Command::Deploy(a) => deploy::run(a),
    };
    result?;
    book_sound(&watched)
}

/// An error naming the book's file and its damage when a lookup found any.
pub(crate) fn book_sound(book: &BookChoice) -> Result<()> {
    match book
        .as_deref()
        .and_then(connect4_engine::solver::book::Book::damage)
    {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

/// The opening book of a run, handed to every command that answers exactly (`None`: none).
pub(crate) type BookChoice = Option<std::sync::Arc<connect4_engine::solver::book::Book>>;

/// The opening book of this run: the file `--book` names (which must load), else the default
/// (a book file beside the binary or in data/, else the built-in 7x6 book); none with
/// `--no-book`.
fn choose_book(path: Option<&std::path::Path>, none: bool) -> Result<BookChoice> {
    use connect4_engine::solver::book::{self, Book};
    if none {
        return Ok(None);
    }
    let Some(path) = path else {
        let (found, passed) = book::default_book_reporting();
        for e in passed {
            eprintln!("c4: {e}; passed over");
        }
        return Ok(Some(found));
    };
    let loaded = Book::load(path, None)
        .map_err(|e| anyhow::anyhow!("{e} (--no-book runs without a book)"))?;
    Ok(Some(std::sync::Arc::new(loaded)))
}

/// A `--plies LO..HI` range (inclusive; `LO..=HI` also read).
pub(crate) fn parse_plies(s: &str) -> Result<std::ops::RangeInclusive<usize>> {
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

/// A whole number of at least `min`, with a message clap prints after the flag's name.
fn at_least(s: &str, min: usize) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(v) if v >= min => Ok(v),
        Ok(_) => Err(format!("must be at least {min}")),
        Err(e) => Err(e.to_string()),
    }
}

/// The command line a model file records as its provenance, named `c4 ...` whatever path
/// the binary ran from (a file must not carry a path of the machine that made it).
pub(crate) fn command_line() -> String {
    std::iter::once("c4".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Threads by default: every core.
pub(crate) fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Value parser of a count flag: at least 1.
pub(crate) fn at_least_one(s: &str) -> Result<usize, String> {
    at_least(s, 1)
}

/// Value parser of a flag that needs at least 2 (e.g. folds).
pub(crate) fn at_least_two(s: &str) -> Result<usize, String> {
    at_least(s, 2)
}

/// Value parser of a chance: from 0 to 1.
pub(crate) fn unit_interval(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is not in [0, 1]"))
    }
}

/// Value parser of a share strictly between 0 and 1.
pub(crate) fn open_unit_interval(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if v > 0.0 && v < 1.0 {
        Ok(v)
    } else {
        Err(format!("{v} is not in (0, 1)"))
    }
}
