//! The n-tuple network: a linear model over many small patterns of cells (Lucas, 2008; for
//! Connect Four Thill, Koch and Konen, PPSN 2012, and Bagheri et al., IEEE TCIAIG 2016).
//!
//! Each tuple is a list of cells. A cell is in one of four states: empty and not playable
//! yet, empty and playable now (the next stone of its column lands there), the first
//! player's stone, the second player's. The states of a tuple's cells, read as a base-4
//! number, index that tuple's table of weights; the value of a position is the sum of the
//! weights its tuples index, squashed by `tanh` into (-1, 1), from the first player's view.
//! The game is symmetric, so each tuple also reads the mirror image of the position and the
//! two weights add up (one table serves both: a tuple and its mirror share what they learn).
//! Tables can be split by the side to move, since the same pattern means different things
//! to the player who moves next and to the one who waits.
//!
//! Learning is the LMS rule on the sum before the squash: each weight a position indexes
//! moves by `rate x error x (1 - value^2)`, the gradient of `tanh`. The trainer
//! (`train::ntuple`) supplies the targets: game results and TD targets in self-play,
//! solver labels in supervised runs.

mod active;
mod compact;
pub mod kernel;
mod packing;
mod patterns;

use crate::game::{BitBoard, Geometry, Position};
pub use compact::Compact;
pub use packing::{PackedNTupleData, reachable_patterns};
use patterns::{TupleMask, bit, bmi2};
use rand::Rng;
use serde::{Deserialize, Serialize};

/// States a cell can be in (see the module docs).
const STATES: usize = 4;

/// The shape of a network: how many tuples of how many cells, tables split by the side to
/// move or not, and the seed of the random walks that choose the cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NTupleLayout {
    /// Number of tuples.
    pub tuples: usize,
    /// Cells per tuple (each table has 4^cells weights).
    pub cells: usize,
    /// One set of tables per side to move (2) or one shared set (1).
    pub sets: usize,
    /// Seed of the random walks.
    pub seed: u64,
}

impl Default for NTupleLayout {
    /// 70 tuples of 8 cells, as in Thill, Koch and Konen's networks (GBG): 65,536 weights a
    /// table, two sets (one per side to move). Tuples of 7 cells (the default before) learn
    /// the yardstick more slowly; see models/README.md.
    fn default() -> Self {
        NTupleLayout {
            tuples: 70,
            cells: 8,
            sets: 2,
            seed: 1,
        }
    }
}

/// Why a layout or a stored network cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NTupleError {
    /// Tuples of 1 to 10 cells (a 10-cell table already has a million weights).
    #[error("{0} cells per tuple: from 2 to 10")]
    Cells(usize),
    /// At least one tuple.
    #[error("{0} tuples: from 1 to 1000")]
    Tuples(usize),
    /// One or two sets of tables.
    #[error("{0} sets of tables: 1 (shared) or 2 (by side to move)")]
    Sets(usize),
    /// More cells per tuple than the board has.
    #[error("{cells} cells per tuple on a board of {board} cells")]
    TooLong {
        /// Cells per tuple.
        cells: usize,
        /// Cells on the board.
        board: usize,
    },
    /// Stored parts that do not fit together (a damaged or hand-made file).
    #[error("inconsistent network: {0}")]
    Inconsistent(&'static str),
    /// More distinct tuples than the board has (a board of 7x6 has 131 pairs of
    /// neighbouring cells, for example).
    #[error(
        "{tuples} distinct tuples of {cells} cells: the random walks found only {found} on this board"
    )]
    TooManyTuples {
        /// Tuples asked for.
        tuples: usize,
        /// Cells per tuple.
        cells: usize,
        /// Distinct tuples found before the walks stopped finding new ones.
        found: usize,
    },
    /// A NaN or infinite weight.
    #[error("weight {0} is not finite")]
    NotFinite(usize),
}

/// What a model file stores of a network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NTupleData {
    /// The layout it was made with.
    pub layout: NTupleLayout,
    /// Each tuple's cells, as (column, row) with row 0 at the bottom.
    pub tuples: Vec<Vec<(u8, u8)>>,
    /// All tables, set by set, tuple by tuple.
    pub weights: Vec<f32>,
}

/// An n-tuple network for one board size, in the board's integer (`NTupleNetwork` alone:
/// 64-bit boards; `NTupleNetwork<u128>` boards past 64 bits, read cell by cell).
#[derive(Clone, Debug)]
pub struct NTupleNetwork<B: BitBoard = u64> {
    geom: Geometry<B>,
    layout: NTupleLayout,
    /// Each tuple's cells as bit indices of the position's bitboards.
    bits: Vec<Vec<u8>>,
    /// The same cells in the mirror image.
    mirror_bits: Vec<Vec<u8>>,
    /// Cells as (column, row), for files and explanations.
    cells: Vec<Vec<(u8, u8)>>,
    weights: Vec<f32>,
    table_len: usize,
    /// Each tuple's cells as one bit mask, when every tuple lists its cells in increasing
    /// bit order and the CPU has BMI2: then a parallel bit extract reads a pattern's digits
    /// in one instruction (7-8 times fewer operations than cell by cell). Read on x86-64 only,
    /// on 64-bit boards only.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    extract: Option<Vec<TupleMask>>,
    /// For each bit of the board, the slots of an active list that read that cell and the
    /// weight of its digit there: (index in the list, 4^digit). A move changes two cells
    /// (the stone's, and the one above it becomes playable), so the slots of the positions
    /// one move away differ from a common list only there (see [`Self::afterstate_into`]).
    patches: Vec<Vec<(u32, u32)>>,
}

/// The weights one position indexes: `2 x tuples` slots (the position, then its mirror
/// image) into the network's weight vector.
pub(crate) type Active = Vec<u32>;

impl<B: BitBoard> NTupleNetwork<B> {
    /// A network of `layout` for `geom` with every weight zero; the tuples are random walks
    /// over neighbouring cells (the eight directions), each of distinct cells, drawn from the
    /// layout's seed.
    pub fn new(geom: Geometry<B>, layout: NTupleLayout) -> Result<Self, NTupleError> {
        check_layout(geom, &layout)?;
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(
            crate::seed::derive_seed(layout.seed, crate::seed::Stream::NTupleWalks, &[]),
        );
        let (w, h) = (geom.width() as i32, geom.height() as i32);
        let mut tuples = Vec::with_capacity(layout.tuples);
        // Walks that keep finding tuples already drawn mean the board has no more: stop
        // after this many in a row rather than walk for ever.
        const FRUITLESS: usize = 20_000;
        let mut fruitless = 0;
        while tuples.len() < layout.tuples {
            if fruitless >= FRUITLESS {
                return Err(NTupleError::TooManyTuples {
                    tuples: layout.tuples,
                    cells: layout.cells,
                    found: tuples.len(),
                });
            }
            fruitless += 1;
            let mut cells: Vec<(u8, u8)> =
                vec![(rng.gen_range(0..w) as u8, rng.gen_range(0..h) as u8)];
            let mut tries = 0;
            while cells.len() < layout.cells && tries < 1000 {
                tries += 1;
                let &(c, r) = cells.last().expect("a first cell");
                let (dc, dr) = [
                    (-1, -1),
                    (-1, 0),
                    (-1, 1),
                    (0, -1),
                    (0, 1),
                    (1, -1),
                    (1, 0),
                    (1, 1),
                ][rng.gen_range(0..8)];
                let (nc, nr) = (c as i32 + dc, r as i32 + dr);
                if (0..w).contains(&nc) && (0..h).contains(&nr) {
                    let next = (nc as u8, nr as u8);
                    if !cells.contains(&next) {
                        cells.push(next);
                    }
                }
            }
            if cells.len() == layout.cells {
                cells.sort_unstable();
                if !tuples.contains(&cells) {
                    tuples.push(cells);
                    fruitless = 0;
                }
            }
        }
        let table_len = STATES.pow(layout.cells as u32);
        let weights = vec![0.0; layout.sets * layout.tuples * table_len];
        Self::from_parts(geom, layout, tuples, weights)
    }

    /// A network from stored parts, checked.
    pub fn from_data(geom: Geometry<B>, data: NTupleData) -> Result<Self, NTupleError> {
        check_layout(geom, &data.layout)?;
        Self::from_parts(geom, data.layout, data.tuples, data.weights)
    }

    fn from_parts(
        geom: Geometry<B>,
        layout: NTupleLayout,
        cells: Vec<Vec<(u8, u8)>>,
        weights: Vec<f32>,
    ) -> Result<Self, NTupleError> {
        let table_len = STATES.pow(layout.cells as u32);
        if cells.len() != layout.tuples {
            return Err(NTupleError::Inconsistent("tuple count"));
        }
        if weights.len() != layout.sets * layout.tuples * table_len {
            return Err(NTupleError::Inconsistent("weight count"));
        }
        if let Some(i) = weights.iter().position(|w| !w.is_finite()) {
            return Err(NTupleError::NotFinite(i));
        }
        let (w, h) = (geom.width(), geom.height());
        let mut bits: Vec<Vec<u8>> = Vec::with_capacity(cells.len());
        let mut mirror_bits = Vec::with_capacity(cells.len());
        for t in &cells {
            if t.len() != layout.cells {
                return Err(NTupleError::Inconsistent("tuple length"));
            }
            if t.iter().any(|&(c, r)| c as usize >= w || r as usize >= h) {
                return Err(NTupleError::Inconsistent("a cell off the board"));
            }
            bits.push(
                t.iter()
                    .map(|&(c, r)| bit(geom, c as usize, r as usize))
                    .collect(),
            );
            mirror_bits.push(
                t.iter()
                    .map(|&(c, r)| bit(geom, w - 1 - c as usize, r as usize))
                    .collect(),
            );
        }
        let in_bit_order = bits.iter().all(|t| t.windows(2).all(|p| p[0] < p[1]));
        let extract = (B::BITS == 64 && in_bit_order && bmi2()).then(|| {
            bits.iter()
                .map(|t| TupleMask::new(t.iter().fold(0u64, |m, &b| m | 1 << b)))
                .collect()
        });
        let mut patches = vec![Vec::new(); B::BITS as usize];
        for (t, (direct, mirror)) in bits.iter().zip(&mirror_bits).enumerate() {
            for (d, (&b, &m)) in direct.iter().zip(mirror).enumerate() {
                let digit = (STATES as u32).pow(d as u32);
                patches[b as usize].push((2 * t as u32, digit));
                patches[m as usize].push((2 * t as u32 + 1, digit));
            }
        }
        Ok(NTupleNetwork {
            geom,
            layout,
            bits,
            mirror_bits,
            cells,
            weights,
            table_len,
            extract,
            patches,
        })
    }

    /// What a model file stores.
    pub fn data(&self) -> NTupleData {
        NTupleData {
            layout: self.layout,
            tuples: self.cells.clone(),
            weights: self.weights.clone(),
        }
    }

    /// The board the network reads.
    pub fn geometry(&self) -> Geometry<B> {
        self.geom
    }

    /// The layout.
    pub fn layout(&self) -> NTupleLayout {
        self.layout
    }

    /// Each tuple's cells as (column, row), row 0 at the bottom.
    pub fn tuples(&self) -> &[Vec<(u8, u8)>] {
        &self.cells
    }

    /// All weights, set by set, tuple by tuple (each tuple's table indexed by its pattern).
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The weights, to change in place (trainers that keep them elsewhere copy them back).
    pub fn weights_mut(&mut self) -> &mut [f32] {
        &mut self.weights
    }

    /// Number of weights.
    pub fn len(&self) -> usize {
        self.weights.len()
    }

    /// Whether the network has no weights (never: a layout has at least one tuple).
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// The sum of the weights at `active` (the value before the squash; [`kernel::sum`]).
    #[inline]
    pub fn raw(&self, active: &[u32]) -> f32 {
        kernel::sum(&self.weights, active)
    }

    /// The value of `pos` for the first player, in (-1, 1). Reads the patterns straight from
    /// the board instead of listing them first (what search calls millions of times); the
    /// same weights as [`kernel::value`] of [`Self::active`], summed in another order.
    pub fn value(&self, pos: &Position<B>) -> f32 {
        let mut sum = 0.0f32;
        let w = &self.weights;
        self.for_each_pattern(pos, |table, a, b| {
            sum += w[table + a as usize] + w[table + b as usize];
        });
        kernel::squash(sum)
    }

    /// Moves the weights at `active` toward `target` (first player's view, in [-1, 1]) by
    /// the LMS rule through the squash; returns the error before the step.
    pub fn learn(&mut self, active: &[u32], target: f32, rate: f32) -> f32 {
        kernel::learn(&mut self.weights, active, target, rate)
    }

    /// Adds `delta` to every weight at `active`.
    #[inline]
    pub fn step(&mut self, active: &[u32], delta: f32) {
        kernel::step(&mut self.weights, active, delta);
    }

    /// Each tuple's share of the sum for `pos` (position and mirror image together), in
    /// tuple order: what the web UI lists as reasons.
    pub fn contributions(&self, pos: &Position<B>) -> Vec<f32> {
        let a = self.active(pos);
        a.chunks(2)
            .map(|p| self.weights[p[0] as usize] + self.weights[p[1] as usize])
            .collect()
    }
}

fn check_layout<B: BitBoard>(geom: Geometry<B>, l: &NTupleLayout) -> Result<(), NTupleError> {
    if !(2..=10).contains(&l.cells) {
        return Err(NTupleError::Cells(l.cells));
    }
    if !(1..=1000).contains(&l.tuples) {
        return Err(NTupleError::Tuples(l.tuples));
    }
    if !(1..=2).contains(&l.sets) {
        return Err(NTupleError::Sets(l.sets));
    }
    if l.cells > geom.cells() {
        return Err(NTupleError::TooLong {
            cells: l.cells,
            board: geom.cells(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests;
