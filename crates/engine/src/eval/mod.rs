//! Static evaluators: the value of a position from the side to move, without search.
//!
//! Not here: search (`search`), training (`train`), model files as bytes (`ml::model_file`,
//! `io::model_format`); [`ModelEvaluator`] is the one way a model file becomes an evaluator.
//!
//! Search calls an evaluator at every leaf, so evaluators are cheap, shareable across threads
//! (`Send + Sync`, used behind `Arc`) and deterministic: the same position always gets the
//! same value. Values are only compared with each other within one evaluator; their scale is
//! the evaluator's own, and must stay well below the search's win score (`search::WIN`).

mod explain;
mod gbt;
mod hybrid;
mod linear;
mod model;
mod montecarlo;
mod ntuple;
mod open_lines;
mod playout_kernel;
mod playout_rng;
mod store;
mod threats;
mod window;

pub use explain::{Contribution, Explanation};
pub use gbt::GbtEvaluator;
pub use hybrid::{Hybrid, Phase, Phases};
pub use linear::{HAND_TUNED_WEIGHTS, LinearEvaluator};
pub use model::ModelEvaluator;
pub use montecarlo::{
    DEFAULT_PLAYOUTS, MonteCarlo, PlayoutBench, PlayoutPolicy, PlayoutStats, bench_playouts,
};
pub use ntuple::NTupleEvaluator;
pub use open_lines::OpenLines;
pub use playout_rng::PlayoutRng;
pub use store::ModelStore;
pub use threats::Threats;
pub use window::WindowScore;

use crate::game::{BitBoard, Geometry, Player, Position};
use std::sync::Arc;
use thiserror::Error;

/// A static evaluation function: the searcher calls it at its leaves.
///
/// ```
/// use connect4_engine::eval::Evaluator;
/// use connect4_engine::{Geometry, Player, Position};
/// /// Stones in the centre column, own minus the opponent's.
/// struct Centre;
/// impl Evaluator for Centre {
///     fn name(&self) -> String {
///         "centre".into()
///     }
///     fn evaluate(&self, pos: &Position) -> f64 {
///         let col = pos.geometry().column_mask(3);
///         (pos.current_stones() & col).count_ones() as f64
///             - (pos.opponent_stones() & col).count_ones() as f64
///     }
/// }
/// let p = Position::from_moves(Geometry::STANDARD, "4").unwrap(); // o to move
/// assert_eq!(Centre.evaluate(&p), -1.0);
/// assert_eq!(Centre.evaluate_for(&p, Player::First), 1.0);
/// ```
///
/// Generic over the board's integer ([`BitBoard`]): `Evaluator` alone is the 64-bit boards'
/// trait, `Evaluator<u128>` the one of boards past 64 bits (8x8, 9x7 ...), which the built-in
/// evaluators ([`OpenLines`], [`WindowScore`], [`Threats`]) and rollouts also implement.
pub trait Evaluator<B: BitBoard = u64>: Send + Sync {
    /// A short name for reports, e.g. `openlines`.
    fn name(&self) -> String;

    /// The value of `pos` for the player to move: higher is better for them. Only called on
    /// positions where the game is not over.
    fn evaluate(&self, pos: &Position<B>) -> f64;

    /// The value of `pos` for `player`, whoever is to move. Search calls this at its leaves
    /// with the player who searches, so an evaluator that is not zero-sum (one that weighs
    /// "own" and "opponent's" features differently, like [`OpenLines`]) keeps the searching
    /// player's point of view throughout the tree. The default assumes a zero-sum value: the
    /// side to move's value, negated for the other player.
    fn evaluate_for(&self, pos: &Position<B>, player: Player) -> f64 {
        let v = self.evaluate(pos);
        if player == pos.side_to_move() { v } else { -v }
    }

    /// How many plies above its leaves the search gathers the leaves it may soon ask about
    /// and hands them to [`Evaluator::prefetch`] in one call: for an evaluator whose every
    /// call costs more than its arithmetic (one that calls Python, or a network on a GPU).
    /// 0, the default: never (the search then runs exactly as without the hook).
    fn prefetch_depth(&self) -> u32 {
        0
    }

    /// Positions the search may soon ask [`Evaluator::evaluate`] about (some it will prune
    /// away): an evaluator that batches values them in one call and answers from what it
    /// kept. Asking about a position that was not fetched must still work.
    fn prefetch(&self, _positions: &[Position<B>]) {}

    /// Values closer than this count as equal when a searching agent is asked to vary its
    /// play (see [`crate::search::Searcher::set_ties`]): it then draws among the root moves
    /// this close to the best. 0, the default: only exact ties (mirror images, say).
    fn tie_margin(&self) -> f64 {
        0.0
    }
}

/// Why an evaluator could not be built.
#[derive(Debug, Error)]
pub enum EvalError {
    /// The name is not one of [`BUILTIN_EVALUATORS`].
    #[error("unknown evaluator '{name}' (known: {})", BUILTIN_EVALUATORS.join(", "))]
    Unknown {
        /// The name asked for.
        name: String,
    },
    /// The evaluator exists, but not for boards of this size.
    #[error(
        "evaluator '{name}' is not available on {board} boards (past 64 bits: openlines, window, threat)"
    )]
    NotOnBoard {
        /// The name asked for.
        name: String,
        /// The board, `WxH`.
        board: String,
    },
    /// A model file could not be read or is not a usable model.
    #[error(transparent)]
    Model(#[from] crate::io::model_format::ModelFileError),
    /// A model in memory does not fit the features it is given.
    #[error(
        "model has {model_features} features and {classes} classes; feature set {set} has {set_features} features and 3 classes are needed"
    )]
    Shape {
        /// Features the model reads.
        model_features: usize,
        /// Classes the model predicts.
        classes: usize,
        /// The feature set's name.
        set: String,
        /// Features the set gives.
        set_features: usize,
    },
}

impl EvalError {
    /// Whether the file holds another kind of model than the one asked for (a GBT where an
    /// n-tuple network was needed, ...): what callers that take one kind only explain.
    pub fn is_other_kind(&self) -> bool {
        matches!(
            self,
            EvalError::Model(crate::io::model_format::ModelFileError::Mismatch {
                what: crate::io::model_format::HeaderMismatch::Kind { .. },
                ..
            })
        )
    }
}

/// Names of the evaluators [`builtin`] can build.
pub const BUILTIN_EVALUATORS: [&str; 4] = ["openlines", "window", "handtuned", "threat"];

/// The name in [`BUILTIN_EVALUATORS`] that `name` stands for (`open` and `linear` are
/// aliases of `openlines` and `handtuned`, `threats` of `threat`), or `None`.
///
/// ```
/// use connect4_engine::eval::{self, Evaluator};
/// use connect4_engine::{Geometry, Position};
/// assert_eq!(eval::canonical_name("linear"), Some("handtuned"));
/// assert_eq!(eval::canonical_name("nope"), None);
/// ```
pub fn canonical_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "openlines" | "open" => "openlines",
        "window" => "window",
        "handtuned" | "linear" => "handtuned",
        "threat" | "threats" => "threat",
        _ => return None,
    })
}

/// Builds a built-in evaluator by name or alias (see [`canonical_name`]).
///
/// ```
/// use connect4_engine::eval::{self, Evaluator};
/// use connect4_engine::{Geometry, Position};
/// let e = eval::builtin("threat", Geometry::STANDARD).unwrap();
/// let p = Position::from_moves(Geometry::STANDARD, "4455").unwrap();
/// assert!(e.evaluate(&p).is_finite());
/// assert!(eval::builtin("nope", Geometry::STANDARD).is_err());
/// ```
pub fn builtin(name: &str, geom: Geometry) -> Result<Arc<dyn Evaluator>, EvalError> {
    match canonical_name(name) {
        Some("handtuned") => Ok(Arc::new(LinearEvaluator::hand_tuned(geom))),
        _ => builtin_any_board(name, geom),
    }
}

/// Builds a built-in evaluator that needs no learned weights (`openlines`, `window`,
/// `threat`) for boards of any integer, those past 64 bits included; `handtuned` (whose
/// weights read 64-bit features) is refused there.
///
/// ```
/// use connect4_engine::eval::{self, Evaluator};
/// use connect4_engine::{Geometry, Position};
/// let g = Geometry::<u128>::sized(8, 8).unwrap();
/// let e = eval::builtin_any_board("openlines", g).unwrap();
/// assert!(e.evaluate(&Position::from_moves(g, "45").unwrap()).is_finite());
/// assert!(eval::builtin_any_board("handtuned", g).is_err());
/// ```
pub fn builtin_any_board<B: BitBoard>(
    name: &str,
    geom: Geometry<B>,
) -> Result<Arc<dyn Evaluator<B>>, EvalError> {
    let unknown = || EvalError::Unknown {
        name: name.to_string(),
    };
    Ok(match canonical_name(name).ok_or_else(unknown)? {
        "openlines" => Arc::new(OpenLines::new(geom)),
        "window" => Arc::new(WindowScore::new(geom)),
        "threat" => Arc::new(Threats::new(geom)),
        _ => {
            return Err(EvalError::NotOnBoard {
                name: name.to_string(),
                board: geom.to_string(),
            });
        }
    })
}

/// Loads any model file for boards of `geom`, by the kind its header names: a GBT model
/// (`c4 train gbt`) or linear weights (`c4 train lms`).
///
/// ```
/// use connect4_engine::eval::{self, Evaluator};
/// use connect4_engine::{Geometry, Position};
/// let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
/// let e = eval::load_model(&models.join("ntuple.bin"), Geometry::STANDARD).unwrap();
/// let p = Position::from_moves(Geometry::STANDARD, "4").unwrap();
/// let v = e.evaluate(&p);
/// assert!((-1.0..=1.0).contains(&v));
/// assert!(eval::load_model(&models.join("missing.bin"), Geometry::STANDARD).is_err());
/// ```
pub fn load_model(path: &std::path::Path, geom: Geometry) -> Result<Arc<dyn Evaluator>, EvalError> {
    Ok(match ModelEvaluator::load(path, geom)? {
        ModelEvaluator::Gbt(e) => Arc::new(*e),
        ModelEvaluator::Linear(e) => Arc::new(e),
        ModelEvaluator::NTuple(e) => Arc::new(*e),
    })
}

/// The file name of `path` for evaluator names (the whole path when it has none).
fn file_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    )
}

/// `value` as seen by the player to move, given a value from the first player's side.
#[inline]
pub(crate) fn from_first<B: BitBoard>(pos: &Position<B>, value: f64) -> f64 {
    match pos.side_to_move() {
        Player::First => value,
        Player::Second => -value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_builds_every_name_and_rejects_others() {
        for name in BUILTIN_EVALUATORS {
            let e = builtin(name, Geometry::STANDARD).unwrap();
            assert_eq!(e.name(), name);
            assert_eq!(
                e.evaluate(&Position::default()),
                0.0,
                "{name} on the empty board"
            );
        }
        let err = builtin("bogus", Geometry::STANDARD).err().unwrap();
        assert!(
            err.to_string().contains("unknown evaluator 'bogus'"),
            "{err}"
        );
    }
}
