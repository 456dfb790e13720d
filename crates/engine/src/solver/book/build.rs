//! Making a book: only the positions with exactly `plies` stones (the leaves) need the solver
//! (the data engine labels them, sharded and resumable: `datasets::label::book_job`); every
//! shallower position follows by negamax over its children, here.

use super::{Book, BookError};
use crate::game::{Geometry, Position};
use std::collections::{HashMap, HashSet};

/// Why a book could not be made from its leaves.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// Boards of more than 9 columns have no move strings.
    #[error("books are made for boards of at most 9 columns (move strings), not {0}")]
    Width(usize),
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
    Ok(levels(geom, stones)?.pop().unwrap_or_default())
}

/// The unfinished positions of each ply from 0 to `plies`, as [`enumerate_leaves`] makes them.
fn levels(geom: Geometry, plies: usize) -> Result<Vec<Vec<(String, Position)>>, BuildError> {
    if geom.width() > 9 {
        return Err(BuildError::Width(geom.width()));
    }
    let max = geom.cells().min(i8::MAX as usize);
    if plies > max {
        return Err(BuildError::Plies { plies, max });
    }
    let mut levels = vec![vec![(String::new(), Position::new(geom))]];
    for _ in 0..plies {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for (moves, p) in levels.last().expect("level 0") {
            for col in 0..geom.width() {
                let Some(q) = p.after(col) else { continue };
                if q.last_move_won() || q.is_full() || !seen.insert(q.canonical_key()) {
                    continue;
                }
                next.push((format!("{moves}{}", col + 1), q));
            }
        }
        levels.push(next);
    }
    Ok(levels)
}

/// The book of depth `plies` from the exact scores of its leaves (any order; mirror images
/// and repeats allowed when they agree): each shallower position gets the best of its
/// children's negated scores. Every leaf must be there, and nothing else.
pub fn book_from_leaves(
    geom: Geometry,
    plies: usize,
    leaves: impl IntoIterator<Item = (String, Position, i32)>,
) -> Result<Book, BuildError> {
    let levels = levels(geom, plies)?;
    let wanted: HashSet<u64> = levels[plies]
        .iter()
        .map(|(_, p)| p.canonical_key())
        .collect();
    let mut scores: HashMap<u64, i32> = HashMap::with_capacity(wanted.len() * 2);
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
    let missing: Vec<&String> = levels[plies]
        .iter()
        .filter(|(_, p)| !scores.contains_key(&p.canonical_key()))
        .map(|(m, _)| m)
        .collect();
    if let Some(first) = missing.first() {
        return Err(BuildError::Missing {
            moves: (*first).clone(),
            count: missing.len(),
        });
    }
    for level in levels[..plies].iter().rev() {
        for (_, p) in level {
            let best = (0..geom.width())
                .filter_map(|col| {
                    if !p.can_play(col) {
                        None
                    } else if p.is_winning_move(col) {
                        Some(geom.win_score(p.moves_played()))
                    } else {
                        let child = p.after(col).expect("playable");
                        Some(if child.is_full() {
                            0
                        } else {
                            -scores[&child.canonical_key()]
                        })
                    }
                })
                .max()
                .expect("an unfinished position has a move");
            scores.insert(p.canonical_key(), best);
        }
    }
    Ok(Book::new(geom, plies, scores)?)
}
