//! `c4 rate`: an agent's Elo on the project's fixed ladder, with its 95% interval: the scale
//! of the dial and the page's presets, the same from run to run.

use anyhow::{Context, Result, bail};
use clap::Args;
use connect4_engine::Interrupt;
use connect4_engine::agents::Resources;
use connect4_engine::io::write_json_atomic;
use connect4_engine::progress::Progress;
use connect4_learn::arena::{RateConfig, Rating, fixed_ladder, ladder_factories, rate};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct RateArgs {
    /// The agents to rate (each on its own against the ladder), e.g. `--agent gbt:depth=3`.
    #[arg(long, num_args = 1.., required = true)]
    agent: Vec<String>,
    /// Games against each ladder agent (colours alternate, pairs share an opening).
    #[arg(long, default_value_t = 40, value_parser = super::at_least_one)]
    games: usize,
    /// Random opening plies per game.
    #[arg(long, default_value_t = 2)]
    openings: usize,
    /// Seed of openings and draws.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = super::default_jobs(), value_parser = super::at_least_one)]
    jobs: usize,
    /// Another ladder (a `c4 tournament` summary.json), its agents held at their ratings;
    /// off 7x6 shifted onto the 7x6 scale as `c4 calibrate` does. Default: the ladder the
    /// board's dial was calibrated on (built into c4), whose ratings the page's presets
    /// carry.
    #[arg(long)]
    ladder: Option<PathBuf>,
    /// Write the ratings (a JSON list) to this file as well.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print the ratings as JSON instead of tables.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    board: super::BoardArgs,
}

pub fn run(a: RateArgs, book: super::BookChoice) -> Result<()> {
    // Boards past 64 bits run the same code on `u128` bitboards.
    if a.board.is_wide()? {
        let geom = a.board.wide_geometry()?;
        return run_on(geom, a, book);
    }
    let geom = a.board.geometry()?;
    run_on(geom, a, book)
}

fn run_on<B: connect4_engine::agents::AgentBoard>(
    geom: connect4_engine::Geometry<B>,
    a: RateArgs,
    book: super::BookChoice,
) -> Result<()> {
    let specs = a
        .agent
        .iter()
        .map(|s| super::parse_agent(s))
        .collect::<Result<Vec<_>>>()?;
    let anchors = match &a.ladder {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the ladder {}", path.display()))?;
            let own = super::calibrate::anchors(&text)
                .with_context(|| format!("the ladder {}", path.display()))?;
            if geom.narrow() == Some(connect4_engine::Geometry::STANDARD) {
                own
            } else {
                let standard =
                    fixed_ladder(connect4_engine::Geometry::STANDARD).context("the 7x6 ladder")?;
                connect4_learn::arena::on_standard_scale(own, &standard)
            }
        }
        None => match fixed_ladder(geom) {
            Some(l) => l,
            None => bail!(
                "no ladder for {geom}: c4 has none built in for that board; give one with \
                 --ladder (a `c4 tournament` summary.json), or make the board's with \
                 `c4 calibrate --width {} --height {}`",
                geom.width(),
                geom.height()
            ),
        },
    };
    let resources = Resources {
        book,
        ..Resources::default()
    };
    let players = specs
        .iter()
        .map(|s| s.factory_on(geom, &resources))
        .collect::<Result<Vec<_>, _>>()?;
    let ladder = ladder_factories(&anchors, geom, &resources)?;
    let cfg = RateConfig {
        anchors,
        games: a.games,
        openings: a.openings,
        seed: a.seed,
        jobs: a.jobs,
        geometry: geom,
    };
    let bars = super::Bars::new();
    let mut ratings: Vec<Rating> = Vec::new();
    for p in &players {
        bars.start(
            &format!("rating {}", p.spec().label()),
            cfg.games * ladder.len(),
        );
        let r = rate(&cfg, p, &ladder, &bars, &Interrupt::new())?;
        bars.finish();
        if !a.json {
            println!("{}", r.table());
        }
        ratings.push(r);
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&ratings)?);
    }
    if let Some(out) = &a.out {
        write_json_atomic(out, &ratings)
            .with_context(|| format!("cannot write {}", out.display()))?;
        if !a.json {
            super::print_written(std::slice::from_ref(out));
        }
    }
    Ok(())
}
