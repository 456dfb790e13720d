//! Property tests: the bitboard `Position` against the naive array model, on every size.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use common::Naive;
use connect4_engine::Geometry;
use connect4_engine::game::{BitBoard, GameError, Outcome, Player, Position};
use proptest::prelude::*;
use std::collections::HashMap;

/// Board sizes the issue names, plus narrow and flat ones that exercise the edge cases.
const SIZES: &[(usize, usize)] = &[
    (7, 6),
    (4, 4),
    (5, 4),
    (6, 5),
    (6, 7),
    (8, 7),
    (3, 7),
    (9, 5),
    (16, 2),
    (2, 20),
];

fn sizes() -> impl Strategy<Value = (usize, usize)> {
    proptest::sample::select(SIZES)
}

/// Plays `picks` (each an index into the legal columns) on `g` and on the array model,
/// checking every observable after every move.
fn matches_naive<B: BitBoard>(g: Geometry<B>, picks: &[usize]) -> Result<(), TestCaseError> {
    let (w, h) = (g.width(), g.height());
    let mut p = Position::new(g);
    let mut n = Naive::new(w, h);
    for &pick in picks {
        if p.outcome() != Outcome::Ongoing {
            break;
        }
        let legal: Vec<usize> = (0..w).filter(|&c| n.can_play(c)).collect();
        let col = legal[pick % legal.len()];
        // The winning-move test must agree with playing the move and looking.
        let mut after = n.clone();
        after.play(col);
        prop_assert_eq!(p.is_winning_move(col), after.has_four(n.to_move()));
        p.play(col).unwrap();
        n = after;
        prop_assert_eq!(p.moves_played(), n.moves);
        let legal_now: Vec<usize> = p.legal_columns().collect();
        let over = n.has_four(if n.moves % 2 == 1 { 1 } else { 2 });
        let naive_legal: Vec<usize> = (0..w).filter(|&c| !over && n.can_play(c)).collect();
        prop_assert_eq!(legal_now, naive_legal);
        for c in 0..w {
            prop_assert_eq!(p.after(c).is_some(), !over && n.can_play(c));
            prop_assert_eq!(p.can_play(c), n.can_play(c));
            prop_assert_eq!(p.column_height(c), n.height_of(c));
            for r in 0..h {
                let want = match n.cell(c, r) {
                    0 => None,
                    1 => Some(Player::First),
                    _ => Some(Player::Second),
                };
                prop_assert_eq!(p.cell(c, r), want);
            }
        }
        for (player, mark) in [(Player::First, 1u8), (Player::Second, 2u8)] {
            let stones = p.stones_of(player);
            for c in 0..w {
                for r in 0..h {
                    let bit = g.cell_bit(c, r);
                    prop_assert_eq!(stones & bit != B::ZERO, n.cell(c, r) == mark);
                }
            }
        }
        let last = if n.moves % 2 == 1 { 1 } else { 2 };
        prop_assert_eq!(p.last_move_won(), n.has_four(last));
        prop_assert_eq!(p.outcome() == Outcome::Draw, n.full() && !n.has_four(last));
        // Mirror: mirrored cells, same key for the canonical form, an involution.
        let m = p.mirror();
        for c in 0..w {
            for r in 0..h {
                prop_assert_eq!(m.cell(w - 1 - c, r), p.cell(c, r));
            }
        }
        prop_assert_eq!(m.mirror(), p);
        prop_assert_eq!(m.canonical_key(), p.canonical_key());
        // UCI cells round-trip whenever the position is still open.
        if !p.last_move_won() {
            let back = Position::from_uci_cells(g, &p.to_uci_cells()).unwrap();
            prop_assert_eq!(back, p);
        }
    }
    Ok(())
}

/// Boards past 64 bits, and two narrow ones to run on wide bitboards.
const WIDE_SIZES: &[(usize, usize)] = &[
    (8, 8),
    (9, 7),
    (10, 7),
    (11, 10),
    (16, 7),
    (35, 2),
    (7, 6),
    (4, 4),
];

fn wide_sizes() -> impl Strategy<Value = (usize, usize)> {
    proptest::sample::select(WIDE_SIZES)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Random legal play: every observable of the bitboard agrees with the array model.
    #[test]
    fn bitboard_matches_naive((w, h) in sizes(), picks in prop::collection::vec(0usize..64, 0..80)) {
        matches_naive(Geometry::new(w, h).unwrap(), &picks)?;
    }

    /// The same on boards past 64 bits, in `u128` bitboards, and on narrow boards in `u128`
    /// form (the wide code must agree with the narrow one cell for cell).
    #[test]
    fn wide_bitboard_matches_naive((w, h) in wide_sizes(), picks in prop::collection::vec(0usize..64, 0..120)) {
        matches_naive(Geometry::<u128>::sized(w, h).unwrap(), &picks)?;
    }

    /// Keys are unique: two positions share a key only if they are the same position.
    #[test]
    fn keys_are_unique((w, h) in sizes(), games in prop::collection::vec(prop::collection::vec(0usize..64, 0..30), 30)) {
        let g = Geometry::new(w, h).unwrap();
        let mut seen: HashMap<u64, Position> = HashMap::new();
        for picks in games {
            let mut p = Position::new(g);
            for pick in picks {
                if p.outcome() != Outcome::Ongoing { break; }
                let legal: Vec<usize> = (0..w).filter(|&c| p.can_play(c)).collect();
                p.play(legal[pick % legal.len()]).unwrap();
                let k = p.key();
                if g.key_bits() < 64 {
                    prop_assert!(k < 1u64 << g.key_bits());
                }
                if let Some(q) = seen.insert(k, p) {
                    prop_assert_eq!(q, p);
                }
            }
        }
    }
}

#[test]
fn board_sizes_are_checked() {
    assert!(Geometry::new(7, 6).is_ok());
    assert!(Geometry::new(8, 7).is_ok());
    assert!(matches!(
        Geometry::new(8, 8),
        Err(GameError::BoardTooLarge { bits: 72, .. })
    ));
    assert!(matches!(
        Geometry::new(0, 6),
        Err(GameError::BoardEmpty { .. })
    ));
    // Past 64 bits the wide bitboard takes over, up to 128.
    use connect4_engine::game::needs_wide;
    assert_eq!(needs_wide(8, 7), Ok(false));
    assert_eq!(needs_wide(8, 8), Ok(true));
    assert_eq!(needs_wide(16, 7), Ok(true));
    assert!(matches!(
        needs_wide(12, 10),
        Err(GameError::BoardTooLarge {
            bits: 132,
            limit: 128,
            ..
        })
    ));
    assert!(matches!(needs_wide(36, 1), Err(GameError::TooWide { .. })));
    let g = Geometry::<u128>::sized(16, 7).unwrap();
    assert_eq!((g.cells(), g.key_bits()), (112, 128));
    let full: String = (0..7).flat_map(|_| "123456789abcdefg".chars()).collect();
    // Columns in turn: each column holds one colour, so column 1's fourth stone (move 49)
    // wins on a board whose key fills all 128 bits, and move 50 is refused.
    assert_eq!(
        Position::from_moves(g, &full),
        Err(GameError::GameOver { at: 50 })
    );
    let p = Position::from_moves(g, &full[..48]).unwrap();
    assert!(p.is_winning_move(0) && !p.is_winning_move(15));
    assert_eq!(
        Geometry::STANDARD.widen().narrow(),
        Some(Geometry::STANDARD)
    );
    assert_eq!(Geometry::<u128>::sized(8, 8).unwrap().narrow(), None);
}

#[test]
fn move_string_errors_say_what_and_where() {
    let g = Geometry::STANDARD;
    let err = |s: &str| Position::from_moves(g, s).unwrap_err();
    assert_eq!(
        err("448"),
        GameError::ColumnOutOfRange {
            at: 3,
            column: 8,
            width: 7
        }
    );
    assert_eq!(
        err("40"),
        GameError::ColumnOutOfRange {
            at: 2,
            column: 0,
            width: 7
        }
    );
    assert_eq!(err("1111111"), GameError::ColumnFull { at: 7, column: 1 });
    assert_eq!(err("12x"), GameError::NotADigit { at: 3, ch: 'x' });
    // Letters name columns past 9, none of a 7-column board's.
    assert_eq!(err("12a"), GameError::NotADigit { at: 3, ch: 'a' });
    // x wins vertically on move 7; an 8th move is refused.
    assert_eq!(err("12121213"), GameError::GameOver { at: 8 });
    assert!(Position::from_moves(g, "1212121").unwrap().last_move_won());
    assert_eq!(
        err("12x").to_string(),
        "move 3: 'x' is not a column digit (columns are 1-9, then a-z)"
    );
    // Wider boards write columns 10 to 12 as a, b, c (either case when read).
    let wide = Geometry::new(12, 4).unwrap();
    let p = Position::from_moves(wide, "abcCBA1").unwrap();
    assert_eq!(p.column_height(9), 2);
    assert_eq!(p.column_height(11), 2);
    assert_eq!(
        Position::from_moves(wide, "d").unwrap_err(),
        GameError::ColumnOutOfRange {
            at: 1,
            column: 13,
            width: 12
        }
    );
    let ten = Geometry::new(10, 5).unwrap();
    assert_eq!(
        Position::from_moves(ten, "aaaaa").unwrap().column_height(9),
        5
    );
    assert_eq!(
        Position::from_moves(ten, "aaaaaa").unwrap_err(),
        GameError::ColumnFull { at: 6, column: 10 }
    );
    assert!(matches!(
        Geometry::new(36, 1),
        Err(GameError::TooWide { width: 36, .. })
    ));
}

#[test]
fn parse_from_str_uses_the_standard_board() {
    let p: Position = "4453".parse().unwrap();
    assert_eq!(p.geometry(), Geometry::STANDARD);
    assert_eq!(p.moves_played(), 4);
    assert!("4458".parse::<Position>().is_err());
}

#[test]
fn uci_encoding_known_position() {
    // x in a1, o in b1, x in a2: cells in file order a1..a6, b1..b6, ...
    let p = Position::from_moves(Geometry::STANDARD, "121").unwrap();
    let s = p.to_uci_string();
    assert!(s.starts_with("x,x,b,b,b,b,o,b,b,b,b,b,b,"), "{s}");
    assert_eq!(s.split(',').count(), 42);
    assert_eq!(Position::from_uci_str(Geometry::STANDARD, &s).unwrap(), p);
}

#[test]
fn uci_rejects_bad_rows() {
    let g = Geometry::STANDARD;
    let mut cells = vec!["b"; 42];
    cells[1] = "x"; // a2 above an empty a1
    assert_eq!(
        Position::from_uci_str(g, &cells.join(",")).unwrap_err(),
        GameError::Floating { cell: "a2".into() }
    );
    cells[1] = "q";
    assert!(matches!(
        Position::from_uci_str(g, &cells.join(",")).unwrap_err(),
        GameError::BadCell { .. }
    ));
    let mut cells = vec!["b"; 42];
    cells[0] = "o";
    assert_eq!(
        Position::from_uci_str(g, &cells.join(",")).unwrap_err(),
        GameError::StoneCounts { x: 0, o: 1 }
    );
    assert!(matches!(
        Position::from_uci_str(g, "x,o").unwrap_err(),
        GameError::CellCount { found: 2, .. }
    ));
}

#[test]
fn display_draws_board_with_column_numbers() {
    let p = Position::from_moves(Geometry::new(4, 4).unwrap(), "12").unwrap();
    assert_eq!(p.to_string(), ". . . .\n. . . .\n. . . .\nx o . .\n1 2 3 4");
}
