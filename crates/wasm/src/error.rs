//! Why the engine refused a request, typed: [`crate::Engine::call`] writes it as
//! `{"error": ...}` once, at the JSON edge, and the JavaScript glue throws it as an
//! `EngineError`.

use connect4_engine::agents::AgentError;
use connect4_engine::answers::{AnswerError, PlayError};
use connect4_engine::solver::SolverError;
use connect4_engine::solver::book::BookError;

/// Why a request (or a book given to the engine) was refused.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// Not the JSON of a request (an unknown `op` or field included).
    #[error("bad request: {0}")]
    Json(#[source] serde_json::Error),
    /// Its board, moves, agent or saved state.
    #[error(transparent)]
    Answer(#[from] AnswerError),
    /// The agent could not answer the move.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// The agent cannot be built on this board.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// No solver for this board.
    #[error(transparent)]
    Solver(#[from] SolverError),
    /// An op that plays an agent, asked without one.
    #[error("this op needs \"agent\", an agent spec")]
    NoAgent,
    /// Op `adaptive` without the agent's colour.
    #[error("op adaptive needs \"side\": x (first) or o (second)")]
    NoSide,
    /// Op `solve` on a finished game.
    #[error("the game is over: nothing to solve")]
    GameOver,
    /// A book file that cannot be read as a sound 7x6 book.
    #[error("the book: {0}")]
    Book(#[source] BookError),
    /// A book shallower than the one held.
    #[error("the book: {plies} plies, shallower than the {held}-ply book held")]
    Shallower {
        /// The book given.
        plies: usize,
        /// The book held.
        held: usize,
    },
    /// An answer that could not be written as JSON (the program's fault).
    #[error("the answer could not be written: {0}")]
    Encode(#[source] serde_json::Error),
}

/// The name of an op that is not one, as a request's `op` field read it.
#[derive(Debug, thiserror::Error)]
#[error("unknown op \"{op}\" ({names})")]
pub struct UnknownOp {
    /// The op sent (cut to message length).
    pub op: String,
    /// The ops there are, comma-separated.
    pub names: String,
}
