//! `c4 data book`: the opening book, made by the data engine (the leaves labelled as a
//! sharded, resumable job; the rest by negamax over them).

use super::label::{TableArgs, WorkArgs};
use anyhow::{Context, Result};
use clap::Args;
use connect4_ml::datasets::label::{BookJob, book_from_leaves_file, label_book_leaves};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct BookArgs {
    /// Depth: every unfinished position with at most this many stones gets its exact score.
    #[arg(long)]
    plies: usize,
    /// The book file (written atomically). With --shard I/N (N > 1): this shard's labelled
    /// leaves instead, "MOVES SCORE" lines for `c4 data merge`; then make the book with
    /// --leaves MERGED.
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    work: WorkArgs,
    /// Make the book from these labelled leaves ("MOVES SCORE" lines, e.g. merged shards)
    /// instead of solving them.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["shard", "resume"])]
    leaves: Option<PathBuf>,
    /// Only write the leaves to label ("MOVES" lines) to this file and stop: the input of
    /// the cluster manifests' `c4 data label` job (deploy/README.md), whose merged output
    /// then goes to --leaves. --out is not written.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["leaves", "shard", "resume"])]
    write_leaves: Option<PathBuf>,
    #[command(flatten)]
    board: crate::cli::BoardArgs,
    #[command(flatten)]
    tables: TableArgs,
}

/// Where an unsharded run keeps its labelled leaves: beside the book.
fn leaves_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".leaves");
    s.into()
}

pub(super) fn run_book(a: BookArgs, book: crate::cli::BookChoice) -> Result<()> {
    let geom = a.board.geometry()?;
    let start = std::time::Instant::now();
    if let Some(path) = &a.write_leaves {
        let text = connect4_ml::datasets::label::leaves_source(geom, a.plies)?;
        connect4_ml::datasets::labelled::write_text(path, &text)
            .with_context(|| format!("writing {}", path.display()))?;
        println!(
            "{}: {} leaves of {} stones to label",
            path.display(),
            text.lines().count(),
            a.plies
        );
        return Ok(());
    }
    let leaves = match &a.leaves {
        Some(path) => path.clone(),
        None => {
            let sharded = a.work.shard.count > 1;
            let out = if sharded {
                a.out.clone()
            } else {
                leaves_path(&a.out)
            };
            let job = BookJob {
                geometry: geom,
                plies: a.plies,
                shard: a.work.shard,
            };
            let report = label_book_leaves(
                &job,
                &out,
                a.work.resume,
                a.work.jobs,
                &a.tables.config(geom, book)?,
                &crate::cli::Bars::new(),
            )?;
            println!(
                "{}: {} leaves of {} stones in shard {}/{} ({} from the partial file, {} solved in {:.1} s, {:.2} s each)",
                out.display(),
                report.positions,
                a.plies,
                a.work.shard.index,
                a.work.shard.count,
                report.resumed,
                report.labelled,
                report.seconds,
                report.seconds / report.labelled.max(1) as f64
            );
            if sharded {
                println!(
                    "next: c4 data merge <the {} parts> --out LEAVES, then c4 data book --plies {} --leaves LEAVES --out BOOK",
                    a.work.shard.count, a.plies
                );
                return Ok(());
            }
            out
        }
    };
    let book = book_from_leaves_file(geom, a.plies, &leaves)
        .with_context(|| format!("making the book from {}", leaves.display()))?;
    book.save(&a.out)?;
    let bytes = std::fs::metadata(&a.out).map(|m| m.len()).unwrap_or(0);
    println!(
        "{}: {} positions of at most {} stones ({}x{}), {} bytes, in {:.1} s",
        a.out.display(),
        book.len(),
        a.plies,
        geom.width(),
        geom.height(),
        bytes,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
