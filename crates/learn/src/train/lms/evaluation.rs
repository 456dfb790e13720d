//! Evaluation matches: the trainee's weights against the hand-tuned agent, played by the
//! arena's tournament (colours alternating, each pair of games sharing a random opening).

use super::records::MatchScore;
use crate::arena::{Tournament, TournamentConfig};
use connect4_engine::agents::AgentFactory;
use connect4_engine::eval::{HAND_TUNED_WEIGHTS, LinearEvaluator};
use connect4_engine::game::Geometry;
use connect4_engine::ml::lms::N_WEIGHTS;
use connect4_engine::progress::Quiet;
use connect4_engine::search::SearchParams;
use std::sync::Arc;

/// A match of `games` games between linear weights and the hand-tuned agent, both at
/// `depth`, in the arena's tournament: colours alternating, each pair of games sharing an
/// opening of `opening` random plies drawn from `seed` (the same openings for every match
/// with that seed), games in parallel on rayon's threads.
pub fn evaluation_match(
    geom: Geometry,
    weights: [f64; N_WEIGHTS],
    depth: u32,
    games: usize,
    opening: usize,
    seed: u64,
) -> MatchScore {
    let params = SearchParams::depth(depth);
    let agent = |name: &str, w| {
        AgentFactory::search(
            name,
            geom,
            Arc::new(LinearEvaluator::new(geom, w, name)),
            params.clone(),
        )
    };
    let config = TournamentConfig {
        agents: Vec::new(),
        games,
        openings: opening,
        seed,
        jobs: rayon::current_num_threads().max(1),
        geometry: geom,
        side: Default::default(),
    };
    let tournament = Tournament::from_factories(
        config,
        vec![
            agent("lms", weights),
            agent("handtuned", HAND_TUNED_WEIGHTS),
        ],
    )
    .expect("two distinct agents, at least one game, a short opening (checked by LmsConfig)");
    let summary = tournament
        .run(&Quiet)
        .expect("in-memory agents build without failing");
    let p = &summary.pairings[0];
    MatchScore {
        after_games: 0,
        games: p.games,
        wins: p.wins,
        draws: p.draws,
        losses: p.losses,
        score: p.score_pct / 100.0,
    }
}
