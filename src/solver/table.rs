//! The transposition table: one packed word per entry, exact keys, bounds as values.
//!
//! A key of a `w x h` board has `w * (h + 1)` bits. With a table of `size` entries (a prime,
//! for an even spread) the entry index is `key % size`, and the entry keeps the quotient
//! `key / size`: index and quotient together give back the whole key, so a hit is never a
//! collision. On 7x6 (49-bit keys) with 64 MiB the quotient needs 25 bits and the value 7,
//! so an entry is one `u32`: 16.7 million entries, one cache line touched per probe.
//! Larger boards or smaller tables fall back to `u64` entries.

/// Storage word of a table entry.
pub(crate) trait Slot: Copy + Default + Send {
    /// Width of the word in bits.
    const BITS: u32;
    fn from_u64(v: u64) -> Self;
    fn to_u64(self) -> u64;
}

impl Slot for u32 {
    const BITS: u32 = 32;
    #[inline]
    fn from_u64(v: u64) -> Self {
        v as u32
    }
    #[inline]
    fn to_u64(self) -> u64 {
        self as u64
    }
}

impl Slot for u64 {
    const BITS: u32 = 64;
    #[inline]
    fn from_u64(v: u64) -> Self {
        v
    }
    #[inline]
    fn to_u64(self) -> u64 {
        self
    }
}

/// A fixed-size, always-replace table mapping a key to a small non-zero value (0 = unknown).
pub(crate) struct Table<S: Slot> {
    entries: Vec<S>,
    size: u64,
    value_bits: u32,
}

impl<S: Slot> Table<S> {
    /// A table of `size` entries for values below `2^value_bits`.
    pub fn new(size: u64, value_bits: u32) -> Self {
        let mut entries = vec![S::default(); size as usize];
        prefault(&mut entries);
        Table {
            entries,
            size,
            value_bits,
        }
    }

    /// Whether keys of `key_bits` bits fit with values of `value_bits` bits in this word.
    pub fn fits(size: u64, key_bits: u32, value_bits: u32) -> bool {
        let max_key = if key_bits >= 64 {
            u64::MAX
        } else {
            (1u64 << key_bits) - 1
        };
        let quotient_bits = 64 - (max_key / size).leading_zeros();
        quotient_bits + value_bits <= S::BITS
    }

    #[inline]
    pub fn put(&mut self, key: u64, value: u8) {
        let (q, i) = (key / self.size, key % self.size);
        self.entries[i as usize] = S::from_u64((q << self.value_bits) | value as u64);
    }

    #[inline]
    pub fn get(&self, key: u64) -> u8 {
        let (q, i) = (key / self.size, key % self.size);
        let e = self.entries[i as usize].to_u64();
        if e >> self.value_bits == q {
            (e & ((1 << self.value_bits) - 1)) as u8
        } else {
            0
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(S::default());
    }

    pub fn len(&self) -> u64 {
        self.size
    }
}

/// Touches every page of a freshly zeroed allocation. The allocator hands out lazily mapped
/// zero pages; without this, each first probe of a page pays a page fault, which dominated
/// the time of short searches (34 us instead of 5 us for a 50-node end-game solve).
fn prefault<S: Slot>(entries: &mut [S]) {
    let step = (4096 / std::mem::size_of::<S>()).max(1);
    for i in (0..entries.len()).step_by(step) {
        // A volatile write the optimiser cannot drop as redundant with the zeroed allocation.
        unsafe { std::ptr::write_volatile(&mut entries[i], S::default()) };
    }
}

/// The largest prime not above `n` (n >= 2).
pub(crate) fn prime_at_most(n: u64) -> u64 {
    let is_prime = |m: u64| {
        if m < 2 {
            return false;
        }
        let mut d = 2;
        while d * d <= m {
            if m % d == 0 {
                return false;
            }
            d += 1;
        }
        true
    };
    (2..=n.max(2)).rev().find(|&m| is_prime(m)).unwrap_or(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes() {
        assert_eq!(prime_at_most(100), 97);
        assert_eq!(prime_at_most(97), 97);
        assert_eq!(prime_at_most((64 << 20) / 4), 16777213);
    }

    #[test]
    fn exact_keys_never_collide() {
        let mut t = Table::<u32>::new(1009, 7);
        assert!(Table::<u32>::fits(1009, 30, 7));
        assert!(!Table::<u32>::fits(1009, 40, 7));
        t.put(5, 3);
        assert_eq!(t.get(5), 3);
        // Same index, different key: a miss, not a wrong value.
        assert_eq!(t.get(5 + 1009), 0);
        t.put(5 + 1009, 9);
        assert_eq!(t.get(5), 0);
        assert_eq!(t.get(5 + 1009), 9);
        t.clear();
        assert_eq!(t.get(5 + 1009), 0);
    }
}
