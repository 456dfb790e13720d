//! Move ordering for the solver: best-scored move first, ties broken centre first.

use crate::game::BitBoard;
use std::mem::MaybeUninit;

/// At most this many columns: what move strings name ([`crate::game::moves::MAX_WIDTH`]).
const MAX_WIDTH: usize = crate::game::moves::MAX_WIDTH;

/// A tiny insertion-sorted list of (move bit, score), popped best first.
///
/// Moves are added from the edge columns towards the centre; an insertion places the new move
/// after every move of equal or lower score, so among equal scores the more central move, added
/// later, sits nearer the end and is popped first.
///
/// The solver makes one at every node it orders, so its slots start uninitialized: zeroing
/// room for the widest board at every node (and copying it into an iterator) took 6% of a
/// labelling run's time on 7x6, where at most seven slots are ever used.
pub(crate) struct MoveSorter<B: BitBoard = u64> {
    /// The entries, best last; exactly the first `len` are initialized.
    entries: [MaybeUninit<(B, u32)>; MAX_WIDTH],
    len: usize,
}

impl<B: BitBoard> MoveSorter<B> {
    #[inline]
    pub fn new() -> Self {
        MoveSorter {
            entries: [const { MaybeUninit::uninit() }; MAX_WIDTH],
            len: 0,
        }
    }

    /// Adds a move. At most one per column: a board has at most `MAX_WIDTH` columns.
    #[inline]
    pub fn add(&mut self, bit: B, score: u32) {
        assert!(self.len < MAX_WIDTH, "more moves than columns");
        let mut i = self.len;
        self.len += 1;
        // SAFETY: every slot read is below the old `len`, so initialized.
        while i > 0 && unsafe { self.entries[i - 1].assume_init() }.1 > score {
            self.entries[i] = self.entries[i - 1];
            i -= 1;
        }
        self.entries[i] = MaybeUninit::new((bit, score));
    }

    /// The best move left (the last added among equals), if any.
    #[inline]
    pub fn pop(&mut self) -> Option<B> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            // SAFETY: the slot is below the old `len`, so initialized.
            Some(unsafe { self.entries[self.len].assume_init() }.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_first_and_ties_last_added_first() {
        let mut s = MoveSorter::<u64>::new();
        s.add(1, 0);
        s.add(2, 3);
        s.add(4, 1);
        s.add(8, 3);
        s.add(16, 0);
        assert_eq!(
            std::iter::from_fn(|| s.pop()).collect::<Vec<_>>(),
            vec![8, 2, 4, 16, 1]
        );
    }
}
