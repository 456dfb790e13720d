//! The packed form of a network that model files store: only the weights of patterns a
//! board can ever show (see [`reachable_patterns`]).

use super::{NTupleError, NTupleLayout, NTupleNetwork, STATES, check_layout};
use crate::game::{BitBoard, Geometry};
use serde::{Deserialize, Serialize};

/// What a model file stores of a network, packed: only the weights of patterns that can
/// occur on a board (stones stand on stones, an empty cell above an empty one is not
/// playable, a bottom cell is never "not yet playable"), table by table in pattern order.
/// For 8-cell tuples that is about a tenth of the tables (Thill 2026 counts 2.15M of 26.2M
/// weights for 200 tuples); the others are never read or trained.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PackedNTupleData {
    /// The layout it was made with.
    pub layout: NTupleLayout,
    /// Each tuple's cells, as (column, row) with row 0 at the bottom.
    pub tuples: Vec<Vec<(u8, u8)>>,
    /// The weights of the patterns that can occur, set by set, tuple by tuple.
    pub weights: Vec<f32>,
}

/// The patterns of a tuple of `cells` (as (column, row)) that can occur on a board, in
/// increasing order. A pattern's digit i is cell i's state: 0 empty and not playable yet,
/// 1 empty and playable, 2 the first player's stone, 3 the second's.
pub fn reachable_patterns(cells: &[(u8, u8)]) -> Vec<u32> {
    let n = cells.len();
    // For each cell, the tuple's index of the cell right below it, if the tuple has it.
    let below: Vec<Option<usize>> = cells
        .iter()
        .map(|&(c, r)| {
            (r > 0)
                .then(|| cells.iter().position(|&(c2, r2)| c2 == c && r2 + 1 == r))
                .flatten()
        })
        .collect();
    (0..STATES.pow(n as u32) as u32)
        .filter(|&p| {
            let state = |i: usize| (p >> (2 * i)) & 3;
            (0..n).all(|i| {
                let s = state(i);
                if cells[i].1 == 0 && s == 0 {
                    return false;
                }
                match below[i] {
                    // Filled or playable above exactly when a stone is below.
                    Some(b) => (s != 0) == (state(b) >= 2),
                    None => true,
                }
            })
        })
        .collect()
}

impl<B: BitBoard> NTupleNetwork<B> {
    #[cfg(test)] // only the tests ask
    /// Every slot of the weight vector that a board can index, in increasing order: the
    /// only weights training ever moves (about a seventh of the tables for 8-cell tuples),
    /// so merging copies and averaging snapshots need touch no others.
    pub(crate) fn reachable_slots(&self) -> Vec<u32> {
        let mut slots = Vec::new();
        for set in 0..self.layout.sets {
            for (t, cells) in self.cells.iter().enumerate() {
                let base = ((set * self.layout.tuples + t) * self.table_len) as u32;
                slots.extend(reachable_patterns(cells).into_iter().map(|p| base + p));
            }
        }
        slots
    }

    /// The packed form a model file stores; an error if a weight of a pattern that cannot
    /// occur is not zero (it would be lost).
    pub fn packed(&self) -> Result<PackedNTupleData, NTupleError> {
        let mut weights = Vec::new();
        for set in 0..self.layout.sets {
            for (t, cells) in self.cells.iter().enumerate() {
                let table = &self.weights[(set * self.layout.tuples + t) * self.table_len..]
                    [..self.table_len];
                let reach = reachable_patterns(cells);
                let kept: f64 = reach.iter().map(|&p| table[p as usize].abs() as f64).sum();
                let all: f64 = table.iter().map(|w| w.abs() as f64).sum();
                if all > kept {
                    return Err(NTupleError::Inconsistent(
                        "a weight of a pattern that cannot occur is not zero",
                    ));
                }
                weights.extend(reach.iter().map(|&p| table[p as usize]));
            }
        }
        Ok(PackedNTupleData {
            layout: self.layout,
            tuples: self.cells.clone(),
            weights,
        })
    }

    /// A network from its packed form, checked.
    pub(crate) fn from_packed(
        geom: Geometry<B>,
        data: PackedNTupleData,
    ) -> Result<Self, NTupleError> {
        check_layout(geom, &data.layout)?;
        let l = data.layout;
        if data.tuples.len() != l.tuples || data.tuples.iter().any(|t| t.len() != l.cells) {
            return Err(NTupleError::Inconsistent("tuple count or length"));
        }
        let table_len = STATES.pow(l.cells as u32);
        let mut weights = vec![0.0; l.sets * l.tuples * table_len];
        let mut stored = data.weights.iter();
        for set in 0..l.sets {
            for (t, cells) in data.tuples.iter().enumerate() {
                let base = (set * l.tuples + t) * table_len;
                for p in reachable_patterns(cells) {
                    weights[base + p as usize] = *stored
                        .next()
                        .ok_or(NTupleError::Inconsistent("weight count"))?;
                }
            }
        }
        if stored.next().is_some() {
            return Err(NTupleError::Inconsistent("weight count"));
        }
        Self::from_parts(geom, l, data.tuples, weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;
    use rand::Rng;

    #[test]
    fn packing_keeps_every_weight_a_board_can_read() {
        let g = Geometry::STANDARD;
        let layout = NTupleLayout {
            tuples: 12,
            cells: 6,
            ..NTupleLayout::default()
        };
        let mut net = NTupleNetwork::new(g, layout).unwrap();
        // Teach it positions of many shapes, so that many patterns carry weights.
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
        let mut seen = Vec::new();
        for _ in 0..3000 {
            let mut p = Position::new(g);
            for _ in 0..rng.gen_range(0..36) {
                let legal: Vec<usize> = p.legal_columns().collect();
                match p.after(legal[rng.gen_range(0..legal.len())]) {
                    Some(q) if !q.last_move_won() && !q.is_full() => p = q,
                    _ => break,
                }
            }
            let a = net.active(&p);
            net.learn(&a, 0.5, 0.01);
            seen.push(p);
        }
        let packed = net.packed().expect("no weight of an impossible pattern");
        assert!(
            packed.weights.len() < net.len() / 2,
            "{}",
            packed.weights.len()
        );
        let back = NTupleNetwork::from_packed(g, packed.clone()).unwrap();
        for p in &seen {
            assert_eq!(back.value(p), net.value(p));
        }
        // The reachable slots are the packed weights' places, and every read falls on one.
        let slots = net.reachable_slots();
        assert_eq!(slots.len(), packed.weights.len());
        assert!(slots.windows(2).all(|w| w[0] < w[1]));
        for p in &seen {
            assert!(net.active(p).iter().all(|a| slots.binary_search(a).is_ok()));
        }
        // A bottom row of 3 cells: each cell playable or a stone, 3^3 patterns.
        assert_eq!(reachable_patterns(&[(0, 0), (1, 0), (2, 0)]).len(), 27);
        // A column of 2 from the bottom: (playable, not yet) or (stone, anything but not yet).
        assert_eq!(reachable_patterns(&[(0, 0), (0, 1)]).len(), 1 + 2 * 3);
        // Damaged packed data is refused.
        let mut short = packed;
        short.weights.pop();
        assert!(NTupleNetwork::from_packed(g, short).is_err());
    }
}
