//! `c4 train`: fit learners and save their models.

mod gbt;
mod lms;
mod ntuple;
mod pick;

use anyhow::Result;
use clap::Subcommand;
use gbt::GbtArgs;
use lms::LmsArgs;
use ntuple::NTupleArgs;
use pick::PickArgs;

#[derive(Subcommand, Debug)]
pub enum TrainCommand {
    /// Gradient-boosted trees on the UCI data and/or solver-labelled positions: holdout or
    /// K-fold CV metrics, per-iteration curve, optional linfa baselines; saves the model.
    #[command(
        after_help = "Examples:\n  c4 train gbt --out models/gbt.bin\n  c4 train gbt --config best --mirror-augment --out runs/gbt-best.bin"
    )]
    Gbt(GbtArgs),
    /// LMS: learn the linear evaluator's eight weights by self-play against the hand-tuned
    /// agent; saves the weights, a per-game learning curve and the evaluation matches.
    #[command(after_help = "Examples:\n  c4 train lms --games 2000 --out models/lms.bin")]
    Lms(LmsArgs),
    /// An n-tuple network (many small cell patterns, one weight table each): TD self-play
    /// and/or supervised LMS on solver-labelled positions; saves the network, its learning
    /// curve (score against handtuned:depth=5, mistakes on each benchmark set) and a report.
    #[command(
        after_help = "Examples:\n  c4 train ntuple --out models/ntuple.bin\n  c4 train ntuple --games 500000 --runs 5 --curve-perfect 100 --out runs/ntuple/net.bin"
    )]
    Ntuple(Box<NTupleArgs>),
    /// Choose among n-tuple runs of one recipe: the best by games against the perfect
    /// player, or the average of their weights (an ensemble at no cost per evaluation),
    /// with every candidate's measured wins.
    #[command(
        after_help = "Examples:\n  c4 train ntuple-pick runs/ntuple/net.run*.bin --by average --games 200 --out models/ntuple.bin"
    )]
    NtuplePick(PickArgs),
}

/// Runs a `c4 train` subcommand.
pub fn run(cmd: TrainCommand, book: super::BookChoice) -> Result<()> {
    match cmd {
        TrainCommand::Gbt(a) => gbt::run_gbt(a),
        TrainCommand::Lms(a) => lms::run_lms(a),
        TrainCommand::Ntuple(a) => ntuple::run_ntuple(*a, book),
        TrainCommand::NtuplePick(a) => pick::run_pick(a),
    }
}
