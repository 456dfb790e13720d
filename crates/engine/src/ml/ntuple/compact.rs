//! A dense numbering of the weights a board can index, for trainers that read and write
//! them millions of times a second.
//!
//! The network's tables have 4^cells weights each, a seventh of which a board can ever
//! index (see [`reachable_patterns`]), scattered through the table: for the default 70
//! tuples of 8 cells the reachable 4.9 MB lie on 8.5 MB of cache lines of a 36.7 MB array.
//! Self-play spends most of its time waiting on those reads, so it trains on the reachable
//! weights alone, numbered densely, and hands them back to the network at the end: the same
//! weights, read and summed in the same order, in a smaller space.
//!
//! The numbering is computed, not looked up in a table as large as the one it replaces: a
//! pattern is split into its low and high digits (cells), and the reachable patterns of a
//! tuple are, for each low half, the high halves that can sit above it. Low halves that allow
//! the same high halves form a group (cells are in column order, so only one stack of cells
//! can straddle the split: a tuple has at most a few groups), and a group's patterns are
//! numbered low rank times the group's high halves plus high rank. Two small lookups (one
//! per half) give any pattern's number.

use super::{NTupleNetwork, STATES, reachable_patterns};
use crate::game::{BitBoard, Position};
use std::collections::BTreeMap;

/// A number no dense index reaches: what an impossible half maps to, so that reading it
/// fails on the bounds check rather than aliasing another weight.
const NOWHERE: u32 = u32::MAX >> 1;

/// The dense numbering of one network's reachable weights (see the module docs).
#[derive(Clone, Debug)]
pub struct Compact {
    /// Bits of a pattern's low half (two per cell).
    low_bits: u32,
    /// Bits of a full pattern, to find the table of a network slot.
    pattern_bits: u32,
    /// For each table (set by set, tuple by tuple) and low half: the dense number of the
    /// group's first pattern with that low half, and where the group's high ranks start in
    /// `high`.
    low: Vec<[u32; 2]>,
    /// Each group's rank of every high half (impossible ones [`NOWHERE`]).
    high: Vec<u32>,
    /// The network slot of every dense number, in dense order.
    slots: Vec<u32>,
}

impl Compact {
    /// The numbering of `net`'s reachable weights.
    pub fn new<B: BitBoard>(net: &NTupleNetwork<B>) -> Self {
        let cells = net.layout.cells;
        let (low_cells, high_cells) = (cells / 2, cells - cells / 2);
        let low_bits = 2 * low_cells as u32;
        let (low_len, high_len) = (STATES.pow(low_cells as u32), STATES.pow(high_cells as u32));
        let mut low = vec![[NOWHERE, 0]; net.layout.sets * net.layout.tuples * low_len];
        let mut high = Vec::new();
        let mut slots = Vec::new();
        for set in 0..net.layout.sets {
            for (t, tuple) in net.cells.iter().enumerate() {
                let table = set * net.layout.tuples + t;
                let table_slot = (table * net.table_len) as u32;
                // Each low half's high halves, then the low halves of each such set.
                let mut above: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
                for p in reachable_patterns(tuple) {
                    above
                        .entry(p & ((1 << low_bits) - 1))
                        .or_default()
                        .push(p >> low_bits);
                }
                let mut groups: BTreeMap<Vec<u32>, Vec<u32>> = BTreeMap::new();
                for (lo, his) in above {
                    groups.entry(his).or_default().push(lo);
                }
                for (his, los) in groups {
                    let start = high.len() as u32;
                    high.resize(high.len() + high_len, NOWHERE);
                    for (rank, &hi) in his.iter().enumerate() {
                        high[start as usize + hi as usize] = rank as u32;
                    }
                    for lo in los {
                        low[table * low_len + lo as usize] = [slots.len() as u32, start];
                        slots.extend(his.iter().map(|&hi| table_slot + (hi << low_bits | lo)));
                    }
                }
            }
        }
        Compact {
            low_bits,
            pattern_bits: 2 * cells as u32,
            low,
            high,
            slots,
        }
    }

    /// Number of reachable weights.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are none (never for a network).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The dense number of network slot `slot` (one a board can index).
    #[inline(always)]
    pub fn number(&self, slot: u32) -> u32 {
        let table = slot >> self.pattern_bits;
        let pattern = slot & ((1 << self.pattern_bits) - 1);
        let lo = pattern & ((1 << self.low_bits) - 1);
        let [first, high] = self.low[(table << self.low_bits | lo) as usize];
        first.wrapping_add(self.high[(high + (pattern >> self.low_bits)) as usize])
    }

    /// The network slot of dense number `n`.
    pub fn slot(&self, n: u32) -> u32 {
        self.slots[n as usize]
    }

    /// The dense numbers of the network slots `slots`, into `out`.
    #[inline]
    pub fn numbers_into(&self, slots: &[u32], out: &mut Vec<u32>) {
        out.clear();
        out.extend(slots.iter().map(|&s| self.number(s)));
    }

    /// The position after the side to move of `pos` plays `col`: its network slots into
    /// `slots` ([`NTupleNetwork::afterstate_into`] of `common`) and their dense numbers into
    /// `numbers`, from `common_numbers` (those of `common`) with only the slots that read
    /// the two changed cells numbered afresh.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn afterstate_into<B: BitBoard>(
        &self,
        net: &NTupleNetwork<B>,
        pos: &Position<B>,
        common: &[u32],
        common_numbers: &[u32],
        col: usize,
        slots: &mut Vec<u32>,
        numbers: &mut Vec<u32>,
    ) {
        net.afterstate_into(pos, common, col, slots);
        numbers.clear();
        numbers.extend_from_slice(common_numbers);
        let (stone, above) = net.changed_cells(pos, col);
        for bit in [stone, above] {
            if bit != B::ZERO {
                for &(i, _) in &net.patches[bit.trailing_zeros() as usize] {
                    numbers[i as usize] = self.number(slots[i as usize]);
                }
            }
        }
    }

    /// The same board read in the other side's tables: `slots` (network slots, all of one
    /// set) and their dense `numbers` moved to the other set, into `slots_out` and
    /// `numbers_out`. The position after a move, read for the side to move, is what the
    /// positions after the next move have in common read for the other
    /// ([`NTupleNetwork::afterstate_common`]): self-play carries it from move to move
    /// instead of numbering it afresh. With one shared set, a copy.
    pub fn other_set<B: BitBoard>(
        &self,
        net: &NTupleNetwork<B>,
        slots: &[u32],
        numbers: &[u32],
        slots_out: &mut Vec<u32>,
        numbers_out: &mut Vec<u32>,
    ) {
        let full = (net.layout.tuples * net.table_len) as u32;
        let dense = (self.slots.len() / net.layout.sets) as u32;
        let (df, dd) = match (net.layout.sets, slots.first()) {
            (2, Some(&s)) if s >= full => (full.wrapping_neg(), dense.wrapping_neg()),
            (2, _) => (full, dense),
            _ => (0, 0),
        };
        slots_out.clear();
        slots_out.extend(slots.iter().map(|s| s.wrapping_add(df)));
        numbers_out.clear();
        numbers_out.extend(numbers.iter().map(|n| n.wrapping_add(dd)));
    }

    /// The reachable weights of a network's weight vector, in dense order.
    pub fn gather(&self, weights: &[f32]) -> Vec<f32> {
        self.slots.iter().map(|&s| weights[s as usize]).collect()
    }

    /// Writes dense `values` back to their places in a network's weight vector (the others
    /// are left as they are).
    pub fn scatter(&self, values: &[f32], weights: &mut [f32]) {
        for (&s, &v) in self.slots.iter().zip(values) {
            weights[s as usize] = v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Geometry;
    use crate::ml::ntuple::NTupleLayout;
    use crate::ml::ntuple::tests::random_open_position;

    #[test]
    fn the_dense_numbers_are_the_reachable_slots_one_to_one() {
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(5);
        for (g, layout) in [
            (Geometry::STANDARD, NTupleLayout::default()),
            (
                Geometry::STANDARD,
                NTupleLayout {
                    tuples: 20,
                    cells: 5,
                    sets: 1,
                    seed: 4,
                },
            ),
            (
                Geometry::new(4, 4).unwrap(),
                NTupleLayout {
                    tuples: 6,
                    cells: 3,
                    sets: 2,
                    seed: 2,
                },
            ),
        ] {
            let net = NTupleNetwork::new(g, layout).unwrap();
            let c = Compact::new(&net);
            let mut reach = net.reachable_slots();
            assert_eq!(c.len(), reach.len());
            // Every dense number has its own reachable slot and maps back to it.
            for n in 0..c.len() as u32 {
                assert_eq!(c.number(c.slot(n)), n);
            }
            let mut mine = c.slots.clone();
            mine.sort_unstable();
            reach.sort_unstable();
            assert_eq!(mine, reach);
            // Positions of every shape read only numbered slots; afterstates numbered from
            // their common list agree with numbering them afresh.
            let (mut common, mut numbers, mut after, mut a, mut b) =
                (vec![], vec![], vec![], vec![], vec![]);
            for _ in 0..300 {
                let p = random_open_position(g, &mut rng);
                for &s in &net.active(&p) {
                    assert_eq!(c.slot(c.number(s)), s);
                }
                net.afterstate_common(&p, &mut common);
                c.numbers_into(&common, &mut numbers);
                for col in p.legal_columns() {
                    c.afterstate_into(&net, &p, &common, &numbers, col, &mut after, &mut a);
                    let q = p.after(col).unwrap();
                    assert_eq!(after, net.active(&q));
                    c.numbers_into(&after, &mut b);
                    assert_eq!(a, b);
                    // Carried to the next move, it is that move's common list.
                    let (mut s2, mut n2, mut fresh) = (vec![], vec![], vec![]);
                    c.other_set(&net, &after, &a, &mut s2, &mut n2);
                    net.afterstate_common(&q, &mut fresh);
                    assert_eq!(s2, fresh);
                    c.numbers_into(&fresh, &mut b);
                    assert_eq!(n2, b);
                }
            }
            // Gathered and scattered back, weights are where they were.
            let w: Vec<f32> = (0..net.len()).map(|i| i as f32).collect();
            let dense = c.gather(&w);
            let mut back = vec![-1.0; net.len()];
            c.scatter(&dense, &mut back);
            for &s in &reach {
                assert_eq!(back[s as usize], s as f32);
            }
        }
    }
}
