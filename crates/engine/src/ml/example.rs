//! What every learner trains on: a position and its solver label for the side to move.
//! Both data readers (the UCI file, labelled position files) produce these.

use crate::game::Position;
use std::fmt;

/// The result of a position for the side to move: the three classes every learner here
/// predicts, in this order (class index 0, 1, 2).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Label {
    /// The side to move loses with perfect play.
    Loss,
    /// Perfect play draws.
    Draw,
    /// The side to move wins with perfect play.
    Win,
}

impl Label {
    /// All labels in class-index order.
    pub const ALL: [Label; 3] = [Label::Loss, Label::Draw, Label::Win];

    /// Class index (loss 0, draw 1, win 2).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The label of a class index, if it is one.
    pub fn from_index(i: usize) -> Option<Label> {
        Label::ALL.get(i).copied()
    }

    /// The label of a solver score (any sign convention where > 0 is a win for the mover).
    pub fn from_score(score: i32) -> Label {
        match score.signum() {
            1 => Label::Win,
            -1 => Label::Loss,
            _ => Label::Draw,
        }
    }

    /// The word the UCI file uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Label::Loss => "loss",
            Label::Draw => "draw",
            Label::Win => "win",
        }
    }

    /// Parses the file's word (`win`, `loss`, `draw`).
    pub fn parse(s: &str) -> Option<Label> {
        match s.trim() {
            "win" => Some(Label::Win),
            "loss" => Some(Label::Loss),
            "draw" => Some(Label::Draw),
            _ => None,
        }
    }

    /// The label seen from the other player.
    pub fn flip(self) -> Label {
        match self {
            Label::Loss => Label::Win,
            Label::Draw => Label::Draw,
            Label::Win => Label::Loss,
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One training example.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// The position.
    pub position: Position,
    /// Its solver label for the side to move.
    pub label: Label,
    /// The exact solver score for the side to move, when the source has it (labelled
    /// "MOVES SCORE" files and self-play CSV do; the UCI file has classes only).
    pub score: Option<i32>,
}
