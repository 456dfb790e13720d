//! The 7x6 opening book: the exact score and best column of every position with at most
//! three stones, computed with [`Solver::best_move`](super::Solver::best_move) (solving one
//! of them takes 5 to 100 seconds; looking it up takes nanoseconds).
//!
//! The file `data/book-7x6.txt` holds one line per position up to mirror symmetry:
//! `MOVES SCORE BEST` (`-` for the empty board, BEST 1-based). It was made with
//! `c4 solve --best --tt-mib 1024` over those positions; the tests check it for consistency.

use crate::game::{Geometry, Position};
use std::collections::HashMap;
use std::sync::OnceLock;

const BOOK: &str = include_str!("../../data/book-7x6.txt");

/// Positions (by key) to (best column 0-based, score), mirror images included.
fn table() -> &'static HashMap<u64, (usize, i32)> {
    static TABLE: OnceLock<HashMap<u64, (usize, i32)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let g = Geometry::STANDARD;
        let mut map = HashMap::new();
        for line in BOOK
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let f: Vec<&str> = line.split_whitespace().collect();
            let parsed = (|| {
                let moves = if f[0] == "-" { "" } else { f[0] };
                let pos = Position::from_moves(g, moves).ok()?;
                let score: i32 = f.get(1)?.parse().ok()?;
                let best: usize = f.get(2)?.parse().ok()?;
                (1..=g.width())
                    .contains(&best)
                    .then_some((pos, score, best - 1))
            })();
            // The book is part of the source tree and checked by tests.
            let (pos, score, best) = parsed.unwrap_or_else(|| panic!("bad book line: {line}"));
            map.insert(pos.key(), (best, score));
            map.insert(pos.mirror().key(), (g.width() - 1 - best, score));
        }
        map
    })
}

/// The book's best column (0-based) and exact score for `pos`, if the book covers it (7x6
/// positions with at most three stones). For a position stored as its mirror image the
/// column is mirrored too: optimal and as central, though where two optimal columns lie at
/// the same distance from the centre it may be the other one than the solver would pick.
pub fn lookup(pos: &Position) -> Option<(usize, i32)> {
    if pos.geometry() != Geometry::STANDARD {
        return None;
    }
    table().get(&pos.key()).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every position of the first three plies, by move string.
    fn all_positions(max_plies: usize) -> Vec<Position> {
        let g = Geometry::STANDARD;
        let mut out = vec![Position::new(g)];
        let mut frontier = out.clone();
        for _ in 0..max_plies {
            let next: Vec<Position> = frontier
                .iter()
                .flat_map(|p| (0..7).filter_map(move |c| p.after(c)))
                .collect();
            out.extend(&next);
            frontier = next;
        }
        out
    }

    #[test]
    fn covers_every_position_up_to_three_stones() {
        for p in all_positions(3) {
            assert!(lookup(&p).is_some(), "missing {p:?}");
        }
        assert!(lookup(&Position::from_moves(Geometry::STANDARD, "4444").unwrap()).is_none());
    }

    #[test]
    fn scores_are_consistent_with_children() {
        // A position's score is the best of its children's negated scores, and the best
        // column reaches it: checked wherever the children are in the book too.
        for p in all_positions(2) {
            let (best, score) = lookup(&p).unwrap();
            let children: Vec<i32> = (0..7)
                .map(|c| -lookup(&p.after(c).unwrap()).unwrap().1)
                .collect();
            assert_eq!(score, *children.iter().max().unwrap(), "{p:?}");
            assert_eq!(children[best], score, "{p:?}");
            // Centre first among equals (a mirrored entry may pick the mirror column at the
            // same distance from the centre).
            let dist = |c: usize| (c as i32 - 3).abs();
            let closest = (0..7).filter(|&c| children[c] == score).map(dist).min();
            assert_eq!(Some(dist(best)), closest, "{p:?}");
        }
        // The known value of the empty board: the first player wins with the 21st stone.
        assert_eq!(lookup(&Position::default()), Some((3, 1)));
    }
}
