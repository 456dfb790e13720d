//! Which weights a position reads: each tuple's pattern of cells (and its mirror image's)
//! as slots of the network's tables, whole or patched for the afterstates of one move.

use super::patterns::pattern;
#[cfg(target_arch = "x86_64")]
use super::patterns::{extract_patterns, extract_slots};
use super::{Active, NTupleNetwork};
use crate::game::{BitBoard, Player, Position};

impl<B: BitBoard> NTupleNetwork<B> {
    /// The slots of the weights `pos` indexes, into `out` (cleared first): for each tuple,
    /// the position's pattern, then the mirror image's.
    pub fn active_into(&self, pos: &Position<B>, out: &mut Active) {
        self.active_of(self.reads(pos, pos.side_to_move()), out);
    }

    /// The slots of the board `reads` describes (see [`Self::reads`]), into `out`.
    #[inline]
    pub(super) fn active_of(&self, reads: (B, B, usize), out: &mut Active) {
        out.clear();
        #[cfg(target_arch = "x86_64")]
        if let Some(masks) = &self.extract {
            let (mask, lo, base) = reads;
            let (mirror_mask, mirror_lo) = (self.geom.mirror_bits(mask), self.geom.mirror_bits(lo));
            out.resize(2 * masks.len(), 0);
            // SAFETY: `extract` is only set when the CPU has BMI2 (checked at run time), and
            // on 64-bit boards only: the conversions keep every bit.
            unsafe {
                extract_slots(
                    masks,
                    [
                        mask.low_u64(),
                        lo.low_u64(),
                        mirror_mask.low_u64(),
                        mirror_lo.low_u64(),
                    ],
                    base as u32,
                    self.table_len as u32,
                    out,
                )
            };
            return;
        }
        self.for_each_pattern_of(reads, |table, a, b| {
            out.push((table as u32) + a);
            out.push((table as u32) + b);
        });
    }

    /// What the positions one move after `pos` have in common, into `common`: `pos`'s own
    /// cells read in the table set of the side that moves after that move. Patched by
    /// [`Self::afterstate_into`] for each move, it lists each afterstate's slots for a
    /// fraction of reading them afresh (self-play values up to seven afterstates a move).
    pub fn afterstate_common(&self, pos: &Position<B>, common: &mut Active) {
        self.active_of(self.reads(pos, pos.side_to_move().other()), common);
    }

    /// The slots of the position after the side to move of `pos` plays `col` (a legal
    /// column), from `common` ([`Self::afterstate_common`] of `pos`), into `out`: exactly
    /// [`Self::active_into`] of that position, in the same order.
    pub fn afterstate_into(&self, pos: &Position<B>, common: &[u32], col: usize, out: &mut Active) {
        out.clear();
        out.extend_from_slice(common);
        let (stone, above) = self.changed_cells(pos, col);
        // The landing cell goes from playable (state 1) to the mover's stone (2 or 3).
        let grows = if pos.side_to_move() == Player::First {
            1
        } else {
            2
        };
        self.patch(out, stone, grows);
        // The cell above it, if any, goes from not yet playable (0) to playable (1).
        self.patch(out, above, 1);
    }

    /// The two cells (as bits, 0 for none) whose state a move in `col` changes: where the
    /// stone lands, and the cell above it, which becomes playable.
    #[inline]
    pub(super) fn changed_cells(&self, pos: &Position<B>, col: usize) -> (B, B) {
        let g = self.geom;
        let column = g.column_mask(col);
        let stone = (pos.mask() + g.cell_bit(col, 0)) & column;
        (stone, (stone << 1u32) & column)
    }

    /// Adds `grows` to the digit of the cell at `bit` (a single bit, or none) in every slot
    /// of `out` that reads it.
    #[inline]
    pub(super) fn patch(&self, out: &mut [u32], bit: B, grows: u32) {
        if bit == B::ZERO {
            return;
        }
        for &(i, digit) in &self.patches[bit.trailing_zeros() as usize] {
            let slot = &mut out[i as usize];
            *slot = slot.wrapping_add(grows * digit);
        }
    }

    /// Calls `f(first slot of the tuple's table, pattern, mirror image's pattern)` for each
    /// tuple in order: by bit extraction where [`Self::extract`] allows, else cell by cell.
    #[inline(always)]
    pub(super) fn for_each_pattern(&self, pos: &Position<B>, f: impl FnMut(usize, u32, u32)) {
        self.for_each_pattern_of(self.reads(pos, pos.side_to_move()), f)
    }

    /// [`Self::for_each_pattern`] of the board `reads` describes.
    #[inline(always)]
    pub(super) fn for_each_pattern_of(
        &self,
        reads: (B, B, usize),
        mut f: impl FnMut(usize, u32, u32),
    ) {
        let (mask, lo, base) = reads;
        #[cfg(target_arch = "x86_64")]
        if let Some(masks) = &self.extract {
            let (mirror_mask, mirror_lo) = (self.geom.mirror_bits(mask), self.geom.mirror_bits(lo));
            let boards = [
                mask.low_u64(),
                lo.low_u64(),
                mirror_mask.low_u64(),
                mirror_lo.low_u64(),
            ];
            // SAFETY: `extract` is only set when the CPU has BMI2 (checked at run time), and
            // on 64-bit boards only: the conversions keep every bit.
            unsafe {
                extract_patterns(masks, boards, |t, a, b| f(base + t * self.table_len, a, b))
            };
            return;
        }
        for (t, (cells, mirror)) in self.bits.iter().zip(&self.mirror_bits).enumerate() {
            f(
                base + t * self.table_len,
                pattern(cells, mask, lo),
                pattern(mirror, mask, lo),
            );
        }
    }

    /// What the patterns of `pos` are read from: the occupied cells (high bit of a cell's
    /// state), the second player's stones and the playable cells (low bit), and the first
    /// slot of the table set for `mover` (the side to move, but for afterstates' common
    /// part).
    #[inline]
    pub(super) fn reads(&self, pos: &Position<B>, mover: Player) -> (B, B, usize) {
        let mask = pos.mask();
        let second = pos.stones_of(Player::Second);
        let reach = (mask + self.geom.bottom_mask()) & self.geom.board_mask();
        let set = usize::from(self.layout.sets == 2 && mover == Player::Second);
        (
            mask,
            second | reach,
            set * self.layout.tuples * self.table_len,
        )
    }

    /// The weights `pos` indexes.
    pub fn active(&self, pos: &Position<B>) -> Active {
        let mut out = Vec::with_capacity(2 * self.layout.tuples);
        self.active_into(pos, &mut out);
        out
    }
}
