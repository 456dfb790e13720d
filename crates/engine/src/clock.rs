//! The engine's clock: `std::time::Instant` where the platform has one, and in a browser
//! (`wasm32-unknown-unknown`, where `Instant::now` panics) a monotonic clock in milliseconds
//! that the JavaScript host provides as the import `env.c4_now_ms` (`performance.now()`).
//! Time limits, deadlines and timings all read this clock, so they work in both places.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod web {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    #[link(wasm_import_module = "env")]
    unsafe extern "C" {
        /// Milliseconds from a fixed origin, never decreasing (`performance.now()`).
        fn c4_now_ms() -> f64;
    }

    /// A point in time read from the host's monotonic clock (milliseconds).
    #[derive(Clone, Copy, Debug)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            // SAFETY: the host provides this import (see the module docs); it takes no
            // arguments and returns a plain number.
            Instant(unsafe { c4_now_ms() })
        }

        /// Time since this instant (zero if the clock reads earlier).
        pub fn elapsed(&self) -> Duration {
            Instant::now().saturating_duration_since(*self)
        }

        /// Time from `earlier` to this instant, zero if `earlier` is later.
        pub(crate) fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1e3).max(0.0))
        }

        /// Time from `earlier` to this instant, zero if `earlier` is later.
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }
    }

    impl PartialEq for Instant {
        fn eq(&self, other: &Self) -> bool {
            self.0.total_cmp(&other.0).is_eq()
        }
    }

    impl Eq for Instant {}

    impl PartialOrd for Instant {
        fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }

    impl Ord for Instant {
        fn cmp(&self, other: &Self) -> std::cmp::Ordering {
            self.0.total_cmp(&other.0)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1e3)
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }
    }
}
