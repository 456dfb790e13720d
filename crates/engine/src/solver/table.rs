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
//! `u32`, so a probe touches one cache line. Larger boards or smaller tables use `u64` words,
//! and boards whose keys pass 64 bits (`u128` bitboards) `u128` words where `u64` is too
//! narrow. Keys are of the board's integer `K`; on 7x6 in `u128` form the scrambled key's low
//! bits, and so every index and stored remainder, are those of the `u64` form.

use crate::game::BitBoard;
/// Storage word of a table entry: `u32`, `u64` or `u128` (see [`Word`]).
pub(crate) use crate::game::bitboard::word::Word as Slot;

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
pub(crate) struct Table<S: Slot, K: BitBoard = u64> {
    entries: Entries<S>,
    /// Mask of the `K` key bits.
    key_mask: K,
    /// `K - L`: how far the index sits above the stored bits.
    stored_bits: u32,
    value_bits: u32,
}

impl<S: Slot, K: BitBoard> Table<S, K> {
    /// A table of `2^log_size` entries for `key_bits`-bit keys and values below
    /// `2^value_bits`. `Err(Unfit)` if an entry word cannot hold the stored key bits and the
    /// value, `Err(NoMemory)` if the memory cannot be had.
    pub fn new(log_size: u32, key_bits: u32, value_bits: u32) -> Result<Self, TableError> {
        if log_size > key_bits
            || key_bits > K::BITS
            || key_bits - log_size + value_bits > S::WORD_BITS
        {
            return Err(TableError::Unfit);
        }
        let entries = Entries::zeroed(1usize << log_size).ok_or(TableError::NoMemory)?;
        Ok(Table {
            entries,
            key_mask: if key_bits >= K::BITS {
                K::MAX
            } else {
                (K::ONE << key_bits) - K::ONE
            },
            stored_bits: key_bits - log_size,
            value_bits,
        })
    }

    /// Faults every page of the entries in, once: a search calls this before its first
    /// probe, so that probes never pay a page fault.
    #[inline]
    pub fn ready(&mut self) {
        if !self.entries.faulted {
            self.entries.prefault();
        }
    }

    /// (entry index, bits to store) of a key.
    #[inline]
    fn locate(&self, key: K) -> (usize, K) {
        let h = key.wrapping_mul(K::from_u64(SCRAMBLE)) & self.key_mask;
        // `checked_shr` covers a table as large as the key space (no stored bits).
        let index = h.checked_shr(self.stored_bits).unwrap_or(K::ZERO).low_u64() as usize;
        let stored = h & !(self
            .key_mask
            .checked_shl(self.stored_bits)
            .unwrap_or(K::ZERO));
        (index, stored)
    }

    #[inline]
    pub fn put(&mut self, key: K, value: u8) {
        let (i, stored) = self.locate(key);
        self.entries[i] = S::pack((stored << self.value_bits) | K::from_u64(value as u64));
    }

    #[inline]
    pub fn get(&self, key: K) -> u8 {
        let (i, stored) = self.locate(key);
        let e: K = self.entries[i].unpack();
        if e >> self.value_bits == stored {
            (e.low_u64() & ((1 << self.value_bits) - 1)) as u8
        } else {
            0
        }
    }

    /// Asks the CPU to bring the entry of `key` into cache ahead of a probe.
    #[inline]
    pub fn prefetch(&self, key: K) {
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

/// A table of 64-bit entries that threads share without locks: each entry is read and
/// written whole, as one atomic word, and holds its own key bits, so a reader sees either an
/// entry as some thread wrote it or a miss, never a torn one. Racing writers just replace each
/// other, which a cache of bounds allows: every stored bound is true of its key.
pub(crate) struct SharedTable<K: BitBoard = u64> {
    inner: Table<u64, K>,
}

// SAFETY: after construction every access to the entries goes through `AtomicU64` views of
// them (below), so `&SharedTable` may be used from many threads at once.
unsafe impl<K: BitBoard> Sync for SharedTable<K> {}

impl<K: BitBoard> SharedTable<K> {
    pub fn new(log_size: u32, key_bits: u32, value_bits: u32) -> Result<Self, TableError> {
        // Shared by reference from the start: its pages are faulted in now.
        let mut inner = Table::new(log_size, key_bits, value_bits)?;
        inner.ready();
        Ok(SharedTable { inner })
    }

    #[inline]
    fn slot(&self, i: usize) -> &std::sync::atomic::AtomicU64 {
        let base = self.inner.entries.ptr.as_ptr();
        // SAFETY: `i` is in bounds (from `locate`); the word is 8-byte aligned, lives as long
        // as `self`, and is only ever accessed atomically once shared.
        unsafe { std::sync::atomic::AtomicU64::from_ptr(base.add(i)) }
    }

    #[inline]
    pub fn put(&self, key: K, value: u8) {
        let (i, stored) = self.inner.locate(key);
        let word = u64::pack((stored << self.inner.value_bits) | K::from_u64(value as u64));
        self.slot(i)
            .store(word, std::sync::atomic::Ordering::Relaxed);
    }

    #[inline]
    pub fn get(&self, key: K) -> u8 {
        let (i, stored) = self.inner.locate(key);
        let e = self.slot(i).load(std::sync::atomic::Ordering::Relaxed);
        if K::from_u64(e >> self.inner.value_bits) == stored {
            (e & ((1 << self.inner.value_bits) - 1)) as u8
        } else {
            0
        }
    }

    #[inline]
    pub fn prefetch(&self, key: K) {
        self.inner.prefetch(key);
    }

    pub fn clear(&self) {
        for i in 0..self.inner.entries.len {
            self.slot(i).store(0, std::sync::atomic::Ordering::Relaxed);
        }
    }

    pub fn len(&self) -> u64 {
        self.inner.len()
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
    backing: Backing,
    /// Whether every page has been touched (see [`Table::ready`]).
    faulted: bool,
}

/// Where the entry array's memory came from, so that it goes back the same way.
enum Backing {
    /// The global allocator (small tables, and systems other than Linux).
    Heap(std::alloc::Layout),
    /// An anonymous mapping of `len` bytes at `base` (Linux, tables of 2 MiB and more).
    #[cfg(target_os = "linux")]
    Mapped { base: *mut libc::c_void, len: usize },
}

// SAFETY: `Entries` owns its allocation exclusively, like a `Vec<S>`.
unsafe impl<S: Slot> Send for Entries<S> {}

#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

impl<S: Slot> Entries<S> {
    /// `len` zeroed entries, or `None` when the memory cannot be had.
    fn zeroed(len: usize) -> Option<Self> {
        let bytes = len.checked_mul(std::mem::size_of::<S>())?.max(1);
        #[cfg(target_os = "linux")]
        if bytes >= HUGE_PAGE {
            return Self::mapped(len, bytes);
        }
        let layout = std::alloc::Layout::from_size_align(bytes, std::mem::align_of::<S>()).ok()?;
        // SAFETY: the layout has a non-zero size; all-zero bits are a valid `S` (an integer).
        let raw = unsafe { std::alloc::alloc_zeroed(layout) } as *mut S;
        let ptr = std::ptr::NonNull::new(raw)?;
        Some(Entries {
            ptr,
            len,
            backing: Backing::Heap(layout),
            faulted: true,
        })
    }

    /// A fresh anonymous mapping (zero pages), advised to use transparent huge pages before
    /// any page is touched; the first search prefaults it ([`Table::ready`]), so that a
    /// solver made for positions the book answers never pays for its table (64 MiB of pages
    /// take tens of milliseconds to fault in). The advice must come first: a page already
    /// faulted in as 4 KiB stays so (the global allocator zeroes large aligned blocks by
    /// writing them, which is why a 4 GiB table got 16 MiB of huge pages that way).
    #[cfg(target_os = "linux")]
    fn mapped(len: usize, bytes: usize) -> Option<Self> {
        // One huge page of slack so that the array can start on a 2 MiB boundary.
        let map_len = bytes.checked_add(HUGE_PAGE)?;
        // SAFETY: a private anonymous mapping with no address hint; checked for failure.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let offset = (HUGE_PAGE - (base as usize) % HUGE_PAGE) % HUGE_PAGE;
        // SAFETY: `offset < HUGE_PAGE`, so `offset + bytes <= map_len` stays in the mapping.
        let start = unsafe { (base as *mut u8).add(offset) };
        // SAFETY: the range lies in our mapping; the advice is only a hint and a refusal
        // leaves ordinary pages, so the result is deliberately ignored.
        unsafe {
            libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
        }
        Some(Entries {
            ptr: std::ptr::NonNull::new(start as *mut S)?,
            len,
            backing: Backing::Mapped { base, len: map_len },
            faulted: false,
        })
    }

    /// Touches every page now. The allocator hands out lazily mapped zero pages; without this
    /// each first probe of a page pays a page fault, which dominated short searches (34 us
    /// instead of 5 us for a 50-node end-game solve).
    fn prefault(&mut self) {
        if self.faulted {
            return;
        }
        self.faulted = true;
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
        match self.backing {
            // SAFETY: allocated in `zeroed` with this very layout.
            Backing::Heap(layout) => unsafe {
                std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout)
            },
            // SAFETY: the whole mapping made in `mapped`, unmapped once.
            #[cfg(target_os = "linux")]
            Backing::Mapped { base, len } => unsafe {
                libc::munmap(base, len);
            },
        }
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
