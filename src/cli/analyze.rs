//! `c4 analyze`: the board and the exact value of every column.

use super::BoardArgs;
use anyhow::{Context, Result};
use clap::Args;
use connect4_engine::game::{BitBoard, Geometry, Outcome};
use connect4_engine::{Mode, Position, Solver};

/// The table of each thread of one analysis. Measured on 200 positions of 7-12 stones (seed
/// 2027, 2 threads, as processes): p90 167 ms and max 1.00 s with 16 MiB against 180 ms and
/// 1.04 s with 64, a searched 12-stone position's median 31.5 against 37.8 ms.
const ANALYZE_TT_MIB: usize = 16;

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// Moves played so far, one character a move: columns 1-9, then a-z, e.g. 4453 (empty or `-`: empty board).
    #[arg(default_value = "")]
    moves: String,
    /// Only win (1), draw (0) or loss (-1) per column.
    #[arg(long)]
    weak: bool,
    /// Transposition table size in MiB (per thread; smaller than the other commands' 64: one
    /// analysis touches little of a table, and every table is made ready before its first
    /// search).
    #[arg(long, default_value_t = ANALYZE_TT_MIB)]
    tt_mib: usize,
    /// Threads searching the columns at once (default: every core, at most one per column).
    /// The scores are the same on any number.
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    board: BoardArgs,
}

pub fn run(a: AnalyzeArgs, book: super::BookChoice) -> Result<()> {
    // Boards past 64 bits run the same code on `u128` bitboards.
    if a.board.is_wide()? {
        let geom = a.board.wide_geometry()?;
        return run_on(geom, a, book);
    }
    let geom = a.board.geometry()?;
    run_on(geom, a, book)
}

fn run_on<B: BitBoard>(geom: Geometry<B>, a: AnalyzeArgs, book: super::BookChoice) -> Result<()> {
    let moves = if a.moves == "-" { "" } else { a.moves.as_str() };
    let pos = Position::from_moves(geom, moves)
        .with_context(|| format!("cannot read moves \"{moves}\""))?;
    let mode = if a.weak { Mode::Weak } else { Mode::Strong };
    let mut solver = Solver::with_table_mib(geom, a.tt_mib)?;
    solver.set_book(book.clone());
    println!("{pos}");
    match pos.outcome() {
        Outcome::Won(p) => {
            println!("game over: {} won", p.symbol());
            return Ok(());
        }
        Outcome::Draw => {
            println!("game over: draw");
            return Ok(());
        }
        Outcome::Ongoing => {}
    }
    let threads = match a.threads {
        Some(0) => anyhow::bail!("--threads 0: at least one thread is needed"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, usize::from),
    }
    .min(geom.width());
    let mut helpers = (1..threads)
        .map(|_| Solver::with_table_mib(geom, a.tt_mib))
        .collect::<Result<Vec<_>, _>>()?;
    let scores = solver.analyze_with_helpers(&pos, mode, &mut helpers);
    // The scores are exact either way; a damaged book is still an error, said before them.
    super::book_sound(&book)?;
    let cell = |s: &Option<i32>| s.map_or("-".to_string(), |v| v.to_string());
    let header: Vec<String> = (1..=geom.width()).map(|c| format!("{c:>4}")).collect();
    let values: Vec<String> = scores.iter().map(|s| format!("{:>4}", cell(s))).collect();
    println!("column{}", header.concat());
    println!("score {}", values.concat());
    let best = scores.iter().flatten().max().copied().unwrap_or(0);
    let best_cols: Vec<String> = scores
        .iter()
        .enumerate()
        .filter(|(_, s)| **s == Some(best))
        .map(|(c, _)| (c + 1).to_string())
        .collect();
    println!(
        "{} to move, {} stones; position score {best} ({}); best column(s): {}",
        pos.side_to_move().symbol(),
        pos.moves_played(),
        connect4_engine::solver::describe_score(best, geom, mode),
        best_cols.join(", ")
    );
    Ok(())
}
