//! The six benchmark sets: which positions belong to which set, and where a set's file is.
//!
//! The sets follow the idea of Pascal Pons' test protocol (blog.gamesolver.org): a set is a
//! game phase (stones on the board) crossed with a difficulty, and the difficulty is how far
//! perfect play is from the end of the game, which is how deep the solver must look and so
//! what its work grows with. Both are exact facts of the position and its solver score, so a
//! set's definition does not move when the solver gets faster. The repository ships its own
//! sets in `data/bench/` (made by `c4 data bench-sets`); the Pons files are read by the same
//! code under their own names.

use connect4_engine::game::{Geometry, Position};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// Where the shipped benchmark sets live, relative to the repository root.
pub const DEFAULT_BENCH_DIR: &str = "data/bench";

/// One benchmark set: a phase and a difficulty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchSet {
    /// Our file name, e.g. `middle-medium`.
    pub name: &'static str,
    /// The matching Pons file name, e.g. `Test_L2_R2`.
    pub pons_name: &'static str,
    /// Stones on the board (7x6 counts).
    pub stones: RangeInclusive<usize>,
    /// Plies from the position to the end of the game under perfect play.
    pub plies_to_end: RangeInclusive<usize>,
}

/// The six sets, easiest phase first: the order of every table that lists them.
pub const BENCH_SETS: [BenchSet; 6] = [
    BenchSet {
        name: "end-easy",
        pons_name: "Test_L3_R1",
        stones: 29..=41,
        plies_to_end: 1..=14,
    },
    BenchSet {
        name: "middle-easy",
        pons_name: "Test_L2_R1",
        stones: 15..=28,
        plies_to_end: 1..=14,
    },
    BenchSet {
        name: "middle-medium",
        pons_name: "Test_L2_R2",
        stones: 15..=28,
        plies_to_end: 15..=28,
    },
    BenchSet {
        name: "begin-easy",
        pons_name: "Test_L1_R1",
        stones: 1..=14,
        plies_to_end: 1..=14,
    },
    BenchSet {
        name: "begin-medium",
        pons_name: "Test_L1_R2",
        stones: 1..=14,
        plies_to_end: 15..=28,
    },
    BenchSet {
        name: "begin-hard",
        pons_name: "Test_L1_R3",
        stones: 1..=14,
        plies_to_end: 29..=42,
    },
];

/// Plies from `pos` to the end of the game when both sides play perfectly, given its exact
/// (strong) solver score: the winner's winning stone, or the full board for a draw.
pub fn plies_to_end(pos: &Position, score: i32) -> usize {
    let geom = pos.geometry();
    let m = pos.moves_played();
    let best = geom.cells().div_ceil(2) as i32 + 1;
    if score == 0 {
        return geom.cells() - m;
    }
    // The winner's k-th stone wins; the mover has played floor(m/2) stones, the opponent
    // ceil(m/2). The mover's j-th next stone lands j*2-1 plies on, the opponent's j*2.
    let k = (best - score.abs()) as usize;
    if score > 0 {
        2 * (k - m / 2) - 1
    } else {
        2 * (k - m.div_ceil(2))
    }
}

impl BenchSet {
    /// The set a position with this exact score belongs to, if any.
    pub fn of(pos: &Position, score: i32) -> Option<&'static BenchSet> {
        let stones = pos.moves_played();
        let to_end = plies_to_end(pos, score);
        BENCH_SETS
            .iter()
            .find(|s| s.stones.contains(&stones) && s.plies_to_end.contains(&to_end))
    }

    /// The set with this name (ours or the Pons name).
    pub fn named(name: &str) -> Option<&'static BenchSet> {
        BENCH_SETS
            .iter()
            .find(|s| s.name == name || s.pons_name == name)
    }

    /// The set's file in `dir`: our name, or the Pons name when only that is there.
    pub fn file_in(&self, dir: &Path) -> Option<PathBuf> {
        [self.name, self.pons_name]
            .iter()
            .map(|n| dir.join(n))
            .find(|p| p.is_file())
    }
}

/// The benchmark files of `dir`, in [`BENCH_SETS`] order, as (set name, path); sets with no
/// file there are left out. Pons files keep their own names so reports say which were used.
pub fn files_in(dir: &Path) -> Vec<(String, PathBuf)> {
    BENCH_SETS
        .iter()
        .filter_map(|s| {
            let p = s.file_in(dir)?;
            let name = p
                .file_name()
                .map_or_else(|| s.name.to_string(), |n| n.to_string_lossy().into_owned());
            Some((name, p))
        })
        .collect()
}

/// The board size every set is defined on.
pub(crate) const BENCH_GEOMETRY: Geometry = Geometry::STANDARD;

/// Error rates of graded sets in AlphaZero.jl's layout (its benchmark against Pons' six
/// sets): rows Begin, Middle, End; columns Easy, Medium, Hard; each cell the rate with its
/// 95% Wilson interval, or `-` where there is no set (or it was not graded). `summaries`
/// are matched to the six sets by their set name (ours or Pons').
pub fn six_set_table(summaries: &[super::GradeSummary]) -> String {
    let cell = |name: &str| -> String {
        summaries
            .iter()
            .find(|s| BenchSet::named(&s.set).is_some_and(|b| b.name == name))
            .map_or_else(
                || "-".to_string(),
                |s| {
                    format!(
                        "{:.1}% [{:.1}, {:.1}] n={}",
                        100.0 * s.error_rate,
                        100.0 * s.error_low,
                        100.0 * s.error_high,
                        s.positions
                    )
                },
            )
    };
    let mut t = format!("{:<8} {:<28} {:<28} {:<28}\n", "", "Easy", "Medium", "Hard");
    for (row, sets) in [
        ("Begin", ["begin-easy", "begin-medium", "begin-hard"]),
        ("Middle", ["middle-easy", "middle-medium", ""]),
        ("End", ["end-easy", "", ""]),
    ] {
        t.push_str(&format!(
            "{row:<8} {:<28} {:<28} {:<28}\n",
            cell(sets[0]),
            cell(sets[1]),
            cell(sets[2])
        ));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(moves: &str) -> Position {
        Position::from_moves(Geometry::STANDARD, moves).unwrap()
    }

    #[test]
    fn plies_to_end_counts_to_the_winning_stone() {
        // x to move with three in a row: wins now with the 4th stone (score 22 - 4 = 18).
        let p = pos("121212");
        assert_eq!(plies_to_end(&p, 18), 1);
        // o to move after x's three stones: if x wins with its 5th stone (o's score
        // -(22 - 5) = -17), that stone is x's second from here: 4 plies on.
        let p = pos("12121");
        assert_eq!(plies_to_end(&p, -17), 4);
        // A draw runs to the full board.
        assert_eq!(plies_to_end(&pos("4"), 0), 41);
        // Empty board: the first player wins with the 21st stone (score 1): ply 41.
        assert_eq!(plies_to_end(&Position::new(Geometry::STANDARD), 1), 41);
    }

    #[test]
    fn the_sets_split_phases_and_difficulty_without_overlap() {
        for stones in 1..=41usize {
            for to_end in 1..=42usize {
                let n = BENCH_SETS
                    .iter()
                    .filter(|s| s.stones.contains(&stones) && s.plies_to_end.contains(&to_end))
                    .count();
                assert!(n <= 1, "stones {stones}, to end {to_end}: {n} sets");
            }
        }
        assert_eq!(BenchSet::named("Test_L2_R2").unwrap().name, "middle-medium");
        assert_eq!(
            BenchSet::named("begin-hard").unwrap().pons_name,
            "Test_L1_R3"
        );
        assert!(BenchSet::named("nope").is_none());
    }
}
