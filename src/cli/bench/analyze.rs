//! `c4 bench analyze`: full-analysis time by stage of the game.

use anyhow::Result;
use clap::Args;
use connect4_ml::speed::analyze::{bands, positions_by_ply, time_analyses};

#[derive(Args, Debug)]
pub struct AnalyzeBenchArgs {
    /// Stones on the board, LO..HI inclusive: every ply of the range is timed.
    #[arg(long, default_value = "0..41")]
    plies: String,
    /// Positions per ply.
    #[arg(long, default_value_t = 10, value_parser = crate::cli::at_least_one)]
    count: usize,
    /// Seed of the games the positions come from.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Plies per row of the table.
    #[arg(long, default_value_t = 4, value_parser = crate::cli::at_least_one)]
    band: usize,
    /// Solver table, MiB (cleared before each position).
    #[arg(long, default_value_t = connect4_engine::solver::DEFAULT_TT_MIB)]
    tt_mib: usize,
    /// Also write every timing as CSV (moves, ply, ms, nodes).
    #[arg(long, value_name = "FILE")]
    csv: Option<std::path::PathBuf>,
    /// Print JSON instead of the table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    board: crate::cli::BoardArgs,
}

pub(super) fn run(a: AnalyzeBenchArgs, book: crate::cli::BookChoice) -> Result<()> {
    let geom = a.board.geometry()?;
    let plies = crate::cli::parse_plies(&a.plies)?;
    let positions = positions_by_ply(geom, plies, a.count, a.seed);
    let timings = time_analyses(
        geom,
        &positions,
        a.tt_mib,
        book.clone(),
        &crate::cli::Bars::new(),
    )?;
    if let Some(path) = &a.csv {
        connect4_engine::io::write_csv_atomic(path, &timings)?;
    }
    let rows = bands(&timings, a.band);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    let book = book
        .filter(|b| b.geometry() == geom)
        .map_or("no book".to_string(), |b| {
            format!("book of {} plies", b.plies())
        });
    println!(
        "full analysis (every column exact), one thread, {} MiB table, {book}",
        a.tt_mib
    );
    println!(
        "{:<8} {:>9} {:>10} {:>10} {:>10} {:>10}",
        "plies", "positions", "p50 ms", "p95 ms", "p99 ms", "max ms"
    );
    for r in &rows {
        println!(
            "{:<8} {:>9} {:>10.2} {:>10.2} {:>10.2} {:>10.2}",
            format!("{}-{}", r.from, r.to),
            r.positions,
            r.p50,
            r.p95,
            r.p99,
            r.max
        );
    }
    let all = bands(&timings, usize::MAX / 2);
    if let Some(t) = all.first() {
        println!(
            "{:<8} {:>9} {:>10.2} {:>10.2} {:>10.2} {:>10.2}",
            "all", t.positions, t.p50, t.p95, t.p99, t.max
        );
    }
    Ok(())
}
