//! The book file, little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 0..8 | magic `C4-BOOK\n` |
//! | 8..10 | format version: 1 (keys and scores) or 2 (compact: scores only) |
//! | 10, 11 | board width, height |
//! | 12 | plies: every unfinished position with at most this many stones is in the book |
//! | 13..16 | zero |
//! | 16..24 | number of entries n |
//! | version 1: 24..24+8n | entries, strictly increasing: canonical key << 8, score as a signed byte |
//! | version 2: 24..24+n | scores as signed bytes, in increasing order of the canonical keys |
//! | last 32 | sha256 of everything before |
//!
//! A book made by `c4 data book` holds every unfinished position of up to its plies stones
//! and nothing else, so its keys follow from the board and the depth
//! ([`super::build::canonical_keys`]): the compact version 2 stores only the scores, one byte
//! a position instead of eight, and a load enumerates the keys again. [`encode`] writes
//! version 2 for such a book of up to [`COMPACT_MAX_PLIES`] (where that enumeration costs a
//! load at most about 50 ms) and version 1 for deeper books and any other set of entries. In memory both
//! are the same sorted entries: a lookup is a binary search.

use super::Book;
use crate::game::Geometry;

const MAGIC: &[u8; 8] = b"C4-BOOK\n";
/// Keys and scores, eight bytes an entry.
const VERSION_ENTRIES: u16 = 1;
/// Scores only, the keys those of a complete book of the depth.
const VERSION_COMPLETE: u16 = 2;
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
    #[error("book format version {0}; this program reads versions 1 and 2")]
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

/// The deepest book stored compactly. Enumerating the keys again costs a load about 2 ms
/// at 6 plies, 50 ms at 8 and 0.8 s at 10 (1.2 million positions); past 8 a load that reads
/// the keys (version 1: 10 MB at 10 plies) is the faster one.
pub const COMPACT_MAX_PLIES: usize = 8;

/// Whether `book` is stored compactly: it holds exactly the positions of a complete book of
/// its depth, and that depth is at most [`COMPACT_MAX_PLIES`].
fn is_complete(book: &Book) -> bool {
    book.plies() <= COMPACT_MAX_PLIES
        && super::build::canonical_keys(book.geometry(), book.plies()).is_ok_and(|keys| {
            keys.len() == book.len() && keys.iter().zip(&book.entries).all(|(k, e)| *k == e >> 8)
        })
}

/// The bytes of a book file: the compact version 2 for a complete book of at most
/// [`COMPACT_MAX_PLIES`], else version 1.
pub fn encode(book: &Book) -> Vec<u8> {
    let g = book.geometry();
    let complete = is_complete(book);
    let version = if complete {
        VERSION_COMPLETE
    } else {
        VERSION_ENTRIES
    };
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
    for &e in &book.entries {
        if complete {
            out.push(e as u8);
        } else {
            out.extend_from_slice(&e.to_le_bytes());
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
        VERSION_COMPLETE => 1,
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
    let want = (n as u128) * entry_bytes + (HEADER + DIGEST) as u128;
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
    let top = geom.win_score(0);
    if let Some(e) = entries
        .iter()
        .find(|&&e| (e as u8 as i8 as i32).abs() > top)
    {
        return Err(BookError::Corrupt(format!(
            "score {} out of range for key {}",
            *e as u8 as i8,
            *e >> 8
        )));
    }
    Ok(Book {
        geom,
        plies,
        entries,
    })
}
