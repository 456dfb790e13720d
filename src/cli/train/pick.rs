//! `c4 train ntuple-pick`: the best of several n-tuple runs by games against the perfect
//! player, or the average of their weights, measured the same way.

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use connect4_engine::io::model_format::TrainingMeta;
use connect4_engine::ml::model_file::{load_ntuple, save_ntuple};
use connect4_learn::train::ntuple::{PickBy, pick};
use std::path::PathBuf;

/// `--by` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ByArg {
    /// The network with the most wins against the perfect player.
    Games,
    /// The average of the networks' weights (same tuples: runs of one recipe).
    Average,
}

#[derive(Args, Debug)]
pub struct PickArgs {
    /// The candidate networks (e.g. models/ntuple.run0.bin models/ntuple.run1.bin ...), all
    /// of one board (the first one's: 7x6, 6x5, ... up to 64 bits, where the perfect player
    /// reaches the board for the matches).
    #[arg(required = true, num_args = 1..)]
    networks: Vec<PathBuf>,
    /// How to choose.
    #[arg(long, value_enum, default_value = "games")]
    by: ByArg,
    /// Games per match against the perfect player (first player; second at each --eps).
    #[arg(long, default_value_t = 200, value_parser = crate::cli::at_least_one)]
    games: usize,
    /// The perfect player's shares of random safe moves in the second-player matches.
    #[arg(long, value_delimiter = ',', default_value = "0.1,0.2,0.3")]
    eps: Vec<f64>,
    /// Seed of the matches (choose on other seeds than the final figures').
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Where the chosen network goes; the measurements beside it as `.pick.json`.
    #[arg(long)]
    out: PathBuf,
}

pub(super) fn run_pick(a: PickArgs) -> Result<()> {
    if let Some(e) = a.eps.iter().find(|e| !(0.0..=1.0).contains(*e)) {
        anyhow::bail!("--eps {e}: a share of random moves from 0 to 1");
    }
    let mut nets: Vec<connect4_engine::ml::ntuple::NTupleNetwork> = Vec::new();
    let mut names = Vec::new();
    for p in &a.networks {
        // The board is the first candidate's (any board of up to 64 bits); every other
        // candidate must be a network of it, or the error names both boards.
        let board = nets.first().map(|n| n.geometry());
        let f = load_ntuple(p, board).with_context(|| format!("candidate {}", p.display()))?;
        nets.push(f.network);
        names.push(p.display().to_string());
    }
    let by = match a.by {
        ByArg::Games => PickBy::Games,
        ByArg::Average => PickBy::Average,
    };
    let (report, net) = pick(&names, &nets, by, a.games, &a.eps, a.seed)?;
    println!(
        "wins against perfect:ties=random ({} games per match, seed {}), depth 1 with the one-move rule:",
        a.games, a.seed
    );
    for (i, c) in report.candidates.iter().enumerate() {
        let cells: Vec<String> = c
            .matches
            .iter()
            .map(|m| {
                format!(
                    "{} {:.1}% [{:.1}, {:.1}]",
                    m.label(),
                    100.0 * m.win_rate,
                    100.0 * m.low,
                    100.0 * m.high
                )
            })
            .collect();
        let mark = if i == report.chosen { "*" } else { " " };
        println!("{mark} {:<40} {}", c.name, cells.join("; "));
    }
    let meta = TrainingMeta::new(crate::cli::command_line(), a.seed);
    save_ntuple(&a.out, &net, meta)?;
    let json = connect4_engine::io::beside(&a.out, ".pick.json");
    connect4_engine::io::write_json_atomic(&json, &report)
        .with_context(|| format!("writing {}", json.display()))?;
    crate::cli::print_written(&[a.out.clone(), json]);
    Ok(())
}
