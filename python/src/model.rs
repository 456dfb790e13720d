//! `Model`: any model file (GBT, linear, n-tuple) as an evaluator: values, probabilities,
//! explanations, one position or a batch; and `features`, the feature sets as numpy matrices.

use crate::board::{Board, geometry, needs_wide, on_board};
use crate::bridge::quick;
use crate::errors::err;
use crate::position_args::{AnyPos, AnyPositions, Positions};
use connect4_engine::Geometry;
use connect4_engine::eval::{Evaluator, ModelEvaluator, NTupleEvaluator};
use connect4_engine::features::FeatureSet;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;

/// Library positions of `positions`, all on `width` x `height` boards (else a named error).
pub fn positions_of(
    positions: &[connect4_engine::Position],
    width: usize,
    height: usize,
) -> PyResult<Vec<connect4_engine::Position>> {
    positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if p.width() != width || p.height() != height {
                Err(err(format!(
                    "positions[{i}] is {}x{}, not {width}x{height}",
                    p.width(),
                    p.height()
                )))
            } else {
                Ok(*p)
            }
        })
        .collect()
}

/// The folder of the installed package, told by `__init__.py` at import.
static PACKAGE_DIR: std::sync::RwLock<Option<std::path::PathBuf>> = std::sync::RwLock::new(None);

/// Records where the package is installed (its `models/` folder holds the shipped models).
#[pyfunction]
pub fn _set_package_dir(path: std::path::PathBuf) {
    *PACKAGE_DIR.write().unwrap_or_else(|e| e.into_inner()) = Some(path);
}

/// The installed package's folder (as `__init__.py` told it), if known.
pub fn package_dir() -> Option<std::path::PathBuf> {
    PACKAGE_DIR
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
}

/// Where model files are looked for when no folder is given: `./models` (a repository or
/// pipeline folder) when it exists, then the models shipped inside the package.
pub fn default_model_dirs() -> Vec<std::path::PathBuf> {
    let mut dirs = Vec::new();
    let here = std::path::PathBuf::from("models");
    if here.is_dir() {
        dirs.push(here);
    }
    if let Some(p) = package_dir() {
        dirs.push(p.join("models"));
    }
    dirs
}

/// `path` as written when it exists, else its file name in [`default_model_dirs`]; a
/// missing file is named with the folders searched.
fn find_model(path: &std::path::Path) -> PyResult<std::path::PathBuf> {
    if path.exists() {
        return Ok(path.to_path_buf());
    }
    let dirs = default_model_dirs();
    if let Some(name) = path.file_name() {
        for d in &dirs {
            let c = d.join(name);
            if c.is_file() {
                return Ok(c);
            }
        }
    }
    let searched: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    Err(err(format!(
        "model file {} not found (also looked for its name in: {})",
        path.display(),
        if searched.is_empty() {
            "no models folder".to_string()
        } else {
            searched.join(", ")
        }
    )))
}

/// Python's value of a serialisable library answer (through JSON).
pub fn to_python<'py>(py: Python<'py>, v: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(v).map_err(err)?;
    py.import("json")?.call_method1("loads", (text,))
}

/// What a `Model` holds: any model of a board of up to 64 bits, or an n-tuple network of a
/// board past them (the GBT's and the linear weights' features are 64-bit ones).
enum Loaded {
    /// A GBT, linear weights or an n-tuple network, boards of up to 64 bits.
    Narrow(ModelEvaluator),
    /// An n-tuple network of a board past 64 bits (8x8, 9x7, ...).
    Wide(Box<NTupleEvaluator<u128>>),
}

/// A learned model loaded from its file (`c4 train gbt`, `c4 train lms`, `c4 train ntuple`):
/// values are from the side to move, higher is better for them.
#[pyclass(module = "connect4_ml", frozen)]
pub struct Model {
    inner: Loaded,
    width: usize,
    height: usize,
}

impl Model {
    /// `board` if it is of the model's size, else a named error.
    fn check<'a>(&self, board: &'a Board) -> PyResult<&'a Board> {
        let (w, h) = on_board!(board, p => (p.width(), p.height()));
        if w != self.width || h != self.height {
            return Err(err(format!(
                "the position is {w}x{h} but the model is for {}x{} boards",
                self.width, self.height
            )));
        }
        Ok(board)
    }

    /// An error naming the first of `positions` not of the model's size.
    fn all_sized(&self, positions: &[Board]) -> PyResult<()> {
        for (i, b) in positions.iter().enumerate() {
            let (w, h) = on_board!(b, p => (p.width(), p.height()));
            if (w, h) != (self.width, self.height) {
                return Err(err(format!(
                    "positions[{i}] is {w}x{h}, not {}x{}",
                    self.width, self.height
                )));
            }
        }
        Ok(())
    }

    /// The positions of a board past 64 bits, all of the model's size (else a named error).
    fn wide_positions(
        &self,
        positions: &[Board],
    ) -> PyResult<Vec<connect4_engine::Position<u128>>> {
        self.all_sized(positions)?;
        Ok(positions
            .iter()
            .filter_map(|b| match b {
                Board::Wide(p) => Some(*p),
                Board::Narrow(_) => None,
            })
            .collect())
    }

    /// The positions of a board of up to 64 bits, all of the model's size (else a named
    /// error).
    fn narrow_positions(&self, positions: &[Board]) -> PyResult<Vec<connect4_engine::Position>> {
        self.all_sized(positions)?;
        positions.iter().map(Board::narrow).collect()
    }
}

#[pymethods]
impl Model {
    /// Loads the model file at `path` for `width` x `height` boards (a path that does not exist
    /// as written is looked for by file name in `./models`, then in the models shipped with
    /// the package); refused with the library's message when missing, corrupt, of another
    /// kind or board size. Past 64 bits (8x8, 9x7) only n-tuple networks load.
    #[new]
    #[pyo3(signature = (path, width = crate::args::Nat(7), height = crate::args::Nat(6)))]
    fn new(
        path: crate::args::FilePath,
        width: crate::args::Nat,
        height: crate::args::Nat,
    ) -> PyResult<Model> {
        let (width, height) = (width.get(), height.get());
        let file = find_model(&path.0)?;
        let inner = if needs_wide(width, height)? {
            let g = Geometry::<u128>::sized(width, height).map_err(err)?;
            let net = NTupleEvaluator::load(&file, g).map_err(|e| {
                if e.is_other_kind() {
                    err(format!(
                        "{e} (past 64 bits, on {width}x{height}, only n-tuple networks load: GBT and linear features are 64-bit)"
                    ))
                } else {
                    err(e)
                }
            })?;
            Loaded::Wide(Box::new(net))
        } else {
            Loaded::Narrow(ModelEvaluator::load(&file, geometry(width, height)?).map_err(err)?)
        };
        Ok(Model {
            inner,
            width,
            height,
        })
    }

    /// "gbt", "linear" or "ntuple".
    #[getter]
    fn kind(&self) -> &'static str {
        match &self.inner {
            Loaded::Narrow(m) => m.kind(),
            Loaded::Wide(_) => "ntuple",
        }
    }

    /// The feature set the model reads (e.g. "cells+oddeven").
    #[getter]
    fn features(&self) -> String {
        match &self.inner {
            Loaded::Narrow(m) => m.features(),
            Loaded::Wide(n) => {
                let l = n.network().layout();
                format!("ntuple({}x{})", l.tuples, l.cells)
            }
        }
    }

    /// The model's value of `position` for the side to move.
    fn value(&self, position: AnyPos) -> PyResult<f64> {
        Ok(match (&self.inner, self.check(&position.0)?) {
            (Loaded::Narrow(m), Board::Narrow(p)) => m.evaluate(p),
            (Loaded::Wide(n), Board::Wide(p)) => n.evaluate(p),
            // Same size, same integer: a model and a position of one board never differ.
            _ => return Err(err("the position's board and the model's differ")),
        })
    }

    /// P(loss), P(draw), P(win) for the side to move (GBT models; None for the others).
    fn probabilities(&self, position: AnyPos) -> PyResult<Option<(f64, f64, f64)>> {
        self.check(&position.0)?;
        Ok(match (&self.inner, &position.0) {
            (Loaded::Narrow(ModelEvaluator::Gbt(g)), Board::Narrow(p)) => {
                let [l, d, w] = g.probabilities(p);
                Some((l, d, w))
            }
            _ => None,
        })
    }

    /// The values of many positions as a float64 array.
    fn values<'py>(
        &self,
        py: Python<'py>,
        positions: AnyPositions,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let v: Vec<f64> = match &self.inner {
            Loaded::Narrow(e) => {
                let ps = self.narrow_positions(&positions.0)?;
                quick(py, || e.values(&ps))?
            }
            Loaded::Wide(n) => {
                let ps = self.wide_positions(&positions.0)?;
                quick(py, || ps.iter().map(|p| n.evaluate(p)).collect())?
            }
        };
        Ok(v.into_pyarray(py))
    }

    /// P(loss), P(draw), P(win) of many positions as an `n x 3` float64 array (GBT models).
    fn probabilities_batch<'py>(
        &self,
        py: Python<'py>,
        positions: AnyPositions,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let Loaded::Narrow(e) = &self.inner else {
            return Err(err(
                "probabilities come from GBT models; this is a ntuple model",
            ));
        };
        let ps = self.narrow_positions(&positions.0)?;
        let n = ps.len();
        let flat = quick(py, || e.probabilities(&ps))?.ok_or_else(|| {
            err(format!(
                "probabilities come from GBT models; this is a {} model",
                e.kind()
            ))
        })?;
        let a = ndarray::Array2::from_shape_vec((n, 3), flat).map_err(err)?;
        Ok(a.into_pyarray(py))
    }

    /// Why the model values `position` as it does: a dict with `value`, `probabilities`
    /// (GBT), `scale`, `bias` and `contributions` (feature, value, contribution), as the web
    /// UI shows them.
    fn explain<'py>(&self, py: Python<'py>, position: AnyPos) -> PyResult<Bound<'py, PyAny>> {
        match (&self.inner, self.check(&position.0)?) {
            (Loaded::Narrow(m), Board::Narrow(p)) => to_python(py, &m.explain(p)),
            (Loaded::Wide(n), Board::Wide(p)) => to_python(py, &n.explain(p)),
            _ => Err(err("the position's board and the model's differ")),
        }
    }

    fn __repr__(&self) -> String {
        let name = match &self.inner {
            Loaded::Narrow(m) => m.name(),
            Loaded::Wide(n) => n.name(),
        };
        format!("Model({name}, kind={:?})", self.kind())
    }
}

/// The feature set `name` of every position as a `positions x features` float64 matrix, the
/// numbers our models read (so scikit-learn or LightGBM can train on the same features).
#[pyfunction]
#[pyo3(signature = (positions, name = "cells+oddeven"))]
pub fn features<'py>(
    py: Python<'py>,
    positions: Positions,
    name: &str,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let set: FeatureSet = name.parse().map_err(err)?;
    let Some(first) = positions.0.first() else {
        return Err(err("no positions: the feature matrix needs at least one"));
    };
    let (w, h) = (first.width(), first.height());
    let ps = positions_of(&positions.0, w, h)?;
    let ex = set.extractor(geometry(w, h)?);
    let m = quick(py, || ex.matrix(&ps))?;
    Ok(m.into_pyarray(py))
}

/// The column names of the feature set `name` on `width` x `height` boards.
#[pyfunction]
#[pyo3(signature = (name = "cells+oddeven", width = 7, height = 6))]
pub fn feature_names(name: &str, width: usize, height: usize) -> PyResult<Vec<String>> {
    let set: FeatureSet = name.parse().map_err(err)?;
    Ok(set.names(geometry(width, height)?))
}
