//! Timings of library calls measured inside Rust, so the Python package's overhead can be
//! measured against them (`python/benches/overhead.py`): nothing here is needed to
//! use the package.

use crate::board::geometry;
use crate::errors::err;
use crate::model::positions_of;
use connect4_engine::agents::Turn;
use connect4_engine::eval::ModelEvaluator;
use connect4_engine::features::FeatureSet;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// Best of `repeats` wall-clock seconds of `f`.
fn best_of(repeats: usize, mut f: impl FnMut()) -> f64 {
    (0..repeats.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Seconds of the library's feature matrix of `positions` (best of `repeats`).
#[pyfunction]
#[pyo3(signature = (positions, name = "cells+oddeven", repeats = 3))]
pub fn rust_features_seconds(
    positions: crate::position_args::Positions,
    name: &str,
    repeats: usize,
) -> PyResult<f64> {
    let set: FeatureSet = name.parse().map_err(err)?;
    let ps = positions_of(&positions.0, 7, 6)?;
    let ex = set.extractor(geometry(7, 6)?);
    Ok(best_of(repeats, || {
        std::hint::black_box(ex.matrix(&ps));
    }))
}

/// Seconds of the library's batch GBT prediction of `positions` with the model at `path`.
#[pyfunction]
#[pyo3(signature = (path, positions, repeats = 3))]
pub fn rust_gbt_batch_seconds(
    path: PathBuf,
    positions: crate::position_args::Positions,
    repeats: usize,
) -> PyResult<f64> {
    let ModelEvaluator::Gbt(g) = ModelEvaluator::load(&path, geometry(7, 6)?).map_err(err)? else {
        return Err(err(format!("{} is not a GBT model", path.display())));
    };
    let ps = positions_of(&positions.0, 7, 6)?;
    Ok(best_of(repeats, || {
        std::hint::black_box(g.probabilities_batch(&ps));
    }))
}

/// Mean seconds of one move of `spec` over `positions` (each position once per repeat),
/// measured inside Rust.
#[pyfunction]
#[pyo3(signature = (spec, positions, repeats = 3))]
pub fn rust_move_seconds(
    spec: &str,
    positions: crate::position_args::Positions,
    repeats: usize,
) -> PyResult<f64> {
    let ps = positions_of(&positions.0, 7, 6)?;
    let parsed = crate::agent::parse_spec(spec, Some(std::path::Path::new("models")))?;
    let mut agent = parsed
        .factory(geometry(7, 6)?)
        .map_err(err)?
        .build(0)
        .map_err(err)?;
    let total = best_of(repeats, || {
        for p in &ps {
            std::hint::black_box(agent.choose(&Turn::new(*p)));
        }
    });
    Ok(total / ps.len().max(1) as f64)
}
