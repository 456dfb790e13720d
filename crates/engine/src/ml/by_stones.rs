//! How well a GBT model predicts, band by band of stones on the board: a model trained on one
//! phase (the UCI file's 8 stones) can look good there and be poor where the search asks it
//! most, so held-out accuracy is reported per phase.

use super::gbt::GbtModel;
use super::metrics::Metrics;
use crate::features::FeatureSet;
use crate::ml::example::Example;

/// Accuracy and log loss on the held-out rows whose stone count lies in `lo..=hi`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BandReport {
    /// Fewest stones of the band.
    pub lo: usize,
    /// Most stones of the band.
    pub hi: usize,
    /// The metrics on that band's rows.
    pub metrics: Metrics,
}

/// The default bands: the opening (up to 14 stones), the early and late middle game, and the
/// end game (from 29 stones), as the benchmark sets split the phases.
pub const DEFAULT_BANDS: [(usize, usize); 4] = [(0, 14), (15, 21), (22, 28), (29, 64)];

/// `model`'s metrics on `rows` (features `features`) for each band, and a last entry for all
/// rows together. Bands without rows are left out.
pub fn metrics_by_stones(
    model: &GbtModel,
    features: FeatureSet,
    rows: &[Example],
    bands: &[(usize, usize)],
) -> Vec<BandReport> {
    let score = |part: &[Example]| -> Metrics {
        let positions: Vec<_> = part.iter().map(|e| e.position).collect();
        let x = super::dataset::feature_matrix(features, &positions);
        let probs = super::gbt::wdl_probabilities(model, model.predict_proba_flat(x.view()));
        let labels: Vec<usize> = part.iter().map(|e| e.label.index()).collect();
        Metrics::from_probs(&probs, 3, &labels)
    };
    let mut out: Vec<BandReport> = bands
        .iter()
        .filter_map(|&(lo, hi)| {
            let part: Vec<Example> = rows
                .iter()
                .filter(|e| (lo..=hi).contains(&e.position.moves_played()))
                .copied()
                .collect();
            (!part.is_empty()).then(|| BandReport {
                lo,
                hi,
                metrics: score(&part),
            })
        })
        .collect();
    if !rows.is_empty() {
        let lo = rows
            .iter()
            .map(|e| e.position.moves_played())
            .min()
            .unwrap_or(0);
        let hi = rows
            .iter()
            .map(|e| e.position.moves_played())
            .max()
            .unwrap_or(0);
        out.push(BandReport {
            lo,
            hi,
            metrics: score(rows),
        });
    }
    out
}
