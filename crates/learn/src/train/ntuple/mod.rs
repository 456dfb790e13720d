//! The n-tuple trainer behind `c4 train ntuple`: the LMS rule of `ml::ntuple` fed by two
//! sources, in either order or alone.
//!
//! - Supervised: solver-labelled positions ("MOVES SCORE" files, the UCI rows). The target
//!   is the label (win 1, draw 0, loss -1, from the first player's view) or, with
//!   [`Target::Score`], a win's size grows with how soon it comes (0.5 to 1).
//! - Self-play by temporal differences (TD(lambda)) on afterstates: each player picks the
//!   move whose resulting position the network values best for it (a random move with
//!   probability epsilon), and the value of each afterstate moves toward the value of the
//!   next one, the last toward the game's result. Exploratory moves cut the traces: nothing
//!   learns from a position a random move reached.
//!
//! Every `curve_every` games (and after the supervised part) it measures the network as
//! a depth-1 agent: its score against `handtuned:depth=5` and its mistake rate on a sample
//! of each benchmark set, so the curve shows learning, not noise. The run is seeded (each
//! game's randomness is derived from the seed and the game's number), checkpointed, and
//! resumes to the same network as an uninterrupted run.

mod collapse;
mod config;
mod curve;
mod error;
mod files;
mod guide;
mod job;
mod lanes;
mod pick;
mod recipe;
mod run;
mod self_play;
mod trace;
mod trainer;

pub use collapse::{
    best_point, collapse, fell_from, first_player_wins, handed_point, kept_summary,
};
pub use config::{
    Explore, GuidedSide, LearnExplored, Loss, NTupleConfig, Order, Rule, Target, ValidNTupleConfig,
};
pub use curve::{CurvePoint, CurveProbe, PerfectMatch, perfect_opponents, play_perfect};
pub use error::{Diverged, NTupleTrainError};
pub use files::{NTupleReport, decode_checkpoint, save_run, write_perfect_csv};
pub use guide::Guide;
pub use job::{Job, JobError, JobOutcome, JobRun, train_job};
pub use lanes::{SUMMED_LANES, TailAverage};
pub use pick::{Candidate, PickBy, PickError, PickReport, average, pick};
pub use recipe::{RecipeError, RecipeKey, SHIPPED_RECIPE, recipe_keys};
pub use run::{Checkpoint, Checkpointing, Machine, NTupleRun};
pub use self_play::SyncTimes;
pub use trainer::{Sources, train_ntuple};

#[cfg(test)]
mod reproducible_tests;
#[cfg(test)]
mod tests;
