//! The solver on the standard benchmark sets in ../shared/data/pons: every score exact.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use connect4_engine::{Geometry, Mode, Position, Solver};

/// Solves the chosen lines of `set` in `mode` and returns (positions, mismatches as text).
fn check(set: &str, mode: Mode, keep: impl Fn(usize) -> bool) -> usize {
    let path = common::shared_data(&format!("pons/{set}"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut solver = Solver::new(Geometry::STANDARD);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(i, _)| keep(*i)) {
        let mut f = line.split_whitespace();
        let (moves, expected) = (f.next().unwrap(), f.next().unwrap().parse::<i32>().unwrap());
        let pos = Position::from_moves(Geometry::STANDARD, moves).unwrap();
        let want = if mode == Mode::Weak {
            expected.signum()
        } else {
            expected
        };
        let got = solver.score(&pos, mode);
        if got != want {
            wrong.push(format!(
                "line {}: {moves} expected {want}, got {got}",
                i + 1
            ));
        }
        checked += 1;
    }
    assert!(
        wrong.is_empty(),
        "{set} {mode:?}: {} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    checked
}

#[test]
#[ignore = "needs Pons' files in ../shared/data/pons: run with --include-ignored"]
fn end_easy_all_lines() {
    assert_eq!(check("Test_L3_R1", Mode::Strong, |_| true), 1000);
    assert_eq!(check("Test_L3_R1", Mode::Weak, |_| true), 1000);
}

#[test]
#[ignore = "needs Pons' files in ../shared/data/pons: run with --include-ignored"]
fn middle_easy_all_lines() {
    assert_eq!(check("Test_L2_R1", Mode::Strong, |_| true), 1000);
    assert_eq!(check("Test_L2_R1", Mode::Weak, |_| true), 1000);
}

#[test]
#[ignore = "needs Pons' files in ../shared/data/pons: run with --include-ignored"]
fn begin_easy_all_lines() {
    assert_eq!(check("Test_L1_R1", Mode::Strong, |_| true), 1000);
    assert_eq!(check("Test_L1_R1", Mode::Weak, |_| true), 1000);
}

#[test]
#[ignore = "needs Pons' files in ../shared/data/pons: run with --include-ignored"]
fn middle_medium_all_lines() {
    assert_eq!(check("Test_L2_R2", Mode::Strong, |_| true), 1000);
    assert_eq!(check("Test_L2_R2", Mode::Weak, |_| true), 1000);
}

/// A fixed sample (every 25th line) of the hard beginning-of-game set.
#[test]
#[ignore = "needs Pons' files in ../shared/data/pons: run with --include-ignored"]
fn begin_medium_sample() {
    assert_eq!(check("Test_L1_R2", Mode::Strong, |i| i % 25 == 0), 40);
    assert_eq!(check("Test_L1_R2", Mode::Weak, |i| i % 25 == 7), 40);
}

#[test]
fn analysis_agrees_with_the_position_score() {
    let mut solver = Solver::new(Geometry::STANDARD);
    let pos = Position::from_moves(Geometry::STANDARD, "4453").unwrap();
    let scores = solver.analyze(&pos, Mode::Strong);
    // Worked out by the solver and cross-checked against the published analysis of 4453.
    assert_eq!(
        scores,
        vec![
            Some(-5),
            Some(-5),
            Some(-2),
            Some(-3),
            Some(-4),
            Some(-2),
            Some(-2)
        ]
    );
    assert_eq!(solver.solve(&pos), -2);
    let weak = solver.analyze(&pos, Mode::Weak);
    assert!(weak.iter().all(|s| *s == Some(-1)));
}

#[test]
fn finished_games_score_as_finished() {
    let mut solver = Solver::with_table_mib(Geometry::STANDARD, 1).unwrap();
    // x wins vertically with its 4th stone: the side to move (o) has lost, 22 - 4 = 18.
    let won = Position::from_moves(Geometry::STANDARD, "1212121").unwrap();
    assert_eq!(solver.solve(&won), -18);
    assert_eq!(solver.solve_weak(&won), -1);
    assert!(
        solver
            .analyze(&won, Mode::Strong)
            .iter()
            .all(Option::is_none)
    );
    // x to move wins at once with its 4th stone.
    let p = Position::from_moves(Geometry::STANDARD, "121212").unwrap();
    assert_eq!(solver.solve(&p), 18);
}

#[test]
#[ignore = "needs Pons' files in ../shared/data/pons: run with --include-ignored"]
fn analyze_scores_each_column_as_the_pons_files_score_the_child() {
    // A Pons line Q = P + c gives, independently of our solver, the score of the child
    // reached by playing c in P: analyze(P) must give minus that score in column c.
    let g = connect4_engine::Geometry::STANDARD;
    let mut solver = connect4_engine::Solver::with_table_mib(g, 64).unwrap();
    let mut checked = 0;
    for file in ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2"] {
        let text = std::fs::read_to_string(common::shared_data(&format!("pons/{file}"))).unwrap();
        for line in text.lines().take(300) {
            let (moves, score) = line.split_once(' ').unwrap();
            let score: i32 = score.parse().unwrap();
            let (parent, last) = moves.split_at(moves.len() - 1);
            let col = last.parse::<usize>().unwrap() - 1;
            let p = connect4_engine::Position::from_moves(g, parent).unwrap();
            let per_col = solver.analyze(&p, connect4_engine::Mode::Strong);
            assert_eq!(
                per_col[col],
                Some(-score),
                "{file}: {parent} column {}",
                col + 1
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 900);
}
