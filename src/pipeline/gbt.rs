//! Stage 3, gbt: the gradient-boosted trees on the UCI rows, the shipped labelled positions
//! and self-play rows, and their accuracy on held-out positions of every phase: the shipped
//! held-out set by band of stones, and the held-out self-play positions.

use super::data::DataSplit;
use super::inputs::Inputs;
use super::{PipelineConfig, PipelineError, Sizes, fail};
use connect4_engine::features::FeatureSet;
use connect4_engine::io::model_format::TrainingMeta;
use connect4_engine::io::{beside, write_csv_atomic};
use connect4_engine::ml::gbt::{GbtParams, GbtTarget};
use connect4_engine::progress::Progress;
use connect4_learn::datasets::Example;
use connect4_learn::train::gbt::experiment::ExperimentConfig;
use connect4_learn::train::gbt::{GbtData, GbtTrained, phase_rows, train_gbt};
use linfa::ParamGuard;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The feature set the pipeline's GBT reads: the cells and the odd/even threat features,
/// which beat the cells alone by 9 points against the hand-tuned agent (models/README.md).
pub const FEATURES: FeatureSet = FeatureSet::CellsOddEven;

/// Leaves per tree: the reference configuration's depth limit (7) with every leaf of a
/// complete tree allowed. Inference walks complete trees, so this costs no time per
/// evaluation, and it lowered the middle-medium error rate from 7.1% to 5.9% (1000
/// positions, docs/results.md).
pub const LEAVES: usize = 127;

/// What the GBT stage produced.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GbtResult {
    /// The feature set.
    pub features: String,
    /// Rows the model was fitted on.
    pub train_rows: usize,
    /// Of them, rows of the main source (UCI, or self-play when there is no UCI file).
    pub main_train_rows: usize,
    /// Self-play rows kept (those not in the test split, nor mirrors of its positions).
    pub extra_kept: usize,
    /// Self-play rows offered.
    pub extra_rows: usize,
    /// Boosting iterations.
    pub iterations: usize,
    /// Fit time.
    pub fit_seconds: f64,
    /// Holdout rows.
    pub test_rows: usize,
    /// Holdout accuracy.
    pub accuracy: f64,
    /// Holdout log loss.
    pub log_loss: f64,
    /// Holdout recall of loss, draw, win.
    pub recall: [f64; 3],
    /// Accuracy on the shipped held-out positions by band of stones, the last entry for all
    /// of them (empty without that set).
    pub heldout_by_stones: Vec<connect4_engine::ml::by_stones::BandReport>,
    /// Held-out self-play positions scored by phase.
    pub phase_rows: usize,
    /// Accuracy on them (none when there are none).
    pub phase_accuracy: Option<f64>,
}

/// Fits, saves and scores the GBT.
pub fn run(
    config: &PipelineConfig,
    sizes: &Sizes,
    inputs: &Inputs,
    split: &DataSplit,
    data_notes: &[String],
    observer: &dyn Progress,
) -> Result<(GbtResult, Vec<PathBuf>), PipelineError> {
    let geom = config.geometry;
    let params = GbtParams::reference()
        .max_iter(sizes.gbt_max_iter)
        .max_leaf_nodes(LEAVES)
        .check()
        .map_err(fail("gbt"))?;
    let data = gbt_data(inputs, split, data_notes);
    let cfg = ExperimentConfig {
        features: FEATURES,
        params: params.clone(),
        target: GbtTarget::Wdl,
        mirror_augment: false,
        mirror_average: false,
        test_fraction: 0.2,
        split_seed: config.seed,
        cv: None,
        baselines: false,
        forest_size: 0,
    };
    let model_path = config.out.join("models/gbt.bin");
    let meta = TrainingMeta::new("c4 pipeline (stage gbt)", config.seed);
    let GbtTrained {
        output: out,
        mut written,
    } = train_gbt(&cfg, &data, &model_path, geom, meta, observer).map_err(fail("gbt"))?;
    let r = &out.report;
    let h = &r.holdout;
    // The held-out self-play positions: how the model does away from 8-ply positions.
    let (rows, correct) = phase_rows(&out.model, FEATURES, &split.held_out, geom);
    let phases = beside(&model_path, ".phases.csv");
    write_csv_atomic(&phases, &rows).map_err(fail("gbt"))?;
    written.push(phases);
    let result = GbtResult {
        heldout_by_stones: r.by_stones.clone(),
        features: FEATURES.name().to_string(),
        train_rows: h.train_rows,
        main_train_rows: r.main_rows - h.test_rows,
        extra_kept: r.extra_kept,
        extra_rows: r.extra_rows,
        iterations: h.iterations,
        fit_seconds: h.fit_seconds,
        test_rows: h.test_rows,
        accuracy: h.test.accuracy,
        log_loss: h.test.log_loss,
        recall: [h.test.recall[0], h.test.recall[1], h.test.recall[2]],
        phase_rows: rows.len(),
        phase_accuracy: (!rows.is_empty()).then(|| correct as f64 / rows.len() as f64),
    };
    Ok((result, written))
}

/// The stage's training data: the UCI rows as the main set (the self-play and labelled
/// positions as extra rows), or those positions alone without UCI.
fn gbt_data(inputs: &Inputs, split: &DataSplit, data_notes: &[String]) -> GbtData {
    let uci: Vec<Example> = inputs
        .uci
        .iter()
        .flat_map(|u| u.rows.iter().map(Example::from))
        .collect();
    let mut extra = split.train.clone();
    if let Some(p) = &inputs.positions {
        extra.extend_from_slice(&p.rows);
    }
    let (main, extra) = if uci.is_empty() {
        (extra, Vec::new())
    } else {
        (uci, extra)
    };
    GbtData {
        main,
        extra,
        held_out: inputs
            .heldout
            .as_ref()
            .map_or_else(Vec::new, |h| h.rows.clone()),
        notes: data_notes.to_vec(),
        uci_missing: None,
    }
}
