//! `c4 bench serve`: a load test of `c4 serve` over loopback sockets (see
//! [`connect4_ml::serve::load`]): simulated players play whole games at once; the figures
//! per route, the failures and the server's peak memory.

use anyhow::{Context, Result, bail};
use clap::Args;
use connect4_engine::io::write_json_atomic;
use connect4_ml::serve::load::{LoadConfig, Spawned, run as load};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct ServeBenchArgs {
    /// A server already running (e.g. http://127.0.0.1:8080); without it, `c4 serve` is
    /// started on a free loopback port with --serve-args and stopped at the end.
    #[arg(long)]
    url: Option<String>,
    /// Flags of the server started (one string, e.g. "--heavy 2 --quick 2").
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    serve_args: String,
    /// Players playing at once, each on its own connection.
    #[arg(long, default_value_t = 200, value_parser = super::super::at_least_one)]
    players: usize,
    /// How long they play, seconds.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    seconds: u64,
    /// The agents played, in turn (default: the page's presets: easy, hard, gbt:depth=3,
    /// the network, perfect, adaptive).
    #[arg(long, num_args = 1..)]
    agents: Vec<String>,
    /// A player's mean pause before each move, ms.
    #[arg(long, default_value_t = 0)]
    think_ms: u64,
    /// Chance that a player asks for an analysis before a move.
    #[arg(long, default_value_t = 0.25, value_parser = super::super::unit_interval)]
    analyze_chance: f64,
    /// Further players who only ask for analyses of fresh 12-ply positions (seconds each to
    /// solve): the work that saturates the heavy lane.
    #[arg(long, default_value_t = 0)]
    solvers: usize,
    /// Seed of the players' moves and the agents' seeds.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The figures as JSON.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Exit 1 when any request failed (a 5xx other than a 503 with Retry-After, a dropped
    /// connection, a 4xx).
    #[arg(long)]
    strict: bool,
}

pub fn run(a: ServeBenchArgs) -> Result<()> {
    for spec in &a.agents {
        spec.parse::<connect4_engine::agents::AgentSpec>()
            .with_context(|| format!("--agents {spec}"))?;
    }
    let (spawned, url) = match &a.url {
        Some(u) => (None, u.trim_end_matches('/').to_string()),
        None => {
            let exe = std::env::current_exe().context("cannot find the c4 binary")?;
            let args: Vec<String> = a.serve_args.split_whitespace().map(String::from).collect();
            let server = Spawned::start(&exe, &args).context("cannot start c4 serve")?;
            let url = server.url.clone();
            (Some(server), url)
        }
    };
    let mut config = LoadConfig {
        url,
        players: a.players,
        duration: Duration::from_secs(a.seconds),
        seed: a.seed,
        think: Duration::from_millis(a.think_ms),
        analyze_chance: a.analyze_chance,
        solvers: a.solvers,
        ..LoadConfig::default()
    };
    if !a.agents.is_empty() {
        config.agents = a.agents.clone();
    }
    let bars = super::super::Bars::new();
    let report = load(&config, spawned.as_ref().map(Spawned::pid), &bars);
    print!("{}", report.table());
    if let Some(out) = &a.out {
        write_json_atomic(out, &report)?;
        super::super::print_written(std::slice::from_ref(out));
    }
    if a.strict && report.failures() > 0 {
        bail!("{} requests failed", report.failures());
    }
    Ok(())
}
