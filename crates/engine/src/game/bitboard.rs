//! The integer a bitboard lives in: `u64` for boards of up to 64 bits (7x6 and every board
//! up to 9x6 or 8x7), `u128` for boards of up to 128 bits (8x8, 9x7, 10x7, 10x10 ...).
//!
//! Why a trait rather than one wide integer: a run-time shift or addition of a `u128` is
//! several instructions on every machine we build for, and the board's questions (winning
//! cells, possible moves, keys) are the solver's and the evaluators' hot path. The
//! [`Geometry`](super::Geometry), the [`Position`](super::Position) and the solver are generic
//! over [`BitBoard`] with `u64` as the default, monomorphised per integer: a 64-bit board runs
//! exactly the code it ran before wide boards existed, and a wide board is chosen once, where
//! the board's size is read.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{
    Add, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr, Sub,
};

/// An unsigned integer holding one bit per cell of a board (plus a sentinel row): `u64` or
/// `u128`. Sealed: the solver's tables rely on exactly these two (each is also the word of
/// its board's wide tables).
pub trait BitBoard:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Add<Output = Self>
    + Sub<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
    + sealed::Sealed
    + word::Word
{
    /// No bit set.
    const ZERO: Self;
    /// The lowest bit.
    const ONE: Self;
    /// Every bit set.
    const MAX: Self;
    /// Width of the integer: the most bits a board of this kind may use.
    const BITS: u32;
    /// Number of set bits.
    fn count_ones(self) -> u32;
    /// Index of the lowest set bit (`BITS` when none).
    fn trailing_zeros(self) -> u32;
    /// Product modulo `2^BITS`.
    fn wrapping_mul(self, other: Self) -> Self;
    /// Difference modulo `2^BITS`.
    fn wrapping_sub(self, other: Self) -> Self;
    /// Two's complement negation: `x & x.wrapping_neg()` is the lowest set bit.
    fn wrapping_neg(self) -> Self;
    /// Shift right, `None` for a shift of `BITS` or more.
    fn checked_shr(self, by: u32) -> Option<Self>;
    /// Shift left, `None` for a shift of `BITS` or more.
    fn checked_shl(self, by: u32) -> Option<Self>;
    /// The value of a `u64`.
    fn from_u64(v: u64) -> Self;
    /// The lowest 64 bits (what a table entry or an index keeps of a value known to fit).
    fn low_u64(self) -> u64;
    /// The value as a `u64` when it fits: how a wide board's keys reach what only narrow
    /// boards have (opening books, learned models' tables).
    fn to_u64(self) -> Option<u64>;
    /// The value in a `u128` (every bitboard fits one).
    fn low_u128(self) -> u128;
    /// The low `BITS` bits of a `u128`.
    fn from_u128(v: u128) -> Self;
    /// The value folded into 64 bits (the two halves xored; a `u64` is itself): what seeds
    /// and hashes read of a key.
    #[inline(always)]
    fn fold_u64(self) -> u64 {
        let v = self.low_u128();
        (v as u64) ^ ((v >> 64) as u64)
    }
}

mod sealed {
    /// Only `u64` and `u128` are bitboards.
    pub trait Sealed {}
    impl Sealed for u64 {}
    impl Sealed for u128 {}
}

/// The storage words of the solver's tables: `u32`, `u64` and `u128`.
pub(crate) mod word {
    /// A table entry's word: packs the low bits of a key-sized integer and gives them back.
    pub trait Word: Copy + Default + Send + 'static {
        /// Width of the word in bits.
        const WORD_BITS: u32;
        /// The low `WORD_BITS` bits of `v`.
        fn pack<K: super::BitBoard>(v: K) -> Self;
        /// The word as a key-sized integer.
        fn unpack<K: super::BitBoard>(self) -> K;
    }

    impl Word for u32 {
        const WORD_BITS: u32 = 32;
        #[inline]
        fn pack<K: super::BitBoard>(v: K) -> Self {
            v.low_u64() as u32
        }
        #[inline]
        fn unpack<K: super::BitBoard>(self) -> K {
            K::from_u64(self as u64)
        }
    }

    impl Word for u64 {
        const WORD_BITS: u32 = 64;
        #[inline]
        fn pack<K: super::BitBoard>(v: K) -> Self {
            v.low_u64()
        }
        #[inline]
        fn unpack<K: super::BitBoard>(self) -> K {
            K::from_u64(self)
        }
    }

    impl Word for u128 {
        const WORD_BITS: u32 = 128;
        #[inline]
        fn pack<K: super::BitBoard>(v: K) -> Self {
            K::low_u128(v)
        }
        #[inline]
        fn unpack<K: super::BitBoard>(self) -> K {
            K::from_u128(self)
        }
    }
}

macro_rules! bitboard {
    ($t:ty) => {
        impl BitBoard for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const MAX: Self = <$t>::MAX;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn wrapping_mul(self, other: Self) -> Self {
                <$t>::wrapping_mul(self, other)
            }
            #[inline(always)]
            fn wrapping_sub(self, other: Self) -> Self {
                <$t>::wrapping_sub(self, other)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> Self {
                <$t>::wrapping_neg(self)
            }
            #[inline(always)]
            fn checked_shr(self, by: u32) -> Option<Self> {
                <$t>::checked_shr(self, by)
            }
            #[inline(always)]
            fn checked_shl(self, by: u32) -> Option<Self> {
                <$t>::checked_shl(self, by)
            }
            #[inline(always)]
            fn from_u64(v: u64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn low_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn to_u64(self) -> Option<u64> {
                u64::try_from(self).ok()
            }
            #[inline(always)]
            fn low_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_u128(v: u128) -> Self {
                v as $t
            }
        }
    };
}

bitboard!(u64);
bitboard!(u128);

#[cfg(test)]
mod tests {
    use super::word::Word;
    use super::*;

    fn lowest<B: BitBoard>(x: B) -> B {
        x & x.wrapping_neg()
    }

    #[test]
    fn both_integers_answer_alike_where_both_fit() {
        let x = 0b1011_0000u64;
        assert_eq!(lowest(x), 0b1_0000);
        assert_eq!(lowest(x as u128), 0b1_0000);
        assert_eq!(BitBoard::trailing_zeros(x as u128), 4);
        assert_eq!(<u128 as BitBoard>::to_u64(1 << 64), None);
        assert_eq!(<u128 as BitBoard>::to_u64(7), Some(7));
        assert_eq!(BitBoard::checked_shr(1u64, 64), None);
        assert_eq!(BitBoard::checked_shl(1u128, 100), Some(1 << 100));
    }

    #[test]
    fn words_keep_the_low_bits() {
        assert_eq!(<u32 as Word>::pack(0x1_2345_6789u64), 0x2345_6789);
        assert_eq!(<u64 as Word>::pack((1u128 << 70) | 5), 5);
        let w = <u128 as Word>::pack((1u128 << 70) | 5);
        assert_eq!(w.unpack::<u128>(), (1 << 70) | 5);
    }
}
