//! Why a GBT model scores a row as it does: path attribution (Saabas). Each tree's output is
//! split along the row's path from the root to its leaf: every split moves the expected
//! output from the parent's value to the child's, and that change is credited to the split's
//! feature. The root values add up to a bias, so bias plus contributions equals the raw
//! class scores exactly.
//!
//! A node's value is the plain mean of the leaf values below it. The model file keeps no
//! training counts per node, so this weighs every leaf equally instead of by training rows
//! (TreeSHAP and the classic Saabas method weigh by rows); the split of credit differs, the
//! exact sum does not.

use super::GbtModel;
use super::TreeNode;

/// Raw-score attribution of one row: `bias[c] + sum over f of features[f][c]` is the raw score
/// of class `c` (before the softmax).
#[derive(Clone, Debug, PartialEq)]
pub struct Attribution {
    /// Per class: the baseline plus every tree's root value.
    pub bias: Vec<f64>,
    /// Per feature, per class: the summed changes along the row's paths.
    pub features: Vec<Vec<f64>>,
}

impl Attribution {
    /// The raw class scores the attribution adds up to.
    pub fn raw(&self) -> Vec<f64> {
        let mut raw = self.bias.clone();
        for f in &self.features {
            for (r, v) in raw.iter_mut().zip(f) {
                *r += v;
            }
        }
        raw
    }
}

/// Mean leaf value below every node of `tree`.
fn node_means(tree: &[TreeNode]) -> Vec<f64> {
    // (sum, leaves) per node, children before parents: children always have larger indices.
    let mut acc = vec![(0.0, 0u32); tree.len()];
    for i in (0..tree.len()).rev() {
        let n = &tree[i];
        acc[i] = if n.is_leaf() {
            (n.value, 1)
        } else {
            let (l, r) = (acc[n.left as usize], acc[n.right as usize]);
            (l.0 + r.0, l.1 + r.1)
        };
    }
    acc.into_iter().map(|(s, k)| s / f64::from(k)).collect()
}

impl GbtModel {
    /// The path attribution of row `x` (see the module docs).
    ///
    /// # Panics
    /// If `x` has the wrong length, or a tree's children do not follow their parent (never for
    /// a model that [`GbtModel::from_data`] accepted from our own trainer).
    pub fn attribution(&self, x: &[f64]) -> Attribution {
        let data = self.data();
        let (nf, nc) = (data.n_features, data.n_classes);
        assert_eq!(x.len(), nf, "feature count");
        let bins: Vec<usize> = x
            .iter()
            .enumerate()
            .map(|(f, &v)| data.mapper.bin(f, v))
            .collect();
        let mut bias = data.baseline.clone();
        let mut features = vec![vec![0.0; nc]; nf];
        for (t, tree) in data.trees.iter().enumerate() {
            let class = t % nc;
            let means = node_means(tree);
            bias[class] += means[0];
            let mut node = 0usize;
            while !tree[node].is_leaf() {
                let n = &tree[node];
                let f = n.feature as usize;
                let next = if bins[f] <= n.bin as usize {
                    n.left
                } else {
                    n.right
                } as usize;
                features[f][class] += means[next] - means[node];
                node = next;
            }
        }
        Attribution { bias, features }
    }
}

#[cfg(test)]
mod tests {
    use crate::ml::gbt::{GbtParams, softmax};
    use linfa::prelude::*;
    use ndarray::{Array1, Array2};

    #[test]
    fn attribution_adds_up_and_credits_the_deciding_feature() {
        // Class = whether feature 0 exceeds 50; feature 1 is noise.
        let x = Array2::from_shape_fn((600, 2), |(i, j)| ((i * (7 + 6 * j)) % 101) as f64);
        let y: Array1<usize> = x.column(0).iter().map(|&v| usize::from(v > 50.0)).collect();
        let model = GbtParams::new()
            .max_iter(20)
            .early_stopping(false)
            .min_samples_leaf(5)
            .fit(&Dataset::new(x.clone(), y))
            .unwrap();
        for row in [[90.0, 3.0], [10.0, 80.0], [55.0, 55.0]] {
            let a = model.attribution(&row);
            let mut from_parts = a.raw();
            softmax(&mut from_parts);
            let mut direct = vec![0.0; 2];
            model.predict_proba_row(&row, &mut direct);
            for (p, q) in from_parts.iter().zip(&direct) {
                assert!((p - q).abs() < 1e-6, "{from_parts:?} vs {direct:?}");
            }
            // Feature 0 decides: its credit towards the true class dominates the noise's.
            let truth = usize::from(row[0] > 50.0);
            let margin = |f: usize| a.features[f][truth] - a.features[f][1 - truth];
            assert!(margin(0) > 0.0, "{row:?}: {:?}", a.features);
            assert!(margin(0) > margin(1).abs(), "{row:?}: {:?}", a.features);
        }
    }
}
