//! Why a page's request cannot be answered, typed: the server and the WebAssembly engine
//! turn it into words once, where they write JSON.

use crate::agents::{AgentError, StateError};
use crate::game::GameError;

/// What is wrong with a board size, as the board-size rule says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardLimit {
    /// Too few or too many columns, or too few rows (the rule in words).
    Sides,
    /// Past the 64 bits of a narrow bitboard (only the wide code takes it).
    Narrow,
    /// Past the most bits any bitboard here takes.
    Bits {
        /// `width * (height + 1)` of the board asked for.
        bits: usize,
    },
}

impl std::fmt::Display for BoardLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use super::{MAX_ANALYSIS_BITS, MAX_BITS};
        match self {
            BoardLimit::Sides => write!(f, "{}", super::board_rule().text),
            BoardLimit::Narrow => write!(
                f,
                "{MAX_BITS}-bit bitboards take width x (height + 1) at most {MAX_BITS}"
            ),
            BoardLimit::Bits { bits } => write!(
                f,
                "{bits} bits of board, and boards take at most {MAX_ANALYSIS_BITS} \
                 (width x (height + 1))"
            ),
        }
    }
}

/// Why a request's board, moves, agent or saved state cannot be answered: the asker's to
/// fix. Strings in it are already cut to message length ([`super::short`]).
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    /// A board size outside the board-size rule.
    #[error("a {width} x {height} board is not supported: {limit}")]
    Board {
        /// Columns asked for.
        width: usize,
        /// Rows asked for.
        height: usize,
        /// The part of the rule it breaks.
        limit: BoardLimit,
    },
    /// A board the rule allows that no bitboard could be made for.
    #[error(transparent)]
    Geometry(GameError),
    /// Moves that are not a game on the board.
    #[error("moves \"{moves}\": {source}")]
    Moves {
        /// The moves (cut to message length).
        moves: String,
        /// The first thing wrong with them.
        source: GameError,
    },
    /// Moves of a finished game where a move was asked for.
    #[error("moves \"{moves}\": the game is over")]
    GameOver {
        /// The moves (cut to message length).
        moves: String,
    },
    /// A spec that does not parse, or an agent that cannot be built (boxed: the error of a
    /// request that failed stays small).
    #[error(transparent)]
    Agent(Box<AgentError>),
    /// A spec naming a model outside the models folder.
    #[error("agent \"{spec}\": model \"{path}\" must be a file name in the models folder")]
    ModelPath {
        /// The spec (cut to message length).
        spec: String,
        /// The path it named (cut to message length).
        path: String,
    },
    /// A state asked of an agent that keeps none.
    #[error("agent \"{spec}\" is not adaptive: only the adaptive agent keeps a state")]
    NotAdaptive {
        /// The spec (cut to message length).
        spec: String,
    },
    /// An adaptive agent's saved state that cannot be read.
    #[error("state: {0}")]
    State(#[from] StateError),
}

impl From<AgentError> for AnswerError {
    fn from(e: AgentError) -> Self {
        AnswerError::Agent(Box::new(e))
    }
}

impl AnswerError {
    /// `source`, the error of the move string `moves` (cut to message length).
    pub fn moves(moves: &str, source: GameError) -> Self {
        AnswerError::Moves {
            moves: super::short(moves),
            source,
        }
    }
}
