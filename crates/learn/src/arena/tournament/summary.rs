//! What a tournament hands back: the per-game rows, each pairing's record and the summary
//! with the fitted ratings.

use crate::arena::{EloRating, GameScore};
use serde::Serialize;

/// One row of the per-game CSV.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRow {
    /// Game number in the tournament.
    pub game: usize,
    /// Spec of the first player.
    pub first: String,
    /// Spec of the second player.
    pub second: String,
    /// Opening plies, a move string.
    pub opening: String,
    /// All moves, a move string, opening included.
    pub moves: String,
    /// "1-0", "1/2-1/2" or "0-1".
    pub result: String,
    /// The winner's spec, or empty for a draw.
    pub winner: String,
    /// Total plies.
    pub plies: usize,
    /// First player's mean time per move, ms.
    pub first_ms_per_move: f64,
    /// Second player's mean time per move, ms.
    pub second_ms_per_move: f64,
}

/// The result of one pairing from its first agent's side.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct PairingSummary {
    /// The pairing's first agent.
    pub agent: String,
    /// Its opponent.
    pub opponent: String,
    /// Games played.
    pub games: usize,
    /// Wins of `agent`.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Losses of `agent`.
    pub losses: usize,
    /// (wins + draws / 2) / games, in percent.
    pub score_pct: f64,
    /// `agent`'s wins with the first move and with the second.
    pub wins_as_first: usize,
    /// `agent`'s wins as second player.
    pub wins_as_second: usize,
}

/// Everything a tournament produces.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentSummary {
    /// Agent specs.
    pub agents: Vec<String>,
    /// Games per pairing.
    pub games_per_pairing: usize,
    /// Random opening plies per game.
    pub openings: usize,
    /// The seed.
    pub seed: u64,
    /// Board size, e.g. "7x6".
    pub board: String,
    /// Total games.
    pub total_games: usize,
    /// One entry per pairing.
    pub pairings: Vec<PairingSummary>,
    /// Ratings fitted on all games, best first.
    pub elo: Vec<EloRating>,
    /// Mean time per move of each agent over all its games, ms.
    pub ms_per_move: Vec<(String, f64)>,
    /// Every game.
    #[serde(skip)]
    pub rows: Vec<GameRow>,
}

/// Each pair of agents' games, wins (as first and as second), draws, losses and score.
pub(super) fn pairing_summaries(names: &[String], scores: &[GameScore]) -> Vec<PairingSummary> {
    let mut pairings = Vec::new();
    let n = names.len();
    for i in 0..n {
        for j in i + 1..n {
            let mut p = PairingSummary {
                agent: names[i].clone(),
                opponent: names[j].clone(),
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                score_pct: 0.0,
                wins_as_first: 0,
                wins_as_second: 0,
            };
            for g in scores
                .iter()
                .filter(|g| (g.a == i && g.b == j) || (g.a == j && g.b == i))
            {
                p.games += 1;
                let mine = if g.a == i { g.score } else { 1.0 - g.score };
                if mine == 1.0 {
                    p.wins += 1;
                    if g.a == i {
                        p.wins_as_first += 1;
                    } else {
                        p.wins_as_second += 1;
                    }
                } else if mine == 0.5 {
                    p.draws += 1;
                } else {
                    p.losses += 1;
                }
            }
            p.score_pct = 100.0 * (p.wins as f64 + 0.5 * p.draws as f64) / p.games.max(1) as f64;
            pairings.push(p);
        }
    }
    pairings
}
