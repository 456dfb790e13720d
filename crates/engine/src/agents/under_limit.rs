//! One move of an agent under a time limit: what the server, the WebAssembly engine and the
//! Python package each did on their own (the game over? the interrupt set, the move chosen,
//! its column checked), in one place.

use super::{Agent, Turn};
use crate::Interrupt;
use crate::game::{BitBoard, Outcome, Position};

/// Why an agent gave no move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game of the position is over: there is nothing to play.
    #[error("the game is over: there is no move to play")]
    GameOver,
    /// The agent chose a column that cannot be played (a bug in the agent, never the
    /// caller's input).
    #[error("agent \"{agent}\" chose column {column}, which cannot be played")]
    Illegal {
        /// The agent's name.
        agent: String,
        /// The column, 1-based.
        column: usize,
    },
}

/// The column (0-based) `agent` plays in `turn`'s position, cut short by `stop` (the agent
/// then plays the best move it had found). The agent's interrupt is `stop` for the move and
/// none after it; a finished game or an illegal column is an error.
///
/// ```
/// use connect4_engine::agents::{AgentSpec, Turn, choose_under};
/// use connect4_engine::{Geometry, Interrupt, Position};
/// let spec: AgentSpec = "easy".parse().unwrap();
/// let mut agent = spec.factory(Geometry::STANDARD).unwrap().build(0).unwrap();
/// let stop = Interrupt::after(std::time::Duration::from_secs(1));
/// let pos = Position::from_moves(Geometry::STANDARD, "444").unwrap();
/// assert_eq!(choose_under(agent.as_mut(), &Turn::new(pos), &stop), Ok(3)); // blocks the four
/// let over = Position::from_moves(Geometry::STANDARD, "4343434").unwrap();
/// assert!(choose_under(agent.as_mut(), &Turn::new(over), &stop).is_err());
/// ```
pub fn choose_under<B: BitBoard>(
    agent: &mut dyn Agent<B>,
    turn: &Turn<B>,
    stop: &Interrupt,
) -> Result<usize, MoveError> {
    if game_over(&turn.position) {
        return Err(MoveError::GameOver);
    }
    agent.set_interrupt(Some(stop.clone()));
    let column = agent.choose(turn);
    agent.set_interrupt(None);
    if !turn.position.can_play(column) {
        return Err(MoveError::Illegal {
            agent: agent.name().to_string(),
            column: column + 1,
        });
    }
    Ok(column)
}

/// Whether `pos`'s game is over (won or full).
fn game_over<B: BitBoard>(pos: &Position<B>) -> bool {
    pos.outcome() != Outcome::Ongoing
}
