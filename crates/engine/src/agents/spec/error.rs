//! Why an agent spec could not be parsed or its agent built.

use crate::eval::EvalError;
use crate::solver::SolverError;
use thiserror::Error;

/// Why a spec could not be parsed or its agent built.
#[derive(Debug, Error)]
pub enum AgentError {
    /// Nothing was given.
    #[error("empty agent spec")]
    Empty,
    /// An external agent's spec asked to build itself: only its factory knows how.
    #[error("agent '{spec}' is supplied by its caller: it has no spec to build it from")]
    External {
        /// Its name.
        spec: String,
    },
    /// A double quote is opened and never closed.
    #[error("agent spec '{spec}': a double quote is not closed")]
    OpenQuote {
        /// The spec.
        spec: String,
    },
    /// A path that no spec text can hold.
    #[error("path {path:?} cannot be written in an agent spec (it holds a double quote)")]
    Unquotable {
        /// The path.
        path: String,
    },
    /// The kind before `:` is not known.
    #[error("agent spec '{spec}': unknown agent '{kind}' (known: {})", super::kinds::names().join(", "))]
    UnknownKind {
        /// The whole spec.
        spec: String,
        /// The unknown kind.
        kind: String,
    },
    /// A key this kind does not take.
    #[error("agent spec '{spec}': '{kind}' takes no option '{key}' (it takes: {takes})")]
    UnknownKey {
        /// The whole spec.
        spec: String,
        /// The agent kind.
        kind: String,
        /// The offending key.
        key: String,
        /// The keys it does take.
        takes: String,
    },
    /// A value that does not parse or is out of range.
    #[error("agent spec '{spec}': {key}={value}: {expected}")]
    BadValue {
        /// The whole spec.
        spec: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What was expected.
        expected: String,
    },
    /// A required key is missing.
    #[error("agent spec '{spec}': '{kind}' needs {key}=...")]
    MissingKey {
        /// The whole spec.
        spec: String,
        /// The agent kind.
        kind: String,
        /// The missing key.
        key: String,
    },
    /// An argument without `=`.
    #[error("agent spec '{spec}': '{arg}' is not of the form key=value")]
    NotKeyValue {
        /// The whole spec.
        spec: String,
        /// The argument.
        arg: String,
    },
    /// The evaluator could not be built.
    #[error("agent spec '{spec}': {source}")]
    Eval {
        /// The whole spec.
        spec: String,
        /// The evaluator's error.
        source: EvalError,
    },
    /// The solver could not be set up.
    #[error("agent spec '{spec}': {source}")]
    Solver {
        /// The whole spec.
        spec: String,
        /// The solver's error.
        source: SolverError,
    },
    /// The kind exists, but not on boards of this size (past 64 bits, see
    /// [`AgentSpec::factory_on`](super::AgentSpec::factory_on)).
    #[error(
        "agent '{spec}' does not play {board} boards (past 64 bits: random, mcts, easy, hard, search over openlines, window, threat or rollouts, ntuple with that board's network, level and adaptive)"
    )]
    NotOnBoard {
        /// The whole spec.
        spec: String,
        /// The board, `WxH`.
        board: String,
    },
    /// A saved adaptive state was given for an agent that is not adaptive.
    #[error("agent spec '{spec}' is not adaptive: only an adaptive agent takes a saved state")]
    NotAdaptive {
        /// The whole spec.
        spec: String,
    },
}
