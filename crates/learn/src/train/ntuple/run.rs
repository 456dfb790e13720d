//! What a run is given besides its recipe ([`Machine`], [`Checkpointing`]), what it saves
//! ([`Checkpoint`]) and what it hands over ([`NTupleRun`]): plain data, below
//! the trainer and its files.

use super::config::NTupleConfig;
use super::curve::CurvePoint;
use super::guide::Guide;
use super::lanes::{TailAverage, TclState};
use super::self_play::SyncTimes;
pub use crate::train::run_loop::Checkpointing;
use crate::train::run_loop::KeepBest;
use connect4_engine::game::BitBoard;
use connect4_engine::ml::ntuple::{NTupleData, NTupleNetwork};
use serde::{Deserialize, Serialize};

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
    /// The solver that plays the recipe's guided openings (its book only makes it fast).
    pub guide: Guide,
    /// Where and how often the run saves its state, and whether it resumes from it (none:
    /// no checkpoint).
    pub checkpointing: Option<Checkpointing>,
}

impl Default for Machine {
    /// Every core rayon sees; the curve every 500,000 games; the best point kept; the guide's
    /// solvers read the built-in book; no checkpoint.
    fn default() -> Self {
        Machine {
            threads: rayon::current_num_threads().max(1),
            curve_every: 500_000,
            keep_best: true,
            guide: Guide::default(),
            checkpointing: None,
        }
    }
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
    /// The network at the curve's best point so far (the point's index and first-player
    /// wins), when the machine keeps it.
    pub best: KeepBest<Vec<f32>>,
}

/// The outcome of a run, on a board of any integer (`NTupleRun` alone: 64-bit boards).
pub struct NTupleRun<B: BitBoard = u64> {
    /// The trained network.
    pub network: NTupleNetwork<B>,
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
