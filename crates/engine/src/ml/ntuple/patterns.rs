//! Reading a tuple's pattern off the bitboards: cell by cell anywhere, or by parallel bit
//! extraction on CPUs with BMI2 (see `NTupleNetwork::for_each_pattern`).

use crate::game::{BitBoard, Geometry};

/// The bit of cell (col, row) in the position's bitboards.
pub(super) fn bit<B: BitBoard>(geom: Geometry<B>, col: usize, row: usize) -> u8 {
    geom.cell_bit(col, row).trailing_zeros() as u8
}

/// Whether this CPU has the parallel bit extract and deposit instructions (BMI2).
pub(super) fn bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// One tuple's cells as masks of a position's interleaved board (see [`Interleaved`]): the
/// two bits of each cell below bit 32 in `low`, of each cell from bit 32 on in `high`, and
/// how many pattern bits the low half gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TupleMask {
    low: u64,
    high: u64,
    shift: u32,
}

impl TupleMask {
    /// The masks of a tuple whose cells are the bits of `cells` (at most 32 cells).
    pub(super) fn new(cells: u64) -> Self {
        let pair = |half: u64| {
            (0..32)
                .filter(|i| half >> i & 1 == 1)
                .fold(0u64, |m, i| m | 0b11 << (2 * i))
        };
        let low = pair(cells & 0xFFFF_FFFF);
        TupleMask {
            low,
            high: pair(cells >> 32),
            shift: low.count_ones(),
        }
    }
}

/// A position's two boards (occupied cells and low bits) interleaved bit by bit, so that one
/// extraction per half reads a pattern's digits in order: bit `2i` is the low bit of board
/// bit `i`, bit `2i + 1` its occupied bit; `[0]` holds board bits 0-31, `[1]` bits 32-63.
#[cfg(target_arch = "x86_64")]
type Interleaved = [u64; 2];

/// Interleaves `mask` (occupied) and `lo` (low bits) as [`Interleaved`] says.
///
/// # Safety
/// The CPU must have BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn interleave(mask: u64, lo: u64) -> Interleaved {
    use std::arch::x86_64::_pdep_u64;
    const EVEN: u64 = 0x5555_5555_5555_5555;
    const ODD: u64 = 0xAAAA_AAAA_AAAA_AAAA;
    const HALF: u64 = 0xFFFF_FFFF;
    [
        _pdep_u64(lo & HALF, EVEN) | _pdep_u64(mask & HALF, ODD),
        _pdep_u64(lo >> 32, EVEN) | _pdep_u64(mask >> 32, ODD),
    ]
}

/// One tuple's pattern off an interleaved board: two extractions, where reading each board
/// apart and interleaving the results took four extractions and four deposits (a fifth of
/// self-play's time went to reading patterns).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
unsafe fn extract(m: &TupleMask, board: &Interleaved) -> u32 {
    use std::arch::x86_64::_pext_u64;
    (_pext_u64(board[0], m.low) | _pext_u64(board[1], m.high) << m.shift) as u32
}

/// [`pattern`] for every tuple by bit extraction: `boards` are the position's occupied and
/// low-bit boards, then the mirror image's; `masks` each tuple's cells ([`TupleMask`]). A
/// pattern's digit i is (occupied, low) of cell i in increasing bit order: the low bit at
/// bit 2i, the occupied one at 2i + 1.
///
/// # Safety
/// The CPU must have BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
pub(super) unsafe fn extract_patterns(
    masks: &[TupleMask],
    boards: [u64; 4],
    mut f: impl FnMut(usize, u32, u32),
) {
    let [mask, lo, mirror_mask, mirror_lo] = boards;
    // SAFETY: this function's caller vouches for BMI2.
    let (board, mirror) = unsafe { (interleave(mask, lo), interleave(mirror_mask, mirror_lo)) };
    for (t, m) in masks.iter().enumerate() {
        // SAFETY: as above.
        let (a, b) = unsafe { (extract(m, &board), extract(m, &mirror)) };
        f(t, a, b);
    }
}

/// The slots a position indexes, straight into `out` (two per tuple: the position's
/// pattern, then the mirror image's, each offset by its table's first slot `base + t x
/// table_len`); what self-play lists for every afterstate it values, so it writes in place
/// rather than through a callback that grows a vector.
///
/// # Safety
/// The CPU must have BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
pub(super) unsafe fn extract_slots(
    masks: &[TupleMask],
    boards: [u64; 4],
    base: u32,
    table_len: u32,
    out: &mut [u32],
) {
    let [mask, lo, mirror_mask, mirror_lo] = boards;
    // SAFETY: this function's caller vouches for BMI2.
    let (board, mirror) = unsafe { (interleave(mask, lo), interleave(mirror_mask, mirror_lo)) };
    let mut table = base;
    for (m, pair) in masks.iter().zip(out.chunks_exact_mut(2)) {
        // SAFETY: as above.
        let (a, b) = unsafe { (extract(m, &board), extract(m, &mirror)) };
        pair[0] = table + a;
        pair[1] = table + b;
        table += table_len;
    }
}

/// The base-4 number the states of `cells` make (first cell the lowest digit).
#[inline]
pub(super) fn pattern<B: BitBoard>(cells: &[u8], mask: B, lo: B) -> u32 {
    let mut idx = 0u32;
    for &b in cells.iter().rev() {
        let b = u32::from(b);
        let state = (((mask >> b) & B::ONE).low_u64() << 1 | ((lo >> b) & B::ONE).low_u64()) as u32;
        idx = idx << 2 | state;
    }
    idx
}
