//! The book file, little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 0..8 | magic `C4-BOOK\n` |
//! | 8..10 | format version: 1 (keys and scores), 2 (compact: scores only), 3 (scores and key gaps) or 4 (3 and the blocks' heads) |
//! | 10, 11 | board width, height |
//! | 12 | plies: every unfinished position with at most this many stones is in the book |
//! | 13..16 | zero |
//! | 16..24 | number of entries n |
//! | version 1: 24..24+8n | entries, strictly increasing: canonical key << 8, score as a signed byte |
//! | version 2: 24..24+n | scores as signed bytes, in increasing order of the canonical keys |
//! | version 3: 24..32 | length g of the gaps below |
//! | version 3: 32..32+n | scores as signed bytes, in increasing order of the canonical keys |
//! | version 3: 32+n..32+n+g | the keys as gaps: the first key, then each key minus the one before (at least 1), each an unsigned LEB128 number (7 bits a byte, low first, high bit set on every byte but the last) |
//! | version 4: 24..32+n+g | as version 3 |
//! | version 4: then 12 bytes a block | for every block of 64 entries: the key of its first entry (8 bytes), and the offset in the gaps just after that entry's gap (4 bytes) |
//! | last 32 | sha256 of everything before |
//!
//! Version 4 is what [`encode`] writes: version 3 with the heads of its blocks, so that a load
//! need not decode every gap to find them (the 12-ply book has 9.2 million: 19 ms of every
//! process's start, where reading 144,000 heads takes well under one). Version 3, which it
//! extends, came first: The keys of a book's positions crowd together (few
//! stones: low bits in every column), so the gap from one key to the next takes 1.35 bytes on
//! average at 8 and at 10 plies: 2.35 bytes a position where version 1 took 8 (the 10-ply
//! book: 2.8 MB instead of 9.7), and a load decodes the gaps in a single pass (0.6 ms at 8
//! plies, 5.3 ms at 10 on this 2-core machine, the sha256 included).
//!
//! Versions 1 and 2 are still read. A book made by `c4 data book` holds every unfinished
//! position of up to its plies stones and nothing else, so its keys follow from the board
//! and the depth ([`super::build::canonical_keys`]): version 2 stored only the scores, one
//! byte a position, and a load enumerated the keys again, which costs every process that
//! reads the book 12-17 ms at 8 plies and 0.8 s at 10. In memory every version is held as
//! version 3 holds it, the scores and the key gaps (see `store.rs`): a version-3 load checks
//! the gaps in one pass and keeps the file's bytes as they are.

use super::Book;
use super::store::{BLOCK, Head, Store};
use crate::game::Geometry;
use std::borrow::Cow;

const MAGIC: &[u8; 8] = b"C4-BOOK\n";
/// Keys and scores, eight bytes an entry.
const VERSION_ENTRIES: u16 = 1;
/// Scores only, the keys those of a complete book of the depth.
const VERSION_COMPLETE: u16 = 2;
/// Scores, and the keys as LEB128 gaps.
const VERSION_GAPS: u16 = 3;
/// Version 3 and the heads of its blocks.
const VERSION_HEADS: u16 = 4;
/// Bytes of a block head in version 4.
const HEAD_BYTES: usize = 12;
const HEADER: usize = 24;
const DIGEST: usize = 32;

/// Why a book cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// The file could not be read (or written).
    #[error("book {path}: {message}")]
    Read {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// Shorter than its header and entries say: cut off.
    #[error("truncated book: {0}")]
    Truncated(String),
    /// Not a book file at all.
    #[error("not a book file (no C4-BOOK magic)")]
    Magic,
    /// A format version this program does not read.
    #[error("book format version {0}; this program reads versions 1 to 4")]
    Version(u16),
    /// A book for another board.
    #[error("book for {0}")]
    Board(String),
    /// The checksum or the entries do not hold.
    #[error("corrupt book: {0}")]
    Corrupt(String),
    /// One of the above, in a named file.
    #[error("book {path}: {source}")]
    InFile {
        /// The file.
        path: String,
        /// What is wrong with it.
        source: Box<BookError>,
    },
}

impl BookError {
    /// The error, naming the file it is about.
    pub fn at(self, path: &std::path::Path) -> BookError {
        match self {
            BookError::Read { .. } | BookError::InFile { .. } => self,
            e => BookError::InFile {
                path: path.display().to_string(),
                source: Box::new(e),
            },
        }
    }
}

/// The bytes of a book file: version 4 (or version 1 in the odd case where keys lie so far
/// apart that their gaps take more room than the keys themselves, or the gaps pass 4 GiB).
pub fn encode(book: &Book) -> Vec<u8> {
    let gaps = book.store.gap_bytes().len();
    let version = if gaps + 8 <= 6 * book.len() && u32::try_from(gaps).is_ok() {
        VERSION_HEADS
    } else {
        VERSION_ENTRIES
    };
    encode_as(book, version)
}

/// The bytes of `book` in format `version` (1 to 4; 2 only for a complete book, which is
/// all a version-2 file can say): the older versions for tests of their reading.
pub(super) fn encode_as(book: &Book, version: u16) -> Vec<u8> {
    let g = book.geometry();
    let mut out = Vec::with_capacity(HEADER + 8 * book.len() + DIGEST);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&[
        g.width() as u8,
        g.height() as u8,
        book.plies() as u8,
        0,
        0,
        0,
    ]);
    out.extend_from_slice(&(book.len() as u64).to_le_bytes());
    match version {
        VERSION_ENTRIES => {
            for (k, s) in book.store.iter() {
                out.extend_from_slice(&(k << 8 | u64::from(s)).to_le_bytes());
            }
        }
        VERSION_COMPLETE => out.extend_from_slice(book.store.score_bytes()),
        _ => {
            let gaps = book.store.gap_bytes();
            out.extend_from_slice(&(gaps.len() as u64).to_le_bytes());
            out.extend_from_slice(book.store.score_bytes());
            out.extend_from_slice(gaps);
            if version == VERSION_HEADS {
                for h in book.store.heads() {
                    out.extend_from_slice(&h.key.to_le_bytes());
                    out.extend_from_slice(&(h.next as u32).to_le_bytes());
                }
            }
        }
    }
    use sha2::Digest;
    let digest = sha2::Sha256::digest(&out);
    out.extend_from_slice(&digest);
    out
}

/// A book from the bytes of a file, for boards of `geom` (or of whatever size the file says,
/// for `None`). Checked in order: length of the header, magic, version, board, length of the entries (truncation), sha256 (corruption),
/// then every entry: keys strictly increasing, scores within the board's range.
pub fn decode(bytes: &[u8], geom: Option<Geometry>) -> Result<Book, BookError> {
    decode_owned(Cow::Owned(bytes.to_vec()), geom)
}

/// [`decode`] of bytes the book may keep: a version-3 book holds its scores and key gaps
/// where they lie in `bytes` (the built-in book's are never copied).
pub(super) fn decode_owned(
    bytes: Cow<'static, [u8]>,
    geom: Option<Geometry>,
) -> Result<Book, BookError> {
    if bytes.len() < HEADER {
        return Err(BookError::Truncated(format!(
            "{} bytes, shorter than the {HEADER}-byte header",
            bytes.len()
        )));
    }
    if &bytes[..8] != MAGIC {
        return Err(BookError::Magic);
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    let entry_bytes: u128 = match version {
        VERSION_ENTRIES => 8,
        VERSION_COMPLETE | VERSION_GAPS | VERSION_HEADS => 1,
        _ => return Err(BookError::Version(version)),
    };
    let (w, h, plies) = (bytes[10] as usize, bytes[11] as usize, bytes[12] as usize);
    let geom = match geom {
        Some(g) if (w, h) != (g.width(), g.height()) => {
            return Err(BookError::Board(format!(
                "{w}x{h} boards, not {}x{}",
                g.width(),
                g.height()
            )));
        }
        Some(g) => g,
        None => Geometry::new(w, h)
            .ok()
            .filter(|g| g.key_bits() <= 56)
            .ok_or_else(|| BookError::Board(format!("{w}x{h} boards, which books do not hold")))?,
    };
    let n = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    // Versions 3 and 4 say how long their gaps are, in the 8 bytes after the header.
    let gapped = version == VERSION_GAPS || version == VERSION_HEADS;
    let heads = if version == VERSION_HEADS {
        (n as u128).div_ceil(BLOCK as u128) * HEAD_BYTES as u128
    } else {
        0
    };
    let extra: u128 = if gapped {
        let Some(g) = bytes.get(HEADER..HEADER + 8) else {
            return Err(BookError::Truncated(format!(
                "{} bytes, shorter than the {}-byte header of version {version}",
                bytes.len(),
                HEADER + 8
            )));
        };
        let g = u64::from_le_bytes(g.try_into().expect("8 bytes")) as u128;
        // Every gap takes one byte at least and ten at most.
        let n = n as u128;
        if g < n || g > 10 * n {
            return Err(BookError::Corrupt(format!(
                "{g} bytes of key gaps cannot hold {n} keys"
            )));
        }
        8 + g + heads
    } else {
        0
    };
    let want = (n as u128) * entry_bytes + extra + (HEADER + DIGEST) as u128;
    if (bytes.len() as u128) < want {
        return Err(BookError::Truncated(format!(
            "{} bytes where {n} entries need {want}",
            bytes.len()
        )));
    }
    if bytes.len() as u128 != want {
        return Err(BookError::Corrupt(format!(
            "{} bytes where {n} entries need {want}",
            bytes.len()
        )));
    }
    let body = &bytes[..bytes.len() - DIGEST];
    use sha2::Digest;
    if sha2::Sha256::digest(body).as_slice() != &bytes[bytes.len() - DIGEST..] {
        return Err(BookError::Corrupt("checksum mismatch".into()));
    }
    let top = geom.win_score(0);
    let check_scores = |scores: &[u8]| {
        // One branch-free pass (it vectorises), then the culprit only when there is one.
        let bad = |&s: &u8| (s as i8 as i32).abs() > top;
        if !scores.iter().fold(false, |any, s| any | bad(s)) {
            return Ok(());
        }
        let i = scores.iter().position(bad).unwrap_or_default();
        Err(BookError::Corrupt(format!(
            "score {} out of range for entry {i}",
            scores[i] as i8
        )))
    };
    let store = if gapped {
        // The length check above makes n at most the file's length.
        let n = n as usize;
        let scores = HEADER + 8;
        check_scores(&bytes[scores..scores + n])?;
        let end = bytes.len() - DIGEST - heads as usize;
        let gaps = scores + n..end;
        if version == VERSION_GAPS {
            Store::parse(bytes, scores, n, gaps).map_err(BookError::Corrupt)?
        } else {
            let heads = bytes[end..bytes.len() - DIGEST]
                .chunks_exact(HEAD_BYTES)
                .map(|c| Head {
                    key: u64::from_le_bytes(c[..8].try_into().expect("8 bytes")),
                    next: u32::from_le_bytes(c[8..].try_into().expect("4 bytes")) as usize,
                })
                .collect();
            Store::with_heads(bytes, scores, n, gaps, heads).map_err(BookError::Corrupt)?
        }
    } else {
        let entries: Vec<u64> = if version == VERSION_ENTRIES {
            body[HEADER..]
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect()
        } else {
            let keys = super::build::canonical_keys(geom, plies)
                .map_err(|e| BookError::Corrupt(e.to_string()))?;
            if keys.len() as u64 != n {
                return Err(BookError::Corrupt(format!(
                    "{n} scores where a book of {plies} plies has {} positions",
                    keys.len()
                )));
            }
            keys.iter()
                .zip(&body[HEADER..])
                .map(|(&k, &s)| k << 8 | u64::from(s))
                .collect()
        };
        if entries.windows(2).any(|p| p[0] >> 8 >= p[1] >> 8) {
            return Err(BookError::Corrupt("keys out of order".into()));
        }
        check_scores(&entries.iter().map(|&e| e as u8).collect::<Vec<u8>>())?;
        Store::from_sorted(entries.iter().map(|&e| (e >> 8, e as u8)))
    };
    Ok(Book { geom, plies, store })
}
