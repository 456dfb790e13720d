//! The fitted model: trees per class, training history, feature importance, and prediction
//! (single rows for search, rayon batches for evaluation).

use super::error::GbtModelError;
use super::flat::FlatForest;
use super::params::GbtValidParams;
use super::tree::TreeNode;
use linfa::dataset::Records;
use linfa::traits::PredictInplace;
use ndarray::{Array1, Array2, ArrayBase, ArrayView2, Data, Ix2};
use rayon::prelude::*;

/// Losses and accuracies after one boosting iteration.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct IterationRecord {
    /// 1-based iteration.
    pub iteration: usize,
    /// Log loss on the rows trees are fitted to.
    pub train_loss: f64,
    /// Accuracy on those rows.
    pub train_accuracy: f64,
    /// Log loss on the early-stopping validation rows, if any.
    pub validation_loss: Option<f64>,
    /// Accuracy on the validation rows, if any.
    pub validation_accuracy: Option<f64>,
    /// Log loss on an extra evaluation set given to the fit (e.g. the test split), if any.
    pub eval_loss: Option<f64>,
    /// Accuracy on that set.
    pub eval_accuracy: Option<f64>,
}

/// What a model file stores of a GBT: everything needed to predict and to report.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GbtModelData {
    /// The hyperparameters it was fitted with.
    pub params: GbtValidParams,
    /// Features per row.
    pub n_features: usize,
    /// Classes (3 for loss/draw/win).
    pub n_classes: usize,
    /// Bin edges learnt from the training rows: inference bins raw features with them.
    pub mapper: super::BinMapper,
    /// Raw score every row starts from (log class priors).
    pub baseline: Vec<f64>,
    /// Trees, iteration-major: tree `t` adds to class `t % n_classes`.
    pub trees: Vec<Vec<TreeNode>>,
    /// Total split gain per feature.
    pub importance: Vec<f64>,
    /// Per-iteration losses and accuracies.
    pub history: Vec<IterationRecord>,
}

/// A fitted multiclass gradient-boosted tree model.
#[derive(Clone, Debug)]
pub struct GbtModel {
    data: GbtModelData,
    flat: FlatForest,
}

/// Turns raw class scores into probabilities in place.
pub fn softmax(raw: &mut [f64]) {
    let m = raw.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut s = 0.0;
    for v in raw.iter_mut() {
        *v = (*v - m).exp();
        s += *v;
    }
    for v in raw.iter_mut() {
        *v /= s;
    }
}

impl GbtModel {
    /// Builds the model (and its flattened forest) from stored parts.
    pub fn from_data(data: GbtModelData) -> Result<GbtModel, GbtModelError> {
        let k = data.n_classes;
        if k < 2 || data.baseline.len() != k || !data.trees.len().is_multiple_of(k) {
            return Err(GbtModelError::Shape {
                classes: k,
                baseline: data.baseline.len(),
                trees: data.trees.len(),
            });
        }
        if data.mapper.n_features() != data.n_features
            || !data.mapper.is_consistent()
            || data.mapper.edges.iter().any(|e| e.len() > 254)
        {
            return Err(GbtModelError::Bins);
        }
        for (t, nodes) in data.trees.iter().enumerate() {
            if nodes.is_empty() {
                return Err(GbtModelError::EmptyTree { tree: t });
            }
            for (i, n) in nodes.iter().enumerate().filter(|(_, n)| !n.is_leaf()) {
                let (l, r) = (n.left as usize, n.right as usize);
                if l <= i
                    || r <= i
                    || l >= nodes.len()
                    || r >= nodes.len()
                    || n.feature as usize >= data.n_features
                {
                    return Err(GbtModelError::BadNode { tree: t, node: i });
                }
                if n.bin as usize + 1 >= data.mapper.n_bins(n.feature as usize) {
                    return Err(GbtModelError::BadSplit { tree: t });
                }
            }
        }
        if data.n_features > u16::MAX as usize {
            return Err(GbtModelError::TooManyFeatures(data.n_features));
        }
        let flat = FlatForest::new(&data.trees, k, &data.mapper);
        Ok(GbtModel { data, flat })
    }

    /// The stored parts (for saving and reports).
    pub fn data(&self) -> &GbtModelData {
        &self.data
    }

    /// Features per row.
    pub fn n_features(&self) -> usize {
        self.data.n_features
    }

    /// Classes.
    pub fn n_classes(&self) -> usize {
        self.data.n_classes
    }

    /// Boosting iterations kept.
    pub fn n_iterations(&self) -> usize {
        self.data.trees.len() / self.data.n_classes
    }

    /// Per-iteration losses and accuracies.
    pub fn history(&self) -> &[IterationRecord] {
        &self.data.history
    }

    /// Total split gain per feature, normalised to sum to 1.
    pub fn feature_importance(&self) -> Vec<f64> {
        let s: f64 = self.data.importance.iter().sum();
        self.data
            .importance
            .iter()
            .map(|g| if s > 0.0 { g / s } else { 0.0 })
            .collect()
    }

    /// Bins of the raw features `x` (one byte per feature).
    #[inline]
    fn bin_row(&self, x: impl Iterator<Item = f64>, out: &mut [u8]) {
        for ((f, v), o) in x.enumerate().zip(out.iter_mut()) {
            *o = self.data.mapper.bin(f, v) as u8;
        }
    }

    /// Class probabilities of one row written into `out` (`n_classes` values). This is the
    /// path search uses at every leaf: no allocation for up to 512 features.
    ///
    /// # Panics
    /// If `x` or `out` has the wrong length.
    #[inline]
    pub fn predict_proba_row(&self, x: &[f64], out: &mut [f64]) {
        let nf = self.data.n_features;
        assert_eq!(x.len(), nf, "feature count");
        out.copy_from_slice(&self.data.baseline);
        let mut stack = [0u8; 512];
        let mut heap = Vec::new();
        let bins: &mut [u8] = if nf <= stack.len() {
            &mut stack[..nf]
        } else {
            heap.resize(nf, 0);
            &mut heap
        };
        self.bin_row(x.iter().copied(), bins);
        self.flat.add_raw(bins, out);
        softmax(out);
    }

    /// Class probabilities of every row of `x` (rows x features), row-major, computed on
    /// rayon in blocks.
    pub fn predict_proba_flat(&self, x: ArrayView2<f64>) -> Vec<f64> {
        const BLOCK: usize = 128;
        let (n, nf, k) = (x.nrows(), x.ncols(), self.data.n_classes);
        assert_eq!(nf, self.data.n_features, "feature count");
        let mut out = vec![0.0; n * k];
        out.par_chunks_mut(BLOCK * k)
            .enumerate()
            .for_each(|(b, chunk)| {
                let rows = chunk.len() / k;
                let mut bins = vec![0u8; rows * nf];
                for r in 0..rows {
                    self.bin_row(
                        x.row(b * BLOCK + r).iter().copied(),
                        &mut bins[r * nf..(r + 1) * nf],
                    );
                }
                for row in chunk.chunks_exact_mut(k) {
                    row.copy_from_slice(&self.data.baseline);
                }
                self.flat.add_raw_block(&bins, nf, chunk);
                for row in chunk.chunks_exact_mut(k) {
                    softmax(row);
                }
            });
        out
    }

    /// Class probabilities as an array (rows x classes).
    ///
    /// ```
    /// use connect4_engine::ml::gbt::{GbtParams, fit_gbt};
    /// use linfa::ParamGuard;
    /// use ndarray::Array2;
    /// // Two classes split by the first feature.
    /// let x = Array2::from_shape_fn((200, 2), |(i, j)| ((i * (7 + j)) % 50) as f64);
    /// let y: Vec<usize> = x.column(0).iter().map(|&v| usize::from(v >= 25.0)).collect();
    /// let params = GbtParams::new().max_iter(20).early_stopping(false).check().unwrap();
    /// let model = fit_gbt(&params, x.view(), &y, None, &connect4_engine::progress::Quiet).unwrap();
    /// let p = model.predict_proba(x.view());
    /// assert_eq!(p.dim(), (200, 2));
    /// assert!(p.rows().into_iter().all(|r| (r.sum() - 1.0).abs() < 1e-9));
    /// assert!(p[[0, 0]] > 0.9, "row 0 has feature 0 = 0: class 0");
    /// ```
    pub fn predict_proba(&self, x: ArrayView2<f64>) -> Array2<f64> {
        let k = self.data.n_classes;
        Array2::from_shape_vec((x.nrows(), k), self.predict_proba_flat(x))
            .expect("one row of probabilities per input row")
    }
}

impl<D: Data<Elem = f64>> PredictInplace<ArrayBase<D, Ix2>, Array1<usize>> for GbtModel {
    fn predict_inplace(&self, x: &ArrayBase<D, Ix2>, y: &mut Array1<usize>) {
        assert_eq!(x.nrows(), y.len(), "one target per row");
        let p = self.predict_proba_flat(x.view());
        for (t, row) in y.iter_mut().zip(p.chunks_exact(self.data.n_classes)) {
            *t = crate::ml::metrics::argmax(row);
        }
    }

    fn default_target(&self, x: &ArrayBase<D, Ix2>) -> Array1<usize> {
        Array1::zeros(x.nsamples())
    }
}
