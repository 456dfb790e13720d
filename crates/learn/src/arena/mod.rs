//! The arena: games between agents, round-robin tournaments, and Elo ratings.
//!
//! Also here: evaluation against a baseline with 95% intervals ([`evaluate`], [`wilson`]), grading
//! moves against the solver, the benchmark sets' names. Not here: making benchmark sets
//! (`train::make_benchmark_sets`), training.

mod adaptive_bench;
mod answer_times;
pub mod benchmark_sets;
mod calibrate;
mod elo;
mod estimate;
pub mod evaluate;
mod grade;
mod rate;
mod session;
mod tournament;

pub use adaptive_bench::{
    AdaptiveBenchConfig, AdaptiveBenchError, AdaptiveGame, AdaptiveRunSpec, StageSummary,
    run_adaptive_bench,
};
pub use answer_times::{AnswerTimes, AnswerTimesConfig, AnswerTimesError, answer_times};
pub use calibrate::{
    CalibrateConfig, CalibrateError, CalibrateReport, CheckPoint, LadderGames, SCALE_AGENTS,
    board_ladder_agents, calibrate, check_calibration, fit_anchored, ladder_factories,
    on_standard_scale, report,
};
pub use elo::{EloRating, GameScore, fit_elo};
pub use estimate::{Estimate, elo_difference, score_estimate, wilson};
pub use grade::{
    GradeError, GradeSummary, GradedMove, ScoredPositions, grade_move, grade_positions,
    grade_positions_until, read_graded_file,
};
pub use rate::{RateConfig, Rating, fixed_ladder, rate};
pub use session::{HINT_MAX_EMPTY, HintError, Session};
pub use tournament::{
    GameRow, PairingSummary, Side, Tournament, TournamentConfig, TournamentError,
    TournamentSummary, random_opening,
};

use connect4_engine::agents::{Agent, Turn};
use connect4_engine::game::{BitBoard, Outcome, Player, Position};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// How a finished game ended, as a tournament records it. [`connect4_engine::game::Outcome`] is the
/// position's own status, which can also be "still going"; [`GameResult::of`] turns a final
/// status into a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    /// The first player won.
    FirstWin,
    /// The second player won.
    SecondWin,
    /// Board full, no four.
    Draw,
}

impl GameResult {
    /// The result of a finished game from its final position's status; `None` while the
    /// game goes on.
    pub fn of(outcome: Outcome) -> Option<GameResult> {
        match outcome {
            Outcome::Ongoing => None,
            Outcome::Won(Player::First) => Some(GameResult::FirstWin),
            Outcome::Won(Player::Second) => Some(GameResult::SecondWin),
            Outcome::Draw => Some(GameResult::Draw),
        }
    }

    /// The first player's points: 1, 0.5 or 0.
    pub(crate) fn first_score(self) -> f64 {
        match self {
            GameResult::FirstWin => 1.0,
            GameResult::Draw => 0.5,
            GameResult::SecondWin => 0.0,
        }
    }

    /// "1-0", "1/2-1/2" or "0-1".
    pub(crate) fn notation(self) -> &'static str {
        match self {
            GameResult::FirstWin => "1-0",
            GameResult::Draw => "1/2-1/2",
            GameResult::SecondWin => "0-1",
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// Every move as 0-based columns, opening plies included.
    pub moves: Vec<usize>,
    /// The result.
    pub result: GameResult,
    /// Mean wall time per move chosen by the first and the second agent, in ms (0 without
    /// moves).
    pub ms_per_move: [f64; 2],
}

/// Plays `first` against `second` from the position after `opening` (0-based columns, played
/// for both sides by the arena, not by the agents). The opening must be legal and leave the
/// game open.
pub fn play_game<B: BitBoard>(
    first: &mut dyn Agent<B>,
    second: &mut dyn Agent<B>,
    start: Position<B>,
    opening: &[usize],
) -> PlayedGame {
    let mut pos = start;
    let mut moves = Vec::with_capacity(pos.geometry().cells());
    for &c in opening {
        pos.play(c).expect("openings are legal");
        moves.push(c);
    }
    let mut time = [0.0f64; 2];
    let mut count = [0usize; 2];
    let mut last: Option<(Position<B>, usize)> = None;
    while pos.outcome() == Outcome::Ongoing {
        let side = pos.side_to_move();
        let agent: &mut dyn Agent<B> = match side {
            Player::First => first,
            Player::Second => second,
        };
        let turn = Turn {
            position: pos,
            opponent_move: last,
        };
        let t = Instant::now();
        let col = agent.choose(&turn);
        let i = (side == Player::Second) as usize;
        time[i] += t.elapsed().as_secs_f64() * 1e3;
        count[i] += 1;
        // An illegal move from an agent is a bug in that agent: fail loudly, naming it.
        let faced = pos;
        pos.play(col)
            .unwrap_or_else(|e| panic!("agent {} played an illegal move: {e}", agent.name()));
        moves.push(col);
        last = Some((faced, col));
    }
    let end = Turn {
        position: pos,
        opponent_move: last,
    };
    first.game_over(&end);
    second.game_over(&end);
    let result = GameResult::of(pos.outcome()).expect("the loop ends when the game does");
    let mean = |i: usize| {
        if count[i] > 0 {
            time[i] / count[i] as f64
        } else {
            0.0
        }
    };
    PlayedGame {
        moves,
        result,
        ms_per_move: [mean(0), mean(1)],
    }
}
