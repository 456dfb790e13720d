//! `c4 data uci`, `fetch-uci`, `enumerate-uci`, `verify-uci` and `generate-uci`: the UCI data set.

use super::label::TableArgs;
use anyhow::{Context, Result, bail};
use clap::Args;
use connect4_engine::Geometry;
use connect4_engine::progress::Progress;
use connect4_learn::datasets::Label;
use connect4_learn::datasets::enumerate::{compare_with_uci, enumerate_uci};
use connect4_learn::datasets::label::{Shard, generate_uci};
use connect4_learn::datasets::uci::{self, DEFAULT_UCI_PATH, UCI_PLY};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct UciArgs {
    /// The UCI data file.
    #[arg(long, default_value = DEFAULT_UCI_PATH)]
    uci: PathBuf,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct FetchArgs {
    /// Where to download from (the archive, a bare .Z file or the plain file).
    #[arg(long, default_value = connect4_ml::datasets::fetch::UCI_ARCHIVE_URL)]
    url: String,
    /// Where to write the data file (uncompressed; read it with --uci PATH).
    #[arg(long, default_value = "data/uci/connect-4.data")]
    out: PathBuf,
}

#[derive(Args, Debug)]
pub struct EnumerateArgs {
    /// The UCI data file to compare with (skipped, with a note, when it is missing).
    #[arg(long, default_value = DEFAULT_UCI_PATH)]
    uci: PathBuf,
    /// Also write the positions (42 cells per line, UCI order, no class) to this file.
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The UCI data file.
    #[arg(long, default_value = DEFAULT_UCI_PATH)]
    uci: PathBuf,
    /// Rows to check (0 = all).
    #[arg(long, default_value_t = 1000)]
    sample: usize,
    /// Seed of the sample.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    tables: TableArgs,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Output file (UCI format). Work in progress goes to FILE.partial.
    #[arg(long)]
    out: PathBuf,
    /// Label only shard I of N (0-based): positions k with k % N == I.
    #[arg(long, default_value = "0/1")]
    shard: Shard,
    /// Continue an interrupted run from FILE.partial.
    #[arg(long)]
    resume: bool,
    #[command(flatten)]
    tables: TableArgs,
}

pub(super) fn run_uci(a: UciArgs) -> Result<()> {
    let data = uci::load_uci(&a.uci)?;
    let s = connect4_learn::datasets::summarize(&data.rows);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&s)?);
        return Ok(());
    }
    println!(
        "{}: {} rows, {} distinct positions; sha256 of the uncompressed data {}{}",
        data.source,
        s.rows,
        s.distinct,
        data.sha256,
        if data.is_published() {
            " (the published file)"
        } else {
            ""
        }
    );
    for l in Label::ALL {
        let n = s.classes[l.index()];
        println!(
            "  {:<5} {:>6}  {:>5.1}%",
            l.as_str(),
            n,
            100.0 * n as f64 / s.rows.max(1) as f64
        );
    }
    println!(
        "mirror images: {} symmetric rows, {} rows whose mirror image is also present, {} label conflicts",
        s.symmetric, s.mirror_pairs_present, s.mirror_label_conflicts
    );
    let cols: Vec<String> = s
        .stones_per_column
        .iter()
        .enumerate()
        .map(|(c, n)| {
            format!(
                "{}:{:.2}",
                (b'a' + c as u8) as char,
                *n as f64 / s.rows.max(1) as f64
            )
        })
        .collect();
    println!("mean stones per column: {}", cols.join(" "));
    println!(
        "majority-class baseline accuracy: {:.4}",
        s.majority_baseline
    );
    Ok(())
}

pub(super) fn run_enumerate(a: EnumerateArgs) -> Result<()> {
    let start = Instant::now();
    let positions = enumerate_uci(Geometry::default(), UCI_PLY);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "enumerated {} positions (8 plies, no four, next move not forced, one per mirror pair) in {:.2} s",
        positions.len(),
        secs
    );
    if let Some(out) = &a.out {
        connect4_engine::io::write_atomic(out, |w| {
            for p in &positions {
                writeln!(w, "{}", p.to_uci_string())?;
            }
            Ok(())
        })
        .with_context(|| format!("writing {}", out.display()))?;
        println!("wrote {}", out.display());
    }
    match compare_with_uci(&positions, &a.uci) {
        Ok(c) => {
            println!(
                "compared with {}: {} rows; {} missing from the enumeration, {} not in the file",
                a.uci.display(),
                c.rows,
                c.missing,
                c.extra
            );
            if c.missing + c.extra > 0 {
                bail!("the enumeration differs from the file");
            }
            println!("identical sets");
        }
        Err(e @ uci::UciError::Missing { .. }) => println!("not compared: {e}"),
        Err(e) => return Err(e.into()),
    }
    Ok(())
}

pub(super) fn run_verify(a: VerifyArgs, book: crate::cli::BookChoice) -> Result<()> {
    let rows = uci::read_uci(&a.uci)?;
    let n = if a.sample == 0 {
        rows.len()
    } else {
        a.sample.min(rows.len())
    };
    let pool = a
        .tables
        .config(Geometry::default(), book)?
        .pool(Geometry::default(), std::iter::repeat_n(UCI_PLY, n))?;
    let bars = crate::cli::Bars::new();
    bars.start("weak-solving", n);
    let report =
        connect4_learn::datasets::label::verify_labels(&rows, a.sample, a.seed, &pool, &bars);
    bars.finish();
    let seconds = report.seconds;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "{} of {} sampled rows agree with the solver ({:.2}%), {:.1} s ({:.0} positions/s)",
            report.agree,
            report.checked,
            100.0 * report.agree as f64 / report.checked.max(1) as f64,
            seconds,
            report.checked as f64 / seconds.max(1e-9)
        );
        for d in report.disagreements.iter().take(20) {
            println!("  {d}");
        }
    }
    if report.agree != report.checked {
        bail!(
            "{} row(s) disagree with the solver",
            report.checked - report.agree
        );
    }
    Ok(())
}

pub(super) fn run_generate(a: GenerateArgs, book: crate::cli::BookChoice) -> Result<()> {
    let positions = enumerate_uci(Geometry::default(), UCI_PLY);
    let total = a.shard.select(&positions).len();
    let pool = a
        .tables
        .config(Geometry::default(), book)?
        .pool(Geometry::default(), std::iter::repeat_n(UCI_PLY, total))?;
    let bars = crate::cli::Bars::new();
    bars.start(
        &format!("labelling shard {}/{}", a.shard.index, a.shard.count),
        total,
    );
    let report = generate_uci(&positions, a.shard, &a.out, a.resume, &pool, &bars)?;
    bars.finish();
    println!(
        "{}: {} positions ({} from the partial file, {} labelled now in {:.1} s, {:.0} positions/s); loss {} draw {} win {}",
        a.out.display(),
        report.total,
        report.resumed,
        report.labelled,
        report.seconds,
        report.labelled as f64 / report.seconds.max(1e-9),
        report.classes[0],
        report.classes[1],
        report.classes[2]
    );
    Ok(())
}

pub(super) fn run_fetch(a: FetchArgs) -> Result<()> {
    let n = connect4_ml::datasets::fetch::fetch_uci(&a.url, &a.out)?;
    println!(
        "wrote {} ({n} bytes, sha256 {})",
        a.out.display(),
        uci::UCI_SHA256
    );
    Ok(())
}
