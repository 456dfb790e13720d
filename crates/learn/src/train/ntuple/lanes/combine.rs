//! How the lanes' changes of one round combine into the shared weights: merged in a fixed
//! order (the same on any number of threads), each weight taking at most
//! [`SUMMED_LANES`] lanes' worth, and written to every copy and the tail average in one
//! parallel pass (on the rayon pool it is called in).

use super::lane::{Lane, LaneChange, TailAverage, Weights};
use rayon::prelude::*;

/// The most lanes' worth of change one weight takes from a round (see the module docs).
pub const SUMMED_LANES: f32 = 2.0;

/// What a lane's change to one weight carries: the weight's change alone (TD), or with
/// TCL's two accumulators' changes. A TD round merges entries without the accumulators, a
/// third of the bytes (merging is reading and writing these lists).
trait Change: Copy + Send + Sync {
    /// The lane's change at entry `e` of its list.
    fn of(lane: &LaneChange, e: usize) -> Self;
    /// Two lanes' changes added.
    fn plus(self, o: Self) -> Self;
    /// Adds `share` of the change to a weight (and its accumulators).
    fn apply(self, share: f32, w: &mut f32, tcl: Option<(&mut f32, &mut f32)>);
}

impl Change for f32 {
    #[inline(always)]
    fn of(lane: &LaneChange, e: usize) -> Self {
        lane.weights[e]
    }
    #[inline(always)]
    fn plus(self, o: Self) -> Self {
        self + o
    }
    #[inline(always)]
    fn apply(self, share: f32, w: &mut f32, _: Option<(&mut f32, &mut f32)>) {
        *w += self * share;
    }
}

/// A TCL entry's changes: the weight's, then its sum of recommended changes and of sizes.
type TclChange = [f32; 3];

impl Change for TclChange {
    #[inline(always)]
    fn of(lane: &LaneChange, e: usize) -> Self {
        let (s, a) = lane.tcl.get(e).copied().unwrap_or((0.0, 0.0));
        [lane.weights[e], s, a]
    }
    #[inline(always)]
    fn plus(self, o: Self) -> Self {
        [self[0] + o[0], self[1] + o[1], self[2] + o[2]]
    }
    #[inline(always)]
    fn apply(self, share: f32, w: &mut f32, tcl: Option<(&mut f32, &mut f32)>) {
        *w += self[0] * share;
        if let Some((sum, size)) = tcl {
            *sum += self[1] * share;
            *size += self[2] * share;
        }
    }
}

/// One weight's combined change: how many lanes moved it and the sum of their changes.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry<C> {
    slot: u32,
    lanes: u32,
    change: C,
}

/// Merges two lists sorted by slot into `out`, adding the entries of a slot both hold.
fn merge_sorted<C: Change>(a: &[Entry<C>], b: &[Entry<C>], out: &mut Vec<Entry<C>>) {
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
                change: x.change.plus(y.change),
            });
            i += 1;
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

/// What combining keeps from one round to the next, per range of the weights: the merge's
/// lists, reused so that a round allocates nothing (fresh lists every round cost as much as
/// the merging).
#[derive(Default)]
pub(in crate::train::ntuple) struct Combiner {
    td: Vec<Part<f32>>,
    tcl: Vec<Part<TclChange>>,
}

struct Part<C> {
    level: Vec<Vec<Entry<C>>>,
    next: Vec<Vec<Entry<C>>>,
}

impl<C> Default for Part<C> {
    fn default() -> Self {
        Part {
            level: Vec::new(),
            next: Vec::new(),
        }
    }
}

impl<C: Change> Part<C> {
    /// Merges the changes of `lanes` to the weights `base..end` (see [`combine`]) and
    /// returns them, one entry per moved weight in increasing order.
    fn merge(&mut self, lanes: &[LaneChange], base: usize, end: usize) -> &[Entry<C>] {
        let n = lanes.len();
        self.level.resize_with(n.max(1), Vec::new);
        self.next.resize_with(n.div_ceil(2), Vec::new);
        for (list, l) in self.level.iter_mut().zip(lanes) {
            list.clear();
            list.extend((l.from(base)..l.from(end)).map(|e| Entry {
                slot: l.slots[e],
                lanes: 1,
                change: C::of(l, e),
            }));
        }
        if n == 0 {
            self.level[0].clear();
        }
        let mut len = n;
        while len > 1 {
            let half = len.div_ceil(2);
            for i in 0..half {
                if 2 * i + 1 < len {
                    merge_sorted(
                        &self.level[2 * i],
                        &self.level[2 * i + 1],
                        &mut self.next[i],
                    );
                } else {
                    std::mem::swap(&mut self.level[2 * i], &mut self.next[i]);
                }
            }
            std::mem::swap(&mut self.level, &mut self.next);
            len = half;
        }
        &self.level[0]
    }
}

/// Where a round's combined weights go besides the shared ones: every thread's copy of the
/// weights (which must equal the shared ones again before the next round), and the tail
/// average, when this round adds a snapshot to it.
pub(in crate::train::ntuple) struct Fanout<'a> {
    /// Every thread's copy.
    pub(in crate::train::ntuple) copies: Vec<&'a mut Lane>,
    /// The tail average (of the dense weights).
    pub(in crate::train::ntuple) tail: Option<&'a mut TailAverage>,
}

/// One range's share of a round's writes: its slice of the shared weights (and TCL's
/// accumulators), of every copy, and of the tail average.
struct Slices<'a> {
    weights: &'a mut [f32],
    tcl: TclSlices<'a>,
    copies: Vec<(&'a mut [f32], TclSlices<'a>)>,
    mean: Option<&'a mut [f32]>,
}

/// A range of TCL's two accumulators, when the rule keeps them.
type TclSlices<'a> = Option<(&'a mut [f32], &'a mut [f32])>;

/// Cuts `v` into chunks of `per`, as options (`None` for each of `n` chunks when absent).
fn chunks(v: Option<&mut Vec<f32>>, per: usize, n: usize) -> Vec<Option<&mut [f32]>> {
    match v {
        Some(v) => v.chunks_mut(per).map(Some).collect(),
        None => (0..n).map(|_| None).collect(),
    }
}

/// TCL's two accumulators (when kept) cut into chunks of `per` (`None` for each of `n`).
fn pair_chunks(tcl: Option<&mut (Vec<f32>, Vec<f32>)>, per: usize, n: usize) -> Vec<TclSlices<'_>> {
    match tcl {
        Some((s, a)) => s
            .chunks_mut(per)
            .zip(a.chunks_mut(per))
            .map(|(s, a)| Some((s, a)))
            .collect(),
        None => (0..n).map(|_| None).collect(),
    }
}

/// Combines the lanes' changes of one round into `shared`, and writes the new values to
/// every copy in `fanout` and a snapshot into its tail average. The lanes' sorted lists are
/// merged in pairs, lane 0 with 1, 2 with 3, then those results in pairs, and so on: a
/// fixed order of additions, so the result does not depend on the threads, and every pass
/// reads and writes its lists in order. The weights are cut into `parts` ranges, each
/// merged, written (shared weights, copies, average) as one task of the current rayon pool,
/// so that every moved weight is read and written once. Returns how many weights moved; fails on one that is
/// not finite.
pub(in crate::train::ntuple) fn combine(
    shared: &mut Weights,
    lanes: &[LaneChange],
    parts: usize,
    combiner: &mut Combiner,
    fanout: Fanout,
) -> Result<usize, NotFinite> {
    if shared.tcl.is_some() {
        combine_with(shared, lanes, parts, &mut combiner.tcl, fanout)
    } else {
        combine_with(shared, lanes, parts, &mut combiner.td, fanout)
    }
}

/// A combined weight that is not a finite number: self-play diverged.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[error("weight {weight} is {value}")]
pub(in crate::train::ntuple) struct NotFinite {
    /// Its place in the network's weights, as a user would look it up.
    pub weight: u32,
    /// What it became.
    pub value: f32,
}

fn combine_with<C: Change>(
    shared: &mut Weights,
    lanes: &[LaneChange],
    parts: usize,
    combiner: &mut Vec<Part<C>>,
    fanout: Fanout,
) -> Result<usize, NotFinite> {
    let n = shared.weights.len();
    let per = n.div_ceil(parts.max(1)).max(1);
    let count = n.div_ceil(per);
    combiner.resize_with(count, Part::default);
    // The tail average's snapshot: the first one is a copy of the combined weights (taken
    // after them), later ones move the mean of the reachable slots by 1 / count.
    let (mut mean, first_snapshot, k) = match fanout.tail {
        Some(avg) if avg.mean.len() == n => {
            avg.count += 1;
            let k = 1.0 / avg.count as f32;
            (Some(&mut avg.mean), None, k)
        }
        Some(avg) => (None, Some(avg), 0.0),
        None => (None, None, 0.0),
    };
    let compact = &shared.compact;
    let mut slices: Vec<Slices> = shared
        .weights
        .chunks_mut(per)
        .zip(pair_chunks(shared.tcl.as_mut(), per, count))
        .zip(chunks(mean.take(), per, count))
        .map(|((weights, tcl), mean)| Slices {
            weights,
            tcl,
            copies: Vec::new(),
            mean,
        })
        .collect();
    for lane in fanout.copies {
        let Lane { weights, tcl, .. } = lane;
        for (s, (w, t)) in slices
            .iter_mut()
            .zip(
                weights
                    .chunks_mut(per)
                    .zip(pair_chunks(tcl.as_mut(), per, count)),
            )
        {
            s.copies.push((w, t));
        }
    }
    // One part a task, on the pool the caller runs in (self-play's own: its threads are
    // already running, where spawning threads for every round cost milliseconds a round).
    let results: Vec<Result<usize, NotFinite>> = slices
        .into_par_iter()
        .zip(combiner.par_iter_mut())
        .enumerate()
        .with_max_len(1)
        .map(|(p, (mut sl, part))| {
            let base = p * per;
            let end = base + sl.weights.len();
            let merged = part.merge(lanes, base, end);
            for e in merged {
                let share = (SUMMED_LANES / e.lanes as f32).min(1.0);
                let i = e.slot as usize - base;
                let w = &mut sl.weights[i];
                match sl.tcl.as_mut() {
                    Some((sum, size)) => {
                        e.change.apply(share, w, Some((&mut sum[i], &mut size[i])))
                    }
                    None => e.change.apply(share, w, None),
                }
                let w = *w;
                if !w.is_finite() {
                    return Err(NotFinite {
                        weight: compact.slot(e.slot),
                        value: w,
                    });
                }
                for (copy, tcl) in sl.copies.iter_mut() {
                    copy[i] = w;
                    if let (Some((s, a)), Some((s0, a0))) = (tcl.as_mut(), sl.tcl.as_ref()) {
                        (s[i], a[i]) = (s0[i], a0[i]);
                    }
                }
            }
            if let Some(mean) = sl.mean {
                for (m, &w) in mean.iter_mut().zip(sl.weights.iter()) {
                    *m += (w - *m) * k;
                }
            }
            Ok(merged.len())
        })
        .collect();
    let moved = results.into_iter().sum::<Result<usize, NotFinite>>()?;
    if let Some(avg) = first_snapshot {
        avg.mean = shared.weights.clone();
        avg.count = 1;
    }
    Ok(moved)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::ntuple::Rule;
    use connect4_engine::ml::ntuple::NTupleNetwork;

    /// Shared weights of a small network (some hundreds of reachable weights), all `value`.
    fn weights(value: f32) -> Weights {
        let layout = connect4_engine::ml::ntuple::NTupleLayout {
            tuples: 10,
            cells: 4,
            sets: 1,
            seed: 1,
        };
        let net = NTupleNetwork::new(connect4_engine::game::Geometry::STANDARD, layout).unwrap();
        let mut w = Weights::new(&net, Rule::Td, None);
        assert!(w.weights.len() > 200, "{}", w.weights.len());
        w.weights.fill(value);
        w
    }

    #[test]
    fn lanes_changes_combine_in_full_alone_and_at_most_two_lanes_worth_together() {
        for parts in [1, 2, 3, 7] {
            let mut shared = weights(1.0);
            let mut lane = Lane::new(&shared);
            let mut lanes: Vec<LaneChange> = (0..4).map(|_| LaneChange::default()).collect();
            // Lane k moves weight 5 by k + 1 (all four lanes), weight 70 by 0.5 (lanes 0
            // and 1), and weight 100 + k by 0.25 (its own).
            for (k, out) in lanes.iter_mut().enumerate() {
                lane.mark(&[5, 70, 100 + k as u32, 150]);
                lane.step(&[5], k as f32 + 1.0);
                if k < 2 {
                    lane.step(&[70], 0.5);
                }
                lane.step(&[100 + k as u32], 0.25);
                // Weight 150 is marked but never stepped: not handed over.
                lane.hand_over(&shared, out);
                assert!(lane.marked.iter().all(|&b| b == 0));
                assert_eq!(lane.weights, shared.weights, "the copy is restored");
            }
            assert_eq!(lanes[2].slots, [5, 102]);
            let mut combiner = Combiner::default();
            // A second thread's copy and a tail average (its first snapshot is a copy).
            let mut other = Lane::new(&shared);
            let mut tail = TailAverage::default();
            let fanout = Fanout {
                copies: vec![&mut lane, &mut other],
                tail: Some(&mut tail),
            };
            assert_eq!(
                combine(&mut shared, &lanes, parts, &mut combiner, fanout),
                Ok(6)
            );
            // Four lanes at weight 5: mean 2.5, two lanes' worth.
            assert_eq!(shared.weights[5], 1.0 + 5.0, "{parts} parts");
            assert_eq!(shared.weights[70], 1.0 + 1.0);
            for k in 0..4 {
                assert_eq!(shared.weights[100 + k], 1.25);
            }
            // Every copy holds the combined weights again, and so does the first snapshot.
            assert_eq!(lane.weights, shared.weights);
            assert_eq!(other.weights, shared.weights);
            assert_eq!((tail.mean.as_slice(), tail.count), (&shared.weights[..], 1));
            // A second round moves weight 5 by 2 more: the mean of the two snapshots is
            // halfway.
            lane.mark(&[5]);
            lane.step(&[5], 2.0);
            lane.hand_over(&shared, &mut lanes[0]);
            let before = shared.weights.clone();
            let fanout = Fanout {
                copies: vec![&mut lane],
                tail: Some(&mut tail),
            };
            assert_eq!(
                combine(&mut shared, &lanes[..1], parts, &mut combiner, fanout),
                Ok(1)
            );
            assert_eq!(shared.weights[5], 8.0);
            assert_eq!(tail.count, 2);
            assert_eq!(tail.mean[5], 7.0);
            let mut expected = before.clone();
            expected[5] = 7.0;
            assert_eq!(tail.mean, expected);
            assert_eq!(lane.weights, shared.weights);
            assert_eq!(shared.weights[6], 1.0);
        }
    }

    #[test]
    fn a_weight_that_is_not_finite_stops_the_combination() {
        let mut shared = weights(0.0);
        let mut lane = Lane::new(&shared);
        let mut out = LaneChange::default();
        lane.mark(&[0, 3, 9]);
        lane.step(&[3], f32::INFINITY);
        lane.hand_over(&shared, &mut out);
        let fanout = Fanout {
            copies: vec![&mut lane],
            tail: None,
        };
        let e = combine(&mut shared, &[out], 2, &mut Combiner::default(), fanout)
            .unwrap_err()
            .to_string();
        // Named by its place in the network's weights, as a user would look it up.
        let slot = shared.compact.slot(3);
        assert!(e.contains(&format!("weight {slot} is inf")), "{e}");
    }
}
