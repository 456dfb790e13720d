//! The bridge that runs long library calls: without the GIL, on a worker thread when needed,
//! stopped by Ctrl-C, a panic turned into a `Connect4Error` (never through the boundary).

use crate::errors::{err, panic_message};
use connect4_engine::Interrupt;
use pyo3::prelude::*;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Ctrl-C presses counted by [`sigint_hook_active`]'s hook.
static SIGINTS: AtomicU64 = AtomicU64::new(0);

/// The SIGINT handler address once the hook is in (0: no hook).
static HOOK: OnceLock<usize> = OnceLock::new();

/// Python's own C signal handler (the SIGINT handler found before the hook went in): every
/// signal a Python program handles with `signal.signal` has it.
static PYTHON_HANDLER: OnceLock<usize> = OnceLock::new();

/// The address of the process's SIGINT handler now.
fn sigint_handler() -> usize {
    handler_of(libc::SIGINT)
}

/// The address of the process's handler of `signal` now.
fn handler_of(signal: libc::c_int) -> usize {
    // SAFETY: a query (no new action) into a zeroed struct that sigaction fills.
    unsafe {
        let mut now: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut now);
        now.sa_sigaction
    }
}

/// Whether a Python handler is set for a signal other than SIGINT (an alarm, SIGTERM,
/// SIGUSR1, ...): only Python can run it, between bytecodes, so a long call must give the
/// interpreter a chance every 100 ms.
fn other_python_handlers() -> bool {
    let Some(&python) = PYTHON_HANDLER.get() else {
        return false;
    };
    (1..32).any(|s| {
        s != libc::SIGINT && s != libc::SIGKILL && s != libc::SIGSTOP && handler_of(s) == python
    })
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
        let _ = PYTHON_HANDLER.set(now);
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

/// Runs `work` without the GIL so that Ctrl-C and the program's own signal handlers stop it:
/// `stop` (made by [`call_interrupt`]) is what the library's long loops poll. When the
/// SIGINT hook is in and no other signal has a Python handler, the work runs on the calling
/// thread (no thread to start: a quick call costs about what it costs in Rust) and a press
/// cancels it directly; otherwise it runs on a worker thread while this one runs Python's
/// pending handlers every 100 ms (an alarm's handler that raises ends the call with its
/// exception). Either way Ctrl-C raises `KeyboardInterrupt`, and a panic becomes a
/// `Connect4Error`.
pub fn interruptible<T, F>(py: Python<'_>, stop: &Interrupt, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    if sigint_hook_active() && !other_python_handlers() {
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
