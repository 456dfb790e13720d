//! The store's checks: of a version-3 or -4 file's heads as it is read, and of each block
//! the first time a lookup or a listing reads it (its CRC, then its structure and scores),
//! remembered a bit per block with the first damage found.

use super::{BLOCK, BadGap, HEAD_BYTES, Head, Store, block_crc, block_gaps, read_gap, u32_at};
use crate::solver::book::Damage;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// Which blocks passed their check, and the first damage found.
pub(super) struct Checked {
    pub(super) sound: Box<[AtomicU64]>,
    pub(super) damage: OnceLock<Damage>,
}

impl Checked {
    pub(super) fn new(blocks: usize) -> Arc<Checked> {
        Arc::new(Checked {
            sound: (0..blocks.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
            damage: OnceLock::new(),
        })
    }
}

impl Store {
    /// The heads of a version-3 book's gaps, found in one pass that checks every gap: fails
    /// on a number that does not end, a key past 56 bits, a gap of 0 after the first key, or
    /// gap bytes left over.
    pub(crate) fn find_heads(gaps: &[u8], n: usize) -> Result<Vec<Head>, Damage> {
        let mut heads = Vec::with_capacity(n.div_ceil(BLOCK));
        let (mut key, mut at) = (0u64, 0);
        for i in 0..n {
            let (gap, next) = read_gap(gaps, at).map_err(|e| match e {
                BadGap::Cut => Damage::GapsCut { read: i, keys: n },
                BadGap::Endless => Damage::GapEndless(i),
            })?;
            at = next;
            if gap == 0 && i > 0 {
                return Err(Damage::KeysOutOfOrder);
            }
            key = key
                .checked_add(gap)
                .filter(|k| k >> 56 == 0)
                .ok_or(Damage::KeyPastRange(i))?;
            if i % BLOCK == 0 {
                heads.push(Head { key, next: at });
            }
        }
        if at != gaps.len() {
            return Err(Damage::GapsLeftOver {
                bytes: gaps.len() - at,
                keys: n,
            });
        }
        Ok(heads)
    }

    /// Checks a version-4 file's heads before they are trusted: one per block of [`BLOCK`]
    /// entries, in strictly increasing order of key and offset, within `g` bytes of gaps.
    pub(crate) fn check_heads(heads: &[Head], n: usize, g: usize) -> Result<(), Damage> {
        if heads.len() != n.div_ceil(BLOCK) {
            return Err(Damage::HeadCount {
                heads: heads.len(),
                entries: n,
                need: n.div_ceil(BLOCK),
            });
        }
        if let Some(h) = heads
            .iter()
            .find(|h| h.key >> 56 != 0 || h.next == 0 || h.next > g)
        {
            return Err(Damage::HeadPastGaps {
                key: h.key,
                at: h.next,
            });
        }
        if heads
            .windows(2)
            .any(|w| w[0].key >= w[1].key || w[0].next >= w[1].next)
        {
            return Err(Damage::HeadsOutOfOrder);
        }
        Ok(())
    }

    /// Whether block `b` passed its check: at once when it passed before, else checked now
    /// (its CRC, then its structure and scores), the first failure recorded as the store's
    /// damage.
    #[inline]
    pub(super) fn sound(&self, b: usize) -> bool {
        let Some(word) = self.checked.sound.get(b / 64) else {
            return false;
        };
        let bit = 1u64 << (b % 64);
        if word.load(Ordering::Relaxed) & bit != 0 {
            return true;
        }
        match self.check_block(b) {
            Ok(()) => {
                word.fetch_or(bit, Ordering::Relaxed);
                true
            }
            Err(why) => {
                let _ = self.checked.damage.set(why);
                false
            }
        }
    }

    /// Checks block `b` from scratch (see [`Store::sound`]).
    #[cold]
    pub(super) fn check_block(&self, b: usize) -> Result<(), Damage> {
        let first = b * BLOCK;
        let last = (first + BLOCK).min(self.at.len).saturating_sub(1);
        let head = self.head(b);
        let after = (b + 1 < self.blocks()).then(|| self.head(b + 1));
        let g = self.at.gaps.len();
        let range = block_gaps(b, self.blocks(), g, head, after);
        let crc = u32_at(&self.bytes, self.at.heads + HEAD_BYTES * b + 12);
        let gaps = self.gap_bytes().get(range.clone());
        let scores = &self.score_bytes()[first..=last];
        match gaps {
            Some(gaps) if block_crc(scores, gaps, head, range.end) == crc => {}
            _ => return Err(Damage::BlockChecksum { first, last }),
        }
        let mut keys = [0u64; BLOCK];
        if self.block(b, &mut keys).is_none() {
            return Err(Damage::BlockGaps { first, last });
        }
        if let Some(i) = scores
            .iter()
            .position(|&s| (s as i8 as i32).abs() > self.top)
        {
            return Err(Damage::Score {
                score: scores[i] as i8,
                entry: first + i,
            });
        }
        Ok(())
    }

    /// Checks every block not checked yet: the first damage, if any.
    pub fn check(&self) -> Result<(), Damage> {
        match (0..self.blocks()).find(|&b| !self.sound(b)) {
            Some(b) => Err(self.check_block(b).err().unwrap_or(Damage::BlockChecksum {
                first: b * BLOCK,
                last: b * BLOCK,
            })),
            None => Ok(()),
        }
    }

    /// The first damage a lookup, listing or check found (`None`: none found so far).
    pub fn damage(&self) -> Option<&Damage> {
        self.checked.damage.get()
    }
}
