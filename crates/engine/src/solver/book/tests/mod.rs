mod files;

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
    for cut in [10, 30, 39, 41, bytes.len() - 1] {
        let e = format::decode(&bytes[..cut], Some(g)).unwrap_err();
        assert!(matches!(e, BookError::Truncated(_)), "{cut}: {e}");
    }
    // A flip anywhere in the header (the plies, the count, the length of the key gaps, a
    // byte that must be zero) fails its CRC before anything in it is trusted.
    for at in [12, 14, 17, 30, 33, 38] {
        let mut flipped = bytes.clone();
        flipped[at] ^= 4;
        let e = format::decode(&flipped, Some(g)).unwrap_err();
        assert!(
            e.to_string().contains("header fails its checksum"),
            "{at}: {e}"
        );
    }
    // A flip in the entries opens (nothing but the header is read) and is found by the
    // first lookup that reads its block, or by a check of every block.
    let mut flipped = bytes.clone();
    flipped[40] ^= 4;
    let read = format::decode(&flipped, Some(g)).unwrap();
    assert!(read.damage().is_none());
    let (first, _) = book.entries().next().unwrap();
    assert_eq!(read.get(first), None);
    let e = read.damage().unwrap().to_string();
    assert!(e.contains("entries 0 to 63 fail their checksum"), "{e}");
    let e = format::decode(&flipped, Some(g))
        .unwrap()
        .check()
        .unwrap_err();
    assert!(e.to_string().contains("fail their checksum"), "{e}");
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(matches!(
        format::decode(&magic, Some(g)).unwrap_err(),
        BookError::Magic
    ));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(matches!(
        format::decode(&version, Some(g)).unwrap_err(),
        BookError::Version(9)
    ));
    // Saved and loaded through a file; errors name the file, the damage a lookup finds too.
    let dir = std::env::temp_dir().join(format!("c4-book-unit-{}", std::process::id()));
    let path = dir.join("b.bin");
    book.save(&path).unwrap();
    assert_eq!(Book::load(&path, Some(g)).unwrap(), book);
    std::fs::write(&path, &bytes[..40]).unwrap();
    let e = Book::load(&path, Some(g)).unwrap_err().to_string();
    assert!(e.contains("b.bin") && e.contains("truncated"), "{e}");
    std::fs::write(&path, &flipped).unwrap();
    let read = Book::load(&path, Some(g)).unwrap();
    assert_eq!(read.file(), Some(path.display().to_string().as_str()));
    assert_eq!(read.get(first), None);
    let e = read.damage().unwrap().to_string();
    assert!(
        e.contains("b.bin") && e.contains("fail their checksum"),
        "{e}"
    );
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

#[test]
fn the_repositorys_built_in_book_file_is_taken_as_the_built_in_book() {
    // data/book-7x6.bin is the built-in book byte for byte: a default search that finds it
    // (run from the repository's root with no deeper book there) takes the built-in book
    // rather than decoding the same bytes a second time; a missing file is passed over.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let paths = [root.join("no-such-book.bin"), root.join(DEFAULT_PATH)];
    let (found, passed) = first_book(&paths);
    assert!(Arc::ptr_eq(&found, &embedded()) && passed.is_empty());
    assert_eq!(found.plies(), 10);
    assert!(Arc::ptr_eq(&first_book(&[]).0, &embedded()));
    // A file there that does not open is passed over, and said why.
    let dir = std::env::temp_dir().join(format!("c4-book-default-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cut = dir.join("book-7x6.bin");
    std::fs::write(&cut, &EMBEDDED_BYTES[..1000]).unwrap();
    let (found, passed) = first_book(&[cut, root.join(DEFAULT_PATH)]);
    assert!(Arc::ptr_eq(&found, &embedded()));
    let e = passed
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ");
    assert!(e.contains("book-7x6.bin") && e.contains("truncated"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn every_built_in_board_book_holds_together_and_knows_its_board() {
    // (width, height, plies, the empty board's score): 6x6 is a second-player win with
    // the opponent's 18th stone; the others are draws.
    let quiet = crate::progress::Quiet;
    for (w, h, plies, empty) in [(5, 4, 8, 0), (6, 5, 8, 0), (6, 6, 8, -1), (7, 5, 7, 0)] {
        let g = Geometry::new(w, h).unwrap();
        let book = super::embedded_for(g).unwrap_or_else(|| panic!("{g}: no built-in book"));
        assert_eq!((book.geometry(), book.plies()), (g, plies));
        assert_eq!(book.score(&Position::new(g)), Some(empty), "{g}");
        // Every entry against its children; 12 leaves solved again without the book.
        let r = verify(&book, 12, 7, 16, Some(2), &quiet).unwrap_or_else(|e| panic!("{g}: {e}"));
        assert_eq!((r.positions, r.sampled), (book.len(), 12), "{g}");
    }
}
