//! The one exception type and the bridge that runs long library calls: without the GIL, on a
//! worker thread, stopped by Ctrl-C, a panic turned into an exception (never through the
//! boundary).

use connect4_ml::Interrupt;
use pyo3::prelude::*;
use std::sync::mpsc;
use std::time::Duration;

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
fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Runs `work` without the GIL on a worker thread, checking Python's signals every 100 ms:
/// Ctrl-C cancels `stop` (which the library's long loops poll), waits for the worker to
/// return and raises `KeyboardInterrupt`. A panic becomes a `Connect4Error`.
pub fn interruptible<T, F>(py: Python<'_>, stop: &Interrupt, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::sync_channel(1);
        // Shared with the GIL-free waits below, which must be `Send`.
        let rx = std::sync::Mutex::new(rx);
        let worker = s.spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            let _ = tx.send(());
            r
        });
        loop {
            let done = py.detach(|| {
                match rx
                    .lock()
                    .expect("one waiter")
                    .recv_timeout(Duration::from_millis(100))
                {
                    Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => true,
                    Err(mpsc::RecvTimeoutError::Timeout) => false,
                }
            });
            if done {
                break;
            }
            if let Err(e) = py.check_signals() {
                stop.cancel();
                let _ = py.detach(|| worker.join());
                return Err(e);
            }
        }
        match py.detach(|| worker.join()) {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(p)) | Err(p) => Err(err(format!("internal error: {}", panic_message(p)))),
        }
    })
}

/// Runs a short call without the GIL, a panic turned into a `Connect4Error`.
pub fn quick<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)))
        .map_err(|p| err(format!("internal error: {}", panic_message(p))))
}
