//! What a Connect Four GBT's classes mean, read off their number: three are loss / draw / win
//! of the side to move; five split losses and wins by how soon they come (the exact score), an
//! ordinal target. Training picks the classes of a labelled position here, and every reader
//! of a model (the evaluator, explanations, metrics) turns its probabilities back into
//! loss / draw / win and a value here, so a five-class model works wherever a three-class one
//! does.

use crate::game::Geometry;
use crate::ml::example::Label;

/// The classes a GBT learns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GbtTarget {
    /// Loss, draw, win.
    Wdl,
    /// Loss soon, loss late, draw, win late, win soon: "soon" when the exact score is more
    /// than half the best score possible at that many stones (the n-tuple's score target
    /// gives such a win 0.75 to 1, a later one 0.5 to 0.75).
    Score,
}

/// The value of each class of [`GbtTarget::Score`]: the middle of the n-tuple score target's
/// range for that class, so both learners rank a sooner win the same way.
const SCORE_VALUES: [f64; 5] = [-0.875, -0.625, 0.0, 0.625, 0.875];

impl GbtTarget {
    /// Number of classes.
    pub fn classes(self) -> usize {
        match self {
            GbtTarget::Wdl => 3,
            GbtTarget::Score => 5,
        }
    }

    /// The target of a model with `k` classes, if it is one of ours.
    pub(crate) fn of_classes(k: usize) -> Option<GbtTarget> {
        match k {
            3 => Some(GbtTarget::Wdl),
            5 => Some(GbtTarget::Score),
            _ => None,
        }
    }

    /// The class of a position with `label` and exact `score` (side to move's view) at
    /// `stones` stones on `geom`; none when the target needs a score and there is none.
    pub fn class_of(
        self,
        label: Label,
        score: Option<i32>,
        stones: usize,
        geom: Geometry,
    ) -> Option<usize> {
        match self {
            GbtTarget::Wdl => Some(label.index()),
            GbtTarget::Score => {
                let s = score?;
                let best = geom.win_score(stones).max(1);
                let soon = 2 * s.abs() > best;
                Some(match (s.signum(), soon) {
                    (0, _) => 2,
                    (-1, true) => 0,
                    (-1, false) => 1,
                    (_, false) => 3,
                    (_, true) => 4,
                })
            }
        }
    }

    /// Loss, draw and win probabilities of a model's class probabilities `p`.
    pub fn wdl(self, p: &[f64]) -> [f64; 3] {
        match self {
            GbtTarget::Wdl => [p[0], p[1], p[2]],
            GbtTarget::Score => [p[0] + p[1], p[2], p[3] + p[4]],
        }
    }

    /// The value in [-1, 1] the search reads: P(win) - P(loss), and with the score target the
    /// expected class value (a sooner win counts more).
    pub fn value(self, p: &[f64]) -> f64 {
        match self {
            GbtTarget::Wdl => p[2] - p[0],
            GbtTarget::Score => p.iter().zip(SCORE_VALUES).map(|(p, v)| p * v).sum(),
        }
    }

    /// The win-minus-loss margin of raw class scores (logits), which explanations split
    /// among the features.
    pub fn margin(self, raw: &[f64]) -> f64 {
        match self {
            GbtTarget::Wdl => raw[2] - raw[0],
            GbtTarget::Score => 0.5 * (raw[3] + raw[4] - raw[0] - raw[1]),
        }
    }
}

/// Loss / draw / win probabilities, row-major, of a model's class probabilities `p` (also
/// row-major): as they are for three classes, folded for five.
///
/// # Panics
/// If the model's classes are not a [`GbtTarget`]'s.
pub fn wdl_probabilities(model: &super::GbtModel, p: Vec<f64>) -> Vec<f64> {
    match GbtTarget::of_classes(model.n_classes()) {
        Some(GbtTarget::Wdl) => p,
        Some(t) => p.chunks_exact(t.classes()).flat_map(|r| t.wdl(r)).collect(),
        None => panic!("a GBT of {} classes is not one of ours", model.n_classes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_classes_split_wins_and_losses_by_how_soon() {
        let g = Geometry::STANDARD;
        // At 10 stones the best score is 21 - 5 = 16: 9 and more is soon, 8 and less late.
        assert_eq!(g.win_score(10), 16);
        let c = |label, s| GbtTarget::Score.class_of(label, Some(s), 10, g);
        assert_eq!(c(Label::Win, 9), Some(4));
        assert_eq!(c(Label::Win, 8), Some(3));
        assert_eq!(c(Label::Win, 1), Some(3));
        assert_eq!(c(Label::Draw, 0), Some(2));
        assert_eq!(c(Label::Loss, -1), Some(1));
        assert_eq!(c(Label::Loss, -9), Some(0));
        assert_eq!(GbtTarget::Score.class_of(Label::Win, None, 10, g), None);
        assert_eq!(GbtTarget::Wdl.class_of(Label::Win, None, 10, g), Some(2));
    }

    #[test]
    fn five_classes_read_as_loss_draw_win() {
        let p = [0.1, 0.2, 0.3, 0.15, 0.25];
        let t = GbtTarget::Score;
        let w = t.wdl(&p);
        assert!((w[0] - 0.3).abs() < 1e-12 && (w[1] - 0.3).abs() < 1e-12);
        assert!((w[2] - 0.4).abs() < 1e-12);
        let v = -0.875 * 0.1 - 0.625 * 0.2 + 0.625 * 0.15 + 0.875 * 0.25;
        assert!((t.value(&p) - v).abs() < 1e-12);
        assert_eq!(GbtTarget::of_classes(5), Some(t));
        assert_eq!(GbtTarget::of_classes(2), None);
        assert_eq!(GbtTarget::Wdl.value(&[0.2, 0.3, 0.5]), 0.3);
    }
}
