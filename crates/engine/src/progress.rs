//! How long jobs report progress: one small trait at the bottom of the crate that every long
//! job takes (self-play, labelling, tournaments, grading, boosting, LMS training, the
//! pipeline, benchmark sets), and that the CLI implements once with progress bars. Library
//! code never prints; it tells a [`Progress`].

/// Hears about long work. Every method has a do-nothing default, so an implementation picks
/// what it shows. Methods take `&self` and may be called from worker threads.
pub trait Progress: Sync {
    /// A part of the job starts, with `total` steps (0 when unknown).
    fn start(&self, _label: &str, _total: usize) {}
    /// `steps` more steps of the current part are done.
    fn advance(&self, _steps: usize) {}
    /// A short status for the current part (e.g. the latest validation loss).
    fn message(&self, _text: &str) {}
    /// The current part is done.
    fn finish(&self) {}
    /// Something the user should read, whatever part is running.
    fn note(&self, _text: &str) {}
}

/// Progress that goes nowhere: for tests and for callers that show none.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Progress for Quiet {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Count(AtomicUsize);
    impl Progress for Count {
        fn advance(&self, steps: usize) {
            self.0.fetch_add(steps, Ordering::Relaxed);
        }
    }

    #[test]
    fn defaults_do_nothing_and_steps_add_up_across_threads() {
        Quiet.start("x", 3);
        Quiet.advance(1);
        Quiet.finish();
        let c = Count(AtomicUsize::new(0));
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| (0..100).for_each(|_| c.advance(1)));
            }
        });
        assert_eq!(c.0.load(Ordering::Relaxed), 400);
    }
}
