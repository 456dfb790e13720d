//! `c4 tournament`: a round robin between agents, with Elo.

use super::BoardArgs;
use anyhow::{Context, Result};
use clap::Args;
use connect4_engine::io::{write_csv_atomic, write_json_atomic};
use connect4_engine::progress::Progress;
use connect4_learn::arena::{Tournament, TournamentConfig, TournamentSummary};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// Agent specs, comma-separated or repeated (`--help` lists every kind).
    #[arg(long, required = true, num_args = 1.., long_help = super::agents_long_help("Agent specs, comma-separated or repeated. Inside one spec, options are also separated by commas; a new spec starts at a word that names an agent kind."))]
    agents: Vec<String>,
    /// Games per pairing (colours alternate).
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Random opening plies per game (the two colour assignments share each opening).
    #[arg(long, default_value_t = 2)]
    openings: usize,
    /// Seed for openings, random agents and the Elo bootstrap.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = super::default_jobs())]
    jobs: usize,
    /// Folder for games.csv and summary.json.
    #[arg(long, default_value = "runs/tournament")]
    out: PathBuf,
    #[command(flatten)]
    board: BoardArgs,
}

pub fn run(a: TournamentArgs, book: super::BookChoice) -> Result<()> {
    let agents = connect4_engine::agents::split_agent_list(&a.agents)
        .iter()
        .map(|s| super::parse_agent(s))
        .collect::<Result<Vec<_>, _>>()?;
    let bars = super::Bars::new();
    let summary = if a.board.is_wide()? {
        // Boards past 64 bits: the agents that play there (the library names the others).
        let tournament = Tournament::<u128>::on_board(
            TournamentConfig {
                agents,
                games: a.games,
                openings: a.openings,
                seed: a.seed,
                jobs: a.jobs,
                geometry: a.board.wide_geometry()?,
                side: Default::default(),
            },
            &connect4_engine::agents::Resources {
                book: None,
                models: Default::default(),
            },
        )?;
        bars.start("games", tournament.total_games());
        tournament.run(&bars)?
    } else {
        let tournament = Tournament::with_book(
            TournamentConfig {
                agents,
                games: a.games,
                openings: a.openings,
                seed: a.seed,
                jobs: a.jobs,
                geometry: a.board.geometry()?,
                side: Default::default(),
            },
            book,
        )?;
        bars.start("games", tournament.total_games());
        tournament.run(&bars)?
    };
    bars.finish();
    print_summary(&summary);
    let games = a.out.join("games.csv");
    let json = a.out.join("summary.json");
    write_csv_atomic(&games, &summary.rows)
        .with_context(|| format!("cannot write {}", games.display()))?;
    write_json_atomic(&json, &summary)
        .with_context(|| format!("cannot write {}", json.display()))?;
    println!("\nwrote {} and {}", games.display(), json.display());
    Ok(())
}

fn print_summary(s: &TournamentSummary) {
    print!("{}", s.table());
}
