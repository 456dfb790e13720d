//! Stopping long work from outside: the solver and the searcher poll an [`Interrupt`] every
//! few thousand nodes, so a server can bound a request by time and drop the work of a client
//! that went away.

use crate::clock::Instant;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// A shared cancel flag with an optional deadline. Clones share the flag: cancelling one
/// stops every holder.
///
/// ```
/// use connect4_engine::Interrupt;
/// use std::time::Duration;
/// let i = Interrupt::new();
/// assert!(!i.should_stop());
/// i.clone().cancel();
/// assert!(i.should_stop());
/// assert!(Interrupt::after(Duration::ZERO).should_stop());
/// // Linked to a counter that a signal handler bumps:
/// use std::sync::atomic::{AtomicU64, Ordering};
/// static PRESSES: AtomicU64 = AtomicU64::new(0);
/// let j = Interrupt::new().with_events(&PRESSES);
/// assert!(!j.should_stop());
/// PRESSES.fetch_add(1, Ordering::Relaxed);
/// assert!(j.should_stop());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Interrupt {
    cancelled: Arc<AtomicBool>,
    deadline: Option<Instant>,
    /// An outside event counter and its value when linked: any change cancels.
    events: Option<(&'static AtomicU64, u64)>,
}

impl Interrupt {
    /// An interrupt that fires only when cancelled.
    pub fn new() -> Self {
        Self::default()
    }

    /// An interrupt that fires when cancelled or once `limit` has passed from now.
    pub fn after(limit: Duration) -> Self {
        Self::new().with_deadline(Instant::now() + limit)
    }

    /// The same flag with a deadline (the earlier one if it already had one).
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(self.deadline.map_or(deadline, |d| d.min(deadline)));
        self
    }

    /// The same flag, also cancelled once `events` changes from its current value: a signal
    /// handler (which may only touch atomics) counts Ctrl-C presses there, and work linked to
    /// the counter stops without anyone waiting to relay the signal.
    pub fn with_events(mut self, events: &'static AtomicU64) -> Self {
        self.events = Some((events, events.load(Ordering::Relaxed)));
        self
    }

    /// Stops every holder of this flag at their next poll.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether [`Interrupt::cancel`] was called (the deadline aside).
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
            || self
                .events
                .is_some_and(|(e, at)| e.load(Ordering::Relaxed) != at)
    }

    /// Whether work should stop now: cancelled, or past the deadline.
    pub fn should_stop(&self) -> bool {
        self.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// A guard that cancels this flag when dropped: held by a request handler, it stops the
    /// request's work if the handler is dropped because the client disconnected.
    pub fn cancel_on_drop(&self) -> CancelOnDrop {
        CancelOnDrop(self.clone())
    }
}

/// Cancels its [`Interrupt`] when dropped (see [`Interrupt::cancel_on_drop`]).
#[derive(Debug)]
pub struct CancelOnDrop(Interrupt);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}
