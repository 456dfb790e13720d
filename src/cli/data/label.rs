//! `c4 data label` and `c4 data merge`: solver labels for "MOVES" files, sharded and resumable,
//! and the merge of the shards; the solver tables every labelling job sets up.

use anyhow::{Context, Result, bail};
use clap::Args;
use connect4_engine::Mode;
use connect4_engine::game::{BitBoard, Geometry};
use connect4_engine::solver::{OrderHint, ShallowTable};
use connect4_learn::datasets::label::{LabelJob, Shard, TableConfig, label_file};
use connect4_learn::datasets::labelled::write_text;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct LabelArgs {
    /// The positions, one "MOVES" line each (e.g. from `c4 data positions`), plain or gzip.
    file: PathBuf,
    /// Output: "MOVES SCORE" lines. Work in progress goes to OUT.partial.
    #[arg(long)]
    out: PathBuf,
    /// Win/draw/loss only (1/0/-1), usually faster.
    #[arg(long)]
    weak: bool,
    #[command(flatten)]
    work: WorkArgs,
    #[command(flatten)]
    tables: TableArgs,
    #[command(flatten)]
    board: crate::cli::BoardArgs,
}

/// How a labelling job's work is split and run: its shard, resuming, threads.
#[derive(Args, Debug)]
pub struct WorkArgs {
    /// Label only shard I of N (0-based): the lines (or leaves) whose index mod N is I.
    #[arg(long, default_value = "0/1")]
    pub(super) shard: Shard,
    /// Continue an interrupted run from its .partial file (OUT.partial; an unsharded book's
    /// OUT.leaves.partial).
    #[arg(long)]
    pub(super) resume: bool,
    /// Worker threads (default: every core).
    #[arg(long, value_parser = crate::cli::at_least_one)]
    pub(super) jobs: Option<usize>,
    /// Positions (a book's leaves) solved and flushed to the .partial file at a time: a
    /// killed run loses at most one chunk's work (smaller for slow positions; the output is
    /// the same).
    #[arg(long, value_parser = crate::cli::at_least_one, default_value_t = connect4_learn::datasets::label::DEFAULT_CHUNK)]
    pub(super) chunk: usize,
}

/// The solver tables of a labelling job.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// Solver table per worker, MiB.
    #[arg(long, default_value_t = 64)]
    pub(super) tt_mib: usize,
    /// Positions with fewer stones than this share one table across workers and positions,
    /// which makes labelling many positions of the early phase cheaper (0 = none).
    #[arg(long, default_value_t = ShallowTable::DEFAULT_PLIES)]
    shallow_plies: usize,
    /// Largest size of that shared table, MiB (smaller for small jobs: 1 MiB per position
    /// below --shallow-plies stones, at least 16).
    #[arg(long, default_value_t = ShallowTable::DEFAULT_MIB)]
    shallow_mib: usize,
    /// A model file (GBT or linear weights) whose value of each child breaks the ties of the
    /// solver's threat ordering in positions with fewer than --order-plies stones. Labels are
    /// the same; with models/gbt.bin UCI positions labelled 6% faster before the solver's
    /// end-game changes, and no faster since.
    #[arg(long, value_name = "FILE")]
    order_model: Option<PathBuf>,
    /// Positions with fewer stones than this use --order-model.
    #[arg(long, default_value_t = OrderHint::DEFAULT_PLIES)]
    order_plies: usize,
}

impl TableArgs {
    /// The job's solver set-up; an --order-model is loaded here.
    pub(super) fn config<B: BitBoard>(
        &self,
        geom: Geometry<B>,
        book: crate::cli::BookChoice,
    ) -> Result<TableConfig> {
        let order_hint = match &self.order_model {
            Some(path) => {
                let Some(narrow) = geom.narrow() else {
                    bail!(
                        "--order-model on {geom}: models are for boards of up to 64 bits (width x (height + 1))"
                    );
                };
                let model = connect4_engine::eval::load_model(path, narrow)
                    .with_context(|| format!("--order-model {}", path.display()))?;
                Some(OrderHint {
                    plies: self.order_plies,
                    value: std::sync::Arc::new(move |p| model.evaluate(p)),
                })
            }
            None => None,
        };
        Ok(TableConfig {
            tt_mib: self.tt_mib,
            shallow_plies: self.shallow_plies,
            shallow_mib: self.shallow_mib,
            order_hint,
            book,
        })
    }
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The parts (outputs of `c4 data label --shard I/N`, each with its .shard.json).
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// The merged file, written atomically; gzip-compressed when it ends in .gz.
    #[arg(long)]
    out: PathBuf,
    /// The source the parts were labelled from: also check every line against it.
    #[arg(long)]
    source: Option<PathBuf>,
    /// The board of the positions (every line is checked to be one of it).
    #[command(flatten)]
    board: crate::cli::BoardArgs,
}

pub(super) fn run_label(a: LabelArgs, book: crate::cli::BookChoice) -> Result<()> {
    // Boards past 64 bits run the same code on `u128` bitboards.
    if a.board.is_wide()? {
        let geometry = a.board.wide_geometry()?;
        return label_on(geometry, a, book);
    }
    let geometry = a.board.geometry()?;
    label_on(geometry, a, book)
}

fn label_on<B: connect4_engine::solver::PoolBoard>(
    geometry: Geometry<B>,
    a: LabelArgs,
    book: crate::cli::BookChoice,
) -> Result<()> {
    let job = LabelJob {
        geometry,
        shard: a.work.shard,
        mode: if a.weak { Mode::Weak } else { Mode::Strong },
        chunk: a.work.chunk,
    };
    let tables = a.tables.config(job.geometry, book)?;
    let report = label_file(
        &a.file,
        &job,
        &a.out,
        a.work.resume,
        a.work.jobs,
        &tables,
        &crate::cli::Bars::new(),
    )?;
    for (line, why) in &report.bad_lines {
        eprintln!("{}: line {line}: {why}", a.file.display());
    }
    println!(
        "{}: {} positions of shard {}/{} ({} from the partial file, {} labelled now in {:.1} s, {:.1} positions/s)",
        a.out.display(),
        report.positions,
        a.work.shard.index,
        a.work.shard.count,
        report.resumed,
        report.labelled,
        report.seconds,
        report.labelled as f64 / report.seconds.max(1e-9)
    );
    if !report.bad_lines.is_empty() {
        bail!(
            "{} line(s) of {} are not positions to label (listed above)",
            report.bad_lines.len(),
            a.file.display()
        );
    }
    Ok(())
}

pub(super) fn run_merge(a: MergeArgs) -> Result<()> {
    let source = match &a.source {
        Some(p) => Some(connect4_learn::datasets::labelled::read_text(p)?),
        None => None,
    };
    let merged = if a.board.is_wide()? {
        connect4_learn::datasets::label::merge_shards(
            &a.parts,
            source.as_deref(),
            a.board.wide_geometry()?,
        )?
    } else {
        connect4_learn::datasets::label::merge_shards(
            &a.parts,
            source.as_deref(),
            a.board.geometry()?,
        )?
    };
    let gzip =
        write_text(&a.out, &merged.text).with_context(|| format!("writing {}", a.out.display()))?;
    println!(
        "{}: {} positions from {} shards; sha256 {}",
        a.out.display(),
        merged.positions,
        merged.shards,
        merged.sha256
    );
    if gzip {
        println!(
            "gzip-compressed: {} bytes, file sha256 {}",
            std::fs::metadata(&a.out)?.len(),
            connect4_engine::io::sha256_file(&a.out)?
        );
    }
    Ok(())
}
