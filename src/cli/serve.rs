//! `c4 serve`: the web UI and its JSON API.

use anyhow::{Context, Result};
use clap::Args;
use connect4_ml::serve::{ServeConfig, run as serve};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default; port 0 picks a free port, printed on the
    /// first line of stdout).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Folder whose subfolders are pipeline runs (`c4 pipeline --out runs/NAME`).
    #[arg(long, default_value = "runs")]
    runs: PathBuf,
    /// Folder of model files (`*.bin`) offered to agents and to the models panel.
    #[arg(long, default_value = "models")]
    models: PathBuf,
    /// Heavy requests worked on at once: solving past the book, timed searches, MCTS, the
    /// dial, the adaptive agent, reviews (default: the number of cores).
    #[arg(long, value_parser = super::at_least_one)]
    heavy: Option<usize>,
    /// Heavy requests that may wait for a slot; the next is refused at once (503 with
    /// Retry-After) (default: 16 per heavy slot).
    #[arg(long)]
    heavy_queue: Option<usize>,
    /// Quick requests worked on at once: shallow searches (easy, hard, gbt:depth=3, the
    /// network), book answers, the last plies (default: the number of cores).
    #[arg(long, value_parser = super::at_least_one)]
    quick: Option<usize>,
    /// Quick requests that may wait for a slot.
    #[arg(long, default_value_t = 256)]
    quick_queue: usize,
    /// How long a request may wait in its lane's queue before a 503, in milliseconds.
    #[arg(long, default_value_t = 10000)]
    queue_wait_ms: u64,
    /// Default time limit of one analysis, in milliseconds.
    #[arg(long, default_value_t = 3000)]
    analyze_ms: u64,
    /// Time limit of one agent's move, in milliseconds: the agent then answers the best move it
    /// found so far, marked "stopped" (also the ceiling of a spec's `ms`).
    #[arg(long, default_value_t = 20000)]
    move_ms: u64,
    /// Transposition table of each pooled solver, in MiB.
    #[arg(long, default_value_t = 64)]
    tt_mib: usize,
}

pub fn run(a: ServeArgs, book: super::BookChoice) -> Result<()> {
    // A server answers for hours: every block of its book is checked before the first
    // request (about 0.1 s at 12 plies) rather than found damaged by one.
    if let Some(b) = &book {
        b.check()?;
    }
    let mut config = ServeConfig {
        addr: a.addr,
        runs: a.runs,
        models: a.models,
        analyze_limit: Duration::from_millis(a.analyze_ms),
        move_limit: Duration::from_millis(a.move_ms),
        tt_mib: a.tt_mib,
        book,
        ..ServeConfig::default()
    };
    if let Some(h) = a.heavy {
        config.heavy = h;
        config.heavy_queue = 16 * h;
    }
    if let Some(q) = a.heavy_queue {
        config.heavy_queue = q;
    }
    if let Some(q) = a.quick {
        config.quick = q;
    }
    config.quick_queue = a.quick_queue;
    config.queue_wait = Duration::from_millis(a.queue_wait_ms);
    anyhow::ensure!(
        (1..=4096).contains(&config.tt_mib),
        "--tt-mib must be between 1 and 4096, not {}",
        config.tt_mib
    );
    config.analyze_max = config.analyze_max.max(config.analyze_limit);
    // Not an error (the models built into c4 stand in for the folder's), but a mistyped
    // folder should not pass silently. The default runs/ appears with the first pipeline
    // run, so a fresh clone is not warned about it.
    let default_runs = config.runs == std::path::Path::new("runs");
    for (flag, dir) in [("--models", &config.models), ("--runs", &config.runs)] {
        let unwarned_default = flag == "--runs" && default_runs;
        if unwarned_default || dir.is_dir() {
            continue;
        }
        let instead = if flag == "--models" {
            "the models built into c4 are served"
        } else {
            "serving without it"
        };
        eprintln!(
            "warning: {flag} {}: no such folder; {instead}",
            dir.display()
        );
    }
    let addr = config.addr;
    serve(config).with_context(|| format!("cannot serve on {addr}"))
}
