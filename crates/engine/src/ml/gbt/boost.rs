//! The boosting loop: softmax log loss, one tree per class per iteration (the classes' trees
//! grow in parallel), seeded stratified early stopping, per-iteration history.

use super::binning::BinMapper;
use super::error::{DataError, GbtError};
use super::model::{GbtModel, GbtModelData, IterationRecord, softmax};
use super::params::GbtValidParams;
use super::tree::{Grower, TreeNode};
use crate::ml::metrics::argmax;
use crate::ml::split::stratified_split;
use linfa::dataset::DatasetBase;
use linfa::traits::Fit;
use ndarray::{Array1, ArrayBase, ArrayView2, Data, Ix2};
use rayon::prelude::*;

/// Rows in bin space with their labels and current raw scores (row-major, one per class).
struct Part {
    binned: Vec<u16>,
    labels: Vec<usize>,
    raw: Vec<f64>,
}

impl Part {
    fn new(mapper: &BinMapper, x: ArrayView2<f64>, labels: Vec<usize>, baseline: &[f64]) -> Part {
        let raw = baseline
            .iter()
            .copied()
            .cycle()
            .take(labels.len() * baseline.len())
            .collect();
        Part {
            binned: mapper.transform(x),
            labels,
            raw,
        }
    }

    /// Adds tree `nodes` (for class `class`) to every row's raw score, walking in bin space.
    fn add_tree(&mut self, nodes: &[TreeNode], mapper: &BinMapper, class: usize, k: usize) {
        let nf = mapper.n_features();
        let binned = &self.binned;
        self.raw.par_chunks_mut(k).enumerate().for_each(|(r, raw)| {
            let row = &binned[r * nf..(r + 1) * nf];
            let mut i = 0;
            while !nodes[i].is_leaf() {
                let n = &nodes[i];
                let f = n.feature as usize;
                i = if (row[f] as usize) <= mapper.offsets[f] + n.bin as usize {
                    n.left as usize
                } else {
                    n.right as usize
                };
            }
            raw[class] += nodes[i].value;
        });
    }

    /// (log loss, accuracy) of the current raw scores. Row losses are computed in parallel
    /// but summed in row order, so the result does not depend on the thread count.
    fn score(&self, k: usize) -> (f64, f64) {
        let per_row: Vec<(f64, bool)> = self
            .raw
            .par_chunks(k)
            .zip(self.labels.par_iter())
            .map(|(raw, &y)| {
                let mut p = raw.to_vec();
                softmax(&mut p);
                (-p[y].clamp(1e-15, 1.0).ln(), argmax(&p) == y)
            })
            .collect();
        let loss: f64 = per_row.iter().map(|r| r.0).sum();
        let correct = per_row.iter().filter(|r| r.1).count();
        let n = self.labels.len().max(1) as f64;
        (loss / n, correct as f64 / n)
    }
}

fn check_data(x: ArrayView2<f64>, y: &[usize]) -> Result<usize, GbtError> {
    if x.nrows() != y.len() {
        return Err(DataError::Lengths {
            rows: x.nrows(),
            labels: y.len(),
        }
        .into());
    }
    if x.nrows() < 2 || x.ncols() == 0 {
        return Err(DataError::TooSmall {
            rows: x.nrows(),
            features: x.ncols(),
        }
        .into());
    }
    if x.ncols() > u16::MAX as usize {
        return Err(DataError::TooManyFeatures(x.ncols()).into());
    }
    if let Some((i, _)) = x.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(DataError::NotFinite {
            row: i / x.ncols(),
            feature: i % x.ncols(),
        }
        .into());
    }
    Ok(y.iter().copied().max().unwrap_or(0) + 1)
}

/// Fits a model on rows `x` with class labels `y` (0..k, k the largest label plus one).
/// `eval`, if given, is scored after every iteration (it never influences training);
/// `progress` advances once per iteration, with the validation loss as its message when
/// there is one.
pub fn fit_gbt(
    params: &GbtValidParams,
    x: ArrayView2<f64>,
    y: &[usize],
    eval: Option<(ArrayView2<f64>, &[usize])>,
    progress: &dyn crate::progress::Progress,
) -> Result<GbtModel, GbtError> {
    let k = check_data(x, y)?;
    if k < 2 {
        return Err(DataError::SingleClass.into());
    }
    fit_gbt_classes(params, x, y, k, eval, progress)
}

/// As [`fit_gbt`], with `classes` classes whatever labels the rows hold: a model of a target's
/// classes (loss, draw, win) even when a small board's rows never show one of them, so it
/// reads and scores as every model of that target does.
///
/// ```
/// use connect4_engine::ml::gbt::{GbtParams, fit_gbt_classes};
/// use connect4_engine::progress::Quiet;
/// use linfa::ParamGuard;
/// use ndarray::Array2;
/// // Losses and draws only: still a loss / draw / win model, the win all but ruled out.
/// let x = Array2::from_shape_fn((100, 1), |(i, _)| i as f64);
/// let y: Vec<usize> = (0..100).map(|i| usize::from(i >= 50)).collect();
/// let params = GbtParams::new().max_iter(10).early_stopping(false).check().unwrap();
/// let model = fit_gbt_classes(&params, x.view(), &y, 3, None, &Quiet).unwrap();
/// let p = model.predict_proba(x.view());
/// assert_eq!(p.dim(), (100, 3));
/// assert!(p[[99, 1]] > 0.9 && p[[99, 2]] < 0.05);
/// // A label past the classes asked for is refused.
/// let e = fit_gbt_classes(&params, x.view(), &y, 1, None, &Quiet).unwrap_err();
/// assert!(e.to_string().ends_with("a single class: nothing to learn"), "{e}");
/// let bad: Vec<usize> = (0..100).map(|i| i % 4).collect();
/// let e = fit_gbt_classes(&params, x.view(), &bad, 3, None, &Quiet).unwrap_err();
/// assert!(e.to_string().contains("label 3 is past the 3 classes"), "{e}");
/// ```
pub fn fit_gbt_classes(
    params: &GbtValidParams,
    x: ArrayView2<f64>,
    y: &[usize],
    classes: usize,
    eval: Option<(ArrayView2<f64>, &[usize])>,
    progress: &dyn crate::progress::Progress,
) -> Result<GbtModel, GbtError> {
    check_classes(x, y, classes, eval)?;
    let k = classes;
    let (fit_idx, val_idx) = if params.early_stopping {
        stratified_split(y, params.validation_fraction, params.seed)
    } else {
        ((0..y.len()).collect(), Vec::new())
    };
    let xf = x.select(ndarray::Axis(0), &fit_idx);
    let yf: Vec<usize> = fit_idx.iter().map(|&i| y[i]).collect();
    let mapper = BinMapper::fit(xf.view(), params.max_bins);
    let n = yf.len();
    let baseline = log_priors(&yf, k);
    let mut train = Part::new(&mapper, xf.view(), yf, &baseline);
    let mut val = (!val_idx.is_empty()).then(|| {
        let xv = x.select(ndarray::Axis(0), &val_idx);
        let yv = val_idx.iter().map(|&i| y[i]).collect();
        Part::new(&mapper, xv.view(), yv, &baseline)
    });
    let mut test = eval.map(|(ex, ey)| Part::new(&mapper, ex, ey.to_vec(), &baseline));

    let nf = x.ncols();
    let grower = Grower {
        binned: &train.binned,
        n_features: nf,
        mapper: &mapper,
        params,
    };
    let mut trees: Vec<Vec<TreeNode>> = Vec::new();
    let mut importance = vec![0.0; nf];
    let mut history = Vec::new();
    let mut grad = vec![vec![0.0; n]; k];
    let mut hess = vec![vec![0.0; n]; k];
    let mut leaf_values = vec![vec![0.0; n]; k];
    // Early stopping follows scikit-learn: stop when none of the last n_iter_no_change
    // validation scores beats the one before them by more than tol.
    let mut val_scores: Vec<f64> = Vec::new();
    if let Some(v) = &val {
        val_scores.push(-v.score(k).0);
    }
    for it in 1..=params.max_iter {
        softmax_gradients(&train.raw, &train.labels, &mut grad, &mut hess);
        let grown: Vec<_> = grad
            .par_iter()
            .zip(hess.par_iter())
            .zip(leaf_values.par_iter_mut())
            .map(|((g, h), lv)| grower.grow(g, h, lv))
            .collect();
        for (c, g) in grown.into_iter().enumerate() {
            for (r, raw) in train.raw.chunks_exact_mut(k).enumerate() {
                raw[c] += leaf_values[c][r];
            }
            for (a, b) in importance.iter_mut().zip(&g.gains) {
                *a += b;
            }
            for part in val.iter_mut().chain(test.iter_mut()) {
                part.add_tree(&g.nodes, &mapper, c, k);
            }
            trees.push(g.nodes);
        }
        let rec = record(it, &train, val.as_ref(), test.as_ref(), k);
        progress.advance(1);
        if let Some(l) = rec.validation_loss {
            progress.message(&format!("validation loss {l:.4}"));
        }
        let validation_loss = rec.validation_loss;
        history.push(rec);
        if let Some(loss) = validation_loss {
            val_scores.push(-loss);
            if stalled(&val_scores, params.n_iter_no_change, params.tol) {
                break;
            }
        }
    }
    GbtModel::from_data(GbtModelData {
        params: params.clone(),
        n_features: nf,
        n_classes: k,
        mapper,
        baseline,
        trees,
        importance,
        history,
    })
    .map_err(GbtError::Model)
}

/// What iteration `it` scored on each part (`k` classes).
fn record(
    it: usize,
    train: &Part,
    val: Option<&Part>,
    test: Option<&Part>,
    k: usize,
) -> IterationRecord {
    let (train_loss, train_accuracy) = train.score(k);
    let vs = val.map(|v| v.score(k));
    let ts = test.map(|t| t.score(k));
    IterationRecord {
        iteration: it,
        train_loss,
        train_accuracy,
        validation_loss: vs.map(|s| s.0),
        validation_accuracy: vs.map(|s| s.1),
        eval_loss: ts.map(|s| s.0),
        eval_accuracy: ts.map(|s| s.1),
    }
}

/// Refuses fewer than two classes, a label past them, and an evaluation set that does not
/// fit the training data.
fn check_classes(
    x: ArrayView2<f64>,
    y: &[usize],
    classes: usize,
    eval: Option<(ArrayView2<f64>, &[usize])>,
) -> Result<(), GbtError> {
    let seen = check_data(x, y)?;
    if classes < 2 {
        return Err(DataError::SingleClass.into());
    }
    if seen > classes {
        return Err(DataError::LabelOutOfRange {
            label: seen - 1,
            classes,
        }
        .into());
    }
    if let Some((ex, ey)) = eval
        && (ex.ncols() != x.ncols() || ex.nrows() != ey.len() || ey.iter().any(|&c| c >= classes))
    {
        return Err(DataError::EvalMismatch.into());
    }
    Ok(())
}

/// The log of each class's share of `labels` (a class never seen counts once): the raw
/// scores every row starts from.
fn log_priors(labels: &[usize], k: usize) -> Vec<f64> {
    let n = labels.len();
    let mut counts = vec![0usize; k];
    for &c in labels {
        counts[c] += 1;
    }
    counts
        .iter()
        .map(|&c| ((c.max(1)) as f64 / n as f64).ln())
        .collect()
}

/// The gradients of the softmax log loss at the raw scores `raw` (`k` a row), per class:
/// `p - y` into `grad` and `p (1 - p)` into `hess`.
fn softmax_gradients(raw: &[f64], labels: &[usize], grad: &mut [Vec<f64>], hess: &mut [Vec<f64>]) {
    let k = grad.len();
    let mut probs = raw.to_vec();
    probs.par_chunks_mut(k).for_each(softmax);
    for c in 0..k {
        let (g, h) = (&mut grad[c], &mut hess[c]);
        for (i, &label) in labels.iter().enumerate() {
            let p = probs[i * k + c];
            g[i] = p - f64::from(u8::from(label == c));
            h[i] = (p * (1.0 - p)).max(1e-16);
        }
    }
}

/// scikit-learn's early stop: none of the last `m` validation scores beats the one before
/// them by more than `tol`.
fn stalled(scores: &[f64], m: usize, tol: f64) -> bool {
    scores.len() > m && {
        let reference = scores[scores.len() - m - 1] + tol;
        scores[scores.len() - m..].iter().all(|&s| s <= reference)
    }
}

impl<D: Data<Elem = f64>> Fit<ArrayBase<D, Ix2>, Array1<usize>, GbtError> for GbtValidParams {
    type Object = GbtModel;

    fn fit(
        &self,
        dataset: &DatasetBase<ArrayBase<D, Ix2>, Array1<usize>>,
    ) -> Result<GbtModel, GbtError> {
        let y: Vec<usize> = dataset.targets().iter().copied().collect();
        fit_gbt(
            self,
            dataset.records().view(),
            &y,
            None,
            &crate::progress::Quiet,
        )
    }
}
