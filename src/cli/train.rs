//! `c4 train`: fit learners and save their models.

use anyhow::{Result, bail};
use clap::{Args, Subcommand, ValueEnum};
use connect4_ml::Geometry;
use connect4_ml::datasets::Label;
use connect4_ml::datasets::uci::DEFAULT_UCI_PATH;
use connect4_ml::features::FeatureSet;
use connect4_ml::io::model_format::TrainingMeta;
use connect4_ml::train::gbt::experiment::ExperimentConfig;
use connect4_ml::train::gbt::{GbtData, GbtPreset, train_gbt};
use connect4_ml::train::lms::{LmsConfig, SupervisedConfig};
use linfa::ParamGuard;
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum TrainCommand {
    /// Gradient-boosted trees on the UCI data and/or solver-labelled positions: holdout or
    /// K-fold CV metrics, per-iteration curve, optional linfa baselines; saves the model.
    Gbt(GbtArgs),
    /// LMS: learn the linear evaluator's eight weights by self-play against the hand-tuned
    /// agent; saves the weights, a per-game learning curve and the evaluation matches.
    Lms(LmsArgs),
}

#[derive(Args, Debug)]
pub struct LmsArgs {
    /// Learning rate c: each weight moves by c x feature x error.
    #[arg(long, default_value_t = LmsConfig::default().rate)]
    rate: f64,
    /// Search depth of both the trainee and the hand-tuned agent.
    #[arg(long, default_value_t = LmsConfig::default().depth)]
    depth: u32,
    /// Share of the positions the trainee meets that become training examples.
    #[arg(long, default_value_t = LmsConfig::default().sample_rate)]
    sample_rate: f64,
    /// Random opening plies per game.
    #[arg(long, default_value_t = LmsConfig::default().opening)]
    opening: usize,
    /// Value of a won game (a lost one is its negative, a draw 0).
    #[arg(long, default_value_t = LmsConfig::default().win_value)]
    win_value: f64,
    /// Most training games.
    #[arg(long, default_value_t = LmsConfig::default().max_games)]
    games: usize,
    /// Games over which the stop rules look.
    #[arg(long, default_value_t = LmsConfig::default().window)]
    window: usize,
    /// Stop when no weight moved more than this over the window.
    #[arg(long, default_value_t = LmsConfig::default().weight_tol)]
    weight_tol: f64,
    /// Stop when the window's mean squared error is below this (0: never).
    #[arg(long, default_value_t = LmsConfig::default().error_tol)]
    error_tol: f64,
    /// Evaluation match against the hand-tuned agent every K games (0: never).
    #[arg(long, default_value_t = LmsConfig::default().eval_every)]
    eval_every: usize,
    /// Games per evaluation match.
    #[arg(long, default_value_t = LmsConfig::default().eval_games)]
    eval_games: usize,
    /// Stop when an evaluation match scores at least this fraction (above 1: never).
    #[arg(long, default_value_t = LmsConfig::default().stop_score)]
    stop_score: f64,
    /// Largest absolute starting weight (the weights start uniform in [-s, s]).
    #[arg(long, default_value_t = LmsConfig::default().init_scale)]
    init_scale: f64,
    /// Which weights to save: the best in an evaluation match, or the last.
    #[arg(long, value_enum, default_value = "best")]
    keep: KeepArg,
    /// Seed of the starting weights, openings and sampling.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Where the weights go; the learning curve (.curve.csv), evaluation matches
    /// (.eval.csv) and report (.report.json) are written beside it.
    #[arg(long, default_value = "models/lms.bin")]
    out: PathBuf,
    /// Save the training state to OUT's `.checkpoint` file every K games (atomically).
    #[arg(long, default_value_t = 100, value_parser = super::at_least_one)]
    checkpoint_every: usize,
    /// Continue from OUT's checkpoint (same settings): the final weights are those of an
    /// uninterrupted run with the same seed.
    #[arg(long)]
    resume: bool,
    /// Train K times (seeds S, S+1, ...) and keep the run whose weights score best in one
    /// common match against the hand-tuned agent (no checkpoints then).
    #[arg(long, default_value_t = 1, value_parser = super::at_least_one)]
    restarts: usize,
    /// Games of that common match (and of the match that grades a --supervised fit).
    #[arg(long, default_value_t = 200)]
    restart_games: usize,
    /// Fit the weights to solver-labelled "MOVES SCORE" files (the shipped
    /// data/positions/train.txt.gz, `c4 data label` output) with the LMS rule instead of
    /// self-play; add --self-play to go on with self-play from the fitted weights.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    supervised: Vec<PathBuf>,
    /// Also fit to the UCI file's 67,557 labelled 8-stone positions (supervised mode).
    #[arg(long, value_name = "PATH")]
    uci: Option<PathBuf>,
    /// Passes over the labelled positions (supervised mode).
    #[arg(long, default_value_t = SupervisedConfig::default().epochs)]
    epochs: usize,
    /// Learning rate of the per-position LMS rule (supervised mode).
    #[arg(long, default_value_t = SupervisedConfig::default().rate)]
    supervised_rate: f64,
    /// After the supervised fit, train by self-play starting from its weights.
    #[arg(long)]
    self_play: bool,
    #[command(flatten)]
    board: super::BoardArgs,
}

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
    /// The UCI data file (the main data set when present).
    #[arg(long, default_value = DEFAULT_UCI_PATH)]
    uci: PathBuf,
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
    #[arg(long, value_parser = super::at_least_two)]
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
    #[arg(long, default_value_t = 0.2, value_parser = super::open_unit_interval)]
    test_fraction: f64,
    /// Where the model goes; the curve (.curve.csv), report (.report.json) and importance
    /// (.importance.csv) are written beside it.
    #[arg(long, default_value = "models/gbt.bin")]
    out: PathBuf,
}

/// Runs a `c4 train` subcommand.
pub fn run(cmd: TrainCommand) -> Result<()> {
    match cmd {
        TrainCommand::Gbt(a) => run_gbt(a),
        TrainCommand::Lms(a) => run_lms(a),
    }
}

fn run_gbt(a: GbtArgs) -> Result<()> {
    let geom = Geometry::default();
    if a.no_uci && a.positions.is_empty() && a.selfplay.is_empty() {
        bail!("--no-uci needs --positions or --selfplay files to train on");
    }
    let uci = (!a.no_uci).then_some(a.uci.as_path());
    let data = GbtData::from_files(uci, &a.selfplay, &a.positions, &a.test_positions, geom)?;
    if let Some(e) = &data.uci_missing {
        eprintln!("note: {e}\nnote: training and testing on the self-play positions only");
    }
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
    let cfg = ExperimentConfig {
        features: a.features,
        params: params.check()?,
        mirror_augment: a.mirror_augment,
        mirror_average: a.mirror_average,
        test_fraction: a.test_fraction,
        split_seed: a.seed,
        cv: a.cv,
        baselines: a.baselines,
        forest_size: a.forest_size,
    };
    let meta = TrainingMeta::new(std::env::args().collect::<Vec<_>>().join(" "), a.seed);
    let trained = train_gbt(&cfg, &data, &a.out, geom, meta, &super::Bars::new())?;
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
    println!(
        "GBT: {} iterations, fit {:.2} s, accuracy {:.4}, log loss {:.4}, predict {:.3} ms per 1000 rows",
        h.iterations, h.fit_seconds, h.test.accuracy, h.test.log_loss, h.predict_ms_per_1000
    );
    if let Some(m) = &h.test_mirror_averaged {
        println!(
            "mirror-averaged: accuracy {:.4}, log loss {:.4}",
            m.accuracy, m.log_loss
        );
    }
    println!(
        "recall: loss {:.4}  draw {:.4}  win {:.4}",
        h.test.recall[0], h.test.recall[1], h.test.recall[2]
    );
    println!("confusion (rows true, columns predicted: loss draw win)");
    for l in Label::ALL {
        let row = &h.test.confusion[l.index()];
        println!(
            "  {:<5} {:>6} {:>6} {:>6}",
            l.as_str(),
            row[0],
            row[1],
            row[2]
        );
    }
    if let Some([ma, sa, ml, sl]) = r.cv_summary {
        println!(
            "{}-fold CV: accuracy {:.4} +- {:.4}, log loss {:.4} +- {:.4}",
            r.folds.len(),
            ma,
            sa,
            ml,
            sl
        );
    }
    for b in &r.baselines {
        println!(
            "baseline {}: accuracy {:.4}, recall {:.3}/{:.3}/{:.3}, fit {:.2} s",
            b.name, b.accuracy, b.recall[0], b.recall[1], b.recall[2], b.fit_seconds
        );
    }
    let top: Vec<String> = r
        .importance
        .iter()
        .take(8)
        .map(|(n, v)| format!("{n} {v:.3}"))
        .collect();
    println!("top features by gain: {}", top.join(", "));
    if !r.by_stones.is_empty() {
        println!("held-out positions by stones (--test-positions):");
        println!(
            "  {:<8} {:>7} {:>9} {:>9}",
            "stones", "rows", "accuracy", "log loss"
        );
        for (i, b) in r.by_stones.iter().enumerate() {
            let all = if i + 1 == r.by_stones.len() {
                "all "
            } else {
                ""
            };
            println!(
                "  {:<8} {:>7} {:>9.4} {:>9.4}",
                format!("{all}{}-{}", b.lo, b.hi),
                b.metrics.rows,
                b.metrics.accuracy,
                b.metrics.log_loss
            );
        }
    }

    super::print_written(&trained.written);
    Ok(())
}

/// The supervised fit of `c4 train lms --supervised`: gathers the labelled positions, fits,
/// prints the per-epoch errors and the weights beside the hand-tuned ones.
fn run_supervised(
    a: &LmsArgs,
    config: &LmsConfig,
) -> Result<connect4_ml::train::lms::SupervisedReport> {
    use connect4_ml::eval::HAND_TUNED_WEIGHTS;
    use connect4_ml::features::LINEAR8_NAMES;
    if a.restarts > 1 && !a.self_play {
        bail!("--restarts repeats self-play runs: add --self-play, or drop --restarts");
    }
    let sources = connect4_ml::datasets::sources::gather(
        a.uci.as_deref(),
        &[],
        &a.supervised,
        config.geometry,
    )?;
    if let Some(e) = sources.uci_missing {
        bail!("{e}");
    }
    let mut examples = sources.main;
    examples.extend(sources.extra);
    let sup = SupervisedConfig {
        rate: a.supervised_rate,
        epochs: a.epochs,
        win_value: a.win_value,
        seed: a.seed,
        ..SupervisedConfig::default()
    };
    let fit = connect4_ml::train::lms::fit_supervised(
        &examples,
        config.geometry,
        &sup,
        &super::Bars::new(),
    )?;
    println!(
        "supervised LMS: {} positions ({} held out), {} epochs",
        fit.train_rows + fit.test_rows,
        fit.test_rows,
        fit.epochs.len()
    );
    for e in &fit.epochs {
        println!(
            "  epoch {:>3}: train mse {:.4}, held-out mse {:.4}, held-out sign right {:.1}%",
            e.epoch,
            e.train_mse,
            e.test_mse,
            100.0 * e.test_sign_accuracy
        );
    }
    println!("{:<24} {:>10} {:>10}", "feature", "fitted", "hand-tuned");
    for (i, name) in LINEAR8_NAMES.iter().enumerate() {
        println!(
            "{name:<24} {:>10.3} {:>10.3}",
            fit.weights[i], HAND_TUNED_WEIGHTS[i]
        );
    }
    Ok(connect4_ml::train::lms::SupervisedReport {
        config: sup,
        fit,
        data: sources.notes,
        evaluation: None,
    })
}

/// Grades a supervised fit in a match against the hand-tuned agent and saves it.
fn save_supervised_only(
    a: &LmsArgs,
    config: &LmsConfig,
    mut report: connect4_ml::train::lms::SupervisedReport,
) -> Result<()> {
    let m = connect4_ml::train::lms::common_match(config, report.fit.weights, a.restart_games);
    println!(
        "against handtuned:depth={} ({} games, {} random opening plies): {} wins, {} draws, {} losses, score {:.1}%",
        config.depth,
        m.games,
        config.opening,
        m.wins,
        m.draws,
        m.losses,
        100.0 * m.score
    );
    report.evaluation = Some(m.clone());
    let meta = TrainingMeta::new(std::env::args().collect::<Vec<_>>().join(" "), a.seed)
        .rows(report.fit.train_rows)
        .data(report.data.clone())
        .metrics(vec![
            (
                "heldout_mse".to_string(),
                report.fit.epochs.last().map_or(f64::NAN, |e| e.test_mse),
            ),
            ("match_score".to_string(), m.score),
        ]);
    connect4_ml::ml::model_file::save_linear(&a.out, report.fit.weights, config.geometry, meta)?;
    let path = connect4_ml::train::lms::save_supervised_report(&a.out, &report)?;
    super::print_written(&[a.out.clone(), path]);
    Ok(())
}

/// `--keep` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum KeepArg {
    /// The weights that scored best in an evaluation match.
    Best,
    /// The weights after the last game.
    Last,
}

fn run_lms(a: LmsArgs) -> Result<()> {
    let config = LmsConfig {
        geometry: a.board.geometry()?,
        rate: a.rate,
        depth: a.depth,
        sample_rate: a.sample_rate,
        opening: a.opening,
        win_value: a.win_value,
        max_games: a.games,
        window: a.window,
        weight_tol: a.weight_tol,
        error_tol: a.error_tol,
        eval_every: a.eval_every,
        eval_games: a.eval_games,
        stop_score: a.stop_score,
        init_scale: a.init_scale,
        keep: match a.keep {
            KeepArg::Best => connect4_ml::train::lms::Keep::Best,
            KeepArg::Last => connect4_ml::train::lms::Keep::Last,
        },
        start: None,
        seed: a.seed,
    };
    config.check()?;
    let supervised_mode = !a.supervised.is_empty() || a.uci.is_some();
    if a.self_play && !supervised_mode {
        bail!("--self-play continues a supervised fit: give --supervised FILE... or --uci PATH");
    }
    let (config, supervised_report) = if supervised_mode {
        let report = run_supervised(&a, &config)?;
        if !a.self_play {
            return save_supervised_only(&a, &config, report);
        }
        let start = Some(report.fit.weights);
        (LmsConfig { start, ..config }, Some(report))
    } else {
        (config, None)
    };
    let checkpoint = connect4_ml::train::lms::Checkpointing {
        path: connect4_ml::io::beside(&a.out, ".checkpoint"),
        every: a.checkpoint_every,
        resume: a.resume,
    };
    if a.restarts > 1 && a.resume {
        bail!("--resume continues one run: it cannot be used with --restarts");
    }
    let mut kept_seed = a.seed;
    let run = if a.restarts == 1 {
        connect4_ml::train::lms::train_with(&config, Some(&checkpoint), &super::Bars::new())?
    } else {
        let (run, all) = connect4_ml::train::lms::train_restarts(
            &config,
            a.restarts,
            a.restart_games,
            &super::Bars::new(),
        )?;
        println!(
            "restarts ({} games each against handtuned:depth={}, same openings):",
            a.restart_games, config.depth
        );
        if let Some(r) = all.iter().find(|r| r.weights == run.weights) {
            kept_seed = r.seed;
        }
        for r in &all {
            let kept = if r.seed == kept_seed { "  <- kept" } else { "" };
            println!(
                "  seed {:>4}: {:>5} games, score {:.1}%{kept}",
                r.seed,
                r.games,
                100.0 * r.score
            );
        }
        run
    };
    let config = LmsConfig {
        seed: kept_seed,
        ..config
    };
    let report = connect4_ml::train::lms::LmsReport::new(&config, &run);
    print!("{}", report.text());
    let mut data = vec![format!(
        "self-play against handtuned:depth={}",
        config.depth
    )];
    if let Some(r) = &supervised_report {
        data.extend(
            r.data
                .iter()
                .map(|d| format!("start: supervised fit to {d}")),
        );
    }
    let meta = TrainingMeta::new(std::env::args().collect::<Vec<_>>().join(" "), kept_seed)
        .rows(run.games)
        .data(data)
        .metrics(report.metrics());
    let mut written = connect4_ml::train::lms::save_run(&a.out, &config, &run, meta)?;
    if let Some(r) = &supervised_report {
        written.push(connect4_ml::train::lms::save_supervised_report(&a.out, r)?);
    }
    // The run is complete: its checkpoint has served.
    let _ = std::fs::remove_file(&checkpoint.path);
    super::print_written(&written);
    Ok(())
}
