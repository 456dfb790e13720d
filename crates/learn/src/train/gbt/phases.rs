//! A GBT scored position by position on held-out positions of every phase: its
//! probabilities beside each position's ply and label, so that a plot or a table can show
//! where in the game it is right (the pipeline's `models/gbt.phases.csv`).

use crate::datasets::games_csv::LabelledPosition;
use connect4_engine::features::FeatureSet;
use connect4_engine::game::Geometry;
use connect4_engine::ml::gbt::GbtModel;
use serde::Serialize;

/// The model's probabilities on one held-out position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseRow {
    /// Stones on the board.
    pub ply: usize,
    /// The position's label (`win`, `draw` or `loss`, as the data file writes it).
    pub label: &'static str,
    /// The model's probability of a loss, in the label's frame.
    pub p_loss: f64,
    /// ... of a draw.
    pub p_draw: f64,
    /// ... of a win.
    pub p_win: f64,
}

/// `model`'s probabilities (features `features`, boards of `geom`) on each of `held_out`,
/// and how many of them its most likely outcome got right.
pub fn phase_rows(
    model: &GbtModel,
    features: FeatureSet,
    held_out: &[LabelledPosition],
    geom: Geometry,
) -> (Vec<PhaseRow>, usize) {
    let ext = features.extractor(geom);
    let mut rows = Vec::with_capacity(held_out.len());
    let mut correct = 0;
    let mut buf = vec![0.0; ext.len()];
    for p in held_out {
        ext.extract(&p.position, &mut buf);
        let mut prob = [0.0; 3];
        model.predict_proba_row(&buf, &mut prob);
        if connect4_engine::ml::metrics::argmax(&prob) == p.label.index() {
            correct += 1;
        }
        rows.push(PhaseRow {
            ply: p.position.moves_played(),
            label: p.label.as_str(),
            p_loss: prob[0],
            p_draw: prob[1],
            p_win: prob[2],
        });
    }
    (rows, correct)
}
