//! TD(lambda) self-play on afterstates, in lanes that any number of threads can run.
//!
//! A run's games are dealt to a fixed number of lanes (a setting of the recipe, never of the
//! machine): each round, every lane plays its share of the round's games on its own copy of
//! the weights, starting from the shared weights, and at the end of the round the lanes'
//! changes are combined in lane order. Threads only decide which lane runs where, so a seed
//! gives the same network, bit for bit, on 1 thread or 64.
//!
//! How the changes combine. A weight that only one lane moved takes that lane's change, as
//! if the games had been played one after the other. A weight that many lanes moved needs
//! care: the weights of the opening are indexed by every game, and each lane has already
//! pulled their value most of the way to its target (a step moves a position's value by
//! about `rate x 2 x tuples` of its error, more than half), so adding K lanes' changes
//! throws the value K times as far: with four or more it diverges. So a weight takes at
//! most [`SUMMED_LANES`] lanes' worth: the mean of its lanes' changes times
//! `min(lanes that moved it, SUMMED_LANES)`. Two lanes summed is what the trainer did on two
//! threads before lanes existed, and reached the recipe's 97% and more.
//!
//! Two learning rules: plain TD (one step size for every weight) and temporal coherence
//! learning (TCL, Beal & Smith 1999; with the exponential transfer of Bagheri, Thill, Koch
//! and Konen 2015): each weight keeps the sum of its recommended changes and the sum of
//! their sizes, and steps by `rate x exp(beta (|sum| / sizes - 1))`, so weights whose
//! updates keep agreeing learn fast and those that flip-flop slow down.

use super::config::{Explore, NTupleConfig};
use super::error::Diverged;
use super::guide::{Guide, Scratch, guided_opening};
use super::lanes::{Combiner, Fanout, Lane, LaneChange, TailAverage, Weights, combine};
use super::trace::{Through, Traced, learn, push};
use connect4_engine::agents::{AgentBoard, AgentFactory};
use connect4_engine::game::{BitBoard, Geometry, Player, Position};
use connect4_engine::ml::ntuple::{Compact, NTupleNetwork, kernel};
use connect4_engine::progress::Progress;
use connect4_engine::seed::{Stream, derive_seed};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// How far back traces reach: states whose share of the newest's credit falls below this
/// are dropped.
const TRACE_CUT: f32 = 0.01;

/// A sum before the squash past which a value is 1 (or -1) in `f32` (`tanh` of 9 already
/// is). Self-play has collapsed when every position of one stone is past it on the same side:
/// the network then says every first move wins (or every one loses), which no learning run
/// says (Connect Four's first moves range from a win to losses), and what the summing
/// trainer's weights did on four or more threads. One value past it alone is no sign: the
/// live weights of a two-lane run that learned well (seed 20) took the centre opening, a
/// first player's win, to a sum of 12.4 on the way (its tail average is what it hands over).
const SATURATED: f32 = 9.0;

/// Where self-play's time went beyond playing: what lanes cost over one long game. On a
/// machine with many cores this is what keeps the speed from growing with them, so runs
/// report it (`NAME.report.json`, and `c4 train ntuple` prints it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SyncTimes {
    /// Wall seconds of the rounds' play (the lanes' games and hand-overs, threads waiting
    /// for the slowest included).
    pub play_seconds: f64,
    /// Thread-seconds the lanes spent handing their changes over (summed over threads).
    pub hand_over_thread_seconds: f64,
    /// Wall seconds between rounds: combining the changes, refreshing every thread's copy,
    /// the divergence check and the tail average.
    pub combine_seconds: f64,
    /// Rounds played.
    pub rounds: u64,
    /// Thread-seconds the threads spent on their lanes (games and hand-overs).
    pub lane_thread_seconds: f64,
    /// Thread-seconds the threads spent waiting for the slowest thread of each round: the
    /// lanes' imbalance (and any pause of the machine) at this thread count, the cost beside
    /// combining that keeps a thread a lane from using all its cores.
    pub waiting_thread_seconds: f64,
}

impl SyncTimes {
    /// Adds another stretch of self-play's times.
    pub fn add(&mut self, o: &SyncTimes) {
        self.play_seconds += o.play_seconds;
        self.hand_over_thread_seconds += o.hand_over_thread_seconds;
        self.combine_seconds += o.combine_seconds;
        self.rounds += o.rounds;
        self.lane_thread_seconds += o.lane_thread_seconds;
        self.waiting_thread_seconds += o.waiting_thread_seconds;
    }

    /// The costs in one line, as `c4 train ntuple` prints them (as
    /// [`super::CurvePoint::summary`] does a curve point): the share of self-play's wall time
    /// between rounds, the threads' time handing over and their share of time waiting for
    /// the slowest thread of a round; none when no round was played.
    pub fn summary(&self) -> Option<String> {
        let total = self.play_seconds + self.combine_seconds;
        (self.rounds > 0 && total > 0.0).then(|| {
            format!(
                "lanes: {} rounds; combining {:.1} s ({:.1}% of self-play, {:.1} ms a round), handing over {:.1} thread-s ({:.1} ms a round); threads waiting for the slowest {:.1}% of their time",
                self.rounds,
                self.combine_seconds,
                100.0 * self.combine_seconds / total,
                1e3 * self.combine_seconds / self.rounds as f64,
                self.hand_over_thread_seconds,
                1e3 * self.hand_over_thread_seconds / self.rounds as f64,
                100.0 * self.waiting_thread_seconds
                    / (self.lane_thread_seconds + self.waiting_thread_seconds).max(f64::MIN_POSITIVE),
            )
        })
    }
}

/// Where self-play feeds its tail average: the average and the first game it takes.
pub(super) type TailFeed<'a> = Option<(&'a mut TailAverage, usize)>;

/// One worker's reusable buffers.
#[derive(Default)]
pub(super) struct Worker {
    /// The weights (dense numbers, see `Compact`) of each candidate afterstate.
    candidates: Vec<Vec<u32>>,
    /// What the candidate afterstates' network slots have in common (see
    /// `NTupleNetwork::afterstate_common`), and its dense numbers.
    common: Vec<u32>,
    common_numbers: Vec<u32>,
    /// Each candidate afterstate's network slots (its dense numbers are `candidates`).
    after: Vec<Vec<u32>>,
    /// The afterstates still learning, oldest first.
    trace: Vec<Traced>,
    /// Spare slot vectors.
    spare: Vec<Vec<u32>>,
    /// The guided opening's scratch.
    guided: Scratch,
}

/// The games of the round that contains game `g` of a recipe: rounds of `lanes x
/// lane_games` games counted from game 0, the last one cut at `to`.
pub(super) fn round_of(config: &NTupleConfig, g: usize, to: usize) -> std::ops::Range<usize> {
    let round = config.round_games();
    let start = g / round * round;
    start..(start + round).min(to)
}

/// Plays `games` (by number) in the recipe's lanes on the threads of `pool` (one copy of the
/// weights a thread, no more copies than lanes) and adds what they learn to `weights`; `net`
/// supplies the tuples. Rounds are counted from game 0, so a range that starts and ends at
/// round boundaries (or at the run's last game) gives the same weights however the run is
/// cut into calls. Returns where the time went.
#[allow(clippy::too_many_arguments)] // what a stretch of games needs, each used as it is
pub(super) fn self_play<B: AgentBoard>(
    config: &NTupleConfig,
    net: &NTupleNetwork<B>,
    weights: &mut Weights,
    games: std::ops::Range<usize>,
    pool: &rayon::ThreadPool,
    guide: &Guide,
    agent_guide: Option<&AgentFactory<B>>,
    tail: TailFeed,
    progress: &dyn Progress,
) -> Result<SyncTimes, Diverged> {
    let (from, to) = (games.start, games.end);
    let lanes = config.lanes.max(1);
    let threads = pool.current_num_threads().clamp(1, lanes);
    let openings = one_stone_slots(net, &weights.compact);
    // The tail average of the dense weights, given back to the caller's (the network's
    // slots) at the end.
    let mut dense_tail = tail.as_ref().map(|(avg, _)| TailAverage {
        mean: if avg.count > 0 {
            weights.compact.gather(&avg.mean)
        } else {
            Vec::new()
        },
        count: avg.count,
    });
    let mut combiner = Combiner::default();
    let mut own: Vec<(Lane, Worker)> = (0..threads)
        .map(|_| (Lane::new(weights), Worker::default()))
        .collect();
    let mut changes: Vec<LaneChange> = (0..lanes).map(|_| LaneChange::default()).collect();
    let mut times = SyncTimes::default();
    let mut start = from;
    while start < to {
        let end = round_of(config, start, to).end;
        let t0 = Instant::now();
        {
            let shared = &*weights;
            let compact = &shared.compact;
            // Lane k plays the round's games whose number is k modulo the lanes. Lanes go to
            // the copies as they come free, the next lane in order to whichever copy has
            // handed its last one over: a copy that has handed over equals the shared weights
            // again, so which copy plays a lane changes nothing it learns, and no thread sits
            // idle while lanes wait (dealt out in turn, two threads of eight lanes each
            // waited 7 to 14% of their time for the other; models/README.md).
            let next = AtomicUsize::new(0);
            let outs: Vec<Mutex<&mut LaneChange>> = changes.iter_mut().map(Mutex::new).collect();
            // One task a copy, on the run's pool (its threads wait between rounds: spawning
            // them again every round cost up to milliseconds a round).
            let done: Vec<(f64, f64)> = pool.install(|| {
                own.par_iter_mut()
                    .with_max_len(1)
                    .map(|(lane, worker)| {
                        let t = Instant::now();
                        let mut handing = 0.0;
                        loop {
                            let k = next.fetch_add(1, Ordering::Relaxed);
                            let Some(out) = outs.get(k) else { break };
                            let first = start + (k + lanes - start % lanes) % lanes;
                            let mut played = 0;
                            for g in (first..end).step_by(lanes) {
                                self_play_game(
                                    config,
                                    net,
                                    compact,
                                    lane,
                                    (guide, agent_guide),
                                    g,
                                    worker,
                                );
                                played += 1;
                            }
                            // Once a lane, not once a game: the progress bar sits behind
                            // locks that every thread would queue for.
                            progress.advance(played);
                            let h = Instant::now();
                            // Each lane's list is taken once, by the copy that played it.
                            let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
                            lane.hand_over(shared, &mut out);
                            handing += h.elapsed().as_secs_f64();
                        }
                        (handing, t.elapsed().as_secs_f64())
                    })
                    .collect()
            });
            let handing: f64 = done.iter().map(|&(h, _)| h).sum();
            let slowest = done.iter().map(|&(_, b)| b).fold(0.0, f64::max);
            for &(_, busy) in &done {
                times.lane_thread_seconds += busy;
                times.waiting_thread_seconds += slowest - busy;
            }
            times.hand_over_thread_seconds += handing;
        }
        let t1 = Instant::now();
        times.play_seconds += (t1 - t0).as_secs_f64();
        times.rounds += 1;
        let diverged = |what: String| Diverged {
            first: start,
            last: end - 1,
            what,
        };
        // The combined weights go to every thread's copy and, in the tail, into the average.
        let fanout = Fanout {
            copies: own.iter_mut().map(|(lane, _)| lane).collect(),
            tail: match (dense_tail.as_mut(), tail.as_ref()) {
                (Some(avg), Some((_, first))) if end > *first => Some(avg),
                _ => None,
            },
        };
        pool.install(|| combine(weights, &changes, threads, &mut combiner, fanout))
            .map_err(|e| diverged(e.to_string()))?;
        let sums: Vec<f32> = openings.iter().map(|(_, a)| weights.raw(a)).collect();
        if sums.iter().all(|&r| r > SATURATED) || sums.iter().all(|&r| r < -SATURATED) {
            let each: Vec<String> = openings
                .iter()
                .zip(&sums)
                .map(|((c, _), r)| format!("{c}: {r:.1}"))
                .collect();
            return Err(diverged(format!(
                "every position of one stone sums past {SATURATED} before the squash ({}), so \
                 every first move has the value {}",
                each.join(", "),
                kernel::squash(sums[0])
            )));
        }
        times.combine_seconds += t1.elapsed().as_secs_f64();
        start = end;
    }
    if let (Some((avg, _)), Some(dense)) = (tail, dense_tail)
        && dense.count > 0
    {
        if avg.mean.len() != net.len() {
            // The first snapshot: the weights no board indexes never move.
            avg.mean = net.weights().to_vec();
        }
        weights.compact.scatter(&dense.mean, &mut avg.mean);
        avg.count = dense.count;
    }
    Ok(times)
}

/// The weights (dense numbers) of each position of one stone, with its move string: what a
/// diverging run saturates first.
fn one_stone_slots<B: BitBoard>(
    net: &NTupleNetwork<B>,
    compact: &Compact,
) -> Vec<(String, Vec<u32>)> {
    let geom = net.geometry();
    (0..geom.width())
        .map(|c| {
            let mut pos = Position::new(geom);
            pos.play_col(c);
            let mut active = Vec::new();
            net.active_into(&pos, &mut active);
            let mut numbers = Vec::new();
            compact.numbers_into(&active, &mut numbers);
            ((c + 1).to_string(), numbers)
        })
        .collect()
}

/// The columns (bit c for column c) of which `cells` holds a cell.
fn column_set<B: BitBoard>(geom: Geometry<B>, cells: B) -> u16 {
    (0..geom.width())
        .filter(|&c| cells & geom.column_mask(c) != B::ZERO)
        .fold(0, |s, c| s | 1 << c)
}

/// One self-play game, learning as it goes.
pub(super) fn self_play_game<B: AgentBoard>(
    config: &NTupleConfig,
    net: &NTupleNetwork<B>,
    compact: &Compact,
    weights: &mut Lane,
    (guide, agent_guide): (&Guide, Option<&AgentFactory<B>>),
    g: usize,
    w: &mut Worker,
) {
    let geom = net.geometry();
    let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(
        config.seed,
        Stream::NTupleSelfPlay,
        &[g as u64],
    ));
    let rate = config.decay(config.rate, config.rate_final, g);
    let epsilon = config.decay(config.epsilon, config.epsilon_final, g);
    let opening = crate::arena::random_opening(geom, config.opening, &mut rng);
    let mut pos = Position::new(geom);
    for c in opening {
        pos.play_col(c);
    }
    if pos.last_move_won() || pos.is_full() {
        return;
    }
    if !guided_opening(
        config,
        net,
        compact,
        weights,
        guide,
        agent_guide,
        g,
        &mut pos,
        &mut w.guided,
    ) {
        return;
    }
    w.after.resize_with(geom.width(), Vec::new);
    // The positions after the first move: their common slots read afresh; after each move,
    // carried from the chosen afterstate.
    let mut common_ready = false;
    w.spare.append(&mut w.candidates);
    w.candidates
        .resize_with(geom.width(), || w.spare.pop().unwrap_or_default());
    for t in w.trace.drain(..) {
        w.spare.push(t.slots);
    }
    let horizon = if config.lambda > 0.0 {
        // The C library's logarithm could round differently on another system (see
        // `kernel::squash`): the crate's, the same everywhere.
        (libm::logf(TRACE_CUT) / libm::logf(config.lambda)).ceil() as usize + 1
    } else {
        1
    };
    let mut values = vec![0.0f32; geom.width()];
    let mut ply = 0usize;
    loop {
        ply += 1;
        let mover = pos.side_to_move();
        let sign = if mover == Player::First { 1.0 } else { -1.0 };
        let mut best = (usize::MAX, f32::NEG_INFINITY);
        let allowed = if config.safe || config.explore == Explore::Safe {
            pos.one_move_rule_cells()
        } else {
            pos.possible()
        };
        let legal = pos.legal_columns().fold(0u16, |m, c| m | 1 << c);
        // The exploring move is drawn before any value is read (the draws are the same as
        // when it came after them: no value draws anything), so that only the values a move
        // can use are computed: an exploring move's own, or a greedy move's candidates,
        // which under the one-move rule are its allowed columns only. Reading a value costs
        // tens of scattered memory reads; the others were computed and never used.
        let explore = rng.r#gen::<f32>() < epsilon;
        let explored = explore.then(|| {
            let from = match config.explore {
                Explore::Any => legal,
                Explore::Safe => legal & column_set(geom, allowed),
            };
            let cols: Vec<usize> = (0..geom.width()).filter(|&c| from >> c & 1 == 1).collect();
            cols[rng.gen_range(0..cols.len())]
        });
        // The values (first player's view) the move needs, slots kept for the chosen.
        // (Comparing the sums before the squash instead, which orders columns the same
        // except where the squash rounds several sums to 1, saved little and trained a
        // network that lost 79 of 500 games as first player: the depth-1 agent compares
        // values, and a greedy choice among values of 1 must be made as it makes it.)
        for c in pos.legal_columns() {
            let greedy_ok = !config.safe || allowed & geom.column_mask(c) != B::ZERO;
            let needed = match explored {
                Some(e) => c == e,
                None => greedy_ok,
            };
            if !needed {
                continue;
            }
            let after = pos.after(c).expect("a legal column");
            values[c] = if after.last_move_won() {
                sign
            } else if after.is_full() {
                0.0
            } else {
                if !common_ready {
                    net.afterstate_common(&pos, &mut w.common);
                    compact.numbers_into(&w.common, &mut w.common_numbers);
                    common_ready = true;
                }
                compact.afterstate_into(
                    net,
                    &pos,
                    &w.common,
                    &w.common_numbers,
                    c,
                    &mut w.after[c],
                    &mut w.candidates[c],
                );
                weights.value(&w.candidates[c])
            };
            if greedy_ok && sign * values[c] > best.1 {
                best = (c, sign * values[c]);
            }
        }
        let col = explored.unwrap_or(best.0);
        let value = values[col];
        let after = pos.after(col).expect("a legal column");
        let terminal = after.last_move_won() || after.is_full();
        let through = Through::of(explore, config.learn_explored, mover);
        learn(
            &mut w.trace,
            &mut w.spare,
            weights,
            config,
            through,
            value,
            ply,
            rate,
        );
        if terminal {
            break;
        }
        // The chosen afterstate, read for the other side, is what the next move's
        // candidates have in common (a move's slots are computed whenever it is played).
        compact.other_set(
            net,
            &w.after[col],
            &w.candidates[col],
            &mut w.common,
            &mut w.common_numbers,
        );
        let slots = std::mem::replace(&mut w.candidates[col], w.spare.pop().unwrap_or_default());
        weights.mark(&slots);
        push(
            &mut w.trace,
            &mut w.spare,
            Traced { slots, value, ply },
            horizon,
        );
        pos = after;
    }
}
