//! The GBT experiment behind `c4 train gbt`: build training rows (UCI, self-play positions,
//! mirror images), hold out a stratified test split (or run K-fold CV), fit, score, and fit
//! the linfa baselines on the same split.

use crate::datasets::Example;
use connect4_engine::features::FeatureSet;
use connect4_engine::game::Position;
use connect4_engine::ml::dataset::feature_matrix;
use connect4_engine::ml::gbt::{
    GbtModel, GbtTarget, GbtValidParams, IterationRecord, fit_gbt_classes, wdl_probabilities,
};
use connect4_engine::ml::metrics::Metrics;
use connect4_engine::ml::split::{stratified_folds, stratified_split};
use linfa::prelude::*;
use ndarray::{Array1, Array2};
use std::collections::HashSet;
use std::time::Instant;

/// What to run.
#[derive(Clone, Debug)]
pub struct ExperimentConfig {
    /// Features the model reads.
    pub features: FeatureSet,
    /// GBT hyperparameters.
    pub params: GbtValidParams,
    /// The classes it learns: win / draw / loss, or with the exact score's ordinal classes
    /// (every row then needs its exact score). Reported metrics are win / draw / loss either
    /// way.
    pub target: GbtTarget,
    /// Also train on the mirror image of every training row.
    pub mirror_augment: bool,
    /// Also score the test rows by the mean of the model's probabilities for each position
    /// and its mirror image (test-time augmentation): the game is symmetric, so both views
    /// are evidence, and averaging them removes the model's left-right inconsistencies.
    pub mirror_average: bool,
    /// Share of the main rows held out for testing.
    pub test_fraction: f64,
    /// Seed of the holdout split and the folds.
    pub split_seed: u64,
    /// K-fold cross-validation instead of one holdout (K >= 2).
    pub cv: Option<usize>,
    /// Also fit linfa-trees DecisionTree and linfa-ensemble RandomForest.
    pub baselines: bool,
    /// Trees in the random forest baseline.
    pub forest_size: usize,
}

/// A baseline's scores (no log loss: linfa's trees give no probabilities).
#[derive(Clone, Debug, serde::Serialize)]
pub struct BaselineReport {
    /// Which model.
    pub name: String,
    /// Fit time, seconds.
    pub fit_seconds: f64,
    /// Test accuracy.
    pub accuracy: f64,
    /// Per-class recall (loss, draw, win).
    pub recall: Vec<f64>,
    /// `confusion[true][predicted]`.
    pub confusion: Vec<Vec<usize>>,
}

/// One fold's (or the holdout's) result.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FoldReport {
    /// Training rows (after augmentation).
    pub train_rows: usize,
    /// Test rows.
    pub test_rows: usize,
    /// Boosting iterations kept.
    pub iterations: usize,
    /// Fit time, seconds.
    pub fit_seconds: f64,
    /// Batch prediction time for the test rows, milliseconds per 1000 rows.
    pub predict_ms_per_1000: f64,
    /// Test metrics.
    pub test: Metrics,
    /// Test metrics of the mirror-averaged probabilities (with `mirror_average`).
    pub test_mirror_averaged: Option<Metrics>,
}

impl FoldReport {
    /// The metrics a model file records: holdout accuracy and log loss, iterations.
    pub(crate) fn headline_metrics(&self) -> Vec<(String, f64)> {
        vec![
            ("holdout_accuracy".into(), self.test.accuracy),
            ("holdout_log_loss".into(), self.test.log_loss),
            ("iterations".into(), self.iterations as f64),
        ]
    }
}

/// Everything an experiment measured.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ExperimentReport {
    /// Feature set name.
    pub features: String,
    /// Main rows (UCI, or self-play when there is no UCI file).
    pub main_rows: usize,
    /// Extra rows offered for training (self-play), and how many were kept after removing
    /// positions that (or whose mirror image) are in the test part.
    pub extra_rows: usize,
    /// Extra rows kept.
    pub extra_kept: usize,
    /// The holdout run (the model that is saved).
    pub holdout: FoldReport,
    /// Cross-validation folds, if asked.
    pub folds: Vec<FoldReport>,
    /// Mean and standard deviation of fold accuracy and log loss.
    pub cv_summary: Option<[f64; 4]>,
    /// linfa baselines on the holdout split.
    pub baselines: Vec<BaselineReport>,
    /// Feature names and normalised gain importance, most important first.
    pub importance: Vec<(String, f64)>,
    /// Metrics on separate held-out files by band of stones (empty unless asked, see
    /// [`connect4_engine::ml::by_stones`]), the last entry over all their rows.
    pub by_stones: Vec<connect4_engine::ml::by_stones::BandReport>,
}

/// Result of [`run_experiment`]: the holdout model and the report.
pub struct ExperimentOutput {
    /// The model trained on the holdout's training part.
    pub model: GbtModel,
    /// Per-iteration history, with the test split as the evaluation set.
    pub history: Vec<IterationRecord>,
    /// The measurements.
    pub report: ExperimentReport,
}

struct Fold {
    report: FoldReport,
    model: GbtModel,
}

fn train_rows(main: &[Example], idx: &[usize], extra: &[Example], mirror: bool) -> Vec<Example> {
    let mut rows: Vec<Example> = idx.iter().map(|&i| main[i]).collect();
    rows.extend_from_slice(extra);
    if mirror {
        let n = rows.len();
        for i in 0..n {
            let m = rows[i].position.mirror();
            if m.key() != rows[i].position.key() {
                rows.push(Example {
                    position: m,
                    ..rows[i]
                });
            }
        }
    }
    rows
}

/// Feature matrices and class indices of one split, computed once and shared by the GBT fit
/// and the baselines.
struct Split {
    x: Array2<f64>,
    /// The target's classes of the training rows.
    y: Vec<usize>,
    /// Their win / draw / loss classes (what the baselines learn).
    y_wdl: Vec<usize>,
    tx: Array2<f64>,
    ty: Vec<usize>,
    ty_wdl: Vec<usize>,
    /// The test rows' mirror images, when they are to be averaged in.
    tx_mirror: Option<Array2<f64>>,
}

/// The class of `e` under `target`.
///
/// # Panics
/// If the target needs an exact score `e` lacks ([`missing_scores`] checks first).
fn class_of(target: GbtTarget, e: &Example) -> usize {
    let (p, g) = (e.position, e.position.geometry());
    target
        .class_of(e.label, e.score, p.moves_played(), g)
        .expect("rows without the exact score are refused before training")
}

/// Rows of `rows` the target cannot class (no exact score when it needs one).
pub fn missing_scores(target: GbtTarget, rows: &[Example]) -> usize {
    rows.iter()
        .filter(|e| {
            let g = e.position.geometry();
            let stones = e.position.moves_played();
            target.class_of(e.label, e.score, stones, g).is_none()
        })
        .count()
}

impl Split {
    fn new(cfg: &ExperimentConfig, train: &[Example], test: &[Example]) -> Split {
        let matrix = |rows: &[Example]| {
            let pos: Vec<Position> = rows.iter().map(|e| e.position).collect();
            let y = rows.iter().map(|e| class_of(cfg.target, e)).collect();
            let y_wdl = rows.iter().map(|e| e.label.index()).collect();
            (feature_matrix(cfg.features, &pos), y, y_wdl)
        };
        let ((x, y, y_wdl), (tx, ty, ty_wdl)) = (matrix(train), matrix(test));
        let tx_mirror = cfg.mirror_average.then(|| {
            let pos: Vec<Position> = test.iter().map(|e| e.position.mirror()).collect();
            feature_matrix(cfg.features, &pos)
        });
        Split {
            x,
            y,
            y_wdl,
            tx,
            ty,
            ty_wdl,
            tx_mirror,
        }
    }
}

fn run_fold(
    cfg: &ExperimentConfig,
    split: &Split,
    progress: &dyn connect4_engine::progress::Progress,
) -> Result<Fold, connect4_engine::ml::gbt::GbtError> {
    let Split {
        x,
        y,
        tx,
        ty,
        ty_wdl,
        tx_mirror,
        ..
    } = split;
    let start = Instant::now();
    let model = fit_gbt_classes(
        &cfg.params,
        x.view(),
        y,
        cfg.target.classes(),
        Some((tx.view(), ty)),
        progress,
    )?;
    let fit_seconds = start.elapsed().as_secs_f64();
    // Best of three timed batch predictions.
    let mut best = f64::INFINITY;
    let mut probs = Vec::new();
    for _ in 0..3 {
        let t = Instant::now();
        probs = model.predict_proba_flat(tx.view());
        best = best.min(t.elapsed().as_secs_f64());
    }
    // Win / draw / loss metrics whatever the target, so targets compare.
    let probs = wdl_probabilities(&model, probs);
    let test_metrics = Metrics::from_probs(&probs, 3, ty_wdl);
    let test_mirror_averaged = tx_mirror.as_ref().map(|txm| {
        let mirrored = wdl_probabilities(&model, model.predict_proba_flat(txm.view()));
        let mean: Vec<f64> = probs
            .iter()
            .zip(&mirrored)
            .map(|(a, b)| 0.5 * (a + b))
            .collect();
        Metrics::from_probs(&mean, 3, ty_wdl)
    });
    Ok(Fold {
        report: FoldReport {
            train_rows: y.len(),
            test_rows: ty.len(),
            iterations: model.n_iterations(),
            fit_seconds,
            predict_ms_per_1000: best * 1e3 * 1000.0 / ty.len().max(1) as f64,
            test: test_metrics,
            test_mirror_averaged,
        },
        model,
    })
}

fn baseline_reports(cfg: &ExperimentConfig, split: Split) -> Vec<BaselineReport> {
    let Split {
        x,
        y_wdl: y,
        tx,
        ty_wdl: ty,
        ..
    } = split;
    let data = Dataset::new(x, Array1::from(y));
    let score = |name: &str, secs: f64, pred: Array1<usize>| {
        let mut probs = vec![0.0; pred.len() * 3];
        for (i, &p) in pred.iter().enumerate() {
            probs[i * 3 + p.min(2)] = 1.0;
        }
        let m = Metrics::from_probs(&probs, 3, &ty);
        BaselineReport {
            name: name.into(),
            fit_seconds: secs,
            accuracy: m.accuracy,
            recall: m.recall,
            confusion: m.confusion,
        }
    };
    let mut out = Vec::new();
    let t = Instant::now();
    if let Ok(tree) = linfa_trees::DecisionTree::params().fit(&data) {
        let secs = t.elapsed().as_secs_f64();
        out.push(score(
            "linfa-trees DecisionTree (default params)",
            secs,
            tree.predict(&tx),
        ));
    }
    let t = Instant::now();
    let rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(cfg.split_seed);
    let forest = linfa_ensemble::EnsembleLearnerParams::new_fixed_rng(
        linfa_trees::DecisionTree::params(),
        rng,
    )
    .ensemble_size(cfg.forest_size)
    .bootstrap_proportion(0.7)
    .feature_proportion(0.7)
    .fit(&data);
    if let Ok(forest) = forest {
        let secs = t.elapsed().as_secs_f64();
        out.push(score(
            &format!(
                "linfa-ensemble RandomForest ({} trees, 70% rows and features)",
                cfg.forest_size
            ),
            secs,
            forest.predict(&tx),
        ));
    }
    out
}

/// Runs the experiment. `main` is split into train and test; `extra` rows only ever train
/// (rows whose position or mirror image is in a test part are dropped first). `progress`
/// hears of the cross-validation folds (one step each), then of the holdout fit (one step
/// per boosting iteration).
pub fn run_experiment(
    cfg: &ExperimentConfig,
    main: &[Example],
    extra: &[Example],
    progress: &dyn connect4_engine::progress::Progress,
) -> Result<ExperimentOutput, connect4_engine::ml::gbt::GbtError> {
    let labels: Vec<usize> = main.iter().map(|e| e.label.index()).collect();
    let keep_extra = |test_idx: &[usize]| -> Vec<Example> {
        let test_keys: HashSet<u64> = test_idx
            .iter()
            .map(|&i| main[i].position.canonical_key())
            .collect();
        extra
            .iter()
            .filter(|e| !test_keys.contains(&e.position.canonical_key()))
            .copied()
            .collect()
    };
    let mut folds = Vec::new();
    if let Some(k) = cfg.cv {
        let parts = stratified_folds(&labels, k, cfg.split_seed);
        progress.start("cross-validation folds", k);
        for test_idx in parts.iter() {
            let test_set: HashSet<usize> = test_idx.iter().copied().collect();
            let train_idx: Vec<usize> = (0..main.len()).filter(|i| !test_set.contains(i)).collect();
            let train = train_rows(main, &train_idx, &keep_extra(test_idx), cfg.mirror_augment);
            let test: Vec<Example> = test_idx.iter().map(|&i| main[i]).collect();
            let split = Split::new(cfg, &train, &test);
            folds.push(run_fold(cfg, &split, &connect4_engine::progress::Quiet)?.report);
            progress.advance(1);
        }
        progress.finish();
    }
    let (train_idx, test_idx) = stratified_split(&labels, cfg.test_fraction, cfg.split_seed);
    let extra_kept = keep_extra(&test_idx);
    let train = train_rows(main, &train_idx, &extra_kept, cfg.mirror_augment);
    let test: Vec<Example> = test_idx.iter().map(|&i| main[i]).collect();
    let split = Split::new(cfg, &train, &test);
    progress.start("boosting iterations", cfg.params.max_iter());
    let fold = run_fold(cfg, &split, progress)?;
    progress.finish();
    let baselines = if cfg.baselines {
        baseline_reports(cfg, split)
    } else {
        Vec::new()
    };
    let cv_summary = cv_summary(&folds);
    let geom = main
        .first()
        .or(extra.first())
        .map(|e| e.position.geometry())
        .unwrap_or_default();
    let names = cfg.features.names(geom);
    let mut importance: Vec<(String, f64)> = names
        .into_iter()
        .zip(fold.model.feature_importance())
        .collect();
    importance.sort_by(|a, b| b.1.total_cmp(&a.1));
    let history = fold.model.history().to_vec();
    Ok(ExperimentOutput {
        history,
        report: ExperimentReport {
            features: cfg.features.name().into(),
            main_rows: main.len(),
            extra_rows: extra.len(),
            extra_kept: extra_kept.len(),
            holdout: fold.report,
            folds,
            cv_summary,
            baselines,
            importance,
            by_stones: Vec::new(),
        },
        model: fold.model,
    })
}

/// Mean and standard deviation of the folds' accuracy and log loss (`None`: no folds).
fn cv_summary(folds: &[FoldReport]) -> Option<[f64; 4]> {
    (!folds.is_empty()).then(|| {
        let n = folds.len() as f64;
        let acc: Vec<f64> = folds.iter().map(|f| f.test.accuracy).collect();
        let ll: Vec<f64> = folds.iter().map(|f| f.test.log_loss).collect();
        let mean = |v: &[f64]| v.iter().sum::<f64>() / n;
        let sd = |v: &[f64]| {
            let m = mean(v);
            (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt()
        };
        [mean(&acc), sd(&acc), mean(&ll), sd(&ll)]
    })
}
