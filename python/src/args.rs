//! Argument conversion: Python values into the library's types, and anything else refused
//! with a `Connect4Error` that says what was expected and what came (not Python's
//! `OverflowError` or `TypeError`).

use crate::errors::err;
use pyo3::prelude::*;

/// A whole number of 0 or more from any Python int (numpy's too); anything else, a negative
/// number included, is a `Connect4Error` rather than Python's `OverflowError` or `TypeError`.
#[derive(Clone, Copy, Debug)]
pub struct Nat(pub u64);

impl Nat {
    /// The number as a `usize`.
    pub fn get(self) -> usize {
        self.0 as usize
    }
}

impl<'py> FromPyObject<'_, 'py> for Nat {
    type Error = PyErr;

    fn extract(ob: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if ob.is_instance_of::<pyo3::types::PyBool>() {
            return Err(err(format!(
                "expected a whole number, got the bool {}",
                ob.str()?
            )));
        }
        let Ok(index) = ob.call_method0("__index__") else {
            return Err(err(format!(
                "expected a whole number, got {} {}",
                ob.get_type().name()?,
                short_repr(&ob)
            )));
        };
        match index.extract::<i128>() {
            Ok(v) if v < 0 => Err(err(format!(
                "{v} is negative: expected a whole number of 0 or more"
            ))),
            Ok(v) if v > i128::from(u64::MAX) => Err(err(format!("{v} is too large"))),
            Ok(v) => Ok(Nat(v as u64)),
            Err(_) => Err(err("the number is too large")),
        }
    }
}

/// At most a few dozen characters of `ob`'s repr, for messages.
pub fn short_repr(ob: &Bound<'_, PyAny>) -> String {
    let r = ob
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into());
    if r.chars().count() > 40 {
        format!("{}...", r.chars().take(40).collect::<String>())
    } else {
        r
    }
}

/// The type name and a short repr of `ob`, for "got ..." in messages.
pub fn got(ob: &Bound<'_, PyAny>) -> String {
    let ty = ob
        .get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string());
    format!("{ty} {}", short_repr(ob))
}

/// A string argument (a move string, an agent spec, a name).
pub struct Text(pub String);

impl<'py> FromPyObject<'_, 'py> for Text {
    type Error = PyErr;

    fn extract(ob: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        ob.extract::<String>()
            .map(Text)
            .map_err(|_| err(format!("expected a string, got {}", got(&ob))))
    }
}

/// A file path argument (a string or an `os.PathLike`).
pub struct FilePath(pub std::path::PathBuf);

impl<'py> FromPyObject<'_, 'py> for FilePath {
    type Error = PyErr;

    fn extract(ob: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        ob.extract::<std::path::PathBuf>()
            .map(FilePath)
            .map_err(|_| err(format!("expected a file path, got {}", got(&ob))))
    }
}
