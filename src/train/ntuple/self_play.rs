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

use super::{Explore, LearnExplored, NTupleConfig, Rule};
use crate::game::{Player, Position};
use crate::ml::ntuple::NTupleNetwork;
use crate::progress::Progress;
use crate::seed::{Stream, derive_seed};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// How far back traces reach: states whose share of the newest's credit falls below this
/// are dropped.
const TRACE_CUT: f32 = 0.01;

/// The exponential transfer's steepness (Bagheri et al. 2015 use 2.7).
const TCL_BETA: f32 = 2.7;

/// The most lanes' worth of change one weight takes from a round (see the module docs).
pub const SUMMED_LANES: f32 = 2.0;

/// The shared weights self-play moves, and TCL's two accumulators per weight when the rule
/// keeps them.
#[derive(Clone)]
pub(super) struct Weights {
    weights: Vec<f32>,
    /// TCL: the sum of each weight's recommended changes and the sum of their sizes.
    tcl: Option<(Vec<f32>, Vec<f32>)>,
}

/// The TCL accumulators as a checkpoint stores them.
pub(super) type TclState = (Vec<f32>, Vec<f32>);

impl Weights {
    /// The weights of `net`, with TCL accumulators for `rule` (from `tcl` if resuming).
    pub(super) fn new(net: &NTupleNetwork, rule: Rule, tcl: Option<&TclState>) -> Self {
        let n = net.len();
        Weights {
            weights: huge_copy(net.weights()),
            tcl: match (rule, tcl) {
                (Rule::Td, _) => None,
                (Rule::Tcl, Some((s, a))) if s.len() == n && a.len() == n => {
                    Some((s.clone(), a.clone()))
                }
                (Rule::Tcl, _) => Some((vec![0.0; n], vec![0.0; n])),
            },
        }
    }

    /// Copies the weights into `net`.
    pub(super) fn copy_into(&self, net: &mut NTupleNetwork) {
        net.weights_mut().copy_from_slice(&self.weights);
    }

    /// The TCL accumulators, for a checkpoint.
    pub(super) fn tcl_state(&self) -> Option<TclState> {
        self.tcl.clone()
    }

    /// The sum before the squash of the position whose weights are `active`.
    fn raw(&self, active: &[u32]) -> f32 {
        active.iter().map(|&i| self.weights[i as usize]).sum()
    }
}

/// A copy of `src` in memory the kernel is asked to back with huge pages. Self-play reads and
/// writes tens of megabytes of weights at random: with 4 KiB pages nearly every access also
/// misses the address-translation cache, with 2 MiB pages the reachable weights fit it.
fn huge_copy(src: &[f32]) -> Vec<f32> {
    let mut v: Vec<f32> = Vec::with_capacity(src.len());
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_mut_ptr() as usize;
        let end = start + v.capacity() * std::mem::size_of::<f32>();
        let (from, to) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if to > from {
            // SAFETY: [from, to) lies inside the vector's own allocation, which is live and
            // not yet touched; madvise only gives the kernel a hint about that range and
            // changes no byte of it (a refusal is harmless and ignored).
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
            }
        }
    }
    v.extend_from_slice(src);
    v
}

/// One thread's working copy of the weights (and TCL's accumulators), equal to the shared
/// weights at the start of each lane, and a bit per weight the lane moved. A full copy
/// rather than a list of changes on top of the shared weights: a position's value then
/// reads one array, not two (reading two halved self-play's speed).
pub(super) struct Lane {
    weights: Vec<f32>,
    tcl: Option<(Vec<f32>, Vec<f32>)>,
    moved: Vec<u64>,
}

impl Lane {
    /// A copy of `shared`.
    pub(super) fn new(shared: &Weights) -> Self {
        Lane {
            weights: huge_copy(&shared.weights),
            tcl: shared
                .tcl
                .as_ref()
                .map(|(s, a)| (huge_copy(s), huge_copy(a))),
            moved: vec![0; shared.weights.len().div_ceil(64)],
        }
    }

    /// Hands over what the lane changed (its moved weights, in increasing order) into
    /// `out`, and makes the copy equal to `shared` again.
    fn hand_over(&mut self, shared: &Weights, out: &mut LaneChange) {
        out.clear();
        for word in 0..self.moved.len() {
            let mut bits = std::mem::take(&mut self.moved[word]);
            while bits != 0 {
                let i = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                out.slots.push(i as u32);
                out.weights.push(self.weights[i] - shared.weights[i]);
                self.weights[i] = shared.weights[i];
                if let (Some((s, a)), Some((s0, a0))) = (&mut self.tcl, &shared.tcl) {
                    out.tcl.push((s[i] - s0[i], a[i] - a0[i]));
                    (s[i], a[i]) = (s0[i], a0[i]);
                }
            }
        }
    }

    /// Takes `shared`'s values at `slots` (the weights the last round moved).
    fn refresh(&mut self, shared: &Weights, slots: &[u32]) {
        for &i in slots {
            let i = i as usize;
            self.weights[i] = shared.weights[i];
            if let (Some((s, a)), Some((s0, a0))) = (&mut self.tcl, &shared.tcl) {
                (s[i], a[i]) = (s0[i], a0[i]);
            }
        }
    }
}

/// The weights as one lane sees them: its thread's copy.
pub(super) struct LaneView<'a> {
    lane: &'a mut Lane,
}

impl LaneView<'_> {
    /// The value (first player's view) of the position whose weights are `active`. Four
    /// running sums instead of one: the additions of one sum wait on each other, four
    /// chains overlap (a quarter of self-play's time went to that wait).
    #[inline(always)]
    fn value(&self, active: &[u32]) -> f32 {
        let w = &self.lane.weights;
        let mut acc = [0.0f32; 4];
        let mut quads = active.chunks_exact(4);
        for q in &mut quads {
            for k in 0..4 {
                acc[k] += w[q[k] as usize];
            }
        }
        let rest: f32 = quads.remainder().iter().map(|&i| w[i as usize]).sum();
        ((acc[0] + acc[1]) + (acc[2] + acc[3]) + rest).tanh()
    }

    /// Moves the weights at `active` by `change` (TCL scales each weight's share by its own
    /// coherence), and marks them moved.
    #[inline(always)]
    fn step(&mut self, active: &[u32], change: f32) {
        let lane = &mut *self.lane;
        for &i in active {
            lane.moved[i as usize >> 6] |= 1 << (i & 63);
        }
        match &mut lane.tcl {
            None => {
                for &i in active {
                    lane.weights[i as usize] += change;
                }
            }
            Some((sum, size)) => {
                for &i in active {
                    let i = i as usize;
                    let (n, a) = (sum[i], size[i]);
                    let coherence = if a > 0.0 { n.abs() / a } else { 1.0 };
                    lane.weights[i] += change * (TCL_BETA * (coherence - 1.0)).exp();
                    sum[i] = n + change;
                    size[i] = a + change.abs();
                }
            }
        }
    }
}

/// What one lane changed in one round: the moved weights in increasing order and, for
/// each, its change (and TCL's accumulators' changes).
#[derive(Default)]
struct LaneChange {
    slots: Vec<u32>,
    weights: Vec<f32>,
    tcl: Vec<(f32, f32)>,
}

impl LaneChange {
    fn clear(&mut self) {
        self.slots.clear();
        self.weights.clear();
        self.tcl.clear();
    }

    /// The index of this lane's first entry at or past `slot`.
    fn from(&self, slot: usize) -> usize {
        self.slots.partition_point(|&s| (s as usize) < slot)
    }
}

/// Why self-play stopped: the weights left the range any sane run keeps them in.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "self-play diverged in the round of games {first} to {last}: {what}; the recipe's steps \
     are too large for it (lower rate, or fewer lanes)"
)]
pub struct Diverged {
    /// The round's first game.
    pub first: usize,
    /// The round's last game.
    pub last: usize,
    /// What was found.
    pub what: String,
}

/// The largest sum before the squash that a position of one stone may reach. `tanh` of 9
/// is already 1 in `f32`; a run that learns keeps the opening far inside that (the shipped
/// network's one-stone values lie within +-0.5), one that diverges passes it within a few
/// rounds.
const SATURATED: f32 = 12.0;

/// One weight's combined change: how many lanes moved it and the sums of their changes.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    slot: u32,
    lanes: u32,
    weight: f32,
    tcl: (f32, f32),
}

/// Merges two lists sorted by slot into `out`, adding the entries of a slot both hold.
fn merge_sorted(a: &[Entry], b: &[Entry], out: &mut Vec<Entry>) {
    out.clear();
    out.reserve(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        if x.slot < y.slot {
            out.push(x);
            i += 1;
        } else if y.slot < x.slot {
            out.push(y);
            j += 1;
        } else {
            out.push(Entry {
                slot: x.slot,
                lanes: x.lanes + y.lanes,
                weight: x.weight + y.weight,
                tcl: (x.tcl.0 + y.tcl.0, x.tcl.1 + y.tcl.1),
            });
            i += 1;
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

/// Combines the lanes' changes of one round into `shared`. The lanes' sorted lists are
/// merged in pairs, lane 0 with 1, 2 with 3, then those results in pairs, and so on: a
/// fixed order of additions, so the result does not depend on the threads, and every pass
/// reads and writes its lists in order. The weights are cut into `parts` ranges merged on
/// as many threads, and each moved weight is then written once. Returns how many weights
/// moved; fails on one that is not finite.
fn combine(
    shared: &mut Weights,
    lanes: &[LaneChange],
    parts: usize,
    moved: &mut Vec<Vec<u32>>,
) -> Result<usize, String> {
    let n = shared.weights.len();
    let per = n.div_ceil(parts.max(1)).max(1);
    let mut tcl: Vec<Option<(&mut [f32], &mut [f32])>> = match &mut shared.tcl {
        Some((s, a)) => s
            .chunks_mut(per)
            .zip(a.chunks_mut(per))
            .map(|(s, a)| Some((s, a)))
            .collect(),
        None => (0..n.div_ceil(per)).map(|_| None).collect(),
    };
    moved.resize_with(n.div_ceil(per), Vec::new);
    let results: Vec<Result<usize, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = shared
            .weights
            .chunks_mut(per)
            .zip(tcl.iter_mut())
            .zip(moved.iter_mut())
            .enumerate()
            .map(|(k, ((w, tcl), moved))| {
                s.spawn(move || {
                    let base = k * per;
                    let end = base + w.len();
                    let mut level: Vec<Vec<Entry>> = lanes
                        .iter()
                        .map(|l| {
                            (l.from(base)..l.from(end))
                                .map(|e| Entry {
                                    slot: l.slots[e],
                                    lanes: 1,
                                    weight: l.weights[e],
                                    tcl: l.tcl.get(e).copied().unwrap_or((0.0, 0.0)),
                                })
                                .collect()
                        })
                        .collect();
                    while level.len() > 1 {
                        let mut next = Vec::with_capacity(level.len().div_ceil(2));
                        let mut it = level.into_iter();
                        while let Some(a) = it.next() {
                            match it.next() {
                                Some(b) => {
                                    let mut out = Vec::new();
                                    merge_sorted(&a, &b, &mut out);
                                    next.push(out);
                                }
                                None => next.push(a),
                            }
                        }
                        level = next;
                    }
                    let merged = level.pop().unwrap_or_default();
                    moved.clear();
                    for e in &merged {
                        moved.push(e.slot);
                        let share = (SUMMED_LANES / e.lanes as f32).min(1.0);
                        let i = e.slot as usize - base;
                        w[i] += e.weight * share;
                        if let Some((sum, size)) = tcl.as_mut() {
                            sum[i] += e.tcl.0 * share;
                            size[i] += e.tcl.1 * share;
                        }
                        if !w[i].is_finite() {
                            return Err(format!("weight {} is {}", e.slot, w[i]));
                        }
                    }
                    Ok(merged.len())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a combining thread panicked".into()))
            })
            .collect()
    });
    results.into_iter().sum()
}

/// The running mean of the weights taken at the end of every round of self-play from a
/// given game on (the tail average of [`NTupleConfig::tail`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TailAverage {
    /// The mean so far (empty before the first snapshot).
    pub mean: Vec<f32>,
    /// Snapshots in the mean.
    pub count: u64,
}

impl TailAverage {
    /// Adds one snapshot of the weights to the mean; only `slots` can have changed since
    /// the first snapshot (the others no board indexes).
    fn add(&mut self, weights: &[f32], slots: &[u32]) {
        self.count += 1;
        if self.mean.len() != weights.len() {
            self.mean = weights.to_vec();
            self.count = 1;
            return;
        }
        let k = 1.0 / self.count as f32;
        for &i in slots {
            let (m, w) = (&mut self.mean[i as usize], weights[i as usize]);
            *m += (w - *m) * k;
        }
    }
}

/// Where self-play feeds its tail average: the average and the first game it takes.
pub(super) type TailFeed<'a> = Option<(&'a mut TailAverage, usize)>;

/// One worker's reusable buffers.
#[derive(Default)]
pub(super) struct Worker {
    /// Active slots of each candidate afterstate.
    candidates: Vec<Vec<u32>>,
    /// The afterstates still learning, oldest first, with their value when reached.
    trace: Vec<(Vec<u32>, f32)>,
    /// Spare slot vectors.
    spare: Vec<Vec<u32>>,
}

/// The games of the round that contains game `g` of a recipe: rounds of `lanes x
/// lane_games` games counted from game 0, the last one cut at `to`.
pub(super) fn round_of(config: &NTupleConfig, g: usize, to: usize) -> std::ops::Range<usize> {
    let round = config.round_games();
    let start = g / round * round;
    start..(start + round).min(to)
}

/// Plays `games` (by number) in the recipe's lanes on up to `threads` threads and adds what
/// they learn to `weights`; `net` supplies the tuples. Rounds are counted from game 0, so
/// a range that starts and ends at round boundaries (or at the run's last game) gives the
/// same weights however the run is cut into calls.
pub(super) fn self_play(
    config: &NTupleConfig,
    net: &NTupleNetwork,
    weights: &mut Weights,
    games: std::ops::Range<usize>,
    threads: usize,
    mut tail: TailFeed,
    progress: &dyn Progress,
) -> Result<(), Diverged> {
    let (from, to) = (games.start, games.end);
    let lanes = config.lanes.max(1);
    let threads = threads.clamp(1, lanes);
    let slots = net.reachable_slots();
    let openings = one_stone_slots(net);
    let mut moved = Vec::new();
    let mut own: Vec<(Lane, Worker)> = (0..threads)
        .map(|_| (Lane::new(weights), Worker::default()))
        .collect();
    let mut changes: Vec<LaneChange> = (0..lanes).map(|_| LaneChange::default()).collect();
    let mut start = from;
    while start < to {
        let end = round_of(config, start, to).end;
        {
            let shared = &*weights;
            // Thread j runs lanes j, j + threads, ...; lane k plays the round's games whose
            // number is k modulo the lanes.
            let mut mine: Vec<Vec<(usize, &mut LaneChange)>> =
                (0..threads).map(|_| Vec::new()).collect();
            for (k, c) in changes.iter_mut().enumerate() {
                mine[k % threads].push((k, c));
            }
            std::thread::scope(|s| {
                for ((lane, worker), mine) in own.iter_mut().zip(mine) {
                    s.spawn(move || {
                        for (k, out) in mine {
                            let first = start + (k + lanes - start % lanes) % lanes;
                            let mut view = LaneView { lane };
                            for g in (first..end).step_by(lanes) {
                                self_play_game(config, net, &mut view, g, worker);
                                progress.advance(1);
                            }
                            lane.hand_over(shared, out);
                        }
                    });
                }
            });
        }
        let diverged = |what: String| Diverged {
            first: start,
            last: end - 1,
            what,
        };
        combine(weights, &changes, threads, &mut moved).map_err(diverged)?;
        // Every thread's copy takes the new values of the weights the round moved.
        let (shared, moved) = (&*weights, &moved);
        std::thread::scope(|s| {
            for (lane, _) in own.iter_mut() {
                s.spawn(move || {
                    for m in moved {
                        lane.refresh(shared, m);
                    }
                });
            }
        });
        for (c, active) in &openings {
            let raw = weights.raw(active);
            if raw.abs() > SATURATED {
                return Err(diverged(format!(
                    "the one-stone position {c} sums to {raw:.1} before the squash (value {:.4})",
                    raw.tanh()
                )));
            }
        }
        if let Some((avg, first)) = tail.as_mut()
            && end > *first
        {
            avg.add(&weights.weights, &slots);
        }
        start = end;
    }
    Ok(())
}

/// The weights of each position of one stone, with its move string: what a diverging run
/// saturates first.
fn one_stone_slots(net: &NTupleNetwork) -> Vec<(String, Vec<u32>)> {
    let geom = net.geometry();
    (0..geom.width())
        .map(|c| {
            let mut pos = Position::new(geom);
            pos.play_col(c);
            let mut active = Vec::new();
            net.active_into(&pos, &mut active);
            ((c + 1).to_string(), active)
        })
        .collect()
}

/// The columns (bit c for column c) of which `cells` holds a cell.
fn column_set(geom: crate::game::Geometry, cells: u64) -> u16 {
    (0..geom.width())
        .filter(|&c| cells & geom.column_mask(c) != 0)
        .fold(0, |s, c| s | 1 << c)
}

/// One self-play game, learning as it goes.
pub(super) fn self_play_game(
    config: &NTupleConfig,
    net: &NTupleNetwork,
    weights: &mut LaneView,
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
    w.spare.append(&mut w.candidates);
    w.candidates
        .resize_with(geom.width(), || w.spare.pop().unwrap_or_default());
    for (t, _) in w.trace.drain(..) {
        w.spare.push(t);
    }
    let horizon = if config.lambda > 0.0 {
        (TRACE_CUT.ln() / config.lambda.ln()).ceil() as usize + 1
    } else {
        1
    };
    let mut values = vec![0.0f32; geom.width()];
    loop {
        let mover = pos.side_to_move();
        let sign = if mover == Player::First { 1.0 } else { -1.0 };
        // Every legal afterstate's value (first player's view), slots kept for the chosen.
        let mut legal = 0u16;
        let mut best = (usize::MAX, f32::NEG_INFINITY);
        let allowed = if config.safe || config.explore == Explore::Safe {
            let wins = pos.winning_cells() & pos.possible();
            let safe = pos.possible_non_losing_moves();
            if wins != 0 {
                wins
            } else if safe != 0 {
                safe
            } else {
                pos.possible()
            }
        } else {
            pos.possible()
        };
        for c in pos.legal_columns() {
            legal |= 1 << c;
            let after = pos.after(c).expect("a legal column");
            values[c] = if after.last_move_won() {
                sign
            } else if after.is_full() {
                0.0
            } else {
                net.active_into(&after, &mut w.candidates[c]);
                weights.value(&w.candidates[c])
            };
            let greedy_ok = !config.safe || allowed & geom.column_mask(c) != 0;
            if greedy_ok && sign * values[c] > best.1 {
                best = (c, sign * values[c]);
            }
        }
        let explore = rng.r#gen::<f32>() < epsilon;
        let col = if explore {
            let from = match config.explore {
                Explore::Any => legal,
                Explore::Safe => legal & column_set(geom, allowed),
            };
            let cols: Vec<usize> = (0..geom.width()).filter(|&c| from >> c & 1 == 1).collect();
            cols[rng.gen_range(0..cols.len())]
        } else {
            best.0
        };
        let value = values[col];
        let after = pos.after(col).expect("a legal column");
        let terminal = after.last_move_won() || after.is_full();
        // At an exploring move the trace is cut (the values of greedy play), or only its
        // newest afterstate learns (the second player's, before a first-player error it
        // learns from), or it goes on as at any move (on-policy).
        let (learned, cut) = match (explore, config.learn_explored) {
            (false, _) | (true, LearnExplored::All) => (usize::MAX, false),
            (true, LearnExplored::First) if mover == Player::First => (1, true),
            (true, _) => (0, true),
        };
        if let Some((newest, _)) = w.trace.last().filter(|_| learned > 0) {
            // The newest afterstate's TD error at its current value (this game's earlier
            // steps moved it); older ones share it by lambda^k.
            let delta = value - weights.value(newest);
            let mut credit = rate * delta;
            for (active, v) in w.trace.iter().rev().take(learned) {
                weights.step(active, credit * config.loss.slope(*v));
                credit *= config.lambda;
            }
        }
        if cut {
            for (t, _) in w.trace.drain(..) {
                w.spare.push(t);
            }
        }
        if terminal {
            break;
        }
        let slots = std::mem::replace(&mut w.candidates[col], w.spare.pop().unwrap_or_default());
        w.trace.push((slots, value));
        if w.trace.len() > horizon {
            let (old, _) = w.trace.remove(0);
            w.spare.push(old);
        }
        pos = after;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_changes_combine_in_full_alone_and_at_most_two_lanes_worth_together() {
        let n = 200;
        for parts in [1, 2, 3, 7] {
            let mut shared = Weights {
                weights: vec![1.0; n],
                tcl: None,
            };
            let mut lane = Lane::new(&shared);
            let mut lanes: Vec<LaneChange> = (0..4).map(|_| LaneChange::default()).collect();
            // Lane k moves weight 5 by k + 1 (all four lanes), weight 70 by 0.5 (lanes 0
            // and 1), and weight 100 + k by 0.25 (its own).
            for (k, out) in lanes.iter_mut().enumerate() {
                let mut view = LaneView { lane: &mut lane };
                view.step(&[5], k as f32 + 1.0);
                if k < 2 {
                    view.step(&[70], 0.5);
                }
                view.step(&[100 + k as u32], 0.25);
                lane.hand_over(&shared, out);
                assert_eq!(lane.weights, shared.weights, "the copy is restored");
                assert!(lane.moved.iter().all(|&b| b == 0));
            }
            assert_eq!(lanes[2].slots, [5, 102]);
            let mut moved = Vec::new();
            assert_eq!(combine(&mut shared, &lanes, parts, &mut moved), Ok(6));
            let mut all: Vec<u32> = moved.concat();
            all.sort_unstable();
            assert_eq!(all, [5, 70, 100, 101, 102, 103]);
            // Four lanes at weight 5: mean 2.5, two lanes' worth.
            assert_eq!(shared.weights[5], 1.0 + 5.0, "{parts} parts");
            assert_eq!(shared.weights[70], 1.0 + 1.0);
            for k in 0..4 {
                assert_eq!(shared.weights[100 + k], 1.25);
            }
            assert_eq!(shared.weights[6], 1.0);
        }
    }

    #[test]
    fn a_weight_that_is_not_finite_stops_the_combination() {
        let mut shared = Weights {
            weights: vec![0.0; 64],
            tcl: None,
        };
        let mut lane = Lane::new(&shared);
        let mut out = LaneChange::default();
        LaneView { lane: &mut lane }.step(&[3], f32::INFINITY);
        lane.hand_over(&shared, &mut out);
        let e = combine(&mut shared, &[out], 2, &mut Vec::new()).unwrap_err();
        assert!(e.contains("weight 3 is inf"), "{e}");
    }
}
