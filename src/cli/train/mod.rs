//! `c4 train`: fit learners and save their models.

mod gbt;
mod lms;

use anyhow::Result;
use clap::Subcommand;
use gbt::GbtArgs;
use lms::LmsArgs;

#[derive(Subcommand, Debug)]
pub enum TrainCommand {
    /// Gradient-boosted trees on the UCI data and/or solver-labelled positions: holdout or
    /// K-fold CV metrics, per-iteration curve, optional linfa baselines; saves the model.
    Gbt(GbtArgs),
    /// LMS: learn the linear evaluator's eight weights by self-play against the hand-tuned
    /// agent; saves the weights, a per-game learning curve and the evaluation matches.
    Lms(LmsArgs),
}

/// Runs a `c4 train` subcommand.
pub fn run(cmd: TrainCommand) -> Result<()> {
    match cmd {
        TrainCommand::Gbt(a) => gbt::run_gbt(a),
        TrainCommand::Lms(a) => lms::run_lms(a),
    }
}
