//! Classification metrics from predicted class probabilities.

/// Accuracy, log loss, per-class recall and the confusion matrix of a set of predictions.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Metrics {
    /// Rows scored.
    pub rows: usize,
    /// Share of rows whose most probable class is the true one.
    pub accuracy: f64,
    /// Mean negative log probability of the true class (probabilities clipped at 1e-15).
    pub log_loss: f64,
    /// Per class: share of its rows predicted as it.
    pub recall: Vec<f64>,
    /// `confusion[true][predicted]` row counts.
    pub confusion: Vec<Vec<usize>>,
}

/// The class with the highest probability (the first on ties).
pub fn argmax(p: &[f64]) -> usize {
    let mut best = 0;
    for (k, &v) in p.iter().enumerate() {
        if v > p[best] {
            best = k;
        }
    }
    best
}

impl Metrics {
    /// Scores probabilities `probs` (row-major, `n_classes` per row) against `labels`.
    pub fn from_probs(probs: &[f64], n_classes: usize, labels: &[usize]) -> Metrics {
        assert_eq!(
            probs.len(),
            labels.len() * n_classes,
            "one probability row per label"
        );
        let mut confusion = vec![vec![0usize; n_classes]; n_classes];
        let mut loss = 0.0;
        for (row, &y) in probs.chunks_exact(n_classes).zip(labels) {
            confusion[y][argmax(row)] += 1;
            loss -= row[y].clamp(1e-15, 1.0).ln();
        }
        let n = labels.len();
        let correct: usize = (0..n_classes).map(|k| confusion[k][k]).sum();
        let recall = confusion
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let t: usize = r.iter().sum();
                if t == 0 { 0.0 } else { r[k] as f64 / t as f64 }
            })
            .collect();
        Metrics {
            rows: n,
            accuracy: if n == 0 {
                0.0
            } else {
                correct as f64 / n as f64
            },
            log_loss: if n == 0 { 0.0 } else { loss / n as f64 },
            recall,
            confusion,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_by_hand() {
        let probs = [0.7, 0.2, 0.1, 0.1, 0.1, 0.8, 0.3, 0.4, 0.3];
        let m = Metrics::from_probs(&probs, 3, &[0, 2, 0]);
        assert_eq!(
            m.confusion,
            vec![vec![1, 1, 0], vec![0, 0, 0], vec![0, 0, 1]]
        );
        assert!((m.accuracy - 2.0 / 3.0).abs() < 1e-12);
        let ll = -(0.7f64.ln() + 0.8f64.ln() + 0.3f64.ln()) / 3.0;
        assert!((m.log_loss - ll).abs() < 1e-12);
        assert_eq!(m.recall, vec![0.5, 0.0, 1.0]);
    }
}
