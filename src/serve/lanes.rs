//! Two lanes of work, so that cheap answers stay cheap while expensive ones saturate the CPU.
//!
//! Every agent's move, analysis and review runs on tokio's blocking pool in a slot of one lane:
//! - the quick lane takes work whose cost is bounded by a few milliseconds whatever the
//!   position: fixed shallow searches (`easy`, `hard`, `gbt:depth=3`, the network), random
//!   moves, and positions the opening book answers or that have few empty cells left;
//! - the heavy lane takes everything else: solving past the book, timed searches, MCTS, the
//!   dial and the adaptive agent.
//!
//! Each lane has its own slots and its own queue: when a lane's queue is full, or a request
//! waited [`super::ServeConfig::queue_wait`] for a slot, the answer is a 503 with a
//! `Retry-After`, at once rather than after a wait nobody asked for. A flood of perfect
//! analyses therefore fills the heavy lane's slots and queue, and nothing else.

use super::error::ApiError;
use connect4_engine::agents::{AgentKind, AgentSpec, EvalSpec};
use connect4_engine::game::{BitBoard, Position};
use connect4_engine::solver::book::Book;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Which lane a request's work runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lane {
    /// Bounded, millisecond work.
    Quick,
    /// Work whose cost grows with the position or is bounded only by a time limit.
    Heavy,
}

impl Lane {
    /// The lane's name, as `/api/status` and the 503s write it.
    pub fn name(self) -> &'static str {
        match self {
            Lane::Quick => "quick",
            Lane::Heavy => "heavy",
        }
    }
}

/// The deepest fixed search the quick lane takes: `hard` searches 5 plies, `gbt:depth=3` 3.
const QUICK_DEPTH: u32 = 5;

/// Positions with at most this many empty cells are solved in well under a millisecond.
const QUICK_EMPTY_CELLS: usize = 12;

/// How far a quick analysis's principal variation may go on solving past the book (a heavy
/// one: [`connect4_engine::solver::analysis::PV_BUDGET`]).
pub const QUICK_PV: Duration = Duration::from_millis(5);

/// The lane of an agent's move by `spec` from `pos`; `book` is the book perfect agents read.
pub fn of_move<B: BitBoard>(spec: &AgentSpec, pos: &Position<B>, book: Option<&Book>) -> Lane {
    match spec.kind() {
        AgentKind::Random => Lane::Quick,
        AgentKind::Search { eval, params } => {
            let bounded = params.time_budget.is_none()
                && params.depth <= QUICK_DEPTH
                && params.schedule.iter().all(|&(_, d)| d <= QUICK_DEPTH)
                && !matches!(eval, EvalSpec::Rollouts(_) | EvalSpec::Hybrid { .. });
            if bounded || few_empty(pos) {
                Lane::Quick
            } else {
                Lane::Heavy
            }
        }
        AgentKind::Perfect(_) => of_solving(pos, book),
        // The dial and the adaptive agent solve with a time limit on every board; MCTS runs
        // its simulations whatever the position.
        _ => {
            if few_empty(pos) {
                Lane::Quick
            } else {
                Lane::Heavy
            }
        }
    }
}

/// The lane of solving every column of `pos`: quick when the book answers every column or few
/// cells are left.
pub fn of_solving<B: BitBoard>(pos: &Position<B>, book: Option<&Book>) -> Lane {
    let in_book = book.is_some_and(|b| {
        pos.geometry().width() == b.geometry().width()
            && pos.geometry().height() == b.geometry().height()
            && pos.moves_played() < b.plies()
    });
    if in_book || few_empty(pos) {
        Lane::Quick
    } else {
        Lane::Heavy
    }
}

fn few_empty<B: BitBoard>(pos: &Position<B>) -> bool {
    pos.geometry().cells() - pos.moves_played() <= QUICK_EMPTY_CELLS
}

/// The threads of the heavy lane: `n` (at least one), each at a lower scheduling priority
/// (nice 10 on Unix), so that when quick and heavy work both want the cores the quick work
/// gets most of them and its answers stay in milliseconds while solving saturates the CPU.
/// Without a thread pool the server cannot run, and a pool of default priority is the
/// fallback of the fallback.
pub(super) fn background_threads(n: usize) -> rayon::ThreadPool {
    let build = |lower: bool| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .thread_name(|i| format!("c4-heavy-{i}"))
            .start_handler(move |_| {
                if lower {
                    lower_priority();
                }
            })
            .build()
    };
    match build(true) {
        Ok(pool) => pool,
        Err(_) => match build(false) {
            Ok(pool) => pool,
            Err(e) => panic!("cannot start the heavy lane's threads: {e}"),
        },
    }
}

/// Lowers the calling thread's scheduling priority (Linux keeps a nice value per thread).
/// Failing to is harmless: the lanes still bound the work, only without the preference.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority takes plain integers; `who` 0 names the calling thread on Linux,
    // and raising one's own nice value needs no privilege.
    unsafe {
        let _ = libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// The slots and the queue of one lane, with its counters.
pub(super) struct Slots {
    lane: Lane,
    slots: Arc<Semaphore>,
    size: usize,
    queue: usize,
    waiting: AtomicUsize,
    /// Requests refused because the queue was full or the wait too long.
    refused: AtomicU64,
    /// The longest wait for a slot and the longest work in one, microseconds.
    max_wait_us: AtomicU64,
    max_run_us: AtomicU64,
}

/// Takes a place in the queue for as long as it lives.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Slots {
    /// `size` slots (at least one) and room for `queue` waiting requests.
    pub(super) fn new(lane: Lane, size: usize, queue: usize) -> Self {
        let size = size.max(1);
        Slots {
            lane,
            slots: Arc::new(Semaphore::new(size)),
            size,
            queue,
            waiting: AtomicUsize::new(0),
            refused: AtomicU64::new(0),
            max_wait_us: AtomicU64::new(0),
            max_run_us: AtomicU64::new(0),
        }
    }

    /// A slot, or a 503 when the queue is full or no slot freed within `wait`.
    pub(super) async fn acquire(&self, wait: Duration) -> Result<OwnedSemaphorePermit, ApiError> {
        // Free slot: no queueing at all.
        if let Ok(permit) = self.slots.clone().try_acquire_owned() {
            return Ok(permit);
        }
        let asked = std::time::Instant::now();
        let place = self.waiting.fetch_add(1, Ordering::Relaxed);
        let _waiting = Waiting(&self.waiting);
        if place >= self.queue {
            return Err(self.refuse(format!(
                "all {} {} slots are taken and {} requests wait for one",
                self.size,
                self.lane.name(),
                self.queue
            )));
        }
        match tokio::time::timeout(wait, self.slots.clone().acquire_owned()).await {
            Ok(Ok(permit)) => {
                let waited = asked.elapsed().as_micros() as u64;
                self.max_wait_us.fetch_max(waited, Ordering::Relaxed);
                Ok(permit)
            }
            _ => Err(self.refuse(format!(
                "all {} {} slots stayed taken for {} s",
                self.size,
                self.lane.name(),
                wait.as_secs_f64()
            ))),
        }
    }

    /// Notes that work held a slot of this lane for `took`.
    pub(super) fn ran(&self, took: Duration) {
        self.max_run_us
            .fetch_max(took.as_micros() as u64, Ordering::Relaxed);
    }

    fn refuse(&self, why: String) -> ApiError {
        self.refused.fetch_add(1, Ordering::Relaxed);
        ApiError::Busy(why)
    }

    /// The lane's figures for `/api/status`.
    pub(super) fn status(&self) -> serde_json::Value {
        serde_json::json!({
            "slots": self.size,
            "busy": self.size - self.slots.available_permits(),
            "queue": self.queue,
            "waiting": self.waiting.load(Ordering::Relaxed),
            "refused": self.refused.load(Ordering::Relaxed),
            "max_wait_ms": self.max_wait_us.load(Ordering::Relaxed) as f64 / 1e3,
            "max_run_ms": self.max_run_us.load(Ordering::Relaxed) as f64 / 1e3,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use connect4_engine::Geometry;

    fn spec(s: &str) -> AgentSpec {
        s.parse().unwrap()
    }

    fn pos(moves: &str) -> Position {
        Position::from_moves(Geometry::STANDARD, moves).unwrap()
    }

    #[test]
    fn cheap_work_goes_to_the_quick_lane() {
        let book = connect4_engine::solver::book::embedded();
        let mid = pos("4453326611");
        let deep = pos("44533266117");
        for quick in [
            "random",
            "easy",
            "hard",
            "gbt:depth=3",
            "ntuple:depth=1,safe=true",
        ] {
            assert_eq!(
                of_move(&spec(quick), &deep, Some(&book)),
                Lane::Quick,
                "{quick}"
            );
        }
        for heavy in [
            "mcts",
            "adaptive",
            "level:elo=1500",
            "hard:ms=100",
            "openlines:depth=9",
        ] {
            let s = heavy.replace("hard:ms", "openlines:ms");
            assert_eq!(
                of_move(&spec(&s), &deep, Some(&book)),
                Lane::Heavy,
                "{heavy}"
            );
        }
        // The perfect player and analyses: quick inside the book, heavy past it, quick again
        // near the end.
        let perfect = spec("perfect:ties=random");
        assert_eq!(book.plies(), 10);
        assert_eq!(
            of_move(&perfect, &pos("445332661"), Some(&book)),
            Lane::Quick
        );
        assert_eq!(of_move(&perfect, &mid, Some(&book)), Lane::Heavy);
        assert_eq!(of_move(&perfect, &mid, None), Lane::Heavy);
        assert_eq!(of_solving(&pos(""), None), Lane::Heavy);
        assert_eq!(of_solving(&pos(""), Some(&book)), Lane::Quick);
        let late = pos("2252576253462244111563365343"); // 14 empty cells
        assert_eq!(of_solving(&late, None), Lane::Heavy);
        let later = pos("225257625346224411156336534367"); // 12
        assert_eq!(of_solving(&later, None), Lane::Quick);
        assert_eq!(of_move(&spec("mcts"), &later, None), Lane::Quick);
    }

    #[tokio::test]
    async fn a_full_queue_is_refused_at_once() {
        let lane = Slots::new(Lane::Heavy, 1, 0);
        let held = lane.acquire(Duration::from_secs(5)).await.unwrap();
        // Refused for the full queue, not after the wait.
        let e = lane.acquire(Duration::from_secs(5)).await.unwrap_err();
        assert!(e.to_string().contains("1 heavy slots are taken"), "{e}");
        drop(held);
        let _again = lane.acquire(Duration::from_secs(5)).await.unwrap();
        let s = lane.status();
        assert_eq!(
            (s["refused"].as_u64(), s["waiting"].as_u64()),
            (Some(1), Some(0))
        );
    }
}
