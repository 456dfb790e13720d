//! A book's entries in memory as they lie in a version-3 file: the scores, a byte each in key
//! order, and the keys as LEB128 gaps, with the first key of every block of [`BLOCK`]
//! entries and where its gaps go on. A lookup is a binary search over the block heads and at
//! most `BLOCK - 1` gaps decoded; a load is one pass over the gaps that checks them and
//! notes the heads.
//!
//! Why not the sorted `key << 8 | score` words a binary search would read directly: at 10
//! plies they take 9.7 MB that every process had to fill in before its first lookup (page
//! faults were a third of `c4 analyze 4453`'s time, 11 ms in all), where the gaps are the
//! 2.8 MB of the file itself; the built-in book's bytes are not even copied.

use std::borrow::Cow;

/// Entries per block: a lookup decodes at most this many gaps less one.
const BLOCK: usize = 32;

/// The first entry of a block: its key and where the next entry's gap starts.
#[derive(Clone, Copy, Debug)]
struct Head {
    key: u64,
    next: usize,
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

    /// The score byte stored under `key`.
    #[inline]
    pub fn get(&self, key: u64) -> Option<u8> {
        let b = self
            .heads
            .partition_point(|h| h.key <= key)
            .checked_sub(1)?;
        let head = self.heads[b];
        let first = b * BLOCK;
        if head.key == key {
            return Some(self.bytes[self.scores + first]);
        }
        let gaps = self.gap_bytes();
        let (mut k, mut at) = (head.key, head.next);
        for i in first + 1..(first + BLOCK).min(self.len) {
            // The gaps were checked when the store was made.
            let (gap, next) = read_gap(gaps, at).ok()?;
            k += gap;
            at = next;
            if k >= key {
                return (k == key).then(|| self.bytes[self.scores + i]);
            }
        }
        None
    }

    /// The entries (key, score byte) in key order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u8)> + '_ {
        let gaps = self.gap_bytes();
        let (mut key, mut at) = (0u64, 0);
        self.score_bytes().iter().map_while(move |&s| {
            let (gap, next) = read_gap(gaps, at).ok()?;
            key += gap;
            at = next;
            Some((key, s))
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
