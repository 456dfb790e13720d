//! Evaluation matches: the trainee's weights against the hand-tuned agent.

use super::records::MatchScore;
use crate::agents::SearchAgent;
use crate::arena::{play_game, random_opening};
use crate::eval::{HAND_TUNED_WEIGHTS, LinearEvaluator};
use crate::game::{Geometry, Position};
use crate::ml::lms::N_WEIGHTS;
use crate::search::{SearchParams, Searcher};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::Arc;

/// A match of `games` games between linear weights and the hand-tuned agent, both at
/// `depth`, colours alternating, openings of `opening` random plies drawn from `seed` (the
/// same openings for every match with that seed). Games run in parallel.
pub fn evaluation_match(
    geom: Geometry,
    weights: [f64; N_WEIGHTS],
    depth: u32,
    games: usize,
    opening: usize,
    seed: u64,
) -> MatchScore {
    let trainee = Arc::new(LinearEvaluator::new(geom, weights, "lms"));
    let handtuned = Arc::new(LinearEvaluator::new(geom, HAND_TUNED_WEIGHTS, "handtuned"));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // One opening per pair of games, so each opening is played with both colours.
    let openings: Vec<Vec<usize>> = (0..games.div_ceil(2))
        .map(|_| random_opening(geom, opening, &mut rng))
        .collect();
    let scores: Vec<f64> = (0..games)
        .into_par_iter()
        .map(|g| {
            let params = SearchParams::depth(depth);
            let mut me = SearchAgent::new("lms", Searcher::new(trainee.clone(), params.clone()));
            let mut them = SearchAgent::new("handtuned", Searcher::new(handtuned.clone(), params));
            let opening = &openings[g / 2];
            let start = Position::new(geom);
            if g % 2 == 0 {
                play_game(&mut me, &mut them, start, opening)
                    .result
                    .first_score()
            } else {
                1.0 - play_game(&mut them, &mut me, start, opening)
                    .result
                    .first_score()
            }
        })
        .collect();
    let wins = scores.iter().filter(|&&s| s == 1.0).count();
    let draws = scores.iter().filter(|&&s| s == 0.5).count();
    MatchScore {
        after_games: 0,
        games,
        wins,
        draws,
        losses: games - wins - draws,
        score: scores.iter().sum::<f64>() / games.max(1) as f64,
    }
}
