//! `c4 bench adaptive`: the adaptive agent against steady opponents (its score over each
//! run with a 95% interval) or an opponent who changes, with the estimate's track plotted.

use anyhow::{Context, Result};
use clap::Args;
use connect4_engine::agents::{AgentBoard, Resources};
use connect4_engine::game::{BitBoard, Geometry};
use connect4_engine::io::{write_csv_atomic, write_json_atomic};
use connect4_engine::progress::Progress;
use connect4_learn::arena::{
    AdaptiveBenchConfig, AdaptiveGame, AdaptiveRunSpec, run_adaptive_bench,
};
use std::path::PathBuf;

/// The opponents of the targets: the ladder and the perfect player with 10% and
/// 30% random moves.
const OPPONENTS: &str = "random easy hard gbt:depth=3 ntuple:depth=1,safe=true perfect:ties=random perfect:ties=random,eps=0.1 perfect:ties=random,eps=0.3";

#[derive(Args, Debug)]
pub struct AdaptiveBenchArgs {
    /// The adaptive agent's spec.
    #[arg(long, default_value = "adaptive")]
    agent: String,
    /// Steady opponents: one run each, with an adaptive agent of its own.
    #[arg(long, num_args = 1.., default_value = OPPONENTS, value_delimiter = ' ')]
    opponents: Vec<String>,
    /// Games per steady opponent.
    #[arg(long, default_value_t = 200, value_parser = super::super::at_least_one)]
    games: usize,
    /// Instead of the steady runs: one run against this opponent for --after games, then
    /// against --switch-to.
    #[arg(long, requires = "switch_to")]
    switch_from: Option<String>,
    /// The opponent after the switch.
    #[arg(long, requires = "switch_from")]
    switch_to: Option<String>,
    /// Games before the switch.
    #[arg(long, default_value_t = 20)]
    after: usize,
    /// Games after the switch.
    #[arg(long, default_value_t = 20)]
    then: usize,
    /// Random opening plies per game (games 2k and 2k+1 share one, colours swapped).
    #[arg(long, default_value_t = 2)]
    openings: usize,
    /// Seed of openings and agents.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Runs played at once.
    #[arg(long, default_value_t = super::super::default_jobs())]
    jobs: usize,
    /// Folder for games.csv, summary.json and the estimate's charts.
    #[arg(long, default_value = "runs/adaptive")]
    out: PathBuf,
    /// The board the games are played on.
    #[command(flatten)]
    board: super::super::BoardArgs,
}

/// The opponents of a run: those asked for, or on a board other than 7x6 in place of the
/// default list, the ones that play there: random, easy, hard, the board's network and,
/// where the solver reaches, the perfect player with and without random moves (the GBT
/// learned 7x6 alone).
fn opponents_on<B: BitBoard>(a: &AdaptiveBenchArgs, geom: Geometry<B>) -> Result<Vec<String>> {
    let default: Vec<String> = OPPONENTS.split(' ').map(str::to_string).collect();
    if geom.narrow() == Some(Geometry::STANDARD) || a.opponents != default {
        return Ok(a.opponents.clone());
    }
    let mut list: Vec<String> = ["random", "easy", "hard", "ntuple:depth=1,safe=true"]
        .map(str::to_string)
        .to_vec();
    if geom.narrow().is_some_and(connect4_engine::solver::reaches) {
        list.extend(
            [
                "perfect:ties=random",
                "perfect:ties=random,eps=0.1",
                "perfect:ties=random,eps=0.3",
            ]
            .map(str::to_string),
        );
    }
    Ok(list)
}

pub fn run(a: AdaptiveBenchArgs, book: super::super::BookChoice) -> Result<()> {
    if a.board.is_wide()? {
        let geom = a.board.wide_geometry()?;
        run_on(a, geom, book)
    } else {
        let geom = a.board.geometry()?;
        run_on(a, geom, book)
    }
}

/// `c4 bench adaptive` on a board of the integer `B` (`u128` past 64 bits).
fn run_on<B: AgentBoard>(
    a: AdaptiveBenchArgs,
    geom: Geometry<B>,
    book: super::super::BookChoice,
) -> Result<()> {
    let parse = |s: &str| super::super::parse_agent(s);
    let runs: Vec<AdaptiveRunSpec> = match (&a.switch_from, &a.switch_to) {
        (Some(from), Some(to)) => vec![AdaptiveRunSpec {
            stages: vec![(parse(from)?, a.after), (parse(to)?, a.then)],
        }],
        _ => connect4_engine::agents::split_agent_list(&opponents_on(&a, geom)?)
            .iter()
            .map(|o| {
                Ok(AdaptiveRunSpec {
                    stages: vec![(parse(o)?, a.games)],
                })
            })
            .collect::<Result<_>>()?,
    };
    let cfg = AdaptiveBenchConfig {
        adaptive: parse(&a.agent)?,
        runs,
        openings: a.openings,
        seed: a.seed,
        jobs: a.jobs,
        geometry: geom,
    };
    let total: usize = cfg
        .runs
        .iter()
        .flat_map(|r| r.stages.iter().map(|s| s.1))
        .sum();
    let bars = super::super::Bars::new();
    bars.start("games", total);
    let resources = Resources {
        book,
        ..Resources::default()
    };
    let (games, stages) = run_adaptive_bench(&cfg, &resources, &bars)?;
    bars.finish();
    let true_elo = ladder_elo(geom);
    println!(
        "{} against each opponent, {} opening plies, seed {}",
        cfg.adaptive.label(),
        a.openings,
        a.seed
    );
    print_stages(&stages, &true_elo);
    let csv = a.out.join("games.csv");
    let json = a.out.join("summary.json");
    write_csv_atomic(&csv, &games).with_context(|| format!("cannot write {}", csv.display()))?;
    write_json_atomic(&json, &stages)
        .with_context(|| format!("cannot write {}", json.display()))?;
    let mut written = vec![csv, json];
    for (r, run) in cfg.runs.iter().enumerate() {
        let mine: Vec<&AdaptiveGame> = games.iter().filter(|g| g.run == r).collect();
        let names: Vec<&str> = run.stages.iter().map(|s| s.0.label()).collect();
        let title = format!(
            "The adaptive agent's estimate against {}",
            names.join(", then ")
        );
        let chart = connect4_ml::plot::level::track_chart(&title, &mine, &true_elo);
        written.extend(chart.save(&a.out.join(format!("track-{r}")))?);
    }
    super::super::print_written(&written);
    Ok(())
}

/// Each ladder agent's Elo by name: the 7x6 ladder's, or off 7x6 the board's own ladder's
/// (on the 7x6 scale), as its calibration recorded them.
fn ladder_elo<B: AgentBoard>(geom: Geometry<B>) -> impl Fn(&str) -> Option<f64> {
    let ladder = connect4_ml::builtin::ladder_in(std::path::Path::new("models"));
    let ladder: serde_json::Value = serde_json::from_str(&ladder).unwrap_or_default();
    let board = connect4_engine::agents::level::Calibration::for_board(geom);
    move |name: &str| {
        if geom.narrow() != Some(Geometry::STANDARD) {
            return board
                .anchors
                .iter()
                .find(|r| r.agent == name)
                .map(|r| r.elo);
        }
        ladder["elo"]
            .as_array()?
            .iter()
            .find(|r| r["agent"] == name)?["elo"]
            .as_f64()
    }
}

/// The table of a bench's stages: each opponent's games, results, the adaptive agent's score
/// over all games and the first ten, its final and settled estimates, and the ladder's Elo.
fn print_stages(
    stages: &[connect4_learn::arena::StageSummary],
    true_elo: &dyn Fn(&str) -> Option<f64>,
) {
    let w = stages
        .iter()
        .map(|s| s.opponent.len())
        .max()
        .unwrap_or(8)
        .max(8);
    println!(
        "\n{:<w$} {:>6} {:>13} {:>22} {:>18} {:>9} {:>9} {:>7}",
        "opponent",
        "games",
        "W/D/L",
        "adaptive score [95%]",
        "first 10 [95%]",
        "estimate",
        "settled",
        "ladder"
    );
    for s in stages {
        println!(
            "{:<w$} {:>6} {:>13} {:>22} {:>18} {:>9.0} {:>9} {:>7}",
            s.opponent,
            s.games,
            format!("{}/{}/{}", s.wins, s.draws, s.losses),
            format!(
                "{:.1}% [{:.1}, {:.1}]",
                100.0 * s.score.value,
                100.0 * s.score.low,
                100.0 * s.score.high
            ),
            format!(
                "{:.0}% [{:.0}, {:.0}]",
                100.0 * s.first_ten.value,
                100.0 * s.first_ten.low,
                100.0 * s.first_ten.high
            ),
            s.final_estimate,
            s.settled_estimate.map_or("-".into(), |e| format!("{e:.0}")),
            true_elo(&s.opponent).map_or("-".into(), |e| format!("{e:.0}")),
        );
    }
}
