//! Our histogram gradient-boosted trees: multiclass softmax with log loss, leaf-wise growth,
//! feature binning, early stopping on a seeded stratified validation fraction, gain-based
//! feature importance and per-iteration history. Trees are flattened for inference (single
//! rows inside search, rayon batches for evaluation). It implements linfa's `ParamGuard`,
//! `Fit` and `PredictInplace`, so it is used like any linfa model:
//!
//! ```
//! use connect4_engine::ml::gbt::GbtParams;
//! use linfa::prelude::*;
//! use ndarray::{Array1, Array2};
//! // Class = which of two features is larger.
//! let x = Array2::from_shape_fn((400, 2), |(i, j)| ((i * (3 + 4 * j)) % 97) as f64);
//! let y: Array1<usize> = x.rows().into_iter().map(|r| usize::from(r[0] > r[1])).collect();
//! let data = Dataset::new(x, y);
//! let model = GbtParams::new().max_iter(30).early_stopping(false).min_samples_leaf(5).fit(&data).unwrap();
//! let pred = model.predict(data.records());
//! let acc = pred.iter().zip(data.targets()).filter(|(a, b)| a == b).count() as f64 / 400.0;
//! assert!(acc > 0.95);
//! ```
//!
//! Deterministic for a given seed: the trees of one iteration grow in parallel but each tree
//! is grown by one thread, so the thread count does not change the model.

mod binning;
mod boost;
mod error;
mod explain;
mod flat;
mod model;
mod params;
mod target;
mod tree;

pub use binning::BinMapper;
pub use boost::{fit_gbt, fit_gbt_classes};
pub use error::{DataError, GbtError, GbtModelError};
pub use explain::Attribution;
pub use model::{GbtModel, GbtModelData, IterationRecord, softmax};
pub use params::{GbtParams, GbtValidParams};
pub use target::{GbtTarget, wdl_probabilities};
pub use tree::TreeNode;
