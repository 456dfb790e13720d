//! `c4 data book`: the opening book, made by the data engine (the leaves labelled as a
//! sharded, resumable job; the rest by negamax over them).

use super::label::{TableArgs, WorkArgs};
use anyhow::{Context, Result};
use clap::Args;
use connect4_learn::datasets::label::{BookJob, book_from_leaves_file, label_book_leaves};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct BookArgs {
    /// Depth: every unfinished position with at most this many stones gets its exact score.
    #[arg(long, required_unless_present_any = ["verify", "convert"])]
    plies: Option<usize>,
    /// The book file (written atomically). With --shard I/N (N > 1): this shard's labelled
    /// leaves instead, "MOVES SCORE" lines for `c4 data merge`; then make the book with
    /// --leaves MERGED.
    #[arg(long, required_unless_present_any = ["verify", "write_leaves", "convert"])]
    out: Option<PathBuf>,
    /// Check a book file instead of making one: every entry against its children's scores
    /// (the whole book, complete), and --sample of its leaves solved again without a book.
    #[arg(long, value_name = "BOOK", conflicts_with_all = ["plies", "out", "leaves", "write_leaves", "shard", "resume"])]
    verify: Option<PathBuf>,
    /// Rewrite a book file of an older format version (1 to 4, which every process hashes
    /// whole on load) in the current one (checked block by block, opened at once): to --out,
    /// or in place without it. Every entry is checked first.
    #[arg(long, value_name = "BOOK", conflicts_with_all = ["verify", "plies", "leaves", "write_leaves", "shard", "resume"])]
    convert: Option<PathBuf>,
    /// Leaves --verify solves again (every leaf when there are fewer).
    #[arg(long, default_value_t = 50, requires = "verify")]
    sample: usize,
    /// Seed of --verify's sample.
    #[arg(long, default_value_t = 1, requires = "verify")]
    seed: u64,
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

/// `--verify BOOK`: the book's structure and a sample of its leaves against the solver.
fn run_verify(a: &BookArgs, path: &Path) -> Result<()> {
    use connect4_engine::solver::book::{Book, verify};
    let start = std::time::Instant::now();
    let book = Book::load(path, None)?;
    let loaded = start.elapsed().as_secs_f64();
    let start = std::time::Instant::now();
    book.check()?;
    let checked = start.elapsed().as_secs_f64();
    let report = verify(
        &book,
        a.sample,
        a.seed,
        a.tables.tt_mib,
        a.work.jobs,
        &crate::cli::Bars::new(),
    )
    .with_context(|| format!("{} failed verification", path.display()))?;
    let g = book.geometry();
    println!(
        "{}: sound. {}x{}, {} plies: {} positions, every block's checksum holds ({:.0} ms), each its children's negamax; {} of the {} leaves solved again without a book, all equal ({:.1} s, {:.2} s each); opened in {:.1} ms",
        path.display(),
        g.width(),
        g.height(),
        book.plies(),
        report.positions,
        checked * 1000.0,
        report.sampled,
        report.leaves,
        report.seconds,
        report.seconds / report.sampled.max(1) as f64,
        loaded * 1000.0
    );
    Ok(())
}

/// `--convert BOOK`: the book in the current format, every entry checked first.
fn run_convert(path: &Path, out: Option<&Path>) -> Result<()> {
    use connect4_engine::solver::book::Book;
    let book = Book::load(path, None)?;
    book.check()?;
    let out = out.unwrap_or(path);
    book.save(out)?;
    let bytes = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
    println!(
        "{}: {} positions of at most {} stones, {} bytes in format version {}",
        out.display(),
        book.len(),
        book.plies(),
        bytes,
        connect4_engine::solver::book::format::VERSION
    );
    Ok(())
}

/// Labels the book's leaves (this run's shard of them), resumable: where the labelled
/// leaves are, or `None` for one shard of several (`c4 data merge` comes next).
fn label_leaves(
    a: &BookArgs,
    geom: connect4_engine::Geometry,
    plies: usize,
    out_path: &Path,
    book: crate::cli::BookChoice,
) -> Result<Option<PathBuf>> {
    let sharded = a.work.shard.count > 1;
    let out = if sharded {
        out_path.to_path_buf()
    } else {
        leaves_path(out_path)
    };
    let job = BookJob {
        geometry: geom,
        plies,
        shard: a.work.shard,
        chunk: a.work.chunk,
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
        plies,
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
            a.work.shard.count, plies
        );
        return Ok(None);
    }
    Ok(Some(out))
}

pub(super) fn run_book(a: BookArgs, book: crate::cli::BookChoice) -> Result<()> {
    if let Some(path) = &a.verify {
        return run_verify(&a, path);
    }
    if let Some(path) = &a.convert {
        return run_convert(path, a.out.as_deref());
    }
    let geom = a.board.geometry()?;
    let plies = a.plies.context("--plies is required")?;
    let start = std::time::Instant::now();
    if let Some(path) = &a.write_leaves {
        let text = connect4_learn::datasets::label::leaves_source(geom, plies)?;
        connect4_learn::datasets::labelled::write_text(path, &text)
            .with_context(|| format!("writing {}", path.display()))?;
        println!(
            "{}: {} leaves of {} stones to label",
            path.display(),
            text.lines().count(),
            plies
        );
        return Ok(());
    }
    let out_path = a.out.clone().context("--out is required")?;
    let leaves = match &a.leaves {
        Some(path) => path.clone(),
        None => match label_leaves(&a, geom, plies, &out_path, book)? {
            Some(leaves) => leaves,
            // A shard's leaves are labelled: the book is made once they are merged.
            None => return Ok(()),
        },
    };
    let book = book_from_leaves_file(geom, plies, &leaves)
        .with_context(|| format!("making the book from {}", leaves.display()))?;
    book.save(&out_path)?;
    let bytes = std::fs::metadata(&out_path).map(|m| m.len()).unwrap_or(0);
    println!(
        "{}: {} positions of at most {} stones ({}x{}), {} bytes, in {:.1} s",
        out_path.display(),
        book.len(),
        plies,
        geom.width(),
        geom.height(),
        bytes,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
