//! The transposition table: one packed word per entry, exact keys, bounds as values.
//!
//! A key of a `w x h` board has `K = w * (h + 1)` bits. It is first scrambled by a bijection
//! of the `K`-bit integers (multiplication by an odd constant modulo `2^K`), whose top bits
//! spread related positions evenly over the table. The table has `2^L` entries: the top `L`
//! bits of the scrambled key pick the entry, and the entry keeps the other `K - L` bits, so
//! index and stored bits together give back the whole key and a hit is never a collision.
//! That costs one multiplication, where a prime-sized table needs a 64-bit division.
//!
//! On 7x6 (49-bit keys) with 64 MiB: 2^24 entries, 25 stored key bits + 7 value bits = one
//! `u32`, so a probe touches one cache line. Larger boards or smaller tables use `u64` words.

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

/// Why a table could not be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TableError {
    /// The entry word is too narrow for this key size and table size.
    Unfit,
    /// The allocation failed.
    NoMemory,
}

/// An odd constant with well-mixed bits (the 64-bit golden ratio).
const SCRAMBLE: u64 = 0x9E37_79B9_7F4A_7C15;

/// A fixed-size, always-replace table mapping a key to a small non-zero value (0 = unknown).
pub(crate) struct Table<S: Slot> {
    entries: Entries<S>,
    /// Mask of the `K` key bits.
    key_mask: u64,
    /// `K - L`: how far the index sits above the stored bits.
    stored_bits: u32,
    value_bits: u32,
}

impl<S: Slot> Table<S> {
    /// A table of `2^log_size` entries for `key_bits`-bit keys and values below
    /// `2^value_bits`. `Err(Unfit)` if an entry word cannot hold the stored key bits and the
    /// value, `Err(NoMemory)` if the memory cannot be had.
    pub fn new(log_size: u32, key_bits: u32, value_bits: u32) -> Result<Self, TableError> {
        if log_size > key_bits || key_bits - log_size + value_bits > S::BITS {
            return Err(TableError::Unfit);
        }
        let entries = Entries::zeroed(1usize << log_size).ok_or(TableError::NoMemory)?;
        Ok(Table {
            entries,
            key_mask: if key_bits >= 64 {
                u64::MAX
            } else {
                (1u64 << key_bits) - 1
            },
            stored_bits: key_bits - log_size,
            value_bits,
        })
    }

    /// (entry index, bits to store) of a key.
    #[inline]
    fn locate(&self, key: u64) -> (usize, u64) {
        let h = key.wrapping_mul(SCRAMBLE) & self.key_mask;
        // `checked_shr` covers a table as large as the key space (no stored bits).
        let index = h.checked_shr(self.stored_bits).unwrap_or(0) as usize;
        let stored = h & !(self.key_mask.checked_shl(self.stored_bits).unwrap_or(0));
        (index, stored)
    }

    #[inline]
    pub fn put(&mut self, key: u64, value: u8) {
        let (i, stored) = self.locate(key);
        self.entries[i] = S::from_u64((stored << self.value_bits) | value as u64);
    }

    #[inline]
    pub fn get(&self, key: u64) -> u8 {
        let (i, stored) = self.locate(key);
        let e = self.entries[i].to_u64();
        if e >> self.value_bits == stored {
            (e & ((1 << self.value_bits) - 1)) as u8
        } else {
            0
        }
    }

    /// Asks the CPU to bring the entry of `key` into cache ahead of a probe.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let (i, _) = self.locate(key);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint and never faults; the pointer is in bounds.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch(self.entries.as_ptr().add(i) as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    pub fn clear(&mut self) {
        self.entries.fill(S::default());
    }

    pub fn len(&self) -> u64 {
        self.entries.len() as u64
    }
}

/// The entry array: zeroed, aligned to 2 MiB and, on Linux, backed by transparent huge pages
/// where the system allows them on request (`madvise` mode).
///
/// Why: probes land at random across tens of MiB. With 4 KiB pages almost every probe also
/// misses the TLB and pays a page-table walk on top of the cache miss; 2 MiB pages make the
/// whole table addressable from the TLB.
struct Entries<S: Slot> {
    ptr: std::ptr::NonNull<S>,
    len: usize,
    layout: std::alloc::Layout,
}

// SAFETY: `Entries` owns its allocation exclusively, like a `Vec<S>`.
unsafe impl<S: Slot> Send for Entries<S> {}

const HUGE_PAGE: usize = 2 << 20;

impl<S: Slot> Entries<S> {
    /// `len` zeroed entries, or `None` when the allocator refuses.
    fn zeroed(len: usize) -> Option<Self> {
        let bytes = (len * std::mem::size_of::<S>()).max(1);
        let align = if bytes >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<S>()
        };
        let layout = std::alloc::Layout::from_size_align(bytes, align).ok()?;
        // SAFETY: the layout has a non-zero size; all-zero bits are a valid `S` (an integer).
        let raw = unsafe { std::alloc::alloc_zeroed(layout) } as *mut S;
        let ptr = std::ptr::NonNull::new(raw)?;
        #[cfg(target_os = "linux")]
        if align == HUGE_PAGE {
            // SAFETY: the range is exactly our allocation; the advice is only a hint and a
            // refusal leaves ordinary pages, so the result is deliberately ignored.
            unsafe {
                libc::madvise(raw as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
            }
        }
        let mut entries = Entries { ptr, len, layout };
        entries.prefault();
        Some(entries)
    }

    /// Touches every page now. The allocator hands out lazily mapped zero pages; without this
    /// each first probe of a page pays a page fault, which dominated short searches (34 us
    /// instead of 5 us for a 50-node end-game solve).
    fn prefault(&mut self) {
        let step = (4096 / std::mem::size_of::<S>()).max(1);
        let slice: &mut [S] = self;
        for i in (0..slice.len()).step_by(step) {
            // SAFETY: in bounds; volatile so the optimiser cannot drop it as a redundant store.
            unsafe { std::ptr::write_volatile(&mut slice[i], S::default()) };
        }
    }
}

impl<S: Slot> std::ops::Deref for Entries<S> {
    type Target = [S];
    fn deref(&self) -> &[S] {
        // SAFETY: `ptr` points to `len` initialised (zeroed) values that we own.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<S: Slot> std::ops::DerefMut for Entries<S> {
    fn deref_mut(&mut self) -> &mut [S] {
        // SAFETY: as above, and `&mut self` gives exclusive access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<S: Slot> Drop for Entries<S> {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this very layout.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_keys_never_collide() {
        // 12-bit keys in 2^4 entries: 8 stored bits + 7 value bits fit a u32.
        let mut t = Table::<u32>::new(4, 12, 7).unwrap();
        assert_eq!(Table::<u32>::new(4, 40, 7).err(), Some(TableError::Unfit));
        // Every key maps to a distinct (index, stored) pair.
        let mut seen = std::collections::HashSet::new();
        for k in 0..(1u64 << 12) {
            assert!(seen.insert(t.locate(k)));
        }
        t.put(5, 3);
        assert_eq!(t.get(5), 3);
        // Find another key on the same entry: a miss, not a wrong value.
        let other = (0..4096)
            .find(|&k| k != 5 && t.locate(k).0 == t.locate(5).0)
            .unwrap();
        assert_eq!(t.get(other), 0);
        t.put(other, 9);
        assert_eq!(t.get(5), 0);
        assert_eq!(t.get(other), 9);
        t.clear();
        assert_eq!(t.get(other), 0);
    }

    #[test]
    fn full_width_keys() {
        let mut t = Table::<u64>::new(10, 64, 8).unwrap();
        t.put(u64::MAX, 7);
        assert_eq!(t.get(u64::MAX), 7);
        assert_eq!(t.get(u64::MAX - 1), 0);
    }
}
