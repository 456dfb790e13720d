//! `c4 data positions`, `bench-sets` and `selfplay`: data from games between agents.

use anyhow::{Context, Result, bail};
use clap::Args;
use connect4_engine::Geometry;
use connect4_engine::Mode;
use connect4_learn::datasets::labelled::write_text;
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct PositionsArgs {
    /// Stones on the board, LO..HI inclusive (spread evenly).
    #[arg(long)]
    plies: String,
    /// Positions wanted.
    #[arg(long, value_parser = crate::cli::at_least_one)]
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
    /// The board (up to 128 bits; past 64 the mix's agents are those that play there).
    #[command(flatten)]
    board: crate::cli::BoardArgs,
}

/// The games that give positions: which agents play, and how often a move is random.
#[derive(Args, Debug)]
pub struct MixArgs {
    /// The agents whose games give the positions (two drawn per game). Default:
    /// random,easy,hard,handtuned:depth=3,window:depth=3; past 64 bits, where `handtuned`
    /// has no weights, random,easy,hard,window:depth=3.
    #[arg(long, value_delimiter = ',')]
    mix: Vec<String>,
    /// Chance of a uniformly random move instead of the agent's.
    #[arg(long, default_value_t = 0.15)]
    epsilon: f64,
}

/// The mix when none is given.
const DEFAULT_MIX: &str = "random,easy,hard,handtuned:depth=3,window:depth=3";
/// The mix when none is given on a board past 64 bits (no `handtuned` weights there).
const DEFAULT_WIDE_MIX: &str = "random,easy,hard,window:depth=3";

impl MixArgs {
    /// The agents as given, or the default mix (the wide one on boards past 64 bits).
    fn names(&self, wide: bool) -> Vec<String> {
        if !self.mix.is_empty() {
            return self.mix.clone();
        }
        let default = if wide { DEFAULT_WIDE_MIX } else { DEFAULT_MIX };
        default.split(',').map(str::to_string).collect()
    }

    /// The agents, parsed (model names resolved as everywhere in the CLI).
    fn specs(&self, wide: bool) -> Result<Vec<connect4_engine::agents::AgentSpec>> {
        self.names(wide)
            .iter()
            .map(|s| crate::cli::parse_agent(s))
            .collect()
    }
}

#[derive(Args, Debug)]
pub struct BenchSetsArgs {
    /// Seed of every game: the same seed gives the same files.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Folder to write the six files (and sets.json) into.
    #[arg(long, default_value = connect4_learn::arena::benchmark_sets::DEFAULT_BENCH_DIR)]
    out: PathBuf,
    /// Positions per set.
    #[arg(long, default_value_t = 1000, value_parser = crate::cli::at_least_one)]
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
    #[arg(long, value_parser = crate::cli::at_least_one)]
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

pub(super) fn run_selfplay(a: SelfplayArgs, book: crate::cli::BookChoice) -> Result<()> {
    use connect4_engine::agents::AgentSpec;
    use connect4_learn::train::games::{GamesConfig, generate};
    if a.agents.len() != 2 {
        bail!(
            "--agents takes exactly two agent specs, e.g. --agents easy,hard (got {})",
            a.agents.len()
        );
    }
    let plies = crate::cli::parse_plies(&a.plies)?;
    let specs: Vec<AgentSpec> = a
        .agents
        .iter()
        .map(|s| crate::cli::parse_agent(s))
        .collect::<Result<_, _>>()?;
    let cfg = GamesConfig {
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
        book,
    };
    let geom = Geometry::default();
    let start = Instant::now();
    let out = generate(&cfg, geom, &crate::cli::Bars::new())?;
    connect4_learn::datasets::games_csv::write_positions(&a.out, geom, &out.positions)
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

pub(super) fn run_positions(a: PositionsArgs) -> Result<()> {
    // Boards past 64 bits run the same code on `u128` bitboards.
    if a.board.is_wide()? {
        let geometry = a.board.wide_geometry()?;
        return positions_on(geometry, a);
    }
    let geometry = a.board.geometry()?;
    positions_on(geometry, a)
}

fn positions_on<B: connect4_engine::agents::AgentBoard>(
    geometry: Geometry<B>,
    a: PositionsArgs,
) -> Result<()> {
    use connect4_learn::datasets::labelled::{Expect, read_moves_file};
    use connect4_learn::train::sample_positions::{PositionsConfig, sample_positions};
    let mix = a.mix.specs(geometry.narrow().is_none())?;
    let mut exclude = HashSet::new();
    for path in &a.exclude {
        for m in read_moves_file(path, geometry, Expect::Any)? {
            exclude.insert(m.position.canonical_key());
        }
    }
    let cfg = PositionsConfig {
        plies: crate::cli::parse_plies(&a.plies)?,
        count: a.count,
        mix,
        epsilon: a.mix.epsilon,
        seed: a.seed,
        geometry,
        exclude,
    };
    let start = Instant::now();
    let out = sample_positions(&cfg, &crate::cli::Bars::new())?;
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

pub(super) fn run_bench_sets(a: BenchSetsArgs, book: crate::cli::BookChoice) -> Result<()> {
    use connect4_learn::train::make_benchmark_sets::{
        BenchSetsConfig, make_benchmark_sets, write_bench_sets,
    };
    let mix = a.mix.specs(false)?;
    let cfg = BenchSetsConfig {
        count: a.count,
        begin_hard: a.begin_hard.unwrap_or(a.count),
        begin_min_stones: a.begin_min_stones,
        mix,
        epsilon: a.mix.epsilon,
        seed: a.seed,
        tt_mib: a.tt_mib,
        book,
    };
    let start = Instant::now();
    let out = make_benchmark_sets(&cfg, &crate::cli::Bars::new())?;
    let command = format!(
        "c4 data bench-sets --seed {} --count {} --begin-hard {} --begin-min-stones {} --mix {} --epsilon {}",
        a.seed,
        cfg.count,
        cfg.begin_hard,
        cfg.begin_min_stones,
        a.mix.names(false).join(","),
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
