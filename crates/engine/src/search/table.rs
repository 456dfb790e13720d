//! The search's transposition table: one entry per slot, replaced when a deeper or newer
//! result arrives.

use crate::game::BitBoard;

/// What a stored value means relative to the true value at its depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least this (a beta cutoff).
    Lower,
    /// The true value is at most this (no move reached alpha).
    Upper,
}

/// One slot.
#[derive(Clone, Copy, Debug)]
pub struct Entry<K: BitBoard = u64> {
    key: K,
    /// Whose point of view the value takes (the key also carries it in its top bit; a board
    /// whose keys fill every bit could otherwise meet the other side's entry).
    second: bool,
    pub value: f64,
    pub depth: u8,
    pub bound: Bound,
    pub best: u8,
}

impl<K: BitBoard> Entry<K> {
    const EMPTY: Self = Entry {
        key: K::ZERO,
        second: false,
        value: 0.0,
        depth: 0,
        bound: Bound::Exact,
        best: 0,
    };
}

/// A direct-mapped table indexed by a multiplicative hash of the position key (position keys
/// are never 0, so 0 marks an empty slot).
pub struct Table<K: BitBoard = u64> {
    slots: Vec<Entry<K>>,
    shift: u32,
}

impl<K: BitBoard> Table<K> {
    pub fn new(log2: u32) -> Self {
        let log2 = log2.clamp(4, 30);
        Table {
            slots: vec![Entry::EMPTY; 1 << log2],
            shift: K::BITS - log2,
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill(Entry::EMPTY);
    }

    #[inline]
    fn index(&self, key: K) -> usize {
        (key.wrapping_mul(K::from_u64(0x9E37_79B9_7F4A_7C15)) >> self.shift).low_u64() as usize
    }

    #[inline]
    pub fn probe(&self, key: K, second: bool) -> Option<Entry<K>> {
        let e = self.slots[self.index(key)];
        (e.key == key && e.second == second).then_some(e)
    }

    pub fn best_move(&self, key: K, second: bool) -> Option<usize> {
        self.probe(key, second).map(|e| e.best as usize)
    }

    /// Stores unless the slot holds a deeper result for the same key.
    #[inline]
    pub fn store(
        &mut self,
        (key, second): (K, bool),
        depth: u32,
        value: f64,
        bound: Bound,
        best: usize,
    ) {
        let i = self.index(key);
        let slot = &mut self.slots[i];
        if slot.key == key && slot.second == second && slot.depth as u32 > depth {
            return;
        }
        *slot = Entry {
            key,
            second,
            value,
            depth: depth.min(255) as u8,
            bound,
            best: best.min(255) as u8,
        };
    }
}

/// Decisive values count plies from the root; the table stores them counted from the node,
/// so an entry stays right wherever the node is met again.
#[inline]
pub fn to_stored(value: f64, ply: u32) -> f64 {
    if value >= super::DECISIVE {
        value + ply as f64
    } else if value <= -super::DECISIVE {
        value - ply as f64
    } else {
        value
    }
}

/// The inverse of [`to_stored`] at `ply`.
#[inline]
pub(crate) fn from_stored(value: f64, ply: u32) -> f64 {
    if value >= super::DECISIVE {
        value - ply as f64
    } else if value <= -super::DECISIVE {
        value + ply as f64
    } else {
        value
    }
}
