//! Argument structs (clap derive) and one `run` per subcommand.
//!
//! Each file parses its subcommand's flags (value ranges checked by clap), calls the library
//! and prints. Not here: any work the library could do for another caller.

mod analyze;
mod bench;
mod book;
mod calibrate;
mod data;
mod deploy;
mod errors;
mod evaluate;
mod pipeline;
mod play;
mod plot;
mod predict;
mod progress;
mod rate;
mod serve;
mod site;
mod solve;
mod tournament;
mod train;
mod values;

use book::choose_book;
pub(crate) use book::{BookChoice, book_sound};
pub use errors::{describe_error, is_bad_input};
pub use progress::{Bars, print_written};
pub use values::{agents_long_help, parse_agent};
pub(crate) use values::{
    at_least_one, at_least_two, command_line, default_jobs, open_unit_interval, parse_plies,
    unit_interval,
};

use anyhow::Result;
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
