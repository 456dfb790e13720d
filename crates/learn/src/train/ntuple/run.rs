//! What a run is given besides its recipe ([`Machine`], [`Checkpointing`]), what it saves
//! ([`Checkpoint`], [`Snapshot`]) and what it hands over ([`NTupleRun`]): plain data, below
//! the trainer and its files.

use super::config::NTupleConfig;
use super::curve::CurvePoint;
use super::lanes::{TailAverage, TclState};
use super::self_play::SyncTimes;
use crate::ml::ntuple::{NTupleData, NTupleNetwork};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// How a run uses the machine it runs on. None of it changes what the run learns: a
/// checkpoint resumes on any machine, and a seed gives the same network on any.
#[derive(Clone, Debug)]
pub struct Machine {
    /// Threads that run self-play's lanes (more than the recipe's lanes add nothing).
    pub threads: usize,
    /// Measure the curve every K self-play games (0: only after each part), at the end of
    /// the round that reaches it.
    pub curve_every: usize,
    /// Keep a copy of the network at the curve's best point (first-player wins against the
    /// perfect player) and hand it over instead of the last weights when the curve fell
    /// clearly below it ([`super::fell_from`]). It changes nothing a run learns, only which of the
    /// networks the curve measured is handed over, so it sees what the cadence lets it see.
    pub keep_best: bool,
}

impl Default for Machine {
    /// Every core rayon sees; the curve every 500,000 games; the best point kept.
    fn default() -> Self {
        Machine {
            threads: rayon::current_num_threads().max(1),
            curve_every: 500_000,
            keep_best: true,
        }
    }
}

/// A copy of the network at one curve point, kept in case the curve falls from it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Snapshot {
    /// Its point's index on the curve.
    pub point: usize,
    /// The weights the run would have handed over at that point.
    pub weights: Vec<f32>,
}

/// The state a run saves and resumes from.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The run's settings (a resumed run must have the same).
    pub config: NTupleConfig,
    /// Parts done: the supervised fit, self-play games so far.
    pub supervised_done: bool,
    /// Self-play games played.
    pub games_done: usize,
    /// Training seconds so far.
    pub seconds: f64,
    /// The curve so far.
    pub curve: Vec<CurvePoint>,
    /// The network.
    pub network: NTupleData,
    /// TCL's accumulators, when the rule keeps them.
    pub tcl: Option<TclState>,
    /// The tail average so far, when the run averages.
    pub tail: Option<TailAverage>,
    /// The network at the curve's best point so far, when the machine keeps it.
    pub best: Option<Snapshot>,
}

/// Where and how often a run saves its state.
pub struct Checkpointing {
    /// The checkpoint file.
    pub path: PathBuf,
    /// Save every K self-play games.
    pub every: usize,
    /// Start from the file if it is there.
    pub resume: bool,
}

/// The outcome of a run.
pub struct NTupleRun {
    /// The trained network.
    pub network: NTupleNetwork,
    /// The learning curve.
    pub curve: Vec<CurvePoint>,
    /// Self-play games played.
    pub games: usize,
    /// Labelled positions the supervised part used.
    pub labelled: usize,
    /// Training seconds (measurements excluded).
    pub seconds: f64,
    /// Where self-play's time went beyond playing (since the run started or resumed).
    pub sync: SyncTimes,
    /// The curve point whose network was handed over instead of the last weights, because
    /// the curve fell clearly below it (`None`: the last weights, as trained).
    pub kept: Option<usize>,
}
