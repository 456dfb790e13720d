//! TD(lambda) self-play on afterstates, on every core at once.
//!
//! With more than one worker, each plays its share of a round of games on its own copy of
//! the weights, and at the end of the round every copy's changes are added to the shared
//! weights (local steps, then a sum of the changes). Lock-free updates of one shared copy
//! (Hogwild) were measured first and made two threads slower than one: the weights of the
//! opening, which every game updates, bounce between the cores' caches. Games are assigned
//! to workers by number and rounds end at fixed games, so a seed replays exactly for a
//! given number of workers.
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

/// The weights self-play moves, and TCL's two accumulators per weight when the rule keeps
/// them.
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
            weights: net.weights().to_vec(),
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

    /// The value (first player's view) of the position whose weights are `active`. Four
    /// running sums instead of one: the additions of one sum wait on each other, four
    /// chains overlap (a quarter of self-play's time went to that wait).
    #[inline(always)]
    fn value(&self, active: &[u32]) -> f32 {
        let w = &self.weights;
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
    /// coherence).
    #[inline(always)]
    fn step(&mut self, active: &[u32], change: f32) {
        match &mut self.tcl {
            None => {
                for &i in active {
                    self.weights[i as usize] += change;
                }
            }
            Some((sum, size)) => {
                for &i in active {
                    let i = i as usize;
                    let (n, a) = (sum[i], size[i]);
                    let coherence = if a > 0.0 { n.abs() / a } else { 1.0 };
                    self.weights[i] += change * (TCL_BETA * (coherence - 1.0)).exp();
                    sum[i] = n + change;
                    size[i] = a + change.abs();
                }
            }
        }
    }

    /// Adds what each of `locals` changed since it was copied from `self`, then copies the
    /// sum back into every local; only `slots` (the weights a board can index, in
    /// increasing order) can have changed.
    fn merge(&mut self, locals: &mut [Weights], slots: &[u32]) {
        let parts = locals.len().max(1);
        merge_into(
            &mut self.weights,
            locals.iter_mut().map(|l| &mut l.weights[..]).collect(),
            slots,
            parts,
        );
        if let Some((sum, size)) = &mut self.tcl {
            let (sums, sizes): (Vec<_>, Vec<_>) = locals
                .iter_mut()
                .filter_map(|l| l.tcl.as_mut().map(|(s, a)| (&mut s[..], &mut a[..])))
                .unzip();
            merge_into(sum, sums, slots, parts);
            merge_into(size, sizes, slots, parts);
        }
    }
}

/// `global[i] += sum over locals of (local[i] - global[i])` for every `i` in `slots`, then
/// every local takes the result: `slots` split into `parts` runs merged on as many threads.
/// The arrays are tens of megabytes but a board indexes only about a seventh of them, so
/// the merge reads only those (a merge of the whole arrays cost a tenth of a round).
fn merge_into(global: &mut [f32], mut locals: Vec<&mut [f32]>, slots: &[u32], parts: usize) {
    let per = slots.len().div_ceil(parts).max(1);
    std::thread::scope(|s| {
        // Carve the arrays at slot boundaries so that each thread owns disjoint ranges.
        let (mut global, mut offset) = (global, 0usize);
        for run in slots.chunks(per) {
            let end = run.last().map_or(offset, |&e| e as usize + 1);
            let (g, rest) = std::mem::take(&mut global).split_at_mut(end - offset);
            global = rest;
            let ls: Vec<&mut [f32]> = locals
                .iter_mut()
                .map(|l| {
                    let (head, rest) = std::mem::take(l).split_at_mut(end - offset);
                    *l = rest;
                    head
                })
                .collect();
            let base = offset;
            offset = end;
            s.spawn(move || {
                let mut ls = ls;
                for &i in run {
                    let i = i as usize - base;
                    let w0 = g[i];
                    let w = w0 + ls.iter().map(|l| l[i] - w0).sum::<f32>();
                    g[i] = w;
                    for l in ls.iter_mut() {
                        l[i] = w;
                    }
                }
            });
        }
    });
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

/// Games each worker plays between two merges of the workers' changes.
const ROUND_PER_WORKER: usize = 2000;

/// Plays `games` (by number) on `threads` workers and adds what they learn to `weights`; `net`
/// supplies the tuples.
pub(super) fn self_play(
    config: &NTupleConfig,
    net: &NTupleNetwork,
    weights: &mut Weights,
    games: std::ops::Range<usize>,
    threads: usize,
    mut tail: TailFeed,
    progress: &dyn Progress,
) {
    // The weights after every round that ends past the tail's first game join its mean.
    let (from, to) = (games.start, games.end);
    let slots = net.reachable_slots();
    let mut snapshot = |weights: &Weights, end: usize| {
        if let Some((avg, first)) = tail.as_mut()
            && end > *first
        {
            avg.add(&weights.weights, &slots);
        }
    };
    if threads <= 1 {
        let mut worker = Worker::default();
        let mut start = from;
        while start < to {
            let end = (start + ROUND_PER_WORKER).min(to);
            for g in start..end {
                self_play_game(config, net, weights, g, &mut worker);
                progress.advance(1);
            }
            snapshot(weights, end);
            start = end;
        }
        return;
    }
    let mut locals: Vec<(Weights, Worker)> = (0..threads)
        .map(|_| (weights.clone(), Worker::default()))
        .collect();
    let round = ROUND_PER_WORKER * threads;
    let mut start = from;
    while start < to {
        let end = (start + round).min(to);
        std::thread::scope(|s| {
            for (k, (w, worker)) in locals.iter_mut().enumerate() {
                s.spawn(move || {
                    for g in (start + k..end).step_by(threads) {
                        self_play_game(config, net, w, g, worker);
                        progress.advance(1);
                    }
                });
            }
        });
        let mut ws: Vec<Weights> = locals
            .iter_mut()
            .map(|(w, _)| {
                std::mem::replace(
                    w,
                    Weights {
                        weights: Vec::new(),
                        tcl: None,
                    },
                )
            })
            .collect();
        weights.merge(&mut ws, &slots);
        for ((slot, _), w) in locals.iter_mut().zip(ws) {
            *slot = w;
        }
        snapshot(weights, end);
        start = end;
    }
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
    weights: &mut Weights,
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
    use super::merge_into;

    #[test]
    fn a_merge_adds_every_copys_changes_at_the_slots_in_every_split() {
        let slots = [1u32, 2, 5, 6, 9];
        for parts in 1..=4 {
            let mut global = vec![1.0f32; 10];
            let (mut a, mut b) = (global.clone(), global.clone());
            for &i in &slots {
                a[i as usize] += 0.5;
                b[i as usize] -= 0.25 * i as f32;
            }
            merge_into(&mut global, vec![&mut a, &mut b], &slots, parts);
            for i in 0..10 {
                let want = if slots.contains(&(i as u32)) {
                    1.0 + 0.5 - 0.25 * i as f32
                } else {
                    1.0
                };
                assert_eq!(global[i], want, "weight {i}, {parts} parts");
                assert_eq!((a[i], b[i]), (want, want), "copies take the sum");
            }
        }
    }
}
