use super::*;
use crate::solver::Solver;

/// A 5x4 board: small enough to solve every position of a book in a moment.
fn small() -> Geometry {
    Geometry::new(5, 4).unwrap()
}

fn solver_without_book(g: Geometry) -> Solver {
    let mut s = Solver::with_table_mib(g, 8).unwrap();
    s.set_book(None);
    s
}

/// The leaves of a book of `plies`, scored by a solver without a book.
fn scored_leaves(g: Geometry, plies: usize) -> Vec<(String, Position, i32)> {
    let mut s = solver_without_book(g);
    enumerate_leaves(g, plies)
        .unwrap()
        .into_iter()
        .map(|(m, p)| {
            let score = s.solve(&p);
            (m, p, score)
        })
        .collect()
}

/// A book of `plies` made from solver-scored leaves.
fn made(g: Geometry, plies: usize) -> Book {
    book_from_leaves(g, plies, scored_leaves(g, plies)).unwrap()
}

#[test]
fn every_entry_equals_the_solver_and_best_moves_agree() {
    let g = small();
    let book = made(g, 6);
    let mut s = solver_without_book(g);
    // Ply counts of unfinished positions folded by mirror symmetry: 1, 3, 9, ... Each
    // entry is the solver's own score of that position.
    let mut count = 0;
    for k in 0..=6 {
        for (_, p) in enumerate_leaves(g, k).unwrap() {
            assert_eq!(book.score(&p), Some(s.solve(&p)), "{p:?}");
            assert_eq!(book.score(&p.mirror()), book.score(&p));
            if k < 6 {
                let (col, score) = book.best_move(&p).unwrap();
                assert_eq!(Some((col, score)), s.best_move(&p), "{p:?}");
                let want: Vec<Option<i32>> = s.analyze(&p, crate::solver::Mode::Strong);
                assert_eq!(book.analyze(&p).unwrap(), want, "{p:?}");
            } else {
                // Leaves' children are not in the book.
                assert_eq!(book.best_move(&p), None);
            }
            count += 1;
        }
    }
    assert_eq!(book.len(), count);
    // Deeper positions are not in the book.
    let deep = Position::from_moves(g, "1234512").unwrap();
    assert_eq!(book.score(&deep), None);
}

#[test]
fn the_file_round_trips_and_damage_is_refused() {
    let g = small();
    let book = made(g, 4);
    let bytes = format::encode(&book);
    assert_eq!(format::decode(&bytes, Some(g)).unwrap(), book);
    assert_eq!(format::decode(&bytes, None).unwrap(), book);
    // Another board, a cut file, a flipped byte, no magic, another version.
    let other = format::decode(&bytes, Some(Geometry::STANDARD)).unwrap_err();
    assert!(other.to_string().contains("5x4 boards, not 7x6"), "{other}");
    for cut in [10, 30, bytes.len() - 1] {
        let e = format::decode(&bytes[..cut], Some(g)).unwrap_err();
        assert!(matches!(e, BookError::Truncated(_)), "{cut}: {e}");
    }
    let mut flipped = bytes.clone();
    flipped[30] ^= 4;
    let e = format::decode(&flipped, Some(g)).unwrap_err();
    assert!(e.to_string().contains("checksum"), "{e}");
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert_eq!(
        format::decode(&magic, Some(g)).unwrap_err(),
        BookError::Magic
    );
    let mut version = bytes.clone();
    version[8] = 9;
    assert_eq!(
        format::decode(&version, Some(g)).unwrap_err(),
        BookError::Version(9)
    );
    // Saved and loaded through a file; errors name the file.
    let dir = std::env::temp_dir().join(format!("c4-book-unit-{}", std::process::id()));
    let path = dir.join("b.bin");
    book.save(&path).unwrap();
    assert_eq!(Book::load(&path, Some(g)).unwrap(), book);
    std::fs::write(&path, &bytes[..40]).unwrap();
    let e = Book::load(&path, Some(g)).unwrap_err().to_string();
    assert!(e.contains("b.bin") && e.contains("truncated"), "{e}");
    let e = Book::load(&dir.join("none.bin"), Some(g))
        .unwrap_err()
        .to_string();
    assert!(e.contains("none.bin"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn leaves_must_all_be_there_and_agree() {
    let g = small();
    let leaves = scored_leaves(g, 3);
    let e = book_from_leaves(g, 3, leaves[1..].to_vec()).unwrap_err();
    assert!(matches!(e, BuildError::Missing { count: 1, .. }), "{e}");
    let mut wrong = leaves.clone();
    let (m, p, sc) = wrong[0].clone();
    wrong.push((m, p.mirror(), sc + 1));
    let e = book_from_leaves(g, 3, wrong).unwrap_err();
    assert!(matches!(e, BuildError::Disagree { .. }), "{e}");
    let mut extra = leaves.clone();
    extra.push(("12".into(), Position::from_moves(g, "12").unwrap(), 0));
    let e = book_from_leaves(g, 3, extra).unwrap_err();
    assert!(
        e.to_string()
            .contains("12 is not an unfinished position of 3 stones"),
        "{e}"
    );
}

#[test]
fn a_solver_with_a_book_stops_there_and_scores_the_same() {
    let g = small();
    let book = std::sync::Arc::new(made(g, 6));
    let mut plain = solver_without_book(g);
    let mut with = solver_without_book(g);
    with.set_book(Some(book));
    for (_, p) in enumerate_leaves(g, 7).unwrap().iter().step_by(7) {
        assert_eq!(with.solve(&p.clone()), plain.solve(p), "{p:?}");
    }
    // The empty board is a lookup, not a search.
    with.reset_nodes();
    assert_eq!(
        with.solve(&Position::new(g)),
        plain.solve(&Position::new(g))
    );
    assert_eq!(with.nodes(), 0);
}
