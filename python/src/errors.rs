//! The one exception type and the bridge that runs long library calls: without the GIL, on a
//! worker thread, stopped by Ctrl-C, a panic turned into an exception (never through the
//! boundary).

use connect4_engine::Interrupt;
use pyo3::prelude::*;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
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

/// Ctrl-C presses counted by [`sigint_hook_active`]'s hook.
static SIGINTS: AtomicU64 = AtomicU64::new(0);

/// The SIGINT handler address once the hook is in (0: no hook).
static HOOK: OnceLock<usize> = OnceLock::new();

/// The address of the process's SIGINT handler now.
fn sigint_handler() -> usize {
    // SAFETY: a query (no new action) into a zeroed struct that sigaction fills.
    unsafe {
        let mut now: libc::sigaction = std::mem::zeroed();
        libc::sigaction(libc::SIGINT, std::ptr::null(), &mut now);
        now.sa_sigaction
    }
}

/// Whether a Ctrl-C right now reaches [`SIGINTS`]: a hook chained after Python's own handler
/// (which still runs first, so Python raises `KeyboardInterrupt` as usual), installed once
/// over a real handler and not displaced since (`signal.signal` reinstalls Python's own).
fn sigint_hook_active() -> bool {
    let hook = *HOOK.get_or_init(|| {
        let now = sigint_handler();
        if now == libc::SIG_DFL || now == libc::SIG_IGN {
            return 0;
        }
        // SAFETY: the action only bumps an atomic, which is async-signal-safe.
        let added = unsafe {
            signal_hook_registry::register(libc::SIGINT, || {
                SIGINTS.fetch_add(1, Ordering::Relaxed);
            })
        };
        if added.is_ok() { sigint_handler() } else { 0 }
    });
    hook != 0 && sigint_handler() == hook
}

/// A fresh interrupt for one call, cancelled by Ctrl-C (through the hook, when it is in).
pub fn call_interrupt() -> Interrupt {
    Interrupt::new().with_events(&SIGINTS)
}

/// Runs `work` without the GIL so that Ctrl-C stops it: `stop` (made by [`call_interrupt`])
/// is what the library's long loops poll. When the SIGINT hook is in, the work runs on the
/// calling thread (no thread to start: a quick call costs about what it costs in Rust) and
/// a press cancels it directly; otherwise it runs on a worker thread while this one checks
/// Python's signals every 100 ms. Either way Ctrl-C raises `KeyboardInterrupt`, and a panic
/// becomes a `Connect4Error`.
pub fn interruptible<T, F>(py: Python<'_>, stop: &Interrupt, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    if sigint_hook_active() {
        let out = py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
        // A press during the call: Python's handler has run, its exception is raised here.
        py.check_signals()?;
        if stop.is_cancelled() {
            // Pressed, but Python raised nothing (a handler that ignores it, or this is not
            // the main thread): the work was cut short, so there is no answer.
            return Err(err("interrupted by Ctrl-C"));
        }
        return out.map_err(|p| err(format!("internal error: {}", panic_message(p))));
    }
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

/// Locks `m` from a thread that does not hold the GIL, giving up (`None`) once `stop` is
/// cancelled: a caller waiting for another thread's long call still stops on Ctrl-C.
pub fn lock_until<'a, T>(
    m: &'a std::sync::Mutex<T>,
    stop: &Interrupt,
) -> Option<std::sync::MutexGuard<'a, T>> {
    loop {
        match m.try_lock() {
            Ok(g) => return Some(g),
            // A panic in an earlier call was already reported; the value is still usable.
            Err(std::sync::TryLockError::Poisoned(p)) => return Some(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => {
                if stop.is_cancelled() {
                    return None;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
}

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

/// A uniform index below `n` drawn from `rng`: None (Python's `random` module), an int seed,
/// an object with `randrange` (`random.Random`) or with `integers` (numpy's `Generator`).
pub fn draw_index(py: Python<'_>, rng: Option<&Bound<'_, PyAny>>, n: usize) -> PyResult<usize> {
    // A wrong rng is refused even when there is nothing to draw.
    let bad_rng = |r: &Bound<'_, PyAny>| {
        err(format!(
            "rng: expected None, an int seed, a random.Random or a numpy Generator, got {}",
            short_repr(r)
        ))
    };
    if let Some(r) = rng
        && !r.hasattr("randrange")?
        && !r.hasattr("integers")?
        && r.extract::<Nat>().is_err()
    {
        return Err(bad_rng(r));
    }
    if n <= 1 {
        return Ok(0);
    }
    let drawn: Bound<'_, PyAny> = match rng {
        None => py.import("random")?.call_method1("randrange", (n,))?,
        Some(r) if r.hasattr("randrange")? => r.call_method1("randrange", (n,))?,
        Some(r) if r.hasattr("integers")? => r.call_method1("integers", (n,))?,
        Some(r) => {
            let Nat(seed) = r.extract().map_err(|_| bad_rng(r))?;
            // One draw per call from the seed: the same seed picks the same column.
            return Ok((connect4_engine::seed::splitmix64(seed) % n as u64) as usize);
        }
    };
    let i: i64 = drawn.extract()?;
    usize::try_from(i)
        .ok()
        .filter(|&i| i < n)
        .ok_or_else(|| err(format!("rng drew {i}, outside 0..{n}")))
}

/// The type name and a short repr of `ob`, for "got ..." in messages.
fn got(ob: &Bound<'_, PyAny>) -> String {
    let ty = ob
        .get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string());
    format!("{ty} {}", short_repr(ob))
}

/// A `Position` argument; anything else is a `Connect4Error` saying what was expected.
pub struct Pos(pub connect4_engine::Position);

impl<'py> FromPyObject<'_, 'py> for Pos {
    type Error = PyErr;

    fn extract(ob: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        match ob.cast::<crate::position::Position>() {
            Ok(p) => Ok(Pos(p.get().inner)),
            Err(_) => Err(err(format!(
                "expected a Position (e.g. Position(\"4453\")), got {}",
                got(&ob)
            ))),
        }
    }
}

/// A list (any iterable but a string) of `Position`s.
pub struct Positions(pub Vec<connect4_engine::Position>);

impl<'py> FromPyObject<'_, 'py> for Positions {
    type Error = PyErr;

    fn extract(ob: pyo3::Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        let bad = || err(format!("expected a list of Positions, got {}", got(&ob)));
        if ob.is_instance_of::<pyo3::types::PyString>() {
            return Err(bad());
        }
        let items = ob.try_iter().map_err(|_| bad())?;
        let mut out = Vec::new();
        for (i, item) in items.enumerate() {
            let item = item?;
            match item.cast::<crate::position::Position>() {
                Ok(p) => out.push(p.get().inner),
                Err(_) => {
                    return Err(err(format!(
                        "positions[{i}]: expected a Position, got {}",
                        got(&item)
                    )));
                }
            }
        }
        Ok(Positions(out))
    }
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
