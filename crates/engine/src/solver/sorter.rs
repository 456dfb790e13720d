//! Move ordering for the solver: best-scored move first, ties broken centre first.

/// At most this many columns: width * (height + 1) <= 64 with height >= 1.
const MAX_WIDTH: usize = 32;

/// A tiny insertion-sorted list of (move bit, score), popped best first.
///
/// Moves are added from the edge columns towards the centre; an insertion places the new move
/// after every move of equal or lower score, so among equal scores the more central move, added
/// later, sits nearer the end and is popped first.
pub(crate) struct MoveSorter {
    bits: [u64; MAX_WIDTH],
    scores: [u32; MAX_WIDTH],
    len: usize,
}

impl MoveSorter {
    #[inline]
    pub fn new() -> Self {
        MoveSorter {
            bits: [0; MAX_WIDTH],
            scores: [0; MAX_WIDTH],
            len: 0,
        }
    }

    #[inline]
    pub fn add(&mut self, bit: u64, score: u32) {
        let mut i = self.len;
        self.len += 1;
        while i > 0 && self.scores[i - 1] > score {
            self.bits[i] = self.bits[i - 1];
            self.scores[i] = self.scores[i - 1];
            i -= 1;
        }
        self.bits[i] = bit;
        self.scores[i] = score;
    }
}

impl Iterator for MoveSorter {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            Some(self.bits[self.len])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_first_and_ties_last_added_first() {
        let mut s = MoveSorter::new();
        s.add(1, 0);
        s.add(2, 3);
        s.add(4, 1);
        s.add(8, 3);
        s.add(16, 0);
        assert_eq!(s.collect::<Vec<_>>(), vec![8, 2, 4, 16, 1]);
    }
}
