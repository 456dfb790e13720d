//! Reading a tuple's pattern off the bitboards: cell by cell anywhere, or by parallel bit
//! extraction on CPUs with BMI2 (see `NTupleNetwork::for_each_pattern`).

use crate::game::Geometry;

/// The bit of cell (col, row) in the position's bitboards.
pub(super) fn bit(geom: Geometry, col: usize, row: usize) -> u8 {
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

/// [`pattern`] for every tuple by bit extraction: `boards` are the position's occupied and
/// low-bit boards, then the mirror image's; `masks` each tuple's cells in increasing bit
/// order. A pattern's digit i is (occupied, low) of cell i: the extracted low bits deposited
/// at the even bits, the occupied ones at the odd bits.
///
/// # Safety
/// The CPU must have BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
pub(super) unsafe fn extract_patterns(
    masks: &[u64],
    boards: [u64; 4],
    mut f: impl FnMut(usize, u32, u32),
) {
    use std::arch::x86_64::{_pdep_u64, _pext_u64};
    const EVEN: u64 = 0x5555_5555_5555_5555;
    const ODD: u64 = 0xAAAA_AAAA_AAAA_AAAA;
    let [mask, lo, mirror_mask, mirror_lo] = boards;
    for (t, &m) in masks.iter().enumerate() {
        let a = _pdep_u64(_pext_u64(lo, m), EVEN) | _pdep_u64(_pext_u64(mask, m), ODD);
        let b =
            _pdep_u64(_pext_u64(mirror_lo, m), EVEN) | _pdep_u64(_pext_u64(mirror_mask, m), ODD);
        f(t, a as u32, b as u32);
    }
}

/// The base-4 number the states of `cells` make (first cell the lowest digit).
#[inline]
pub(super) fn pattern(cells: &[u8], mask: u64, lo: u64) -> u32 {
    let mut idx = 0u32;
    for &b in cells.iter().rev() {
        let state = (((mask >> b) & 1) << 1 | ((lo >> b) & 1)) as u32;
        idx = idx << 2 | state;
    }
    idx
}
