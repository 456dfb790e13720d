//! A book's entries in memory as they lie in a version-5 file: the scores, a byte each in key
//! order; the keys as LEB128 gaps; and a 16-byte head for every block of [`BLOCK`] entries
//! (the block's first key, where its gaps go on, and a CRC-32 of the block). A lookup is a
//! binary search over the heads, read where they lie, and one block's gaps decoded.
//!
//! Nothing is checked or copied up front, so opening a book costs the same at 10 plies as at
//! 12 (a mapped file: only the pages a lookup touches are ever read). Instead each block is
//! checked the first time a lookup or a listing reads it: its CRC (its scores, its gaps, its
//! head and where it ends), then its structure (gaps positive, ending where the next block
//! begins, scores within the board's range). A block that fails answers nothing and the
//! store records the first such damage ([`Store::damage`]), so damage is an error for whoever
//! asks, never a wrong score: a lookup checks both the block it lands in and the next one,
//! whose key bounds the search, so a damaged head elsewhere cannot send it to the wrong block
//! unnoticed. A block that passed is remembered (a bit per block), so the check costs each
//! block once per process.
//!
//! Why not the sorted `key << 8 | score` words a binary search would read directly: at 10
//! plies they take 9.7 MB that every process had to fill in before its first lookup, where
//! the gaps are the 2.8 MB of the file itself.

mod check;

use check::Checked;
use std::ops::Range;
use std::sync::Arc;

/// Entries per block: a lookup decodes at most this many gaps less one.
pub(super) const BLOCK: usize = 64;

/// Bytes of a block head: first key (8), offset after its gap (4), CRC-32 (4).
pub(super) const HEAD_BYTES: usize = 16;

/// Where a store's bytes live: built into the program, in memory, or a mapped file.
pub(super) enum Bytes {
    /// Bytes built into the program (the built-in book).
    Static(&'static [u8]),
    /// Bytes in memory (a book made here, or read from a file too small to map).
    Owned(Vec<u8>),
    /// A file mapped read-only: pages are read as lookups touch them.
    #[cfg(not(target_arch = "wasm32"))]
    Mapped(memmap2::Mmap),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Static(b) => b,
            Bytes::Owned(b) => b,
            #[cfg(not(target_arch = "wasm32"))]
            Bytes::Mapped(m) => m,
        }
    }
}

/// The first entry of a block: its key and where the next entry's gap starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Head {
    /// The key of the block's first entry.
    pub key: u64,
    /// The offset in the gaps just after that entry's gap.
    pub next: usize,
}

/// Where the parts of a store lie in its bytes.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    /// Offset of the scores.
    pub scores: usize,
    /// Number of entries.
    pub len: usize,
    /// The key gaps.
    pub gaps: Range<usize>,
    /// Offset of the heads, [`HEAD_BYTES`] for every block of [`BLOCK`] entries.
    pub heads: usize,
}

/// Sorted (key, score) entries held as scores, key gaps and block heads (see the module
/// docs).
#[derive(Clone)]
pub(super) struct Store {
    bytes: Arc<Bytes>,
    at: Layout,
    /// The largest score magnitude of the board.
    top: i32,
    checked: Arc<Checked>,
}

/// Why a gap could not be read.
#[derive(Debug)]
enum BadGap {
    /// The bytes ended inside it.
    Cut,
    /// Longer than any key.
    Endless,
}

/// Reads the LEB128 number at `at`, returning it and the offset after it.
#[inline(always)]
fn read_gap(gaps: &[u8], mut at: usize) -> Result<(u64, usize), BadGap> {
    let first = *gaps.get(at).ok_or(BadGap::Cut)?;
    at += 1;
    // Most gaps take one byte.
    let mut gap = u64::from(first & 0x7f);
    if first >= 0x80 {
        let mut shift = 7;
        loop {
            let b = *gaps.get(at).ok_or(BadGap::Cut)?;
            at += 1;
            if shift > 56 {
                return Err(BadGap::Endless);
            }
            gap |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b < 0x80 {
                break;
            }
        }
    }
    Ok((gap, at))
}

/// Appends `gap` as LEB128.
fn push_gap(out: &mut Vec<u8>, mut gap: u64) {
    while gap >= 0x80 {
        out.push(gap as u8 | 0x80);
        gap >>= 7;
    }
    out.push(gap as u8);
}

/// The little-endian u64 at `at` (0 past the end: a store's layout keeps reads inside).
#[inline(always)]
fn u64_at(bytes: &[u8], at: usize) -> u64 {
    bytes
        .get(at..at + 8)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

/// The little-endian u32 at `at` (0 past the end).
#[inline(always)]
fn u32_at(bytes: &[u8], at: usize) -> u32 {
    bytes
        .get(at..at + 4)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

/// The gaps of block `b` of `blocks` in gaps of length `g`, from its heads' offsets: block 0
/// from the first gap, the others from after their first entry's gap, each to just after the
/// next block's first gap (the last to the end).
fn block_gaps(b: usize, blocks: usize, g: usize, head: Head, after: Option<Head>) -> Range<usize> {
    let start = if b == 0 { 0 } else { head.next };
    let end = if b + 1 < blocks {
        after.map_or(g, |h| h.next)
    } else {
        g
    };
    start..end
}

/// The CRC-32 of a block: its scores, its gaps, its head and where its gaps end.
fn block_crc(scores: &[u8], gaps: &[u8], head: Head, end: usize) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(scores);
    h.update(gaps);
    h.update(&head.key.to_le_bytes());
    h.update(&(head.next as u32).to_le_bytes());
    h.update(&(end as u32).to_le_bytes());
    h.finalize()
}

impl Store {
    /// A store of `entries` (key, score byte), which must be in strictly increasing key
    /// order, for a board whose scores lie within `top`; `None` when its key gaps would pass
    /// 4 GiB (more than half a billion entries), which the heads cannot address.
    pub(crate) fn from_sorted(
        entries: impl ExactSizeIterator<Item = (u64, u8)>,
        top: i32,
    ) -> Option<Store> {
        let len = entries.len();
        let mut scores = Vec::with_capacity(len);
        let mut gaps = Vec::with_capacity(2 * len);
        let mut heads = Vec::with_capacity(len.div_ceil(BLOCK));
        let mut last = 0;
        for (i, (key, score)) in entries.enumerate() {
            debug_assert!(i == 0 || key > last, "entries in increasing key order");
            scores.push(score);
            push_gap(&mut gaps, key - last);
            last = key;
            if i % BLOCK == 0 {
                heads.push(Head {
                    key,
                    next: gaps.len(),
                });
            }
        }
        Store::from_parts(&scores, &gaps, &heads, top)
    }

    /// A store in memory of `scores`, `gaps` and the `heads` of their blocks (their CRCs
    /// computed here); `None` when the gaps pass 4 GiB.
    pub(crate) fn from_parts(
        scores: &[u8],
        gaps: &[u8],
        heads: &[Head],
        top: i32,
    ) -> Option<Store> {
        u32::try_from(gaps.len()).ok()?;
        let len = scores.len();
        let mut out = Vec::with_capacity(len + gaps.len() + HEAD_BYTES * heads.len());
        out.extend_from_slice(scores);
        out.extend_from_slice(gaps);
        for (b, &head) in heads.iter().enumerate() {
            let range = block_gaps(b, heads.len(), gaps.len(), head, heads.get(b + 1).copied());
            let first = b * BLOCK;
            let block_scores = scores
                .get(first..len.min(first + BLOCK))
                .unwrap_or_default();
            let gaps_of = gaps.get(range.clone()).unwrap_or_default();
            out.extend_from_slice(&head.key.to_le_bytes());
            out.extend_from_slice(&(head.next as u32).to_le_bytes());
            out.extend_from_slice(&block_crc(block_scores, gaps_of, head, range.end).to_le_bytes());
        }
        let at = Layout {
            scores: 0,
            len,
            gaps: len..len + gaps.len(),
            heads: len + gaps.len(),
        };
        Some(Store::in_place(Arc::new(Bytes::Owned(out)), at, top))
    }

    /// The store whose parts lie in `bytes` as `at` says (a version-5 file), nothing read
    /// yet: the layout must fit within the bytes (the format checks the file's length).
    pub(crate) fn in_place(bytes: Arc<Bytes>, at: Layout, top: i32) -> Store {
        debug_assert!(at.heads + HEAD_BYTES * at.len.div_ceil(BLOCK) <= bytes.len());
        let blocks = at.len.div_ceil(BLOCK);
        Store {
            bytes,
            at,
            top,
            checked: Checked::new(blocks),
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.at.len
    }

    fn blocks(&self) -> usize {
        self.at.len.div_ceil(BLOCK)
    }

    /// The scores, a byte each, in key order.
    pub(crate) fn score_bytes(&self) -> &[u8] {
        &self.bytes[self.at.scores..self.at.scores + self.at.len]
    }

    /// The keys as LEB128 gaps.
    pub(crate) fn gap_bytes(&self) -> &[u8] {
        &self.bytes[self.at.gaps.clone()]
    }

    /// The heads with their CRCs, [`HEAD_BYTES`] a block, as a version-5 file holds them.
    pub(crate) fn head_bytes(&self) -> &[u8] {
        &self.bytes[self.at.heads..self.at.heads + HEAD_BYTES * self.blocks()]
    }

    /// Head `b`, read where it lies (unchecked).
    #[inline(always)]
    fn head(&self, b: usize) -> Head {
        let at = self.at.heads + HEAD_BYTES * b;
        Head {
            key: u64_at(&self.bytes, at),
            next: u32_at(&self.bytes, at + 8) as usize,
        }
    }

    /// The heads, one per block of [`BLOCK`] entries (unchecked).
    pub fn heads(&self) -> impl Iterator<Item = Head> + '_ {
        (0..self.blocks()).map(|b| self.head(b))
    }

    /// The keys of block `b` into `keys`, their number, or `None` when the block does not
    /// hold together: a gap that does not decode or is 0, a key past 56 bits, or gaps that
    /// do not end where the next block's first gap leads to its head.
    fn block(&self, b: usize, keys: &mut [u64; BLOCK]) -> Option<usize> {
        let blocks = self.blocks();
        if b >= blocks {
            return None;
        }
        let head = self.head(b);
        let gaps = self.gap_bytes();
        let first = b * BLOCK;
        let count = BLOCK.min(self.at.len.checked_sub(first)?);
        if b == 0 && read_gap(gaps, 0).ok()? != (head.key, head.next) {
            return None;
        }
        let (mut k, mut at) = (head.key, head.next);
        keys[0] = k;
        for slot in keys.iter_mut().take(count).skip(1) {
            let (gap, next) = read_gap(gaps, at).ok()?;
            k = k.checked_add(gap).filter(|&k| gap > 0 && k >> 56 == 0)?;
            *slot = k;
            at = next;
        }
        // The next block's first gap leads from here to its head, or the gaps end here.
        if b + 1 < blocks {
            let h = self.head(b + 1);
            let (gap, next) = read_gap(gaps, at).ok()?;
            (gap > 0 && k.checked_add(gap) == Some(h.key) && next == h.next).then_some(count)
        } else {
            (at == gaps.len()).then_some(count)
        }
    }

    /// The score byte stored under `key` (`None` also where the block it would lie in, or
    /// the next, is damaged: see [`Store::damage`]).
    #[inline]
    pub fn get(&self, key: u64) -> Option<u8> {
        let blocks = self.blocks();
        // The number of heads whose key is at most `key`; a binary search that ends even
        // over heads made to lie.
        let (mut lo, mut hi) = (0, blocks);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.head(mid).key <= key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let Some(b) = lo.checked_sub(1) else {
            // Below the first key: true only if the first head is what was written.
            if blocks > 0 {
                self.sound(0);
            }
            return None;
        };
        if !self.sound(b) || (b + 1 < blocks && !self.sound(b + 1)) {
            return None;
        }
        let mut keys = [0u64; BLOCK];
        let count = self.block(b, &mut keys)?;
        let i = keys[..count].iter().position(|&k| k == key)?;
        Some(self.score_bytes()[b * BLOCK + i])
    }

    /// The entries (key, score byte) in key order (a damaged block is left out and recorded:
    /// see [`Store::damage`]).
    pub fn iter(&self) -> impl Iterator<Item = (u64, u8)> + '_ {
        let scores = self.score_bytes();
        (0..self.blocks()).flat_map(move |b| {
            let mut keys = [0u64; BLOCK];
            let count = if self.sound(b) {
                self.block(b, &mut keys).unwrap_or(0)
            } else {
                0
            };
            (0..count).map(move |i| (keys[i], scores[b * BLOCK + i]))
        })
    }
}

impl PartialEq for Store {
    fn eq(&self, other: &Store) -> bool {
        self.at.len == other.at.len && self.iter().eq(other.iter())
    }
}

impl Eq for Store {}

#[cfg(test)]
mod tests;
