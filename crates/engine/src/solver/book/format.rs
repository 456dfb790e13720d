//! The book file, little-endian. Version 5, what [`encode`] writes:
//!
//! | bytes | what |
//! |---|---|
//! | 0..8 | magic `C4-BOOK\n` |
//! | 8..10 | format version: 5 |
//! | 10, 11 | board width, height |
//! | 12 | plies: every unfinished position with at most this many stones is in the book |
//! | 13..16 | zero |
//! | 16..24 | number of entries n |
//! | 24..32 | length g of the key gaps |
//! | 32..36 | CRC-32 of bytes 0..32 |
//! | 36..40 | zero |
//! | 40..40+n | scores as signed bytes, in increasing order of the canonical keys |
//! | then g bytes | the keys as gaps: the first key, then each key minus the one before (at least 1), each an unsigned LEB128 number (7 bits a byte, low first, high bit set on every byte but the last) |
//! | then 16 bytes a block | for every block of 64 entries: the key of its first entry (8 bytes), the offset in the gaps just after that entry's gap (4), and the block's CRC-32 (4) |
//!
//! A block's CRC-32 covers its scores, its gaps (block 0's from the first, every other's
//! from after its first entry's gap, each up to just after the next block's first gap), its
//! head's key and offset, and where its gaps end (4 bytes). So every byte of the file is
//! under exactly one CRC: a load checks the 40-byte header and the file's length (a
//! truncated, foreign or damaged header is refused at once), and each block is checked when
//! a lookup first reads it (see `store/`). Opening the 12-ply book (22.5 MB) thus reads 40
//! bytes where version 4 hashed all of it (sha256, 18 ms of every process), and a lookup
//! reads only the pages it touches of a mapped file. `c4 data book --verify` checks every
//! block, as does [`Book::check`].
//!
//! Versions 1 to 4 are still read. They share the first 24 bytes and end in a sha256 of
//! everything before, checked on load (so they load slower), and are held in memory as
//! version 5 holds them:
//!
//! | version | after byte 24 |
//! |---|---|
//! | 1 | entries, strictly increasing: canonical key << 8, score as a signed byte, 8 bytes each |
//! | 2 | scores only, the keys those of a complete book of the depth ([`super::build::canonical_keys`], enumerated again on load) |
//! | 3 | g (8 bytes), the scores, the key gaps |
//! | 4 | as 3, then 12 bytes a block: its first key and the offset after its gap |
//!
//! Why gaps: the keys of a book's positions crowd together (few stones: low bits in every
//! column), so the gap from one key to the next takes 1.35 bytes on average at 8 and at 10
//! plies: 2.35 bytes a position where version 1 took 8. Why heads: a load need not decode
//! every gap to find the blocks (the 12-ply book has 9.2 million).

use super::Book;
use super::Damage;
use super::store::{BLOCK, Bytes, HEAD_BYTES, Head, Layout, Store};
use crate::game::Geometry;

const MAGIC: &[u8; 8] = b"C4-BOOK\n";
/// Keys and scores, eight bytes an entry.
const VERSION_ENTRIES: u16 = 1;
/// Scores only, the keys those of a complete book of the depth.
const VERSION_COMPLETE: u16 = 2;
/// Scores, and the keys as LEB128 gaps.
const VERSION_GAPS: u16 = 3;
/// Version 3 and the heads of its blocks.
const VERSION_HEADS: u16 = 4;
/// Version 4 with a CRC-32 in each head and of the header instead of a sha256 of the whole.
const VERSION_CHECKED: u16 = 5;
/// The format version [`encode`] writes.
pub const VERSION: u16 = VERSION_CHECKED;
/// Bytes of a block head in version 4.
const V4_HEAD_BYTES: usize = 12;
/// The header every version begins with.
const HEADER: usize = 24;
/// Version 5's header: the common one, the length of the gaps, and a CRC-32 of those.
const HEADER_V5: usize = 40;
const DIGEST: usize = 32;

/// Why a book cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read.
    #[error("book {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// What went wrong.
        #[source]
        source: std::io::Error,
    },
    /// The file could not be written.
    #[error("book {path}: cannot write: {source}")]
    Write {
        /// The file.
        path: String,
        /// What went wrong.
        #[source]
        source: std::io::Error,
    },
    /// Shorter than its header and entries say: cut off.
    #[error("truncated book: {0}")]
    Truncated(String),
    /// Not a book file at all.
    #[error("not a book file (no C4-BOOK magic)")]
    Magic,
    /// A format version this program does not read.
    #[error("book format version {0}; this program reads versions 1 to 5")]
    Version(u16),
    /// A book for another board.
    #[error("book for {0}")]
    Board(String),
    /// The checksum or the entries do not hold.
    #[error("corrupt book: {0}")]
    Corrupt(#[from] Damage),
    /// An old (version 1-4) book whose header names a book this program cannot make the
    /// positions of (its keys are not stored, they are enumerated).
    #[error("corrupt book: {0}")]
    Depth(#[source] Box<super::build::BuildError>),
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
            BookError::Read { .. } | BookError::Write { .. } | BookError::InFile { .. } => self,
            e => BookError::InFile {
                path: path.display().to_string(),
                source: Box::new(e),
            },
        }
    }
}

/// The bytes of a book file: version 5 (or version 1 in the odd case where keys lie so far
/// apart that their gaps take more room than the keys themselves).
pub fn encode(book: &Book) -> Vec<u8> {
    let gaps = book.store.gap_bytes().len();
    let version = if gaps + 8 <= 6 * book.len() {
        VERSION_CHECKED
    } else {
        VERSION_ENTRIES
    };
    encode_as(book, version)
}

/// The header of a version-5 file: the common 24 bytes, the length of the gaps, and the
/// CRC-32 of those 32 bytes.
fn header_v5(book: &Book) -> Vec<u8> {
    let mut out = common_header(book, VERSION_CHECKED);
    out.extend_from_slice(&(book.store.gap_bytes().len() as u64).to_le_bytes());
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out
}

/// Magic, version, board, plies and the number of entries: the first 24 bytes of every
/// version.
fn common_header(book: &Book, version: u16) -> Vec<u8> {
    let g = book.geometry();
    let mut out = Vec::with_capacity(HEADER_V5);
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
    out
}

/// The bytes of `book` in format `version` (1 to 5; 2 only for a complete book, which is
/// all a version-2 file can say): the older versions for tests of their reading.
pub(super) fn encode_as(book: &Book, version: u16) -> Vec<u8> {
    if version == VERSION_CHECKED {
        let mut out = header_v5(book);
        out.extend_from_slice(book.store.score_bytes());
        out.extend_from_slice(book.store.gap_bytes());
        out.extend_from_slice(book.store.head_bytes());
        return out;
    }
    let mut out = common_header(book, version);
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
/// for `None`). Checked in order: length of the header, magic, version, the header's CRC
/// (version 5), board, length of the entries (truncation); then, for versions 1 to 4, the
/// sha256 and every entry (keys strictly increasing, scores within the board's range). A
/// version-5 book's blocks are checked as they are read (see `store/`), or all at once by
/// [`Book::check`].
pub fn decode(bytes: &[u8], geom: Option<Geometry>) -> Result<Book, BookError> {
    decode_bytes(Bytes::Owned(bytes.to_vec()), geom)
}

/// [`decode`] of bytes the book keeps: a version-5 book reads its entries where they lie in
/// `bytes` (the built-in book's are never copied, a mapped file's pages are read as lookups
/// touch them).
pub(super) fn decode_bytes(bytes: Bytes, geom: Option<Geometry>) -> Result<Book, BookError> {
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
    if version == VERSION_CHECKED {
        if bytes.len() < HEADER_V5 {
            return Err(BookError::Truncated(format!(
                "{} bytes, shorter than the {HEADER_V5}-byte header of version {version}",
                bytes.len()
            )));
        }
        let crc = u32::from_le_bytes(bytes[32..36].try_into().expect("4 bytes"));
        if crc32fast::hash(&bytes[..32]) != crc || bytes[36..40] != [0; 4] {
            return Err(BookError::Corrupt(Damage::Header));
        }
    }
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
    let top = geom.win_score(0);
    match version {
        VERSION_CHECKED => decode_v5(bytes, geom, plies, n, top),
        VERSION_ENTRIES | VERSION_COMPLETE | VERSION_GAPS | VERSION_HEADS => {
            decode_digested(&bytes, version, geom, plies, n, top)
        }
        _ => Err(BookError::Version(version)),
    }
}

/// The length of the key gaps that versions 3 to 5 give after the header, checked against
/// the number of keys `n`.
fn gap_length(bytes: &[u8], version: u16, n: u64) -> Result<u128, BookError> {
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
        return Err(BookError::Corrupt(Damage::GapBytes { bytes: g, keys: n }));
    }
    Ok(g)
}

/// Refuses a file whose length is not `want`: shorter is truncated, longer corrupt.
fn check_length(len: usize, want: u128, n: u64) -> Result<(), BookError> {
    if (len as u128) < want {
        return Err(BookError::Truncated(format!(
            "{len} bytes where {n} entries need {want}"
        )));
    }
    if len as u128 != want {
        return Err(BookError::Corrupt(Damage::Length {
            len,
            entries: n,
            need: want,
        }));
    }
    Ok(())
}

/// A version-5 book over its bytes, its header checked: nothing else is read until a lookup.
fn decode_v5(
    bytes: Bytes,
    geom: Geometry,
    plies: usize,
    n: u64,
    top: i32,
) -> Result<Book, BookError> {
    let g = gap_length(&bytes, VERSION_CHECKED, n)?;
    let heads = (n as u128).div_ceil(BLOCK as u128) * HEAD_BYTES as u128;
    if g > u128::from(u32::MAX) {
        return Err(BookError::Corrupt(Damage::GapsPast4GiB(g)));
    }
    check_length(bytes.len(), HEADER_V5 as u128 + n as u128 + g + heads, n)?;
    // The length check makes n and g at most the file's length.
    let (n, g) = (n as usize, g as usize);
    let scores = HEADER_V5;
    let at = Layout {
        scores,
        len: n,
        gaps: scores + n..scores + n + g,
        heads: scores + n + g,
    };
    Ok(Book::from_store(
        geom,
        plies,
        Store::in_place(std::sync::Arc::new(bytes), at, top),
    ))
}

/// A book of versions 1 to 4, which end in a sha256 of the whole file: checked whole, then
/// held in memory as version 5 holds it.
fn decode_digested(
    bytes: &[u8],
    version: u16,
    geom: Geometry,
    plies: usize,
    n: u64,
    top: i32,
) -> Result<Book, BookError> {
    let gapped = version == VERSION_GAPS || version == VERSION_HEADS;
    let heads = if version == VERSION_HEADS {
        (n as u128).div_ceil(BLOCK as u128) * V4_HEAD_BYTES as u128
    } else {
        0
    };
    let (entry_bytes, extra) = match version {
        VERSION_ENTRIES => (8, 0),
        VERSION_COMPLETE => (1, 0),
        _ => (1, 8 + gap_length(bytes, version, n)? + heads),
    };
    let want = (n as u128) * entry_bytes + extra + (HEADER + DIGEST) as u128;
    check_length(bytes.len(), want, n)?;
    let body = &bytes[..bytes.len() - DIGEST];
    use sha2::Digest;
    if sha2::Sha256::digest(body).as_slice() != &bytes[bytes.len() - DIGEST..] {
        return Err(BookError::Corrupt(Damage::Digest));
    }
    let store = if gapped {
        // The length check above makes n at most the file's length.
        let n = n as usize;
        let end = bytes.len() - DIGEST - heads as usize;
        gapped_store(bytes, version, n, end, top)?
    } else {
        listed_store(body, version, geom, plies, n, top)?
    };
    Ok(Book::from_store(geom, plies, store))
}

/// Refuses a score past the board's range, naming the first.
fn check_scores(scores: &[u8], top: i32) -> Result<(), BookError> {
    // One branch-free pass (it vectorises), then the culprit only when there is one.
    let bad = |&s: &u8| (s as i8 as i32).abs() > top;
    if !scores.iter().fold(false, |any, s| any | bad(s)) {
        return Ok(());
    }
    let i = scores.iter().position(bad).unwrap_or_default();
    Err(BookError::Corrupt(Damage::Score {
        score: scores[i] as i8,
        entry: i,
    }))
}

/// The entries of a version-3 or -4 file (its `n` scores after the gap length, its gaps up
/// to `end`, then version 4's heads), held as version 5 holds them.
fn gapped_store(
    bytes: &[u8],
    version: u16,
    n: usize,
    end: usize,
    top: i32,
) -> Result<Store, BookError> {
    let scores = &bytes[HEADER + 8..HEADER + 8 + n];
    check_scores(scores, top)?;
    let gaps = &bytes[HEADER + 8 + n..end];
    let heads = if version == VERSION_GAPS {
        Store::find_heads(gaps, n)?
    } else {
        let heads: Vec<Head> = bytes[end..bytes.len() - DIGEST]
            .chunks_exact(V4_HEAD_BYTES)
            .map(|c| Head {
                key: u64::from_le_bytes(c[..8].try_into().expect("8 bytes")),
                next: u32::from_le_bytes(c[8..].try_into().expect("4 bytes")) as usize,
            })
            .collect();
        Store::check_heads(&heads, n, gaps.len())?;
        heads
    };
    Store::from_parts(scores, gaps, &heads, top).ok_or_else(too_big)
}

/// The entries of a version-1 file (keys and scores) or a version-2 one (scores, the keys
/// those of a whole book of `plies`), `body` the file without its digest.
fn listed_store(
    body: &[u8],
    version: u16,
    geom: Geometry,
    plies: usize,
    n: u64,
    top: i32,
) -> Result<Store, BookError> {
    let entries: Vec<u64> = if version == VERSION_ENTRIES {
        body[HEADER..]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect()
    } else {
        let keys =
            super::build::canonical_keys(geom, plies).map_err(|e| BookError::Depth(Box::new(e)))?;
        if keys.len() as u64 != n {
            return Err(BookError::Corrupt(Damage::Scores {
                scores: n,
                plies,
                positions: keys.len(),
            }));
        }
        keys.iter()
            .zip(&body[HEADER..])
            .map(|(&k, &s)| k << 8 | u64::from(s))
            .collect()
    };
    if entries.windows(2).any(|p| p[0] >> 8 >= p[1] >> 8) {
        return Err(BookError::Corrupt(Damage::KeysOutOfOrder));
    }
    if entries.iter().any(|&e| e >> 8 >> 56 != 0) {
        return Err(BookError::Corrupt(Damage::KeyRange));
    }
    check_scores(&entries.iter().map(|&e| e as u8).collect::<Vec<u8>>(), top)?;
    Store::from_sorted(entries.iter().map(|&e| (e >> 8, e as u8)), top).ok_or_else(too_big)
}

/// A book too large for the heads' 4-byte offsets.
fn too_big() -> BookError {
    BookError::Corrupt(Damage::TooBig)
}
