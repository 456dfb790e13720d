//! `c4 bench`: speed and accuracy figures, as a table or JSON.

mod adaptive;
mod analyze;
mod answers;
mod serve;

use super::BoardArgs;
use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use connect4_engine::progress::Progress;
use connect4_engine::{Mode, Solver};
use connect4_ml::speed::solver::{SetSummary, bench_file};
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// Solve every position of benchmark files ("MOVES SCORE" lines) and report mean time,
    /// mean nodes, nodes per second and mismatches per file.
    #[command(
        after_help = "Examples:\n  c4 bench solver --sets end-easy,middle-easy\n  c4 bench solver data/bench/middle-medium --limit 100"
    )]
    Solver(SolverBenchArgs),
    /// Grade an agent's move in every position of benchmark files against the solver: error
    /// rate (moves that lose game-theoretic value), exact-optimal rate, mean time per move.
    #[command(
        after_help = "Examples:\n  c4 bench agent --agent ntuple:ms=10 --sets middle-easy,middle-medium --limit 200"
    )]
    Agent(AgentBenchArgs),
    /// Search speed per evaluator: a fixed-depth search from every position of benchmark
    /// files, reporting nodes per second.
    #[command(
        after_help = "Examples:\n  c4 bench search --eval handtuned,threat --depth 5 --sets middle-easy"
    )]
    Search(SearchBenchArgs),
    /// Monte Carlo playout speed: playouts per second per core from a position (default the
    /// empty board), uniform or smart, with the mean result.
    #[command(after_help = "Examples:\n  c4 bench playouts --playouts 100000 --smart")]
    Playouts(PlayoutBenchArgs),
    /// Full analysis (every column exact, as `c4 analyze` gives it) of positions from seeded
    /// varied games at every ply, timed one by one: p50/p95/p99/max by band of plies.
    #[command(after_help = "Examples:\n  c4 bench analyze --plies 6..12 --count 50")]
    Analyze(analyze::AnalyzeBenchArgs),
    /// The adaptive agent against each opponent (its score with a 95% interval, over every
    /// game and the first 10) or against one who changes (--switch-from, --switch-to), with
    /// its estimate of the opponent's Elo after each game: table, games.csv, summary.json,
    /// and a chart of the estimate per run.
    #[command(
        after_help = "Examples:\n  c4 bench adaptive --games 200 --seed 31\n  c4 bench adaptive --switch-from easy --switch-to ntuple:depth=1,safe=true --after 20 --then 20"
    )]
    Adaptive(adaptive::AdaptiveBenchArgs),
    /// How long a player waits for each agent's move on a board, every move asked for as the
    /// page asks (a fresh agent per move; the adaptive agent from its saved state and the
    /// game so far): moves, p50, p95 and slowest answer per agent.
    #[command(after_help = "Examples:
  c4 bench answers --width 8 --height 7 --games 10
  c4 bench answers --agents adaptive level:elo=1500 --games 20")]
    Answers(answers::AnswerBenchArgs),
    /// A load test of `c4 serve` over loopback sockets: simulated players play whole games
    /// against the page's presets at once, with analyses, reviews and the adaptive estimate;
    /// requests, 503s, failures and p50 / p99 / slowest time per route, and the server's peak
    /// memory.
    #[command(after_help = "Examples:
  c4 bench serve --players 200 --seconds 60
  c4 bench serve --players 50 --seconds 20 --serve-args \"--heavy 1 --heavy-queue 4\"
  c4 bench serve --url http://127.0.0.1:8080 --agents easy perfect --out load.json")]
    Serve(serve::ServeBenchArgs),
}

#[derive(Args, Debug)]
pub struct PlayoutBenchArgs {
    /// Playouts per thread.
    #[arg(long, default_value_t = 5_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    playouts: u64,
    /// Start from this position (1-based move string; default the empty board).
    #[arg(long, default_value = "")]
    from: String,
    /// Playouts that take an immediate win and block an immediate loss.
    #[arg(long)]
    smart: bool,
    /// Threads, each running --playouts playouts (1 measures one core).
    #[arg(long, default_value_t = 1, value_parser = super::at_least_one)]
    jobs: usize,
    /// Seed of the playouts.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print JSON instead of the table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    board: BoardArgs,
}

#[derive(Args, Debug)]
pub struct SearchBenchArgs {
    /// Evaluators to time (default: every built-in one).
    #[arg(long, value_delimiter = ',')]
    eval: Vec<String>,
    /// Search depth in plies.
    #[arg(long, default_value_t = 7)]
    depth: u32,
    #[command(flatten)]
    files: BenchFiles,
    /// Only the first N positions of each file.
    #[arg(long)]
    limit: Option<usize>,
    /// Print JSON instead of the table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    board: BoardArgs,
}

#[derive(serde::Serialize)]
struct SearchSummary {
    eval: String,
    set: String,
    depth: u32,
    positions: usize,
    mean_nodes: f64,
    mean_ms: f64,
    nodes_per_second: f64,
    /// Mean ns of one static evaluation of the set's positions.
    eval_ns: f64,
}

#[derive(Args, Debug)]
pub struct AgentBenchArgs {
    /// The agent spec, e.g. hard, handtuned:depth=5, negamax:eval=threat,depth=7.
    #[arg(long, long_help = super::agents_long_help("The agent spec."))]
    agent: String,
    #[command(flatten)]
    files: BenchFiles,
    /// Only the first N positions of each file.
    #[arg(long)]
    limit: Option<usize>,
    /// Positions graded at once.
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
    jobs: usize,
    /// Solver table size per worker, MiB.
    #[arg(long, default_value_t = connect4_engine::solver::DEFAULT_TT_MIB)]
    tt_mib: usize,
    /// Print a JSON array of per-file summaries instead of the table.
    #[arg(long)]
    json: bool,
    /// Also write the JSON summaries to this file.
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    board: BoardArgs,
}

#[derive(Args, Debug)]
pub struct SolverBenchArgs {
    #[command(flatten)]
    files: BenchFiles,
    /// Weak solve (win/draw/loss); mismatches then compare signs.
    #[arg(long)]
    weak: bool,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = connect4_engine::solver::DEFAULT_TT_MIB)]
    tt_mib: usize,
    /// Only the first N positions of each file.
    #[arg(long)]
    limit: Option<usize>,
    /// Keep the table from one position to the next instead of clearing it before each one
    /// (the default clears it, as the reference benchmark does, so every position's figures
    /// are independent of the file order).
    #[arg(long)]
    keep_table: bool,
    /// Positions with fewer stones share table entries with their mirror image.
    #[arg(long, default_value_t = connect4_engine::solver::DEFAULT_SYMMETRY_PLIES)]
    symmetry_plies: usize,
    /// Print a JSON array of per-file summaries instead of the table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    board: BoardArgs,
}

/// Which benchmark files a command reads: FILE arguments, or the sets of a folder (the shipped
/// `data/bench` unless `--bench` or `--pons` names another).
#[derive(Args, Debug)]
pub struct BenchFiles {
    /// Benchmark files of "MOVES" or "MOVES SCORE" lines (default: the sets of --bench).
    files: Vec<PathBuf>,
    /// Folder of benchmark sets (end-easy, middle-easy, middle-medium, begin-easy,
    /// begin-medium, begin-hard).
    #[arg(long, default_value = connect4_learn::arena::benchmark_sets::DEFAULT_BENCH_DIR)]
    bench: PathBuf,
    /// Folder of the Pons files (Test_L3_R1, ...) to read instead of --bench.
    #[arg(long, conflicts_with = "bench")]
    pons: Option<PathBuf>,
    /// Sets to read from the folder, by name (ours or Pons'); default: all there are.
    #[arg(long, value_delimiter = ',')]
    sets: Vec<String>,
}

impl BenchFiles {
    /// The files to read, in set order when they come from a folder.
    fn resolve(&self) -> Result<Vec<PathBuf>> {
        use connect4_learn::arena::benchmark_sets::{BenchSet, files_in};
        if !self.files.is_empty() {
            if !self.sets.is_empty() {
                bail!("--sets picks sets from a folder; it cannot be used with FILE arguments");
            }
            return Ok(self.files.clone());
        }
        let dir = self.pons.as_ref().unwrap_or(&self.bench);
        if self.sets.is_empty() {
            let found: Vec<PathBuf> = files_in(dir).into_iter().map(|(_, p)| p).collect();
            if found.is_empty() {
                bail!(
                    "no benchmark sets in {} (expected files such as end-easy or Test_L3_R1); \
                     give FILE arguments, --bench DIR or --pons DIR",
                    dir.display()
                );
            }
            return Ok(found);
        }
        self.sets
            .iter()
            .map(|name| {
                let set = BenchSet::named(name).with_context(|| {
                    format!(
                        "unknown benchmark set {name:?}; known: end-easy, middle-easy, middle-medium, begin-easy, begin-medium, begin-hard (or their Pons names)"
                    )
                })?;
                set.file_in(dir).with_context(|| {
                    format!("set {} not found in {}", set.name, dir.display())
                })
            })
            .collect()
    }
}

pub fn run(cmd: BenchCommand, book: super::BookChoice) -> Result<()> {
    match cmd {
        BenchCommand::Solver(a) => solver(a, book),
        BenchCommand::Agent(a) => agent(a, book),
        BenchCommand::Search(a) => search(a),
        BenchCommand::Playouts(a) => playouts(a),
        BenchCommand::Analyze(a) => analyze::run(a, book),
        BenchCommand::Adaptive(a) => adaptive::run(a, book),
        BenchCommand::Answers(a) => answers::run(a, book),
        BenchCommand::Serve(a) => serve::run(a),
    }
}

fn solver(a: SolverBenchArgs, book: super::BookChoice) -> Result<()> {
    let geom = a.board.geometry()?;
    let mode = if a.weak { Mode::Weak } else { Mode::Strong };
    let mut summaries = Vec::new();
    let mut bad_total = 0;
    for path in &a.files.resolve()? {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
        // One solver per file: every set starts from an empty table.
        let mut solver = Solver::with_table_mib(geom, a.tt_mib)?;
        solver.set_book(book.clone());
        solver.ready();
        solver.set_symmetry_plies(a.symmetry_plies);
        let summary = bench_file(
            &mut solver,
            &name,
            &text,
            a.limit,
            mode,
            a.keep_table,
            &super::Bars::new(),
        );
        bad_total += summary.bad_lines;
        summaries.push(summary);
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&summaries)?);
    } else {
        print_table(&summaries);
    }
    if bad_total > 0 {
        bail!("{bad_total} line(s) could not be solved");
    }
    Ok(())
}

fn short_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn print_table(rows: &[SetSummary]) {
    println!(
        "{:<14} {:>6} {:>9} {:>14} {:>14} {:>10} {:>10}",
        "set", "mode", "positions", "mean us", "mean nodes", "Mnodes/s", "mismatches"
    );
    for r in rows {
        let name = short_name(std::path::Path::new(&r.file));
        println!(
            "{:<14} {:>6} {:>9} {:>14.1} {:>14.1} {:>10.2} {:>10}",
            name,
            r.mode,
            r.positions,
            r.mean_micros,
            r.mean_nodes,
            r.nodes_per_second / 1e6,
            r.mismatches
        );
    }
}

/// Reads "MOVES" or "MOVES SCORE" lines into positions (see [`connect4_learn::arena::read_graded_file`]).
fn read_bench_positions<B: connect4_engine::game::BitBoard>(
    path: &std::path::Path,
    geom: connect4_engine::Geometry<B>,
    limit: Option<usize>,
) -> Result<Vec<(connect4_engine::Position<B>, Option<i32>)>> {
    Ok(connect4_learn::arena::read_graded_file(path, geom, limit)?)
}

fn agent(a: AgentBenchArgs, book: super::BookChoice) -> Result<()> {
    // Boards past 64 bits run the same code on `u128` bitboards.
    if a.board.is_wide()? {
        let geom = a.board.wide_geometry()?;
        return agent_on(geom, a, book);
    }
    let geom = a.board.geometry()?;
    agent_on(geom, a, book)
}

fn agent_on<B: connect4_engine::agents::AgentBoard>(
    geom: connect4_engine::Geometry<B>,
    a: AgentBenchArgs,
    book: super::BookChoice,
) -> Result<()> {
    use connect4_engine::agents::{AgentSpec, Resources};
    use connect4_learn::arena::{GradeSummary, grade_positions};
    let spec: AgentSpec = super::parse_agent(&a.agent)?;
    let resources = Resources {
        book: book.clone(),
        ..Resources::default()
    };
    let factory = spec.factory_on(geom, &resources)?;
    let solvers = connect4_engine::solver::SolverPool::new(a.tt_mib).with_book(book);
    let mut summaries = Vec::new();
    for path in &a.files.resolve()? {
        let positions = read_bench_positions(path, geom, a.limit)?;
        let bars = super::Bars::new();
        bars.start(&short_name(path), positions.len());
        let graded = grade_positions(&factory, &positions, a.jobs, &solvers, &bars)?;
        bars.finish();
        summaries.push(GradeSummary::from_moves(
            spec.label(),
            &short_name(path),
            &graded,
        ));
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&summaries)?);
    } else {
        print!("{}", GradeSummary::table(&summaries));
    }
    if let Some(out) = &a.out {
        connect4_engine::io::write_json_atomic(out, &summaries)
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    Ok(())
}

fn search(a: SearchBenchArgs) -> Result<()> {
    use connect4_engine::search::speed::{eval_nanos, search_speed};
    let geom = a.board.geometry()?;
    let evals: Vec<String> = if a.eval.is_empty() {
        connect4_engine::eval::BUILTIN_EVALUATORS
            .iter()
            .map(|s| s.to_string())
            .collect()
    } else {
        a.eval.clone()
    };
    let mut rows = Vec::new();
    for name in &evals {
        let eval = match name.strip_prefix("model:") {
            Some(path) => connect4_engine::eval::load_model(std::path::Path::new(path), geom)?,
            None => connect4_engine::eval::builtin(name, geom)?,
        };
        for path in &a.files.resolve()? {
            let positions: Vec<_> = read_bench_positions(path, geom, a.limit)?
                .into_iter()
                .map(|(p, _)| p)
                .collect();
            let speed = search_speed(&eval, &positions, a.depth);
            let eval_ns = eval_nanos(&eval, &positions, 200);
            rows.push(SearchSummary {
                eval: name.clone(),
                set: short_name(path),
                depth: a.depth,
                positions: speed.positions,
                mean_nodes: speed.mean_nodes,
                mean_ms: speed.mean_ms,
                nodes_per_second: speed.nodes_per_second,
                eval_ns,
            });
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        println!(
            "{:<10} {:<14} {:>6} {:>9} {:>12} {:>10} {:>10}",
            "eval", "set", "depth", "positions", "mean nodes", "mean ms", "Mnodes/s"
        );
        for r in &rows {
            println!(
                "{:<10} {:<14} {:>6} {:>9} {:>12.0} {:>10.3} {:>10.2}",
                r.eval,
                r.set,
                r.depth,
                r.positions,
                r.mean_nodes,
                r.mean_ms,
                r.nodes_per_second / 1e6
            );
        }
        for name in &evals {
            let ns: Vec<f64> = rows
                .iter()
                .filter(|r| &r.eval == name)
                .map(|r| r.eval_ns)
                .collect();
            let mean = ns.iter().sum::<f64>() / ns.len().max(1) as f64;
            println!("{name}: {mean:.0} ns per static evaluation (mean over the sets)");
        }
    }
    Ok(())
}

fn playouts(a: PlayoutBenchArgs) -> Result<()> {
    use connect4_engine::eval::{PlayoutPolicy, bench_playouts};
    let geom = a.board.geometry()?;
    let pos = connect4_engine::Position::from_moves(geom, &a.from)
        .with_context(|| format!("--from '{}'", a.from))?;
    if pos.outcome() != connect4_engine::game::Outcome::Ongoing {
        bail!("--from '{}': the game is already over", a.from);
    }
    let policy = if a.smart {
        PlayoutPolicy::Smart
    } else {
        PlayoutPolicy::Uniform
    };
    let s = bench_playouts(&pos, &a.from, policy, a.playouts, a.jobs, a.seed)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&s)?);
    } else {
        println!(
            "{} playouts ({}) from {} on {} thread(s): {:.3} s, {:.2} M/s, {:.2} M/s per core; \
             mean {:.1} plies; side to move won {}, drew {}, lost {}",
            s.playouts,
            s.policy,
            s.from,
            s.threads,
            s.seconds,
            s.playouts_per_second / 1e6,
            s.playouts_per_second_per_core / 1e6,
            s.mean_plies,
            s.first_mover_wins,
            s.draws,
            s.first_mover_losses
        );
    }
    Ok(())
}
