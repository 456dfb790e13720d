//! Feature matrices: positions and labels turned into the `ndarray` rows learners train on.

use crate::features::FeatureSet;
use crate::game::Position;
use ndarray::Array2;
use rayon::prelude::*;

/// The feature matrix (rows x features) of `positions` under `set`, computed in parallel.
pub fn feature_matrix(set: FeatureSet, positions: &[Position]) -> Array2<f64> {
    let Some(first) = positions.first() else {
        return Array2::zeros((0, 0));
    };
    let ex = set.extractor(first.geometry());
    let nf = ex.len();
    let mut data = vec![0.0; positions.len() * nf];
    data.par_chunks_mut(nf)
        .zip(positions.par_iter())
        .for_each(|(row, p)| ex.extract(p, row));
    Array2::from_shape_vec((positions.len(), nf), data).expect("rows x features")
}
