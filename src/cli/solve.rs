//! `c4 solve`: a stream of positions in, a stream of scores out.

use super::BoardArgs;
use anyhow::{Context, Result, bail};
use clap::Args;
use connect4_engine::game::{BitBoard, Geometry};
use connect4_engine::{Mode, Solver};
use connect4_ml::speed::solver::solve_line_with;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Only win (1), draw (0) or loss (-1): much faster than the exact score.
    #[arg(long)]
    weak: bool,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = connect4_engine::solver::DEFAULT_TT_MIB)]
    tt_mib: usize,
    /// Clear the table before every line (each line's figures then do not depend on the
    /// lines before it; slower for related positions).
    #[arg(long)]
    reset_table: bool,
    /// Positions with fewer stones share table entries with their mirror image.
    #[arg(long, default_value_t = connect4_engine::solver::DEFAULT_SYMMETRY_PLIES)]
    symmetry_plies: usize,
    /// Also find the best column (fastest win, slowest loss, centre first among equals) and
    /// print it, 1-based, as a fifth field ("-" when the game is over).
    #[arg(long)]
    best: bool,
    #[command(flatten)]
    board: BoardArgs,
    /// Lines of "MOVES" or "MOVES EXPECTED" (`-` alone is the empty board); stdin if absent.
    file: Option<PathBuf>,
}

pub fn run(a: SolveArgs, book: super::BookChoice) -> Result<()> {
    // Boards past 64 bits run the same code on `u128` bitboards.
    if a.board.is_wide()? {
        let geom = a.board.wide_geometry()?;
        return run_on(geom, a, book);
    }
    let geom = a.board.geometry()?;
    run_on(geom, a, book)
}

fn run_on<B: BitBoard>(geom: Geometry<B>, a: SolveArgs, book: super::BookChoice) -> Result<()> {
    let mut solver = Solver::with_table_mib(geom, a.tt_mib)?;
    solver.set_book(book);
    solver.ready();
    solver.set_symmetry_plies(a.symmetry_plies);
    let mode = if a.weak { Mode::Weak } else { Mode::Strong };
    let reader: Box<dyn BufRead> = match &a.file {
        Some(p) => Box::new(BufReader::new(
            std::fs::File::open(p).with_context(|| format!("cannot open {}", p.display()))?,
        )),
        None => Box::new(std::io::stdin().lock()),
    };
    let name = a
        .file
        .as_ref()
        .map_or("stdin".to_string(), |p| p.display().to_string());
    let mut out = std::io::stdout().lock();
    let mut bad = 0usize;
    for (i, line) in reader.split(b'\n').enumerate() {
        let line = line.with_context(|| format!("cannot read {name}"))?;
        if a.reset_table {
            solver.clear();
        }
        let result = match std::str::from_utf8(&line) {
            Ok(text) => solve_line_with(&mut solver, text, mode, a.best).map_err(|e| e.to_string()),
            Err(_) => Err("not valid UTF-8".to_string()),
        };
        match result {
            Ok(Some(s)) => {
                let moves = if s.moves.is_empty() { "-" } else { &s.moves };
                write!(out, "{moves} {} {} {:.0}", s.score, s.nodes, s.micros)?;
                if a.best {
                    match s.best {
                        Some(col) => write!(out, " {col}")?,
                        None => write!(out, " -")?,
                    }
                }
                writeln!(out)?;
                out.flush()?;
            }
            Ok(None) => {}
            Err(e) => {
                eprintln!("{name}: line {}: {e}", i + 1);
                bad += 1;
            }
        }
    }
    if bad > 0 {
        bail!("{bad} line(s) of {name} could not be solved");
    }
    Ok(())
}
