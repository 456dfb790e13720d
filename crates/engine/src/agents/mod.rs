//! Agents: anything that picks a move. Every agent is named by a spec string (see
//! [`AgentSpec`]) so tournaments, benchmarks and the game can be pointed at any of them.
//!
//! Not here: games between agents and their grading (`arena`), search itself (`search`).

mod adaptive;
mod exploit;
pub mod level;
pub(crate) mod mcts;
mod perfect;
mod random;
mod searching;
mod spec;
mod under_limit;

pub use adaptive::{
    Adaptive, AdaptiveState, Rates as AdaptiveRates, StateError,
    move_evidence as adaptive_move_evidence,
};
pub use exploit::{
    Chances, DEFAULT_EXPLOIT_MS, Exploit, ExploitSettings, ExploitShared, exploit_optimum,
};
pub use level::Level;
pub use mcts::MctsAgent;
pub use perfect::{Perfect, PerfectSettings, PerfectShared, Ties};
pub use random::RandomAgent;
pub use searching::SearchAgent;
pub use spec::{
    AGENT_KINDS, AgentBoard, AgentError, AgentFactory, AgentKind, AgentSpec, BuildAgent, EvalSpec,
    KindInfo, ModelKind, Resources, board_model, kinds_help, split_agent_list,
};
pub use under_limit::{MoveError, choose_under};

use crate::Interrupt;
use crate::game::{BitBoard, Position};

/// What an agent sees when asked for a move.
///
/// ```
/// use connect4_engine::agents::Turn;
/// use connect4_engine::{Geometry, Position};
/// let before = Position::new(Geometry::STANDARD);
/// let now = before.after(3).unwrap();
/// let turn = Turn { position: now, opponent_move: Some((before, 3)) };
/// assert_eq!(Turn::new(now).opponent_move, None);
/// assert_eq!(turn.position.moves_played(), 1);
/// ```
///
/// Generic over the board's integer: `Turn` alone is a 64-bit board's, `Turn<u128>` one of a
/// board past 64 bits (see [`BitBoard`]).
#[derive(Clone, Copy, Debug)]
pub struct Turn<B: BitBoard = u64> {
    /// The position to move in (the game is not over).
    pub position: Position<B>,
    /// When the opponent chose the previous move themselves (not an opening ply handed out
    /// by the arena): the position they faced and the column (0-based) they played.
    pub opponent_move: Option<(Position<B>, usize)>,
}

impl<B: BitBoard> Turn<B> {
    /// A turn with no known opponent move.
    ///
    /// ```
    /// use connect4_engine::{agents::Turn, Geometry, Position};
    /// assert!(Turn::new(Position::new(Geometry::STANDARD)).opponent_move.is_none());
    /// ```
    pub fn new(position: Position<B>) -> Self {
        Turn {
            position,
            opponent_move: None,
        }
    }
}

/// A player of the game: the arena, the web UI and the Python package ask any agent for
/// moves the same way.
///
/// ```
/// use connect4_engine::agents::{Agent, Turn};
/// use connect4_engine::{Geometry, Position};
/// /// Plays the leftmost column that has room.
/// struct Leftmost;
/// impl Agent for Leftmost {
///     fn name(&self) -> &str {
///         "leftmost"
///     }
///     fn choose(&mut self, turn: &Turn) -> usize {
///         turn.position.legal_columns().next().unwrap_or(0)
///     }
/// }
/// let full_first = Position::from_moves(Geometry::STANDARD, "111111").unwrap();
/// assert_eq!(Leftmost.choose(&Turn::new(full_first)), 1);
/// ```
///
/// `Agent` alone plays 64-bit boards; `Agent<u128>` boards past 64 bits, where the agents
/// that need no 64-bit table or model play (see [`AgentFactory`]).
pub trait Agent<B: BitBoard = u64>: Send {
    /// The agent's spec or display name.
    fn name(&self) -> &str;

    /// The column (0-based) to play in `turn.position`. Must be a legal column.
    fn choose(&mut self, turn: &Turn<B>) -> usize;

    /// Lets `interrupt` cut later [`Agent::choose`] calls short: a searching agent then plays
    /// its deepest finished iteration's move, the perfect agent any non-losing move. Agents
    /// whose moves are cheap ignore it.
    fn set_interrupt(&mut self, _interrupt: Option<Interrupt>) {}

    /// Asks the agent to vary its play, drawn from `seed`: a searching agent then plays
    /// any of its moves of equal value (each as likely), not always the same one, so that a
    /// player who repeats a line meets different games. Agents that draw from their seed
    /// already (perfect with `ties=random`, the dial, MCTS, random) and those that always
    /// play one move ignore it.
    fn vary(&mut self, _seed: u64) {}

    /// Told when a game it played ends: `end.position` is the final position and
    /// `end.opponent_move` the last move (the position it was played in and its column),
    /// whoever played it. Agents that learn about their opponent across games (the adaptive
    /// agent) read the result here; the others ignore it.
    fn game_over(&mut self, _end: &Turn<B>) {}

    /// Whether what the agent learns in one game changes how it plays the next: the arena
    /// then keeps one agent for all the games of a pairing and plays them in order.
    fn carries_state(&self) -> bool {
        false
    }
}
