//! `c4 train ntuple-pick`: the best of several n-tuple runs by games against the perfect
//! player, or the average of their weights, measured the same way.

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use connect4_engine::agents::AgentBoard;
use connect4_engine::game::Geometry;
use connect4_engine::io::model_format::{ModelParts, TrainingMeta};
use connect4_engine::ml::model_file::{load_ntuple_on, save_ntuple};
use connect4_engine::ml::ntuple::NTupleNetwork;
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
    /// of one board (the first one's, any board: where the solver does not reach it, 6x7,
    /// 8x7, 8x8, ..., no match is played and only --by average chooses).
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
    // The board is the first candidate's: read in 64 bits where it fits, else in 128.
    let first = a.networks.first().context("no candidate networks")?;
    let bytes = connect4_engine::io::carried::read_or_carried(first)
        .with_context(|| format!("candidate {}", first.display()))?;
    let header = ModelParts::open(first, &bytes)
        .with_context(|| format!("candidate {}", first.display()))?
        .header;
    let (width, height) = (header.width as usize, header.height as usize);
    if let Ok(geom) = Geometry::<u64>::sized(width, height) {
        pick_on(&a, geom)
    } else {
        let geom = Geometry::<u128>::sized(width, height)
            .with_context(|| format!("candidate {}", first.display()))?;
        pick_on(&a, geom)
    }
}

/// The pick on boards of `geom`, whose integer holds them.
fn pick_on<B: AgentBoard>(a: &PickArgs, geom: Geometry<B>) -> Result<()> {
    let mut nets: Vec<NTupleNetwork<B>> = Vec::new();
    let mut names = Vec::new();
    for p in &a.networks {
        // Every candidate must be a network of the first one's board, or the error names
        // both boards.
        let net = load_ntuple_on(p, geom).with_context(|| format!("candidate {}", p.display()))?;
        nets.push(net);
        names.push(p.display().to_string());
    }
    let by = match a.by {
        ByArg::Games => PickBy::Games,
        ByArg::Average => PickBy::Average,
    };
    let (report, net) = pick(&names, &nets, by, a.games, &a.eps, a.seed)?;
    if report.candidates.iter().all(|c| c.matches.is_empty()) {
        println!(
            "no matches: the solver does not reach {geom} boards; the average of {} networks, unmeasured (c4 evaluate --width {} --height {} measures it against other agents)",
            nets.len(),
            geom.width(),
            geom.height()
        );
    } else {
        println!(
            "wins against perfect:ties=random ({} games per match, seed {}), depth 1 with the one-move rule:",
            a.games, a.seed
        );
    }
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
