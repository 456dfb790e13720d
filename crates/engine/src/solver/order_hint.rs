//! A move-ordering hint near the root, e.g. a learned evaluator's value.

use crate::game::{BitBoard, Position};
use std::sync::Arc;

/// The value function of an [`OrderHint`].
pub type HintValue<B> = Arc<dyn Fn(&Position<B>) -> f64 + Send + Sync>;

/// A move-ordering hint for the positions near the root: the value of a position for its
/// side to move (higher is better for them), e.g. a learned evaluator's, which breaks the
/// ties of the threat ordering. Why only there: the subtrees are large, so a better first
/// move saves far more than the evaluation costs. Measured on two samples of 264 UCI
/// positions (weak, one thread, models/gbt.bin): 72.4 s -> 68.2 s and 70.2 s -> 65.9 s below
/// 14 stones; 69.7 s below 12; 80.3 s below 20 (the evaluations then cost more than they
/// save). Ordering by the model first and the threats second was no faster (72.4 s). Since
/// the end-game table ([`super::DEEP_MAX_EMPTY`]) the hint measures no faster (32.9-36.8 s without,
/// 33.5-41.0 s with, on the second sample).
#[derive(Clone)]
pub struct OrderHint<B: BitBoard = u64> {
    /// Positions with fewer stones than this break their ordering ties by the hint.
    pub plies: usize,
    /// The value of a position for its side to move.
    pub value: HintValue<B>,
}

impl OrderHint {
    /// The stone count below which labelling jobs use a hint they are given.
    pub const DEFAULT_PLIES: usize = 14;
}
