//! The opening book: the exact (strong) score of every unfinished position with at most
//! `plies` stones, mirror images folded, made by the data engine (`c4 data book`, see
//! [`build`]) and read by every exact consumer through the [`Solver`](super::Solver): a
//! search that reaches a position of the book stops there, so solving, analysing, grading and
//! labelling early positions costs a lookup instead of minutes.
//!
//! The file format is in [`mod@format`]: the scores and the sorted keys as gaps, with a
//! sha256; in memory the book keeps them so (a lookup is a binary search over every 32nd key,
//! then a few gaps decoded) and a load reads the file once. A book is a value given to each solver
//! ([`Solver::set_book`](super::Solver::set_book), or a [`SolverPool`](super::SolverPool)'s
//! book for all of its solvers); by default a solver reads the 7x6 book built into the
//! library ([`embedded`]). The CLI's `--book` picks another file, and without it
//! [`default_book`] (a file beside the program, `data/book-7x6-12.bin` or `data/book-7x6.bin`, else the built-in
//! one). Without a book everything still works, only the opening is slower.

pub mod build;
mod damage;
pub mod format;
mod store;
pub mod verify;

pub use build::{BuildError, book_from_leaves, canonical_keys, check_negamax, enumerate_leaves};
pub use damage::Damage;
pub use format::BookError;
pub use verify::{VerifyError, VerifyReport, verify};

use crate::game::{Geometry, Position};
use std::path::Path;
use std::sync::Arc;

/// The default book of the repository, for 7x6 boards.
pub const DEFAULT_PATH: &str = "data/book-7x6.bin";

/// The repository's deeper 7x6 book (every position of up to 12 stones, 22.5 MB): read from
/// the working folder when it is there, too big to build into every program and page.
pub const DEEP_PATH: &str = "data/book-7x6-12.bin";

/// An opening book for one board size: the score of each position under its canonical key,
/// the smaller of the keys of the position and its mirror image (held compactly and checked
/// block by block as it is read: see `store/`).
#[derive(Clone)]
pub struct Book {
    geom: Geometry,
    plies: usize,
    store: store::Store,
    /// The file it was read from, named by its damage.
    file: Option<Arc<str>>,
}

impl PartialEq for Book {
    /// Same board, depth and entries (wherever they were read from).
    fn eq(&self, other: &Book) -> bool {
        self.geom == other.geom && self.plies == other.plies && self.store == other.store
    }
}

impl Eq for Book {}

impl std::fmt::Debug for Book {
    /// The board, depth and size, not the entries (a config holding a book stays readable).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Book")
            .field("geometry", &self.geom)
            .field("plies", &self.plies)
            .field("entries", &self.store.len())
            .finish()
    }
}

impl Book {
    /// A book of `entries` (canonical key, score), any order; refused when a key does not fit
    /// the format (boards of more than 56 key bits), appears twice, or a score is past the
    /// board's range.
    pub fn new(
        geom: Geometry,
        plies: usize,
        entries: impl IntoIterator<Item = (u64, i32)>,
    ) -> Result<Self, BookError> {
        if geom.key_bits() > 56 {
            return Err(BookError::Board(format!(
                "{}x{} boards have {}-bit keys; a book holds at most 56",
                geom.width(),
                geom.height(),
                geom.key_bits()
            )));
        }
        let top = geom.win_score(0);
        let mut sorted: Vec<u64> = Vec::new();
        for (k, s) in entries {
            if s.abs() > top {
                return Err(BookError::Corrupt(Damage::KeyScore { score: s, key: k }));
            }
            sorted.push(k << 8 | u64::from(s as i8 as u8));
        }
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] >> 8 == w[1] >> 8) {
            return Err(BookError::Corrupt(Damage::Twice));
        }
        let store = store::Store::from_sorted(sorted.iter().map(|&e| (e >> 8, e as u8)), top)
            .ok_or(BookError::Corrupt(Damage::TooManyEntries))?;
        Ok(Book::from_store(geom, plies, store))
    }

    /// A book over a store (read from no file yet).
    fn from_store(geom: Geometry, plies: usize, store: store::Store) -> Book {
        Book {
            geom,
            plies,
            store,
            file: None,
        }
    }

    /// Opens a book file for boards of `geom` (any board the file is for, with `None`):
    /// its header and length checked at once, each block of entries as a lookup first reads
    /// it (see [`format::decode`] and [`Book::damage`]). A large file is mapped, not read:
    /// only the pages lookups touch are ever loaded, so a process that asks one question
    /// pays for one block.
    pub fn load(path: &Path, geom: Option<Geometry>) -> Result<Self, BookError> {
        let bytes = read_or_map(path).map_err(|source| BookError::Read {
            path: path.display().to_string(),
            source,
        })?;
        let mut book = format::decode_bytes(bytes, geom).map_err(|e| e.at(path))?;
        book.file = Some(path.display().to_string().into());
        Ok(book)
    }

    /// Reads a book from the bytes of a book file, checked as [`Book::load`] checks a file;
    /// the bytes are kept, not copied (a page or program that fetched a deep book holds it
    /// once).
    pub fn from_bytes(bytes: Vec<u8>, geom: Option<Geometry>) -> Result<Self, BookError> {
        format::decode_bytes(store::Bytes::Owned(bytes), geom)
    }

    /// Checks every entry not read yet (their CRCs, key gaps and scores): what a lookup
    /// checks of its block, for all of them, naming the file and the first damaged entries.
    pub fn check(&self) -> Result<(), BookError> {
        self.store
            .check()
            .map_err(|why| self.named(BookError::Corrupt(why)))
    }

    /// The first damage a lookup found (a block of entries failing its CRC or structure),
    /// naming the file: such a lookup answered nothing rather than a wrong score, so the
    /// answer of whoever asked is still exact, but the book needs making again. Programs
    /// report it once their work is done (the CLI exits with it as an error).
    pub fn damage(&self) -> Option<BookError> {
        let why = self.store.damage()?;
        Some(self.named(BookError::Corrupt(why.clone())))
    }

    /// The file this book was read from, if any.
    pub fn file(&self) -> Option<&str> {
        self.file.as_deref()
    }

    /// `e`, naming the book's file when it has one.
    fn named(&self, e: BookError) -> BookError {
        match &self.file {
            Some(f) => e.at(Path::new(&**f)),
            None => e,
        }
    }

    /// Writes the book atomically.
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        crate::io::write_bytes_atomic(path, &format::encode(self)).map_err(|source| {
            BookError::Write {
                path: path.display().to_string(),
                source,
            }
        })
    }

    /// The board of the book.
    pub fn geometry(&self) -> Geometry {
        self.geom
    }

    /// Positions with at most this many stones are in the book (when unfinished).
    pub fn plies(&self) -> usize {
        self.plies
    }

    /// Number of entries (mirror images count once).
    pub fn len(&self) -> usize {
        self.store.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.store.len() == 0
    }

    /// The entries as (canonical key, score), in key order.
    pub fn entries(&self) -> impl Iterator<Item = (u64, i32)> + '_ {
        self.store.iter().map(|(k, s)| (k, s as i8 as i32))
    }

    /// The exact score of `pos` for the side to move, if the book holds it: a position of the
    /// book's board with at most [`Book::plies`] stones whose game is not over.
    #[inline]
    pub fn score(&self, pos: &Position) -> Option<i32> {
        if pos.moves_played() > self.plies || pos.geometry() != self.geom {
            return None;
        }
        self.get(pos.canonical_key())
    }

    /// The score stored under a canonical key.
    #[inline]
    pub fn get(&self, canonical_key: u64) -> Option<i32> {
        self.store.get(canonical_key).map(|s| s as i8 as i32)
    }

    /// The score of every column of `pos` (`None` where full or the game is over), when the
    /// book answers them all: for positions with fewer stones than [`Book::plies`].
    pub fn analyze(&self, pos: &Position) -> Option<Vec<Option<i32>>> {
        if pos.moves_played() >= self.plies || pos.last_move_won() || pos.is_full() {
            return None;
        }
        self.score(pos)?;
        (0..pos.width())
            .map(|col| {
                if !pos.can_play(col) {
                    Some(None)
                } else if pos.is_winning_move(col) {
                    Some(Some(self.geom.win_score(pos.moves_played())))
                } else {
                    let child = pos.after(col)?;
                    if child.is_full() {
                        Some(Some(0))
                    } else {
                        self.score(&child).map(|s| Some(-s))
                    }
                }
            })
            .collect()
    }

    /// The best column (0-based) of `pos` with its score, from the book alone: the highest
    /// score, ties to the most central column (as [`Solver::best_move`](super::Solver::best_move)).
    pub fn best_move(&self, pos: &Position) -> Option<(usize, i32)> {
        let scores = self.analyze(pos)?;
        let best = scores.iter().flatten().max().copied()?;
        self.geom
            .centre_order()
            .find(|&c| scores[c] == Some(best))
            .map(|c| (c, best))
    }
}

/// The repository's 7x6 book (every position of up to its plies stones: 10 plies, 2.8 MB),
/// built into the library so that every program and the Python package have it wherever
/// they run.
static EMBEDDED_BYTES: &[u8] = include_bytes!("../../../../../data/book-7x6.bin");

/// The book built into the library (the repository's `data/book-7x6.bin` at build time).
pub fn embedded() -> Arc<Book> {
    static EMBEDDED: std::sync::OnceLock<Arc<Book>> = std::sync::OnceLock::new();
    EMBEDDED
        .get_or_init(|| {
            Arc::new(
                format::decode_bytes(store::Bytes::Static(EMBEDDED_BYTES), None)
                    .expect("the built-in book decodes"),
            )
        })
        .clone()
}

/// The books of the smaller boards built into the library (the repository's
/// `data/book-WxH.bin`, made by `c4 data book --width W --height H`): deep enough there that
/// the solver answers any position at once (docs/boards.md gives their depths).
static BOARD_BYTES: &[(usize, usize, &[u8])] = &[
    (5, 4, include_bytes!("../../../../../data/book-5x4.bin")),
    (6, 5, include_bytes!("../../../../../data/book-6x5.bin")),
    (6, 6, include_bytes!("../../../../../data/book-6x6.bin")),
    (7, 5, include_bytes!("../../../../../data/book-7x5.bin")),
];

/// The book built into the library for boards of `geom`: [`embedded`] on 7x6, a smaller
/// board's own book where one ships, else none. What a solver pool reads on a board its
/// own book is not for.
///
/// ```
/// use connect4_engine::{Geometry, solver::book};
/// assert_eq!(book::embedded_for(Geometry::STANDARD).unwrap().plies(), book::embedded().plies());
/// let small = book::embedded_for(Geometry::new(5, 4).unwrap()).unwrap();
/// assert_eq!(small.geometry(), Geometry::new(5, 4).unwrap());
/// assert!(book::embedded_for(Geometry::new(8, 7).unwrap()).is_none());
/// ```
pub fn embedded_for(geom: Geometry) -> Option<Arc<Book>> {
    if geom == Geometry::STANDARD {
        return Some(embedded());
    }
    static BOOKS: std::sync::OnceLock<Vec<Arc<Book>>> = std::sync::OnceLock::new();
    BOOKS
        .get_or_init(|| {
            BOARD_BYTES
                .iter()
                .map(|&(w, h, bytes)| {
                    let book = format::decode_bytes(store::Bytes::Static(bytes), None)
                        .expect("a built-in book decodes");
                    debug_assert_eq!((book.geometry().width(), book.geometry().height()), (w, h));
                    Arc::new(book)
                })
                .collect()
        })
        .iter()
        .find(|b| b.geometry() == geom)
        .cloned()
}

/// Files at least this large are mapped rather than read.
#[cfg(not(target_arch = "wasm32"))]
const MAP_FROM: u64 = 1 << 16;

/// The bytes of a book file: mapped read-only when large (and the platform maps files),
/// else read.
fn read_or_map(path: &Path) -> std::io::Result<store::Bytes> {
    let file = std::fs::File::open(path)?;
    #[cfg(not(target_arch = "wasm32"))]
    if file.metadata()?.len() >= MAP_FROM {
        // SAFETY: the mapping is read-only and private. Books are written atomically (a new
        // file renamed over the old: `Book::save`, `c4 data book`), so the file a process
        // maps is never rewritten under it; a file cut short by other means would be a
        // fault, which is why only book files are mapped.
        let map = unsafe { memmap2::Mmap::map(&file)? };
        return Ok(store::Bytes::Mapped(map));
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut { file }, &mut bytes)?;
    Ok(store::Bytes::Owned(bytes))
}

/// Where a book file is looked for when none is named: `book-7x6.bin` beside the running
/// program (a bigger book shipped with a binary), then [`DEEP_PATH`] and [`DEFAULT_PATH`]
/// under the working folder (the repository's own).
pub fn default_paths() -> Vec<std::path::PathBuf> {
    let mut paths = Vec::new();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        paths.push(dir.join("book-7x6.bin"));
    }
    paths.push(Path::new(DEEP_PATH).to_path_buf());
    paths.push(Path::new(DEFAULT_PATH).to_path_buf());
    paths
}

/// The book used when none is named: the first file of [`default_paths`] that opens (its
/// header sound) and is deeper than the built-in one, else the built-in book (the
/// repository's `data/book-7x6.bin` is the built-in book, so it is not opened again).
pub fn default_book() -> Arc<Book> {
    first_book(&default_paths()).0
}

/// [`default_book`], with why each file of [`default_paths`] that is there but does not open
/// was passed over (a truncated or damaged file a program should warn about).
pub fn default_book_reporting() -> (Arc<Book>, Vec<BookError>) {
    first_book(&default_paths())
}

/// The first book of `paths` that opens and is deeper than the built-in one, else the
/// built-in book; and the errors of the files passed over.
fn first_book(paths: &[std::path::PathBuf]) -> (Arc<Book>, Vec<BookError>) {
    let mut passed = Vec::new();
    for path in paths.iter().filter(|p| p.is_file()) {
        match Book::load(path, None) {
            Ok(book) if book.plies() > embedded().plies() => return (Arc::new(book), passed),
            Ok(_) => {}
            Err(e) => passed.push(e),
        }
    }
    (embedded(), passed)
}

#[cfg(test)]
mod tests;
