//! An agent's move as the page asks for it (`/api/move` of the server, the WebAssembly
//! engine's `move` op): a fresh agent of a factory (the adaptive one from its saved state,
//! having read the game so far) choosing under a time limit.

use super::{AdaptiveAnswer, AnswerError, MoveAnswer, adaptive_in_game, short};
use crate::Interrupt;
use crate::agents::{AgentBoard, AgentFactory, AgentKind, MoveError, Turn, choose_under};
use crate::game::{Outcome, Position};

/// Why a move could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The request cannot be played (its game is over, its saved state is bad, its agent
    /// cannot be built): the asker's to fix.
    #[error(transparent)]
    Request(#[from] AnswerError),
    /// The agent played a column that cannot be played: the program's fault.
    #[error(transparent)]
    Agent(#[from] MoveError),
}

/// The move of a fresh agent of `factory` (seeded by `seed`; with `vary`, drawing among its
/// moves of equal value from the seed, see [`crate::agents::Agent::vary`]) in `pos`, reached
/// by `moves` (a move string, as asked), within `stop`; for the adaptive agent, one that read the game
/// from `state` (its saved JSON, `None`: fresh) and its estimate beside the move. The time is
/// the choice's alone. Boards of any integer (`pos` and `factory` in wide bitboards past 64
/// bits).
pub fn play_move<B: AgentBoard>(
    factory: &AgentFactory<B>,
    pos: Position<B>,
    moves: &str,
    seed: u64,
    vary: bool,
    state: Option<&str>,
    stop: &Interrupt,
) -> Result<(MoveAnswer, Option<AdaptiveAnswer>), PlayError> {
    if pos.outcome() != Outcome::Ongoing {
        return Err(AnswerError::GameOver {
            moves: short(moves.trim()),
        }
        .into());
    }
    let start = crate::clock::Instant::now();
    let turn = Turn::new(pos);
    let (column, adaptive) = if matches!(factory.spec().kind(), AgentKind::Adaptive { .. }) {
        let mut agent = adaptive_in_game(
            factory,
            state,
            Position::new(pos.geometry()),
            moves,
            pos.side_to_move(),
            seed,
            Some(stop),
        )?;
        let column = choose_under(&mut agent, &turn, stop)?;
        (column, Some(AdaptiveAnswer::of(&agent, &pos, state)))
    } else {
        let mut agent = factory.build(seed).map_err(AnswerError::from)?;
        if vary {
            agent.vary(seed);
        }
        (choose_under(agent.as_mut(), &turn, stop)?, None)
    };
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let answer = MoveAnswer::new(
        factory.spec().to_string(),
        moves,
        column,
        ms,
        stop.should_stop(),
    );
    Ok((answer, adaptive))
}
