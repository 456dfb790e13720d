//! The training examples of one finished game.

use crate::arena::PlayedGame;
use connect4_engine::features::Linear8;
use connect4_engine::game::{Geometry, Player, Position};
use connect4_engine::ml::lms::{Lms, LmsSample, N_WEIGHTS};

/// The examples of one finished game (moves as 0-based columns from the empty board), from
/// the first player's side: each position where `trainee` was to move, kept when `keep`
/// says so, targets the current estimate of the next position the trainee met; the final
/// position targets the result.
pub fn game_examples(
    lms: &Lms,
    features: &Linear8,
    geom: Geometry,
    played: &PlayedGame,
    trainee: Player,
    win_value: f64,
    mut keep: impl FnMut() -> bool,
) -> Vec<LmsSample> {
    let result = played.result;
    let mut met: Vec<[f64; N_WEIGHTS]> = Vec::new();
    let mut pos = Position::new(geom);
    for &c in &played.moves {
        if pos.side_to_move() == trainee {
            met.push(features.extract(&pos));
        }
        pos.play_col(c);
    }
    let final_features = features.extract(&pos);
    let final_value = win_value * (2.0 * result.first_score() - 1.0);
    let mut examples = Vec::with_capacity(met.len() + 1);
    for (i, f) in met.iter().enumerate() {
        let next = met.get(i + 1).unwrap_or(&final_features);
        let target = lms.estimate(next);
        // Sampling is drawn for every position, kept or not, so that the stream of random
        // numbers does not depend on the weights.
        if keep() {
            examples.push(LmsSample {
                features: *f,
                target,
            });
        }
    }
    examples.push(LmsSample {
        features: final_features,
        target: final_value,
    });
    examples
}
