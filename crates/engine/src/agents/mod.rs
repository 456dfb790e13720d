//! Agents: anything that picks a move. Every agent is named by a spec string (see
//! [`AgentSpec`]) so tournaments, benchmarks and the game can be pointed at any of them.
//!
//! Not here: games between agents and their grading (`arena`), search itself (`search`).

mod adaptive;
pub(crate) mod mcts;
mod perfect;
mod random;
mod searching;
mod spec;

pub use adaptive::{Adaptive, rank_moves};
pub use mcts::MctsAgent;
pub use perfect::{Perfect, PerfectSettings, PerfectShared, Ties};
pub use random::RandomAgent;
pub use searching::SearchAgent;
pub use spec::{
    AGENT_KINDS, AgentError, AgentFactory, AgentKind, AgentSpec, EvalSpec, KindInfo, kinds_help,
    split_agent_list,
};

use crate::Interrupt;
use crate::game::Position;

/// What an agent sees when asked for a move.
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    /// The position to move in (the game is not over).
    pub position: Position,
    /// When the opponent chose the previous move themselves (not an opening ply handed out
    /// by the arena): the position they faced and the column (0-based) they played.
    pub opponent_move: Option<(Position, usize)>,
}

impl Turn {
    /// A turn with no known opponent move.
    pub fn new(position: Position) -> Self {
        Turn {
            position,
            opponent_move: None,
        }
    }
}

/// A player of the game.
pub trait Agent: Send {
    /// The agent's spec or display name.
    fn name(&self) -> &str;

    /// The column (0-based) to play in `turn.position`. Must be a legal column.
    fn choose(&mut self, turn: &Turn) -> usize;

    /// Lets `interrupt` cut later [`Agent::choose`] calls short: a searching agent then plays
    /// its deepest finished iteration's move, the perfect agent any non-losing move. Agents
    /// whose moves are cheap ignore it.
    fn set_interrupt(&mut self, _interrupt: Option<Interrupt>) {}
}
