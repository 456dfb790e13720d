//! `c4 bench`: speed and accuracy figures, as a table or JSON.

use super::BoardArgs;
use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use connect4_ml::solver::bench::{SetSummary, solve_line};
use connect4_ml::{Mode, Solver};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// Solve every position of benchmark files ("MOVES SCORE" lines) and report mean time,
    /// mean nodes, nodes per second and mismatches per file.
    Solver(SolverBenchArgs),
}

#[derive(Args, Debug)]
pub struct SolverBenchArgs {
    /// Benchmark files, e.g. ../shared/data/pons/Test_L3_R1.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Weak solve (win/draw/loss); mismatches then compare signs.
    #[arg(long)]
    weak: bool,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = connect4_ml::solver::DEFAULT_TT_MIB)]
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
    #[arg(long, default_value_t = connect4_ml::solver::DEFAULT_SYMMETRY_PLIES)]
    symmetry_plies: usize,
    /// Print a JSON array of per-file summaries instead of the table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    board: BoardArgs,
}

pub fn run(cmd: BenchCommand) -> Result<()> {
    match cmd {
        BenchCommand::Solver(a) => solver(a),
    }
}

fn solver(a: SolverBenchArgs) -> Result<()> {
    let geom = a.board.geometry()?;
    let mode = if a.weak { Mode::Weak } else { Mode::Strong };
    let mut summaries = Vec::new();
    let mut bad_total = 0;
    for path in &a.files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
        let lines: Vec<&str> = text.lines().take(a.limit.unwrap_or(usize::MAX)).collect();
        // One solver per file: every set starts from an empty table.
        let mut solver = Solver::with_table_mib(geom, a.tt_mib)?;
        solver.set_symmetry_plies(a.symmetry_plies);
        let bar = ProgressBar::new(lines.len() as u64).with_style(
            ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed} eta {eta}")?
                .progress_chars("=> "),
        );
        bar.set_message(short_name(path));
        let mut solved = Vec::with_capacity(lines.len());
        let mut bad = 0;
        for (i, line) in lines.iter().enumerate() {
            if !a.keep_table {
                solver.clear();
            }
            match solve_line(&mut solver, line, mode) {
                Ok(Some(s)) => {
                    if s.mismatch(mode) {
                        bar.suspend(|| {
                            eprintln!(
                                "{name}: line {}: {} expected {:?}, solver says {}",
                                i + 1,
                                s.moves,
                                s.expected,
                                s.score
                            )
                        });
                    }
                    solved.push(s);
                }
                Ok(None) => {}
                Err(e) => {
                    bar.suspend(|| eprintln!("{name}: line {}: {e}", i + 1));
                    bad += 1;
                }
            }
            bar.inc(1);
        }
        bar.finish_and_clear();
        bad_total += bad;
        summaries.push(SetSummary::from_lines(&name, mode, &solved, bad));
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
