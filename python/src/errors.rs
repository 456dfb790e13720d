//! The package's one exception type, `Connect4Error`, and the library's messages turned into
//! it.

use pyo3::prelude::*;

pyo3::create_exception!(
    connect4_ml,
    Connect4Error,
    pyo3::exceptions::PyValueError,
    "Bad input or a failed call of the library: the message names what and where."
);

/// A Python exception carrying the library's own message.
pub fn err(e: impl std::fmt::Display) -> PyErr {
    Connect4Error::new_err(e.to_string())
}

/// The message of a panic payload.
pub fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}
