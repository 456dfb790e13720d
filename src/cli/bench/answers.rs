//! `c4 bench answers`: how long a player waits for each of the page's agents on a board,
//! every move asked for as the page asks for it (p50, p95 and the slowest, per agent).

use anyhow::Result;
use clap::Args;
use connect4_engine::agents::{AgentBoard, AgentSpec, Resources};
use connect4_engine::answers::presets;
use connect4_engine::game::Geometry;
use connect4_engine::io::write_json_atomic;
use connect4_engine::progress::Progress;
use connect4_learn::arena::{AnswerTimesConfig, answer_times};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct AnswerBenchArgs {
    /// The agents timed (default: the page's presets that play on the board, the dial at
    /// 1000 and 1800 Elo, and the adaptive agent).
    #[arg(long, num_args = 1..)]
    agents: Vec<String>,
    /// The other side of every game (a player's stand-in).
    #[arg(long, default_value = "easy")]
    opponent: String,
    /// Games per agent (colours alternating; the adaptive agent keeps its state across them).
    #[arg(long, default_value_t = 10, value_parser = super::super::at_least_one)]
    games: usize,
    /// Random plies that open each game (not timed).
    #[arg(long, default_value_t = 2)]
    openings: usize,
    /// Seed of the openings and the agents.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The longest a move may take, ms (the server's default limit).
    #[arg(long, default_value_t = 20_000)]
    limit_ms: u64,
    /// The figures as JSON.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The board.
    #[command(flatten)]
    board: super::super::BoardArgs,
}

/// The page's agents on `geom`: its presets that play there, the dial at two strengths.
fn page_agents<B: connect4_engine::game::BitBoard>(geom: Geometry<B>) -> Vec<String> {
    let board = [geom.width(), geom.height()];
    let mut agents: Vec<String> = presets(None)
        .into_iter()
        .filter(|p| p.boards.as_ref().is_none_or(|b| b.contains(&board)))
        .map(|p| p.agent.to_string())
        .collect();
    agents.extend(["level:elo=1000".to_string(), "level:elo=1800".to_string()]);
    agents
}

pub fn run(a: AnswerBenchArgs, book: super::super::BookChoice) -> Result<()> {
    if a.board.is_wide()? {
        let geom = a.board.wide_geometry()?;
        run_on(a, geom, book)
    } else {
        let geom = a.board.geometry()?;
        run_on(a, geom, book)
    }
}

/// `c4 bench answers` on a board of the integer `B` (`u128` past 64 bits).
fn run_on<B: AgentBoard>(
    a: AnswerBenchArgs,
    geom: Geometry<B>,
    book: super::super::BookChoice,
) -> Result<()> {
    let texts = if a.agents.is_empty() {
        page_agents(geom)
    } else {
        connect4_engine::agents::split_agent_list(&a.agents)
    };
    let agents = texts
        .iter()
        .map(|s| super::super::parse_agent(s))
        .collect::<Result<Vec<AgentSpec>>>()?;
    let cfg = AnswerTimesConfig {
        geometry: geom,
        agents,
        opponent: super::super::parse_agent(&a.opponent)?,
        games: a.games,
        openings: a.openings,
        seed: a.seed,
        limit: std::time::Duration::from_millis(a.limit_ms),
        resources: Resources {
            book,
            ..Resources::default()
        },
    };
    let bars = super::super::Bars::new();
    let times = answer_times(&cfg, &bars)?;
    bars.finish();
    println!(
        "answer times on {geom} ({} games per agent against {}, {} opening plies, seed {}):",
        a.games, a.opponent, a.openings, a.seed
    );
    println!(
        "{:<34} {:>6} {:>9} {:>9} {:>9} {:>7} {:>7}",
        "agent", "moves", "p50 ms", "p95 ms", "max ms", ">1 s", "stopped"
    );
    for t in &times {
        println!(
            "{:<34} {:>6} {:>9.1} {:>9.1} {:>9.1} {:>7} {:>7}",
            t.agent, t.moves, t.p50_ms, t.p95_ms, t.max_ms, t.over_1s, t.stopped
        );
    }
    if let Some(out) = &a.out {
        write_json_atomic(out, &times)?;
        super::super::print_written(std::slice::from_ref(out));
    }
    Ok(())
}
