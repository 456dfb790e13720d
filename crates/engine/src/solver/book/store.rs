//! A book's entries in memory as they lie in its file: the scores, a byte each in key order,
//! and the keys as LEB128 gaps, with the first key of every block of [`BLOCK`] entries and
//! where its gaps go on (the heads). A lookup is a binary search over the heads and one
//! block's gaps decoded. A version-4 file holds the heads, so a load reads them and checks
//! only their order; each block is checked as it is decoded (its gaps positive, ending where
//! the next block begins), and a block that fails answers nothing, so even a file made to
//! lie never makes a lookup panic or a listing go out of order. A version-3 file has no
//! heads: its load finds them in one pass over the gaps, checking every one.
//!
//! Why not the sorted `key << 8 | score` words a binary search would read directly: at 10
//! plies they take 9.7 MB that every process had to fill in before its first lookup (page
//! faults were a third of `c4 analyze 4453`'s time, 11 ms in all), where the gaps are the
//! 2.8 MB of the file itself; the built-in book's bytes are not even copied.

use std::borrow::Cow;

/// Entries per block: a lookup decodes at most this many gaps less one.
pub(super) const BLOCK: usize = 64;

/// The first entry of a block: its key and where the next entry's gap starts.
#[derive(Clone, Copy, Debug)]
pub(super) struct Head {
    /// The key of the block's first entry.
    pub key: u64,
    /// The offset in the gaps just after that entry's gap.
    pub next: usize,
}

/// Sorted (key, score) entries held as scores and key gaps (see the module docs).
#[derive(Clone)]
pub(super) struct Store {
    /// The scores, then the gaps, possibly inside a larger buffer (a whole book file).
    bytes: Cow<'static, [u8]>,
    scores: usize,
    gaps: std::ops::Range<usize>,
    len: usize,
    heads: Vec<Head>,
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

impl Store {
    /// A store of `entries` (key, score byte), which must be in strictly increasing key
    /// order.
    pub fn from_sorted(entries: impl ExactSizeIterator<Item = (u64, u8)>) -> Store {
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
        let n = scores.len();
        let total = n + gaps.len();
        scores.extend_from_slice(&gaps);
        Store {
            bytes: Cow::Owned(scores),
            scores: 0,
            gaps: n..total,
            len: n,
            heads,
        }
    }

    /// The store of a version-3 book's `n` scores at `scores` and its gaps in `gaps`, both
    /// within `bytes`, checked in one pass: fails on a number that does not end, a key past
    /// 56 bits, a gap of 0 after the first key, or gap bytes left over.
    pub fn parse(
        bytes: Cow<'static, [u8]>,
        scores: usize,
        n: usize,
        gaps: std::ops::Range<usize>,
    ) -> Result<Store, String> {
        let g = &bytes[gaps.clone()];
        let mut heads = Vec::with_capacity(n.div_ceil(BLOCK));
        let (mut key, mut at) = (0u64, 0);
        for i in 0..n {
            let (gap, next) = read_gap(g, at).map_err(|e| match e {
                BadGap::Cut => format!("the key gaps end after {i} of {n} keys"),
                BadGap::Endless => format!("key gap {i} does not end"),
            })?;
            at = next;
            if gap == 0 && i > 0 {
                return Err("keys out of order".into());
            }
            key = key
                .checked_add(gap)
                .filter(|k| k >> 56 == 0)
                .ok_or_else(|| format!("key {i} past the key range"))?;
            if i % BLOCK == 0 {
                heads.push(Head { key, next: at });
            }
        }
        if at != g.len() {
            return Err(format!(
                "{} bytes of key gaps left over after {n} keys",
                g.len() - at
            ));
        }
        Ok(Store {
            bytes,
            scores,
            gaps,
            len: n,
            heads,
        })
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The scores, a byte each, in key order.
    pub fn score_bytes(&self) -> &[u8] {
        &self.bytes[self.scores..self.scores + self.len]
    }

    /// The keys as version 3's LEB128 gaps.
    pub fn gap_bytes(&self) -> &[u8] {
        &self.bytes[self.gaps.clone()]
    }

    /// The heads, one per block of [`BLOCK`] entries.
    pub fn heads(&self) -> &[Head] {
        &self.heads
    }

    /// The keys of block `b` into `keys`, their number, or `None` when the block does not
    /// hold together: a gap that does not decode or is 0, a key past 56 bits, or gaps that
    /// do not end where the next block's first gap leads to its head.
    fn block(&self, b: usize, keys: &mut [u64; BLOCK]) -> Option<usize> {
        let head = *self.heads.get(b)?;
        let gaps = self.gap_bytes();
        let first = b * BLOCK;
        let count = BLOCK.min(self.len.checked_sub(first)?);
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
        match self.heads.get(b + 1) {
            Some(h) => {
                let (gap, next) = read_gap(gaps, at).ok()?;
                (gap > 0 && k.checked_add(gap) == Some(h.key) && next == h.next).then_some(count)
            }
            None => (at == gaps.len()).then_some(count),
        }
    }

    /// The score byte stored under `key`.
    #[inline]
    pub fn get(&self, key: u64) -> Option<u8> {
        let b = self
            .heads
            .partition_point(|h| h.key <= key)
            .checked_sub(1)?;
        let mut keys = [0u64; BLOCK];
        let count = self.block(b, &mut keys)?;
        let i = keys[..count].iter().position(|&k| k == key)?;
        Some(self.score_bytes()[b * BLOCK + i])
    }

    /// The entries (key, score byte) in key order (a block that does not hold together is
    /// left out: see [`Store::check`]).
    pub fn iter(&self) -> impl Iterator<Item = (u64, u8)> + '_ {
        let scores = self.score_bytes();
        (0..self.heads.len()).flat_map(move |b| {
            let mut keys = [0u64; BLOCK];
            let count = self.block(b, &mut keys).unwrap_or(0);
            (0..count).map(move |i| (keys[i], scores[b * BLOCK + i]))
        })
    }

    /// Whether every block holds together (a version-3 load has checked it already; a
    /// version-4 load checks only the heads).
    pub fn check(&self) -> Result<(), String> {
        let mut keys = [0u64; BLOCK];
        match (0..self.heads.len()).find(|&b| self.block(b, &mut keys).is_none()) {
            Some(b) => Err(format!(
                "the key gaps of entries {} to {} do not hold together",
                b * BLOCK,
                (b * BLOCK + BLOCK).min(self.len) - 1
            )),
            None => Ok(()),
        }
    }

    /// The store of a version-4 book: `n` scores at `scores`, the gaps in `gaps`, both within
    /// `bytes`, and `heads` (one per block of [`BLOCK`]), which must be in strictly
    /// increasing order of key and offset within the gaps; the blocks themselves are checked
    /// when read.
    pub fn with_heads(
        bytes: Cow<'static, [u8]>,
        scores: usize,
        n: usize,
        gaps: std::ops::Range<usize>,
        heads: Vec<Head>,
    ) -> Result<Store, String> {
        if heads.len() != n.div_ceil(BLOCK) {
            return Err(format!(
                "{} block heads where {n} entries need {}",
                heads.len(),
                n.div_ceil(BLOCK)
            ));
        }
        let g = gaps.len();
        if let Some(h) = heads
            .iter()
            .find(|h| h.key >> 56 != 0 || h.next == 0 || h.next > g)
        {
            return Err(format!(
                "a block head (key {}, at {}) past the gaps",
                h.key, h.next
            ));
        }
        if heads
            .windows(2)
            .any(|w| w[0].key >= w[1].key || w[0].next >= w[1].next)
        {
            return Err("block heads out of order".into());
        }
        Ok(Store {
            bytes,
            scores,
            gaps,
            len: n,
            heads,
        })
    }
}

impl PartialEq for Store {
    fn eq(&self, other: &Store) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl Eq for Store {}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(n: u64) -> Vec<(u64, u8)> {
        // Gaps of one to three bytes, and a key near the top of the 56-bit range.
        let mut k = 0;
        let mut out: Vec<(u64, u8)> = (0..n)
            .map(|i| {
                k += 1 + (i * i * 7919) % 40_000;
                (k, (i % 200) as u8)
            })
            .collect();
        out.push(((1 << 56) - 1, 3));
        out
    }

    #[test]
    fn every_key_is_found_and_no_other() {
        for n in [0, 1, 2, 31, 32, 33, 64, 1000] {
            let entries = keys(n);
            let s = Store::from_sorted(entries.iter().copied());
            assert_eq!(s.len(), entries.len());
            assert_eq!(s.iter().collect::<Vec<_>>(), entries);
            for &(k, score) in &entries {
                assert_eq!(s.get(k), Some(score), "{n}: {k}");
                assert_eq!(s.get(k + 1).is_some(), entries.iter().any(|e| e.0 == k + 1));
                if k > 0 {
                    assert_eq!(s.get(k - 1).is_some(), entries.iter().any(|e| e.0 == k - 1));
                }
            }
            assert_eq!(s.get(0), None);
            assert_eq!(s.get(u64::MAX), None);
            // Parsing the same bytes gives the same store.
            let body = [s.score_bytes(), s.gap_bytes()].concat();
            let len = entries.len();
            let parsed = Store::parse(Cow::Owned(body.clone()), 0, len, len..body.len()).unwrap();
            assert!(parsed == s);
            for &(k, score) in &entries {
                assert_eq!(parsed.get(k), Some(score));
            }
        }
    }
}
