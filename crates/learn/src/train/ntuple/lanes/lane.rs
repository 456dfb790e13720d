//! The weights self-play moves: the shared ones, each lane's copy and what it changed, TCL's
//! accumulators and the tail average.

use crate::train::ntuple::config::Rule;
use connect4_engine::game::BitBoard;
use connect4_engine::ml::ntuple::{Compact, NTupleNetwork, kernel};
use serde::{Deserialize, Serialize};

/// The exponential transfer's steepness (Bagheri et al. 2015 use 2.7).
pub(in crate::train::ntuple) const TCL_BETA: f32 = 2.7;

/// The running mean of the weights taken at the end of every round of self-play from a
/// given game on (the tail average of [`crate::train::ntuple::NTupleConfig::tail`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TailAverage {
    /// The mean so far (empty before the first snapshot).
    pub mean: Vec<f32>,
    /// Snapshots in the mean.
    pub count: u64,
}

/// The shared weights self-play moves, and TCL's two accumulators per weight when the rule
/// keeps them: only the weights a board can index, numbered densely ([`Compact`]), so that
/// self-play's scattered reads fall on fewer cache lines (the same values, read and summed in
/// the same order as the network's own).
pub(in crate::train::ntuple) struct Weights {
    pub(in crate::train::ntuple) weights: Vec<f32>,
    /// TCL: the sum of each weight's recommended changes and the sum of their sizes.
    pub(super) tcl: Option<(Vec<f32>, Vec<f32>)>,
    /// The dense numbering of the network's reachable weights.
    pub(in crate::train::ntuple) compact: Compact,
}

/// The TCL accumulators as a checkpoint stores them (one per network weight).
pub(in crate::train::ntuple) type TclState = (Vec<f32>, Vec<f32>);

impl Weights {
    /// The weights of `net`, with TCL accumulators for `rule` (from `tcl` if resuming).
    pub(in crate::train::ntuple) fn new<B: BitBoard>(
        net: &NTupleNetwork<B>,
        rule: Rule,
        tcl: Option<&TclState>,
    ) -> Self {
        let n = net.len();
        let compact = Compact::new(net);
        let dense = compact.len();
        Weights {
            weights: huge_copy(&compact.gather(net.weights())),
            tcl: match (rule, tcl) {
                (Rule::Td, _) => None,
                (Rule::Tcl, Some((s, a))) if s.len() == n && a.len() == n => {
                    Some((compact.gather(s), compact.gather(a)))
                }
                (Rule::Tcl, _) => Some((vec![0.0; dense], vec![0.0; dense])),
            },
            compact,
        }
    }

    /// Copies the weights into `net` (the ones no board indexes keep their values).
    pub(in crate::train::ntuple) fn copy_into<B: BitBoard>(&self, net: &mut NTupleNetwork<B>) {
        self.compact.scatter(&self.weights, net.weights_mut());
    }

    /// The TCL accumulators, for a checkpoint.
    pub(in crate::train::ntuple) fn tcl_state<B: BitBoard>(
        &self,
        net: &NTupleNetwork<B>,
    ) -> Option<TclState> {
        self.tcl.as_ref().map(|(s, a)| {
            let full = |dense: &[f32]| {
                let mut v = vec![0.0; net.len()];
                self.compact.scatter(dense, &mut v);
                v
            };
            (full(s), full(a))
        })
    }

    /// The sum before the squash of the position whose weights (dense numbers) are
    /// `active`.
    pub(in crate::train::ntuple) fn raw(&self, active: &[u32]) -> f32 {
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
pub(in crate::train::ntuple) struct Lane {
    pub(super) weights: Vec<f32>,
    pub(super) tcl: Option<(Vec<f32>, Vec<f32>)>,
    pub(super) marked: Vec<u64>,
}

impl Lane {
    /// A copy of `shared`.
    pub(in crate::train::ntuple) fn new(shared: &Weights) -> Self {
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
    pub(in crate::train::ntuple) fn mark(&mut self, active: &[u32]) {
        for &i in active {
            self.marked[i as usize >> 6] |= 1 << (i & 63);
        }
    }

    /// The value (first player's view) of the position whose weights are `active`: the
    /// network's own kernel on the lane's copy.
    #[inline(always)]
    pub(in crate::train::ntuple) fn value(&self, active: &[u32]) -> f32 {
        kernel::value(&self.weights, active)
    }

    /// Moves the weights at `active` by `change` (TCL scales each weight's share by its own
    /// coherence).
    #[inline(always)]
    pub(in crate::train::ntuple) fn step(&mut self, active: &[u32], change: f32) {
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
    pub(in crate::train::ntuple) fn hand_over(&mut self, shared: &Weights, out: &mut LaneChange) {
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
}

/// What one lane changed in one round: the moved weights in increasing order and, for
/// each, its change (and TCL's accumulators' changes).
#[derive(Default)]
pub(in crate::train::ntuple) struct LaneChange {
    pub(super) slots: Vec<u32>,
    pub(super) weights: Vec<f32>,
    pub(super) tcl: Vec<(f32, f32)>,
}

impl LaneChange {
    fn clear(&mut self) {
        self.slots.clear();
        self.weights.clear();
        self.tcl.clear();
    }

    /// The index of this lane's first entry at or past `slot`.
    pub(super) fn from(&self, slot: usize) -> usize {
        self.slots.partition_point(|&s| (s as usize) < slot)
    }
}
