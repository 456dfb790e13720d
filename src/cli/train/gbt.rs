//! `c4 train gbt`: gradient-boosted trees, through the library's one GBT trainer.

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use connect4_engine::Geometry;
use connect4_engine::features::FeatureSet;
use connect4_engine::io::model_format::TrainingMeta;
use connect4_engine::ml::gbt::{GbtParams, GbtTarget};
use connect4_learn::datasets::uci::DEFAULT_UCI_PATH;
use connect4_learn::train::gbt::experiment::ExperimentConfig;
use connect4_learn::train::gbt::{GbtData, GbtPreset, train_gbt};
use linfa::ParamGuard;
use std::path::PathBuf;

/// Named hyperparameter sets.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum GbtConfig {
    /// The report's configuration: lr 0.34, 490 iterations, 58 leaves, depth 7, 42 rows per
    /// leaf, L2 3.11, early stopping on 20%, seed 229.
    Reference,
    /// scikit-learn's HistGradientBoostingClassifier defaults.
    Default,
    /// Our best configuration: smaller steps, more iterations, more leaves.
    Best,
}

/// What a labelled position teaches the trees.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum GbtTargetArg {
    /// Three classes: loss, draw, win.
    Wdl,
    /// Five ordinal classes of the exact score: loss soon, loss late, draw, win late, win
    /// soon (soon: more than half the best score at that many stones). Needs files with
    /// exact scores, so not the UCI rows: use --no-uci with --positions or --selfplay
    Score,
}

impl GbtConfig {
    fn preset(self) -> GbtPreset {
        match self {
            GbtConfig::Reference => GbtPreset::Reference,
            GbtConfig::Default => GbtPreset::Default,
            GbtConfig::Best => GbtPreset::Best,
        }
    }
}

#[derive(Args, Debug)]
pub struct GbtArgs {
    /// The UCI data file (the main data set when present; default on 7x6: the shipped
    /// data/uci/connect-4.data.Z). Its positions are 7x6: other boards train on --positions
    /// or --selfplay files of their own.
    #[arg(long)]
    uci: Option<PathBuf>,
    /// Solver-labelled position files (`c4 data selfplay`); used for training only.
    #[arg(long, num_args = 1..)]
    selfplay: Vec<PathBuf>,
    /// Labelled "MOVES SCORE" files (`c4 data label`, the shipped data/positions/*.txt.gz):
    /// the class is the score's sign. With the UCI file they train only; with --no-uci they
    /// are split into training and test parts.
    #[arg(long, num_args = 1..)]
    positions: Vec<PathBuf>,
    /// Leave the UCI file out: train on --positions / --selfplay only.
    #[arg(long)]
    no_uci: bool,
    /// Labelled "MOVES SCORE" files held out from training (e.g. data/positions/heldout.txt.gz):
    /// the model's accuracy on them is reported by band of stones.
    #[arg(long, num_args = 1..)]
    test_positions: Vec<PathBuf>,
    /// Feature set: cells, onehot, linear8, threats, cells+threats, oddeven, cells+oddeven.
    #[arg(long, default_value = "cells")]
    features: FeatureSet,
    /// Hyperparameters.
    #[arg(long, value_enum, default_value = "reference")]
    config: GbtConfig,
    /// What a labelled position teaches; the value the search reads from a score model is the
    /// expected value of its classes (a sooner win counts more).
    #[arg(long, value_enum, default_value = "wdl")]
    target: GbtTargetArg,
    /// Override the number of boosting iterations.
    #[arg(long)]
    max_iter: Option<usize>,
    /// Override the deepest a tree may grow (one step of every tree walk per level).
    #[arg(long)]
    max_depth: Option<usize>,
    /// Override the most leaves a tree may have.
    #[arg(long)]
    max_leaf_nodes: Option<usize>,
    /// Override the learning rate (shrinkage).
    #[arg(long)]
    learning_rate: Option<f64>,
    /// Turn early stopping off (it is on in every named config).
    #[arg(long)]
    no_early_stopping: bool,
    /// Also train on the mirror image of every training row.
    #[arg(long)]
    mirror_augment: bool,
    /// Also report the test scores of the mean of the model's probabilities for each test
    /// position and its mirror image (test-time augmentation).
    #[arg(long)]
    mirror_average: bool,
    /// K-fold stratified cross-validation (reported in addition to the holdout).
    #[arg(long, value_parser = crate::cli::at_least_two)]
    cv: Option<usize>,
    /// Also fit linfa-trees DecisionTree and linfa-ensemble RandomForest on the same split.
    #[arg(long)]
    baselines: bool,
    /// Trees in the random forest baseline.
    #[arg(long, default_value_t = 50)]
    forest_size: usize,
    /// Seed of the stratified holdout split and the folds.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Share of the main rows held out for testing, in (0, 1).
    #[arg(long, default_value_t = 0.2, value_parser = crate::cli::open_unit_interval)]
    test_fraction: f64,
    /// Where the model goes; the curve (.curve.csv), report (.report.json) and importance
    /// (.importance.csv) are written beside it. The `gbt` agent on a W x H board reads
    /// models/gbt-WxH.bin.
    #[arg(long, default_value = "models/gbt.bin")]
    out: PathBuf,
    /// The board of the positions and of the model (boards of up to 64 bits).
    #[command(flatten)]
    board: crate::cli::BoardArgs,
}

pub(super) fn run_gbt(a: GbtArgs) -> Result<()> {
    if a.board.is_wide()? {
        bail!(
            "c4 train gbt learns boards of up to 64 bits; {}x{} takes {}",
            a.board.width,
            a.board.height,
            a.board.width * (a.board.height + 1)
        );
    }
    let geom = a.board.geometry()?;
    let standard = geom == Geometry::STANDARD;
    if let (Some(path), false) = (&a.uci, standard) {
        bail!(
            "the UCI file {} holds 7x6 positions and this board is {geom}: train on --positions or --selfplay files of the board",
            path.display()
        );
    }
    let no_uci = a.no_uci || !standard;
    if no_uci && a.positions.is_empty() && a.selfplay.is_empty() {
        if standard {
            bail!("--no-uci needs --positions or --selfplay files to train on");
        }
        bail!(
            "on {geom} there is no UCI file: give --positions or --selfplay files of the board (`c4 data positions --width {} --height {}` then `c4 data label`)",
            geom.width(),
            geom.height()
        );
    }
    let uci_path = a
        .uci
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_UCI_PATH));
    let uci = (!no_uci).then_some(uci_path.as_path());
    let data = GbtData::from_files(uci, &a.selfplay, &a.positions, &a.test_positions, geom)?;
    if let Some(e) = &data.uci_missing {
        eprintln!("note: {e}\nnote: training and testing on the self-play positions only");
    }
    let cfg = ExperimentConfig {
        features: a.features,
        params: params(&a).check()?,
        target: match a.target {
            GbtTargetArg::Wdl => GbtTarget::Wdl,
            GbtTargetArg::Score => GbtTarget::Score,
        },
        mirror_augment: a.mirror_augment,
        mirror_average: a.mirror_average,
        test_fraction: a.test_fraction,
        split_seed: a.seed,
        cv: a.cv,
        baselines: a.baselines,
        forest_size: a.forest_size,
    };
    let meta = TrainingMeta::new(crate::cli::command_line(), a.seed);
    let trained = train_gbt(&cfg, &data, &a.out, geom, meta, &crate::cli::Bars::new())?;
    let (out, main) = (&trained.output, &data.main);
    let r = &out.report;
    let h = &r.holdout;
    println!(
        "features {} | config {:?} | train rows {} ({} main, {} of {} extra kept{}) | test rows {}",
        r.features,
        a.config,
        h.train_rows,
        main.len() - h.test_rows,
        r.extra_kept,
        r.extra_rows,
        if a.mirror_augment {
            ", mirror-augmented"
        } else {
            ""
        },
        h.test_rows
    );
    print!("{r}");
    crate::cli::print_written(&trained.written);
    Ok(())
}

/// The preset's hyperparameters with the flags that override them.
fn params(a: &GbtArgs) -> GbtParams {
    let mut params = a.config.preset().params();
    if let Some(n) = a.max_iter {
        params = params.max_iter(n);
    }
    if let Some(n) = a.max_depth {
        params = params.max_depth(n);
    }
    if let Some(n) = a.max_leaf_nodes {
        params = params.max_leaf_nodes(n);
    }
    if let Some(v) = a.learning_rate {
        params = params.learning_rate(v);
    }
    if a.no_early_stopping {
        params = params.early_stopping(false);
    }
    params
}
