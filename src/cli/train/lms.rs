//! `c4 train lms`: the linear evaluator's weights by the LMS rule, by self-play, on labelled
//! positions, or both.

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use connect4_engine::io::model_format::TrainingMeta;
use connect4_learn::train::lms::{
    LmsConfig, SupervisedConfig, ValidLmsConfig, ValidSupervisedConfig,
};
use linfa::ParamGuard;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct LmsArgs {
    /// Learning rate c: each weight moves by c x feature x error.
    #[arg(long, default_value_t = ValidLmsConfig::default().rate())]
    rate: f64,
    /// Search depth of both the trainee and the hand-tuned agent.
    #[arg(long, default_value_t = ValidLmsConfig::default().depth())]
    depth: u32,
    /// Share of the positions the trainee meets that become training examples.
    #[arg(long, default_value_t = ValidLmsConfig::default().sample_rate())]
    sample_rate: f64,
    /// Random opening plies per game.
    #[arg(long, default_value_t = ValidLmsConfig::default().opening())]
    opening: usize,
    /// Value of a won game (a lost one is its negative, a draw 0).
    #[arg(long, default_value_t = ValidLmsConfig::default().win_value())]
    win_value: f64,
    /// Most training games.
    #[arg(long, default_value_t = ValidLmsConfig::default().max_games())]
    games: usize,
    /// Games over which the stop rules look.
    #[arg(long, default_value_t = ValidLmsConfig::default().window())]
    window: usize,
    /// Stop when no weight moved more than this over the window.
    #[arg(long, default_value_t = ValidLmsConfig::default().weight_tol())]
    weight_tol: f64,
    /// Stop when the window's mean squared error is below this (0: never).
    #[arg(long, default_value_t = ValidLmsConfig::default().error_tol())]
    error_tol: f64,
    /// Evaluation match against the hand-tuned agent every K games (0: never).
    #[arg(long, default_value_t = ValidLmsConfig::default().eval_every())]
    eval_every: usize,
    /// Games per evaluation match.
    #[arg(long, default_value_t = ValidLmsConfig::default().eval_games())]
    eval_games: usize,
    /// Stop when an evaluation match scores at least this fraction (above 1: never).
    #[arg(long, default_value_t = ValidLmsConfig::default().stop_score())]
    stop_score: f64,
    /// Largest absolute starting weight (the weights start uniform in [-s, s]).
    #[arg(long, default_value_t = ValidLmsConfig::default().init_scale())]
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
    #[arg(long, default_value_t = 100, value_parser = crate::cli::at_least_one)]
    checkpoint_every: usize,
    /// Continue from OUT's checkpoint (same settings): the final weights are those of an
    /// uninterrupted run with the same seed.
    #[arg(long)]
    resume: bool,
    /// Train K times (seeds S, S+1, ...) and keep the run whose weights score best in one
    /// common match against the hand-tuned agent (no checkpoints then).
    #[arg(long, default_value_t = 1, value_parser = crate::cli::at_least_one)]
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
    #[arg(long, default_value_t = ValidSupervisedConfig::default().epochs())]
    epochs: usize,
    /// Learning rate of the per-position LMS rule (supervised mode).
    #[arg(long, default_value_t = ValidSupervisedConfig::default().rate())]
    supervised_rate: f64,
    /// After the supervised fit, train by self-play starting from its weights.
    #[arg(long)]
    self_play: bool,
    #[command(flatten)]
    board: crate::cli::BoardArgs,
}

/// `--keep` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum KeepArg {
    /// The weights that scored best in an evaluation match.
    Best,
    /// The weights after the last game.
    Last,
}

/// The supervised fit of `c4 train lms --supervised`: gathers the labelled positions, fits,
/// prints the per-epoch errors and the weights beside the hand-tuned ones.
pub(super) fn run_supervised(
    a: &LmsArgs,
    config: &ValidLmsConfig,
) -> Result<connect4_learn::train::lms::SupervisedReport> {
    use connect4_engine::eval::HAND_TUNED_WEIGHTS;
    use connect4_engine::features::LINEAR8_NAMES;
    if a.restarts > 1 && !a.self_play {
        bail!("--restarts repeats self-play runs: add --self-play, or drop --restarts");
    }
    let sources = connect4_learn::datasets::sources::gather(
        a.uci.as_deref(),
        &[],
        &a.supervised,
        config.geometry(),
    )?;
    if let Some(e) = sources.uci_missing {
        bail!("{e}");
    }
    let mut examples = sources.main;
    examples.extend(sources.extra);
    let sup = SupervisedConfig::default()
        .rate(a.supervised_rate)
        .epochs(a.epochs)
        .win_value(a.win_value)
        .seed(a.seed)
        .check()?;
    let fit = connect4_learn::train::lms::fit_supervised(
        &examples,
        config.geometry(),
        &sup,
        &crate::cli::Bars::new(),
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
    Ok(connect4_learn::train::lms::SupervisedReport {
        config: sup,
        fit,
        data: sources.notes,
        evaluation: None,
    })
}

/// Grades a supervised fit in a match against the hand-tuned agent and saves it.
pub(super) fn save_supervised_only(
    a: &LmsArgs,
    config: &ValidLmsConfig,
    mut report: connect4_learn::train::lms::SupervisedReport,
) -> Result<()> {
    let m = connect4_learn::train::lms::common_match(config, report.fit.weights, a.restart_games);
    println!(
        "against handtuned:depth={} ({} games, {} random opening plies): {} wins, {} draws, {} losses, score {:.1}%",
        config.depth(),
        m.games,
        config.opening(),
        m.wins,
        m.draws,
        m.losses,
        100.0 * m.score
    );
    report.evaluation = Some(m.clone());
    let meta = TrainingMeta::new(crate::cli::command_line(), a.seed)
        .rows(report.fit.train_rows)
        .data(report.data.clone())
        .metrics(vec![
            (
                "heldout_mse".to_string(),
                report.fit.epochs.last().map_or(f64::NAN, |e| e.test_mse),
            ),
            ("match_score".to_string(), m.score),
        ]);
    connect4_engine::ml::model_file::save_linear(
        &a.out,
        report.fit.weights,
        config.geometry(),
        meta,
    )?;
    let path = connect4_learn::train::lms::save_supervised_report(&a.out, &report)?;
    crate::cli::print_written(&[a.out.clone(), path]);
    Ok(())
}

pub(super) fn run_lms(a: LmsArgs) -> Result<()> {
    let config = lms_config(&a)?;
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
        (config.into_inner().start(start).check()?, Some(report))
    } else {
        (config, None)
    };
    let checkpoint = connect4_learn::train::lms::Checkpointing {
        path: connect4_learn::train::outputs::checkpoint(&a.out),
        every: a.checkpoint_every,
        resume: a.resume,
    };
    if a.restarts > 1 && a.resume {
        bail!("--resume continues one run: it cannot be used with --restarts");
    }
    let (run, kept_seed) = self_play_runs(&a, &config, &checkpoint)?;
    let config = config.with_seed(kept_seed);
    let report = connect4_learn::train::lms::LmsReport::new(&config, &run);
    print!("{}", report.text());
    let mut data = vec![format!(
        "self-play against handtuned:depth={}",
        config.depth()
    )];
    if let Some(r) = &supervised_report {
        data.extend(
            r.data
                .iter()
                .map(|d| format!("start: supervised fit to {d}")),
        );
    }
    let meta = TrainingMeta::new(crate::cli::command_line(), kept_seed)
        .rows(run.games)
        .data(data)
        .metrics(report.metrics());
    let mut written = connect4_learn::train::lms::save_run(&a.out, &config, &run, meta)?;
    if let Some(r) = &supervised_report {
        written.push(connect4_learn::train::lms::save_supervised_report(
            &a.out, r,
        )?);
    }
    // The run is complete: its checkpoint has served.
    let _ = std::fs::remove_file(&checkpoint.path);
    crate::cli::print_written(&written);
    Ok(())
}

/// The self-play settings of the flags, checked.
fn lms_config(a: &LmsArgs) -> Result<ValidLmsConfig> {
    let config = LmsConfig::default()
        .geometry(a.board.geometry()?)
        .rate(a.rate)
        .depth(a.depth)
        .sample_rate(a.sample_rate)
        .opening(a.opening)
        .win_value(a.win_value)
        .max_games(a.games)
        .window(a.window)
        .weight_tol(a.weight_tol)
        .error_tol(a.error_tol)
        .evaluation(a.eval_every, a.eval_games)
        .stop_score(a.stop_score)
        .init_scale(a.init_scale)
        .keep(match a.keep {
            KeepArg::Best => connect4_learn::train::lms::Keep::Best,
            KeepArg::Last => connect4_learn::train::lms::Keep::Last,
        })
        .seed(a.seed);
    Ok(config.check()?)
}

/// Self-play from `config`: one run (resumable through `checkpoint`), or `--restarts` runs
/// of which the best is kept (their scores printed); the run and its seed.
fn self_play_runs(
    a: &LmsArgs,
    config: &ValidLmsConfig,
    checkpoint: &connect4_learn::train::lms::Checkpointing,
) -> Result<(connect4_learn::train::lms::LmsRun, u64)> {
    let mut kept_seed = a.seed;
    let run = if a.restarts == 1 {
        connect4_learn::train::lms::train_with(config, Some(checkpoint), &crate::cli::Bars::new())?
    } else {
        let (run, all) = connect4_learn::train::lms::train_restarts(
            config,
            a.restarts,
            a.restart_games,
            &crate::cli::Bars::new(),
        )?;
        println!(
            "restarts ({} games each against handtuned:depth={}, same openings):",
            a.restart_games,
            config.depth()
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
    Ok((run, kept_seed))
}
