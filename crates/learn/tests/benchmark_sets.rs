//! The benchmark sets: the set definitions reproduce the Pons files' own split, and the sets
//! the repository ships in data/bench/ hold what data/README.md says they hold.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use connect4_engine::Geometry;
use connect4_engine::game::Position;
use connect4_engine::solver::Solver;
use connect4_learn::arena::benchmark_sets::{BENCH_SETS, BenchSet, files_in};
use std::collections::HashSet;
use std::path::Path;

fn lines(path: &Path) -> Vec<(Position, i32, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            let (moves, score) = l
                .split_once(' ')
                .unwrap_or_else(|| panic!("{}:{}: not MOVES SCORE", path.display(), i + 1));
            let pos = Position::from_moves(Geometry::STANDARD, moves)
                .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), i + 1));
            (pos, score.parse().unwrap(), moves.to_string())
        })
        .collect()
}

#[test]
#[ignore = "needs Pons' files in ../shared/data/pons: run with --include-ignored"]
fn every_pons_position_falls_in_its_own_set() {
    let dir = common::shared_data("pons");
    for set in &BENCH_SETS {
        let path = dir.join(set.pons_name);
        let all = lines(&path);
        assert_eq!(all.len(), 1000);
        for (pos, score, moves) in &all {
            assert_eq!(
                BenchSet::of(pos, *score).map(|s| s.name),
                Some(set.name),
                "{}: {moves} {score}",
                set.pons_name
            );
        }
    }
    // The folder resolves to the six files under their Pons names.
    let found: Vec<String> = files_in(&dir).into_iter().map(|(n, _)| n).collect();
    assert_eq!(
        found,
        [
            "Test_L3_R1",
            "Test_L2_R1",
            "Test_L2_R2",
            "Test_L1_R1",
            "Test_L1_R2",
            "Test_L1_R3"
        ]
    );
}

#[test]
fn the_shipped_sets_are_full_distinct_in_their_bands_and_exact() {
    let dir = common::repo_data("bench");
    let mut keys = HashSet::new();
    let mut solver = Solver::with_table_mib(Geometry::STANDARD, 64).unwrap();
    for set in &BENCH_SETS {
        let path = set.file_in(&dir).expect("every set is shipped");
        let all = lines(&path);
        let expected = 1000;
        assert_eq!(all.len(), expected, "{}", set.name);
        // Check every score where solving is cheap, a spread sample where it is not.
        let step = match set.name {
            "end-easy" | "middle-easy" | "begin-easy" => 1,
            "middle-medium" | "begin-medium" => 20,
            _ => 100,
        };
        for (i, (pos, score, moves)) in all.iter().enumerate() {
            assert!(!pos.last_move_won() && !pos.is_full(), "{moves}: game over");
            assert_eq!(BenchSet::of(pos, *score), Some(set), "{moves} {score}");
            assert!(
                keys.insert(pos.canonical_key()),
                "{moves}: a duplicate up to mirror"
            );
            if i % step == 0 {
                assert_eq!(solver.solve(pos), *score, "{}: {moves}", set.name);
            }
        }
    }
}

#[test]
fn a_shallow_table_shared_by_two_workers_keeps_every_score_exact() {
    use connect4_engine::Mode;
    use connect4_engine::progress::Quiet;
    use connect4_engine::solver::ShallowTable;
    use connect4_learn::datasets::label::{ScoreMany, SolverPool};
    let root = common::repo_data("bench");
    // Many positions below 20 stones, so that the shared table does most of the work, and a
    // small one, so that entries are replaced while the other worker reads them.
    let mut cases: Vec<(Position, i32)> = Vec::new();
    for set in ["begin-easy", "middle-easy", "middle-medium"] {
        let take = if set == "middle-medium" { 150 } else { 400 };
        cases.extend(
            lines(&root.join(set))
                .into_iter()
                .take(take)
                .map(|(p, s, _)| (p, s)),
        );
    }
    let positions: Vec<Position> = cases.iter().map(|(p, _)| *p).collect();
    let threads = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    threads.install(|| {
        let table = ShallowTable::new(Geometry::STANDARD, 20, 1).unwrap();
        let pool = SolverPool::new(4).with_shallow_table(table);
        for mode in [Mode::Strong, Mode::Weak] {
            // Twice: the second pass starts from a table full of the first one's bounds.
            for pass in 0..2 {
                let got = pool.scores(&positions, mode, &Quiet);
                for ((p, want), got) in cases.iter().zip(got) {
                    let want = if mode == Mode::Weak {
                        want.signum()
                    } else {
                        *want
                    };
                    assert_eq!(got, want, "{mode:?} pass {pass}: {p:?}");
                }
            }
        }
    });
}
