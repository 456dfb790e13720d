//! Why a run fails: [`NTupleTrainError`], and self-play's own [`Diverged`].

use super::curve::CurveError;
use connect4_engine::ml::ntuple::NTupleError;
use std::path::PathBuf;

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum NTupleTrainError {
    /// The layout or a stored network.
    #[error(transparent)]
    Network(#[from] NTupleError),
    /// A setting out of range.
    #[error(transparent)]
    Setting(#[from] crate::train::setting::SettingError),
    /// The recipe's board (`width`, `height`) is not one the engine plays.
    #[error("the recipe's board: {0}")]
    Board(#[from] connect4_engine::game::GameError),
    /// The checkpoint file could not be written or resumed from.
    #[error(transparent)]
    Checkpoint(#[from] crate::train::checkpoint::CheckpointError),
    /// A checkpoint whose network does not fit its recipe's layout.
    #[error("checkpoint {path}: {source}", path = path.display())]
    CheckpointNetwork {
        /// The file.
        path: PathBuf,
        /// Why the network does not load.
        #[source]
        source: NTupleError,
    },
    /// The curve's measurements.
    #[error(transparent)]
    Curve(#[from] CurveError),
    /// Self-play's weights left the range a learning run keeps them in.
    #[error(transparent)]
    Diverged(#[from] Diverged),
    /// The system refused self-play's threads.
    #[error("could not start {threads} threads for self-play: {source}")]
    Threads {
        /// The threads asked for.
        threads: usize,
        /// What the system said.
        #[source]
        source: rayon::ThreadPoolBuildError,
    },
    /// Guided openings asked for on a board past 64 bits, which the solver's pool (and its
    /// reach from the empty board) does not cover.
    #[error(
        "guided openings on {0}: the solver does not answer openings there; set guided = 0, or name an agent as the guide (guide = \"hard\")"
    )]
    GuidedPast64Bits(String),
    /// The recipe's `guide` is neither `perfect` nor an agent spec.
    #[error("guide = {spec:?}: {source} (`perfect`, the solver, or an agent spec such as `hard`)")]
    GuideSpec {
        /// The recipe's value.
        spec: String,
        /// Why it is not an agent spec.
        #[source]
        source: Box<connect4_engine::agents::AgentError>,
    },
    /// The guide agent cannot play the recipe's board.
    #[error("guide = {spec:?} on {board}: {source}")]
    GuideAgent {
        /// The recipe's value.
        spec: String,
        /// The board.
        board: String,
        /// Why the agent cannot be made there.
        #[source]
        source: Box<connect4_engine::agents::AgentError>,
    },
    /// The solver of the guided openings could not be had.
    #[error("the guided openings' solver: {0}")]
    Guide(#[source] connect4_engine::solver::SolverError),
}

/// Why self-play stopped: the weights left the range any sane run keeps them in.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "self-play diverged in the round of games {first} to {last}: {what}; the recipe's steps \
     are too large for it (lower rate, or fewer lanes)"
)]
pub struct Diverged {
    /// The round's first game.
    pub first: usize,
    /// The round's last game.
    pub last: usize,
    /// What was found.
    pub what: String,
}
