//! Making a book: only the positions with exactly `plies` stones (the leaves) need the solver
//! (the data engine labels them, sharded and resumable: `datasets::label::book_job`); every
//! shallower position follows by negamax over its children, here.

use super::{Book, BookError};
use crate::game::{Geometry, Position};
use std::collections::{HashMap, HashSet};

/// Why a book could not be made from its leaves.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// A book deeper than its format's byte allows, or than the board has cells.
    #[error("{plies} plies: a book holds from 0 to {max}")]
    Plies {
        /// Asked for.
        plies: usize,
        /// The most this board allows.
        max: usize,
    },
    /// A leaf's score is missing.
    #[error("no score for the leaf {moves} ({count} leaves missing in all)")]
    Missing {
        /// One missing leaf, by move string.
        moves: String,
        /// How many are missing.
        count: usize,
    },
    /// A labelled position that is not a leaf of this book.
    #[error("{moves} is not an unfinished position of {plies} stones")]
    NotALeaf {
        /// The position, by move string.
        moves: String,
        /// The book's depth.
        plies: usize,
    },
    /// Two labels of one leaf (or of its mirror image) disagree.
    #[error("{moves}: two different scores ({a} and {b}) for one position")]
    Disagree {
        /// The position.
        moves: String,
        /// One score.
        a: i32,
        /// The other.
        b: i32,
    },
    /// The file's key gaps do not agree with its block heads (a version-4 file is checked
    /// block by block as it is read; this checks every block).
    #[error("the book's keys do not hold together: {0}")]
    Blocks(super::Damage),
    /// A shallower position whose stored score is not the negamax of its children's.
    #[error("{moves}: the book says {stored}, its children say {children}")]
    Inconsistent {
        /// The position.
        moves: String,
        /// Its score in the book.
        stored: i32,
        /// The best of its children's negated scores.
        children: i32,
    },
    /// The book itself.
    #[error(transparent)]
    Book(#[from] BookError),
}

/// Every unfinished position with `stones` stones, one per mirror pair, with the smallest
/// move string that reaches it (or its mirror image), in the order of those strings: the
/// leaves of a book of that depth, and the lines a labelling job for it reads.
pub fn enumerate_leaves(
    geom: Geometry,
    stones: usize,
) -> Result<Vec<(String, Position)>, BuildError> {
    let levels = levels(geom, stones)?;
    let last = levels.plies();
    Ok(levels.0[last]
        .iter()
        .enumerate()
        .map(|(i, (_, p))| (levels.moves(last, i), *p))
        .collect())
}

/// Refuses depths past the board or the format.
fn check_depth(geom: Geometry, plies: usize) -> Result<(), BuildError> {
    let max = geom.cells().min(i8::MAX as usize);
    if plies > max {
        return Err(BuildError::Plies { plies, max });
    }
    Ok(())
}

/// The canonical keys of every unfinished position with at most `plies` stones, sorted: the
/// keys of a complete book of that depth, which a version-2 file does not store (see
/// [`super::format`]). Only keys are kept, so it costs a fraction of [`enumerate_leaves`].
pub fn canonical_keys(geom: Geometry, plies: usize) -> Result<Vec<u64>, BuildError> {
    check_depth(geom, plies)?;
    let start = Position::new(geom);
    let mut keys = vec![start.canonical_key()];
    let mut level = vec![((), start)];
    for _ in 0..plies {
        level = next_level(&level, |_, _, _| ());
        keys.extend(level.iter().map(|(_, p)| p.canonical_key()));
    }
    keys.sort_unstable();
    Ok(keys)
}

/// The unfinished positions one stone deeper than `level`'s, one per mirror pair, in the
/// order they are first reached; `label` names each from its parent's index in `level`,
/// its parent's label and the column played.
fn next_level<L>(
    level: &[(L, Position)],
    label: impl Fn(usize, &L, usize) -> L,
) -> Vec<(L, Position)> {
    let mut seen = KeySet::with_capacity_and_hasher(level.len() * 4, KeyHash);
    let mut next = Vec::with_capacity(level.len() * 4);
    for (i, (name, p)) in level.iter().enumerate() {
        for col in 0..p.width() {
            let Some(q) = p.after(col) else { continue };
            if q.last_move_won() || q.is_full() || !seen.insert(q.canonical_key()) {
                continue;
            }
            next.push((label(i, name, col), q));
        }
    }
    next
}

/// Where a position of a level came from: its parent's index in the level before, and the
/// column played (a move string is made from these only when one is shown: millions of
/// strings would cost more than the rest of a book's making).
#[derive(Clone, Copy)]
struct Link {
    parent: u32,
    col: u8,
}

/// The unfinished positions of each ply from 0 to its depth, as [`enumerate_leaves`] makes
/// them, each linked to its parent.
struct Levels(Vec<Vec<(Link, Position)>>);

impl Levels {
    /// The depth: the last level's stones.
    fn plies(&self) -> usize {
        self.0.len() - 1
    }

    /// The move string that reaches the `index`-th position of level `ply`.
    fn moves(&self, ply: usize, index: usize) -> String {
        let mut cols = Vec::with_capacity(ply);
        let mut at = index;
        for level in self.0[1..=ply].iter().rev() {
            let link = level[at].0;
            cols.push(link.col as usize);
            at = link.parent as usize;
        }
        cols.iter()
            .rev()
            .map(|&c| crate::game::moves::column_char(c).expect("a board's columns have names"))
            .collect()
    }
}

/// The unfinished positions of each ply from 0 to `plies`.
fn levels(geom: Geometry, plies: usize) -> Result<Levels, BuildError> {
    check_depth(geom, plies)?;
    let root = Link { parent: 0, col: 0 };
    let mut levels = vec![vec![(root, Position::new(geom))]];
    for _ in 0..plies {
        let next = next_level(levels.last().expect("level 0"), |parent, _, col| Link {
            parent: parent as u32,
            col: col as u8,
        });
        levels.push(next);
    }
    Ok(Levels(levels))
}

/// A hasher for canonical keys, which are already spread over their bits' patterns: one
/// multiply-and-fold (the default hasher's SipHash, built to resist chosen keys, took a
/// large share of a book's making).
#[derive(Clone, Copy, Default)]
struct KeyHash;

/// [`KeyHash`]'s state.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::BuildHasher for KeyHash {
    type Hasher = KeyHasher;
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(0)
    }
}

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, key: u64) {
        // splitmix64's finaliser: every bit of the key reaches the high bits the table uses.
        let mut z = (self.0 ^ key).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        self.0 = z ^ (z >> 31);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A set and a map of canonical keys.
type KeySet = HashSet<u64, KeyHash>;
type KeyMap<V> = HashMap<u64, V, KeyHash>;

/// The book of depth `plies` from the exact scores of its leaves (any order; mirror images
/// and repeats allowed when they agree): each shallower position gets the best of its
/// children's negated scores. Every leaf must be there, and nothing else.
pub fn book_from_leaves(
    geom: Geometry,
    plies: usize,
    leaves: impl IntoIterator<Item = (String, Position, i32)>,
) -> Result<Book, BuildError> {
    let levels = levels(geom, plies)?;
    let leaves_level = &levels.0[plies];
    let mut wanted = KeySet::with_capacity_and_hasher(leaves_level.len(), KeyHash);
    wanted.extend(leaves_level.iter().map(|(_, p)| p.canonical_key()));
    let shallower: usize = levels.0[..plies].iter().map(Vec::len).sum();
    let mut scores: KeyMap<i32> =
        KeyMap::with_capacity_and_hasher(wanted.len() + shallower, KeyHash);
    for (moves, pos, score) in leaves {
        let key = pos.canonical_key();
        if !wanted.contains(&key) {
            return Err(BuildError::NotALeaf { moves, plies });
        }
        if let Some(&a) = scores.get(&key)
            && a != score
        {
            return Err(BuildError::Disagree { moves, a, b: score });
        }
        scores.insert(key, score);
    }
    let mut missing = leaves_level
        .iter()
        .enumerate()
        .filter(|(_, (_, p))| !scores.contains_key(&p.canonical_key()));
    if let Some((first, _)) = missing.next() {
        return Err(BuildError::Missing {
            moves: levels.moves(plies, first),
            count: 1 + missing.count(),
        });
    }
    for level in levels.0[..plies].iter().rev() {
        for (_, p) in level {
            let best = negamax(p, |key| scores.get(&key).copied())
                .expect("every child of a shallower position is scored");
            scores.insert(p.canonical_key(), best);
        }
    }
    Ok(Book::new(geom, plies, scores)?)
}

/// The best of `p`'s children's negated scores (an immediate win scored, a full board 0,
/// other children from `score_of` their canonical key); `None` if one is not known.
fn negamax(p: &Position, score_of: impl Fn(u64) -> Option<i32>) -> Option<i32> {
    let geom = p.geometry();
    let mut best = None;
    for col in 0..geom.width() {
        if !p.can_play(col) {
            continue;
        }
        let s = if p.is_winning_move(col) {
            geom.win_score(p.moves_played())
        } else {
            let child = p.after(col).expect("playable");
            if child.is_full() {
                0
            } else {
                -score_of(child.canonical_key())?
            }
        };
        best = Some(best.map_or(s, |b: i32| b.max(s)));
    }
    best
}

/// Checks that `book` is a whole book of its depth: every unfinished position with at most
/// its plies stones is there, and each shallower one's score is the negamax of its
/// children's. With the leaves checked against the solver (see [`super::verify()`]), this
/// checks every entry. Returns the positions checked.
pub fn check_negamax(book: &Book) -> Result<usize, BuildError> {
    book.store.check().map_err(BuildError::Blocks)?;
    let levels = levels(book.geometry(), book.plies())?;
    let mut count = 0;
    for (ply, level) in levels.0.iter().enumerate() {
        for (index, (_, p)) in level.iter().enumerate() {
            let stored = book.score(p).ok_or_else(|| BuildError::Missing {
                moves: levels.moves(ply, index),
                count: 1,
            })?;
            if ply < book.plies() {
                let children =
                    negamax(p, |key| book.get(key)).ok_or_else(|| BuildError::Missing {
                        moves: format!("a child of {}", levels.moves(ply, index)),
                        count: 1,
                    })?;
                if children != stored {
                    return Err(BuildError::Inconsistent {
                        moves: levels.moves(ply, index),
                        stored,
                        children,
                    });
                }
            }
            count += 1;
        }
    }
    if count != book.len() {
        return Err(BuildError::Book(BookError::Corrupt(
            super::Damage::Entries {
                entries: book.len(),
                plies: book.plies(),
                positions: count,
            },
        )));
    }
    Ok(count)
}
