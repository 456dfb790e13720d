//! The arguments that carry positions: `Positions` for the parts of the package that take
//! boards of up to 64 bits (it names a wider one), `AnyPos` and `AnyPositions` for those that
//! take any board.

use crate::board::Board;
use crate::errors::err;
use crate::position::Position;
use pyo3::prelude::*;

/// A `Position` argument of any board (up to 128 bits): what the solver and models take.
pub struct AnyPos(pub Board);

impl<'py> FromPyObject<'_, 'py> for AnyPos {
    type Error = PyErr;

    fn extract(ob: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        match ob.cast::<Position>() {
            Ok(p) => Ok(AnyPos(p.get().inner)),
            Err(_) => Err(err(format!(
                "expected a Position (e.g. Position(\"4453\")), got {}",
                crate::args::got(&ob)
            ))),
        }
    }
}

/// A list (any iterable but a string) of `Position`s of boards of up to 64 bits.
pub struct Positions(pub Vec<connect4_engine::Position>);

impl<'py> FromPyObject<'_, 'py> for Positions {
    type Error = PyErr;

    fn extract(ob: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        let boards = ob.extract::<AnyPositions>()?.0;
        let narrow = boards
            .iter()
            .enumerate()
            .map(|(i, b)| b.narrow_named(&format!("positions[{i}]: ")));
        Ok(Positions(narrow.collect::<PyResult<_>>()?))
    }
}

/// A list (any iterable but a string) of `Position`s of any board (up to 128 bits).
pub struct AnyPositions(pub Vec<Board>);

impl<'py> FromPyObject<'_, 'py> for AnyPositions {
    type Error = PyErr;

    fn extract(ob: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        let bad = || {
            err(format!(
                "expected a list of Positions, got {}",
                crate::args::got(&ob)
            ))
        };
        if ob.is_instance_of::<pyo3::types::PyString>() {
            return Err(bad());
        }
        let items = ob.try_iter().map_err(|_| bad())?;
        let mut out = Vec::new();
        for (i, item) in items.enumerate() {
            let item = item?;
            match item.cast::<Position>() {
                Ok(p) => out.push(p.get().inner),
                Err(_) => {
                    return Err(err(format!(
                        "positions[{i}]: expected a Position, got {}",
                        crate::args::got(&item)
                    )));
                }
            }
        }
        Ok(AnyPositions(out))
    }
}
