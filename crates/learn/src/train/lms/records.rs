//! What a run records: one row per game (the learning curve), evaluation matches, why it
//! stopped, and the run as a whole.

use connect4_engine::ml::lms::N_WEIGHTS;
use serde::Serialize;

/// One training game, as the learning-curve CSV records it.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct GameRecord {
    /// 1-based game number.
    pub game: usize,
    /// Whether the trainee moved first.
    pub trainee_first: bool,
    /// The trainee's points: 1 win, 0.5 draw, 0 loss.
    pub trainee_score: f64,
    /// Plies in the game.
    pub plies: usize,
    /// Training examples taken from it.
    pub examples: usize,
    /// Mean squared error of those examples before the update.
    pub mse: f64,
    /// Largest absolute weight change of this update.
    pub max_change: f64,
    /// The weights after the update, [`connect4_engine::features::LINEAR8_NAMES`] order (in the
    /// curve file, one column `w_NAME` each).
    pub weights: [f64; N_WEIGHTS],
}

impl GameRecord {
    /// The weights after this game's update.
    pub fn weights(&self) -> [f64; N_WEIGHTS] {
        self.weights
    }

    /// The curve file's header: the game's fields, then `w_NAME` per feature.
    pub fn csv_header() -> Vec<String> {
        [
            "game",
            "trainee_first",
            "trainee_score",
            "plies",
            "examples",
            "mse",
            "max_change",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain(
            connect4_engine::features::LINEAR8_NAMES
                .iter()
                .map(|n| format!("w_{n}")),
        )
        .collect()
    }

    /// This game as a curve-file row, in [`Self::csv_header`] order.
    pub(crate) fn csv_row(&self) -> Vec<String> {
        [
            self.game.to_string(),
            self.trainee_first.to_string(),
            self.trainee_score.to_string(),
            self.plies.to_string(),
            self.examples.to_string(),
            self.mse.to_string(),
            self.max_change.to_string(),
        ]
        .into_iter()
        .chain(self.weights.iter().map(|w| w.to_string()))
        .collect()
    }
}

/// One evaluation match against the hand-tuned agent.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct MatchScore {
    /// Training games played before the match (0: the starting weights).
    pub after_games: usize,
    /// Games in the match.
    pub games: usize,
    /// The trainee's wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// The trainee's losses.
    pub losses: usize,
    /// (wins + draws / 2) / games.
    pub score: f64,
}

/// Why training stopped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum StopReason {
    /// The weights moved less than the tolerance over the window.
    WeightsConverged,
    /// The window's mean squared error fell below the tolerance.
    ErrorSmall,
    /// An evaluation match reached the stop score.
    BeatHandTuned,
    /// The game limit.
    MaxGames,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::WeightsConverged => "weights converged",
            StopReason::ErrorSmall => "mean error below tolerance",
            StopReason::BeatHandTuned => "beat the hand-tuned agent in an evaluation match",
            StopReason::MaxGames => "game limit reached",
        })
    }
}

/// What a run produced.
#[derive(Clone, Debug, Serialize)]
pub struct LmsRun {
    /// The weights at the start.
    pub initial_weights: [f64; N_WEIGHTS],
    /// The weights the run returns (see [`super::Keep`]).
    pub weights: [f64; N_WEIGHTS],
    /// The weights after the last game.
    pub last_weights: [f64; N_WEIGHTS],
    /// Training games before the returned weights (the match that chose them, with
    /// [`super::Keep::Best`]).
    pub kept_after_games: usize,
    /// Games played.
    pub games: usize,
    /// Why it stopped.
    pub stop: StopReason,
    /// One record per game.
    #[serde(skip)]
    pub records: Vec<GameRecord>,
    /// Every evaluation match, in order.
    pub evaluations: Vec<MatchScore>,
}
