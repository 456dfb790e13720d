//! Stage 5, ladder: every agent in a round robin with Elo, then the model agents, `hard` and
//! `handtuned` in a longer one, to compare each model agent with the hand-tuned agent.

use super::{PipelineConfig, PipelineError, Sizes, agents, fail, tournament_config};
use connect4_engine::agents::AgentSpec;
use connect4_engine::io::{write_csv_atomic, write_json_atomic};
use connect4_engine::progress::Progress;
use connect4_learn::arena::{EloRating, PairingSummary, Tournament, TournamentSummary};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The agents of the detailed round robin, by roster name.
pub(crate) const DETAIL_AGENTS: [&str; 5] = ["handtuned", "hard", "lms", "gbt", "hybrid"];

/// One round robin's tables.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RoundRobin {
    /// Games per pairing.
    pub games: usize,
    /// Random opening plies.
    pub openings: usize,
    /// Every pairing, from the first-named agent's side.
    pub pairings: Vec<PairingSummary>,
    /// Elo ratings with 95% intervals.
    pub elo: Vec<EloRating>,
}

/// What the ladder stage produced.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LadderResult {
    /// The roster: short name and spec of every agent.
    pub roster: Vec<(String, String)>,
    /// Every agent against every other.
    pub ladder: RoundRobin,
    /// The model agents, hard and handtuned, longer.
    pub detail: RoundRobin,
}

fn play(
    config: &PipelineConfig,
    observer: &dyn Progress,
    label: &str,
    specs: Vec<AgentSpec>,
    games: usize,
    openings: usize,
) -> Result<TournamentSummary, PipelineError> {
    let t = Tournament::with_book(
        tournament_config(config, specs, games, openings),
        config.book.clone(),
    )
    .map_err(fail("ladder"))?;
    observer.start(label, t.total_games());
    let s = t.run(observer).map_err(fail("ladder"))?;
    observer.finish();
    Ok(s)
}

fn save(dir: &Path, s: &TournamentSummary) -> Result<Vec<PathBuf>, PipelineError> {
    let games = dir.join("games.csv");
    let summary = dir.join("summary.json");
    write_csv_atomic(&games, &s.rows).map_err(fail("ladder"))?;
    write_json_atomic(&summary, s).map_err(fail("ladder"))?;
    Ok(vec![games, summary])
}

/// Plays both round robins and writes `ladder/` and `detail/`.
pub fn run(
    config: &PipelineConfig,
    sizes: &Sizes,
    observer: &dyn Progress,
) -> Result<(LadderResult, Vec<PathBuf>), PipelineError> {
    let roster = agents(&config.out, sizes.depth, config.geometry).map_err(fail("ladder"))?;
    let specs = |names: Option<&[&str]>| -> Result<Vec<AgentSpec>, PipelineError> {
        roster
            .iter()
            .filter(|(n, _)| names.is_none_or(|names| names.contains(&n.as_str())))
            .map(|(_, s)| Ok(s.clone()))
            .collect()
    };
    let ladder = play(
        config,
        observer,
        "ladder: games",
        specs(None)?,
        sizes.ladder_games,
        sizes.ladder_openings,
    )?;
    let mut written = save(&config.out.join("ladder"), &ladder)?;
    let detail = play(
        config,
        observer,
        "detail: games",
        specs(Some(&DETAIL_AGENTS))?,
        sizes.detail_games,
        sizes.detail_openings,
    )?;
    written.extend(save(&config.out.join("detail"), &detail)?);
    let table = |s: TournamentSummary| RoundRobin {
        games: s.games_per_pairing,
        openings: s.openings,
        pairings: s.pairings,
        elo: s.elo,
    };
    Ok((
        LadderResult {
            roster: roster
                .iter()
                .map(|(n, s)| (n.clone(), s.to_string()))
                .collect(),
            ladder: table(ladder),
            detail: table(detail),
        },
        written,
    ))
}
