//! `connect4_ml._native`: the Python face of the connect4-ml library. Every class and
//! function converts between Python and the library and calls it; the work is the library's.
//! Long calls release the GIL and stop on Ctrl-C; errors are `Connect4Error` (a `ValueError`)
//! with the library's message.

mod agent;
mod arena;
mod args;
mod batcher;
mod bench;
mod board;
mod bridge;
mod data;
mod datasets;
mod errors;
mod evaluator;
mod external;
mod held;
mod model;
mod position;
mod position_args;
mod random;
mod solver;

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Connect4Error", m.py().get_type::<errors::Connect4Error>())?;
    m.add_class::<position::Position>()?;
    m.add_class::<solver::Solver>()?;
    m.add_class::<model::Model>()?;
    m.add_class::<agent::Agent>()?;
    m.add_function(wrap_pyfunction!(model::features, m)?)?;
    m.add_function(wrap_pyfunction!(model::_set_package_dir, m)?)?;
    m.add_function(wrap_pyfunction!(position::random_board, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(model::feature_names, m)?)?;
    m.add_function(wrap_pyfunction!(arena::_tournament, m)?)?;
    m.add_function(wrap_pyfunction!(arena::_bench_agent, m)?)?;
    m.add_function(wrap_pyfunction!(arena::_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(arena::_rate, m)?)?;
    m.add_function(wrap_pyfunction!(data::read_uci, m)?)?;
    m.add_function(wrap_pyfunction!(data::read_labelled, m)?)?;
    m.add_function(wrap_pyfunction!(datasets::_data_path, m)?)?;
    m.add_function(wrap_pyfunction!(datasets::_data_catalogue, m)?)?;
    m.add_function(wrap_pyfunction!(bench::rust_features_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(bench::rust_gbt_batch_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(bench::rust_move_seconds, m)?)?;
    Ok(())
}
