//! The labelled positions the repository ships in data/positions/: what data/README.md says
//! they are (counts, stone spread, no repeats, a held-out set apart from the training set,
//! the recorded sha256), and their labels are the solver's.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use connect4_engine::Geometry;
use connect4_engine::solver::Solver;
use connect4_learn::datasets::labelled::{Expect, MovesLine, read_moves_file};
use std::collections::HashSet;
use std::path::PathBuf;

fn file(name: &str) -> PathBuf {
    common::repo_root().join("data/positions").join(name)
}

fn read(name: &str) -> Vec<MovesLine> {
    read_moves_file(&file(name), Geometry::STANDARD, Expect::Labelled)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Every stone count of 10..=36 holds `total / 27` positions (the first `total % 27` one
/// more), and no position repeats, mirror images included.
fn check_spread(lines: &[MovesLine], total: usize) -> HashSet<u64> {
    assert_eq!(lines.len(), total);
    let mut per = [0usize; 37];
    let mut keys = HashSet::new();
    for m in lines {
        let s = m.position.moves_played();
        assert!((10..=36).contains(&s), "line {}: {s} stones", m.line);
        per[s] += 1;
        assert!(
            keys.insert(m.position.canonical_key()),
            "line {} repeats a position",
            m.line
        );
        assert!(!m.position.can_win_next(), "line {}: a win in one", m.line);
    }
    for (i, s) in (10..=36).enumerate() {
        assert_eq!(
            per[s],
            total / 27 + usize::from(i < total % 27),
            "{s} stones"
        );
    }
    keys
}

#[test]
fn training_and_held_out_sets_are_what_the_readme_says() {
    let train = read("train.txt.gz");
    let held = read("heldout.txt.gz");
    let train_keys = check_spread(&train, 200_000);
    let held_keys = check_spread(&held, 20_000);
    assert!(train_keys.is_disjoint(&held_keys));
    let readme = std::fs::read_to_string(common::repo_root().join("data/README.md")).unwrap();
    for name in ["train.txt.gz", "heldout.txt.gz"] {
        let sha = connect4_engine::io::sha256_file(&file(name)).unwrap();
        assert!(
            readme.contains(&format!("`{name}`")) && readme.contains(&sha),
            "data/README.md does not give {name}'s sha256 {sha}"
        );
    }
}

#[test]
fn a_sample_of_labels_is_the_solvers_exact_score() {
    let mut solver = Solver::new(Geometry::STANDARD);
    for name in ["train.txt.gz", "heldout.txt.gz"] {
        let lines = read(name);
        // Every 997th line: all stone counts, about 220 positions.
        for m in lines.iter().step_by(997) {
            assert_eq!(
                Some(solver.solve(&m.position)),
                m.score,
                "{name} line {}: {}",
                m.line,
                m.moves
            );
        }
    }
}

#[test]
fn the_opening_positions_are_the_books_leaves_with_its_scores() {
    let g = Geometry::STANDARD;
    let book = connect4_engine::solver::book::Book::load(
        &common::repo_root().join("data/book-7x6.bin"),
        Some(g),
    )
    .unwrap();
    // The 6-stone leaves of the book before, and the 8-stone leaves of today's.
    for (name, stones, count) in [
        ("opening-6.txt.gz", 6, 8231),
        ("opening-8.txt.gz", 8, 91_295),
    ] {
        let lines = read(name);
        assert_eq!(lines.len(), count, "{name}");
        let leaves = connect4_engine::solver::book::enumerate_leaves(g, stones).unwrap();
        assert_eq!(leaves.len(), count, "{name}");
        for (l, (moves, p)) in lines.iter().zip(&leaves) {
            assert_eq!(&l.moves, moves, "{name}");
            assert_eq!(l.score, book.score(p), "{name}: {moves}");
        }
    }
}
