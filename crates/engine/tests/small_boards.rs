//! The solver on small boards against a plain exhaustive minimax, and on larger boards from
//! positions close enough to the end for minimax to finish; boards past 64 bits (8x8, 9x7,
//! 10x7, 11x10, 16x7, 35x2) on `u128` bitboards the same way.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{Lcg, Memo, Naive, column_value, minimax};
use connect4_engine::game::{BitBoard, Outcome};
use connect4_engine::{Geometry, Mode, Position, Solver};

/// Plays random games and compares every position from `start_plies` on with exhaustive
/// minimax, until `target` positions have been checked.
fn compare(w: usize, h: usize, start_plies: usize, target: usize, seed: u64) -> usize {
    compare_on(
        Geometry::new(w, h).unwrap(),
        start_plies,
        target,
        seed,
        false,
    )
}

/// [`compare`] on any bitboard; `quiet` games never complete a four while they can avoid it,
/// so that they reach the end game on boards where random play wins early.
fn compare_on<B: BitBoard>(
    g: Geometry<B>,
    start_plies: usize,
    target: usize,
    seed: u64,
    quiet: bool,
) -> usize {
    let (w, h) = (g.width(), g.height());
    let mut solver = Solver::with_table_mib(g, 4).unwrap();
    let mut memo = Memo::default();
    let mut rng = Lcg(seed);
    let mut checked = 0;
    for _ in 0..10_000 {
        if checked >= target {
            break;
        }
        let mut p = Position::new(g);
        let mut n = Naive::new(w, h);
        loop {
            if p.outcome() != Outcome::Ongoing {
                break;
            }
            if p.moves_played() >= start_plies {
                let want = minimax(&n, &mut memo);
                assert_eq!(solver.solve(&p), want, "{w}x{h} strong after {:?}", n.cells);
                assert_eq!(solver.solve_weak(&p), want.signum(), "{w}x{h} weak");
                // Column by column: each legal column scores minus its child's minimax value
                // (or the win itself), a full column scores nothing.
                let per_col = solver.analyze(&p, Mode::Strong);
                for (c, got) in per_col.iter().enumerate() {
                    let expected = column_value(&n, c, &mut memo);
                    assert_eq!(
                        *got,
                        expected,
                        "{w}x{h} column {} after {:?}",
                        c + 1,
                        n.cells
                    );
                }
                assert_eq!(per_col.iter().flatten().max().copied(), Some(want));
                checked += 1;
            }
            let mut legal: Vec<usize> = (0..w).filter(|&c| p.can_play(c)).collect();
            let calm: Vec<usize> = legal
                .iter()
                .copied()
                .filter(|&c| !p.is_winning_move(c))
                .collect();
            if quiet && !calm.is_empty() {
                legal = calm;
            }
            let col = legal[rng.below(legal.len())];
            p.play(col).unwrap();
            n.play(col);
        }
    }
    checked
}

#[test]
fn four_by_four_every_position_of_random_games() {
    assert!(compare(4, 4, 0, 400, 1) >= 400);
}

#[test]
fn five_by_four_and_four_by_five() {
    assert!(compare(5, 4, 2, 150, 2) >= 150);
    assert!(compare(4, 5, 2, 150, 3) >= 150);
}

#[test]
fn wide_flat_and_narrow_tall_boards() {
    // Only horizontal lines on 10x2 and 16x2; only vertical ones on 3x7. Started where at
    // most 14 cells remain, so that exhaustive minimax stays small.
    assert!(compare(10, 2, 6, 150, 8) >= 150);
    assert!(compare(3, 7, 7, 150, 9) >= 150);
    assert!(compare(16, 2, 18, 80, 10) >= 80);
}

#[test]
fn larger_boards_near_the_end() {
    // Start where at most ~16 cells remain so that exhaustive minimax stays small.
    assert!(compare(6, 5, 14, 80, 4) >= 80);
    assert!(compare(7, 6, 26, 80, 5) >= 80);
    assert!(compare(6, 7, 26, 80, 6) >= 80);
    assert!(compare(8, 7, 41, 60, 7) >= 60);
}

#[test]
fn boards_past_64_bits_near_the_end() {
    // Each board's key passes 64 bits: 8x8 and 9x7 (72), 10x7 (80: the tables' wide words
    // are u128), 11x10 (121), 16x7 (128, the most that fit), 35x2 (105, the widest board
    // move strings name). At most ~16 cells left, as above.
    let wide = |w, h| Geometry::<u128>::sized(w, h).unwrap();
    assert!(compare_on(wide(8, 8), 49, 60, 11, true) >= 60);
    assert!(compare_on(wide(9, 7), 48, 60, 12, true) >= 60);
    assert!(compare_on(wide(10, 7), 56, 40, 13, true) >= 40);
    assert!(compare_on(wide(11, 10), 96, 30, 14, true) >= 30);
    assert!(compare_on(wide(16, 7), 98, 30, 15, true) >= 30);
    assert!(compare_on(wide(35, 2), 56, 30, 16, true) >= 30);
}

#[test]
fn a_narrow_board_in_wide_bitboards_searches_alike() {
    // The same 7x6 and 8x7 positions on u64 and u128 bitboards: the same scores from the
    // same number of nodes (the table indexes and orders alike), column by column too.
    for (g, from, seed) in [
        (Geometry::STANDARD, 20, 21),
        (Geometry::new(8, 7).unwrap(), 40, 22),
    ] {
        let mut narrow = Solver::new(g);
        let mut wide = Solver::new(g.widen());
        let mut rng = Lcg(seed);
        let mut checked = 0;
        while checked < 30 {
            let mut p = Position::new(g);
            while p.outcome() == Outcome::Ongoing && p.moves_played() < from {
                let legal: Vec<usize> = p.legal_columns().collect();
                p.play(legal[rng.below(legal.len())]).unwrap();
            }
            if p.outcome() != Outcome::Ongoing {
                continue;
            }
            let w = p.widen();
            assert_eq!(w.narrow(), Some(p));
            for mode in [Mode::Strong, Mode::Weak] {
                narrow.reset_nodes();
                wide.reset_nodes();
                assert_eq!(narrow.score(&p, mode), wide.score(&w, mode), "{g} {p:?}");
                assert_eq!(narrow.nodes(), wide.nodes(), "{g} nodes of {p:?}");
            }
            assert_eq!(
                narrow.analyze(&p, Mode::Strong),
                wide.analyze(&w, Mode::Strong)
            );
            assert_eq!(narrow.best_move(&p), wide.best_move(&w));
            checked += 1;
        }
    }
}

#[test]
fn empty_four_by_four_is_a_draw() {
    // Known result: 4x4 Connect Four is a draw with perfect play.
    let g = Geometry::new(4, 4).unwrap();
    let mut s = Solver::with_table_mib(g, 1).unwrap();
    assert_eq!(s.solve(&Position::new(g)), 0);
    let mut memo = Memo::default();
    assert_eq!(minimax(&Naive::new(4, 4), &mut memo), 0);
}
