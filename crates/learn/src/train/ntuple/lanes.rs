//! Lanes: the copies of the weights self-play's lanes play on, and how their changes
//! combine into the shared weights (see the self-play module's docs for why).

use super::Rule;
use super::self_play::TCL_BETA;
use crate::ml::ntuple::{NTupleNetwork, kernel};

/// The most lanes' worth of change one weight takes from a round (see the module docs).
pub const SUMMED_LANES: f32 = 2.0;

/// The shared weights self-play moves, and TCL's two accumulators per weight when the rule
/// keeps them.
#[derive(Clone)]
pub(super) struct Weights {
    pub(super) weights: Vec<f32>,
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
    pub(super) fn raw(&self, active: &[u32]) -> f32 {
        kernel::sum(&self.weights, active)
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
/// weights at the start of each lane, and a bit per weight a position of the lane's traces
/// indexed. A full copy rather than a list of changes on top of the shared weights: a
/// position's value then reads one array, not two (reading two halved self-play's speed).
/// The bits are set once per position entering a trace, not at every step of it (marking
/// at every step cost a sixth of self-play's time; scanning every reachable weight at
/// hand-over instead cost a fifth when lanes play 250 games a round).
pub(super) struct Lane {
    weights: Vec<f32>,
    tcl: Option<(Vec<f32>, Vec<f32>)>,
    marked: Vec<u64>,
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
            marked: vec![0; shared.weights.len().div_ceil(64)],
        }
    }

    /// Marks the weights at `active` as ones the lane may move: every position that can
    /// learn is marked when it enters a trace, before its first step.
    #[inline(always)]
    pub(super) fn mark(&mut self, active: &[u32]) {
        for &i in active {
            self.marked[i as usize >> 6] |= 1 << (i & 63);
        }
    }

    /// The value (first player's view) of the position whose weights are `active`: the
    /// network's own kernel on the lane's copy.
    #[inline(always)]
    pub(super) fn value(&self, active: &[u32]) -> f32 {
        kernel::value(&self.weights, active)
    }

    /// Moves the weights at `active` by `change` (TCL scales each weight's share by its own
    /// coherence).
    #[inline(always)]
    pub(super) fn step(&mut self, active: &[u32], change: f32) {
        match &mut self.tcl {
            None => kernel::step(&mut self.weights, active, change),
            Some((sum, size)) => {
                kernel::step_tcl(&mut self.weights, sum, size, active, change, TCL_BETA)
            }
        }
    }

    /// Hands over what the lane changed into `out`: the marked weights (in increasing order)
    /// whose value (or TCL size) differs from `shared`'s, and makes the copy equal to
    /// `shared` again. A weight stepped back to its exact starting value counts as unmoved,
    /// which changes nothing.
    pub(super) fn hand_over(&mut self, shared: &Weights, out: &mut LaneChange) {
        out.clear();
        for word in 0..self.marked.len() {
            let mut bits = std::mem::take(&mut self.marked[word]);
            while bits != 0 {
                let i = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (w, w0) = (self.weights[i], shared.weights[i]);
                match (&mut self.tcl, &shared.tcl) {
                    (Some((s, a)), Some((s0, a0))) => {
                        // TCL's size only grows when a weight is stepped: it tells moved ones.
                        if a[i] != a0[i] || w.to_bits() != w0.to_bits() {
                            out.slots.push(i as u32);
                            out.weights.push(w - w0);
                            out.tcl.push((s[i] - s0[i], a[i] - a0[i]));
                            self.weights[i] = w0;
                            (s[i], a[i]) = (s0[i], a0[i]);
                        }
                    }
                    _ => {
                        if w.to_bits() != w0.to_bits() {
                            out.slots.push(i as u32);
                            out.weights.push(w - w0);
                            self.weights[i] = w0;
                        }
                    }
                }
            }
        }
    }

    /// Takes `shared`'s values at `slots` (the weights the last round moved).
    pub(super) fn refresh(&mut self, shared: &Weights, slots: &[u32]) {
        for &i in slots {
            let i = i as usize;
            self.weights[i] = shared.weights[i];
            if let (Some((s, a)), Some((s0, a0))) = (&mut self.tcl, &shared.tcl) {
                (s[i], a[i]) = (s0[i], a0[i]);
            }
        }
    }
}

/// What one lane changed in one round: the moved weights in increasing order and, for
/// each, its change (and TCL's accumulators' changes).
#[derive(Default)]
pub(super) struct LaneChange {
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

/// What combining keeps from one round to the next, per range of the weights: the slots the
/// round moved (each thread's copy takes their new values) and the merge's lists, reused so
/// that a round allocates nothing (fresh lists every round cost as much as the merging).
#[derive(Default)]
pub(super) struct Combiner {
    parts: Vec<Part>,
}

#[derive(Default)]
struct Part {
    moved: Vec<u32>,
    level: Vec<Vec<Entry>>,
    next: Vec<Vec<Entry>>,
}

impl Combiner {
    /// The slots the last round moved, range by range (each in increasing order).
    pub(super) fn moved(&self) -> impl Iterator<Item = &[u32]> {
        self.parts.iter().map(|p| p.moved.as_slice())
    }
}

impl Part {
    /// Merges the changes of `lanes` to the weights `base..end` (see [`combine`]) and
    /// returns them, one entry per moved weight in increasing order.
    fn merge(&mut self, lanes: &[LaneChange], base: usize, end: usize) -> &[Entry] {
        let n = lanes.len();
        self.level.resize_with(n.max(1), Vec::new);
        self.next.resize_with(n.div_ceil(2), Vec::new);
        for (list, l) in self.level.iter_mut().zip(lanes) {
            list.clear();
            list.extend((l.from(base)..l.from(end)).map(|e| Entry {
                slot: l.slots[e],
                lanes: 1,
                weight: l.weights[e],
                tcl: l.tcl.get(e).copied().unwrap_or((0.0, 0.0)),
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

/// Combines the lanes' changes of one round into `shared`. The lanes' sorted lists are
/// merged in pairs, lane 0 with 1, 2 with 3, then those results in pairs, and so on: a
/// fixed order of additions, so the result does not depend on the threads, and every pass
/// reads and writes its lists in order. The weights are cut into `parts` ranges merged on
/// as many threads, and each moved weight is then written once; `combiner` keeps the
/// moved slots and the lists. Returns how many weights moved; fails on one that is not
/// finite.
pub(super) fn combine(
    shared: &mut Weights,
    lanes: &[LaneChange],
    parts: usize,
    combiner: &mut Combiner,
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
    combiner.parts.resize_with(n.div_ceil(per), Part::default);
    let results: Vec<Result<usize, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = shared
            .weights
            .chunks_mut(per)
            .zip(tcl.iter_mut())
            .zip(combiner.parts.iter_mut())
            .enumerate()
            .map(|(k, ((w, tcl), part))| {
                s.spawn(move || {
                    let base = k * per;
                    let end = base + w.len();
                    let mut moved = std::mem::take(&mut part.moved);
                    moved.clear();
                    let merged = part.merge(lanes, base, end);
                    let mut result = Ok(merged.len());
                    for e in merged {
                        moved.push(e.slot);
                        let share = (SUMMED_LANES / e.lanes as f32).min(1.0);
                        let i = e.slot as usize - base;
                        w[i] += e.weight * share;
                        if let Some((sum, size)) = tcl.as_mut() {
                            sum[i] += e.tcl.0 * share;
                            size[i] += e.tcl.1 * share;
                        }
                        if !w[i].is_finite() {
                            result = Err(format!("weight {} is {}", e.slot, w[i]));
                            break;
                        }
                    }
                    part.moved = moved;
                    result
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
            assert_eq!(combine(&mut shared, &lanes, parts, &mut combiner), Ok(6));
            let mut all: Vec<u32> = combiner.moved().flatten().copied().collect();
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
        lane.mark(&[0, 3, 9]);
        lane.step(&[3], f32::INFINITY);
        lane.hand_over(&shared, &mut out);
        let e = combine(&mut shared, &[out], 2, &mut Combiner::default()).unwrap_err();
        assert!(e.contains("weight 3 is inf"), "{e}");
    }
}
