//! Batches across games: every player of one evaluator agent sends the positions its search
//! wants valued to one `Batcher`, which gathers the requests of all the games being played
//! at once (a tournament's `jobs`) into calls of the user's function of up to `batch`
//! positions. A request is asked when the positions waiting reach `batch`, or when every
//! player that is searching a move is waiting for values (nobody else will add to the
//! batch). Each game's search gets exactly the values it asked for, so the moves and results
//! are those of one game at a time; only the number of calls changes.

use connect4_engine::Position;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// The values of one request, or `None` when asking failed (the failure is recorded by the
/// asker; the arena stops on it).
type Answer = Option<Vec<f64>>;

/// The gathering point of one evaluator agent's players (see the module's text).
#[derive(Default)]
pub struct Batcher {
    state: Mutex<Gather>,
    wake: Condvar,
    calls: AtomicU64,
    positions: AtomicU64,
}

#[derive(Default)]
struct Gather {
    /// Players inside a move (their searches may still ask).
    searching: usize,
    /// Threads waiting for values: their requests pending or being asked.
    blocked: usize,
    /// Requests not yet taken by an asker.
    pending: Vec<(u64, Vec<Position>)>,
    pending_positions: usize,
    /// Whether a thread is asking the function now.
    asking: bool,
    next_id: u64,
    answers: HashMap<u64, Answer>,
}

/// Marks a player as searching for as long as it lives (see [`Batcher::searching`]).
pub struct Searching<'a>(&'a Batcher);

impl Drop for Searching<'_> {
    fn drop(&mut self) {
        let mut g = self.0.lock();
        g.searching = g.searching.saturating_sub(1);
        drop(g);
        // One player fewer may complete the batch the others wait on.
        self.0.wake.notify_all();
    }
}

impl Batcher {
    fn lock(&self) -> MutexGuard<'_, Gather> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A player starts a move: until the guard drops, a batch waits for its requests too.
    pub fn searching(&self) -> Searching<'_> {
        self.lock().searching += 1;
        Searching(self)
    }

    /// The values of `positions`, asked together with the requests of the other games
    /// (this thread may be the one that asks: `ask` values a whole gathered list, in calls
    /// of up to `batch` positions, and returns `None` when the function failed).
    pub fn request(
        &self,
        positions: &[Position],
        batch: usize,
        ask: impl Fn(&[Position]) -> Answer,
    ) -> Answer {
        let mut g = self.lock();
        let id = g.next_id;
        g.next_id += 1;
        g.pending.push((id, positions.to_vec()));
        g.pending_positions += positions.len();
        g.blocked += 1;
        loop {
            if let Some(answer) = g.answers.remove(&id) {
                return answer;
            }
            let full = g.pending_positions >= batch || g.blocked >= g.searching;
            if !g.asking && !g.pending.is_empty() && full {
                let requests = std::mem::take(&mut g.pending);
                g.pending_positions = 0;
                g.asking = true;
                drop(g);
                let all: Vec<Position> = requests.iter().flat_map(|(_, p)| p.clone()).collect();
                // A panic must not leave the others waiting on an asker that is gone.
                let values = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| ask(&all)))
                    .unwrap_or(None);
                let chunks = all.len().div_ceil(batch.max(1)) as u64;
                self.calls.fetch_add(chunks, Ordering::Relaxed);
                self.positions
                    .fetch_add(all.len() as u64, Ordering::Relaxed);
                g = self.lock();
                let mut at = 0;
                for (rid, ps) in &requests {
                    let answer = values.as_ref().map(|v| v[at..at + ps.len()].to_vec());
                    at += ps.len();
                    g.answers.insert(*rid, answer);
                }
                g.blocked -= requests.len();
                g.asking = false;
                self.wake.notify_all();
                continue;
            }
            g = self.wake.wait(g).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Calls of the user's function so far and the positions they valued.
    pub fn stats(&self) -> (u64, u64) {
        (
            self.calls.load(Ordering::Relaxed),
            self.positions.load(Ordering::Relaxed),
        )
    }
}
