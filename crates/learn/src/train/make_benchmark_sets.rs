//! Making the benchmark sets of `data/bench/` (see [`crate::arena::benchmark_sets`] for what each
//! set holds): candidate positions come from games between a seeded mix of agents that also
//! play a random move now and then, each candidate is solved exactly, and it joins the set its
//! phase and score put it in until that set is full.
//!
//! Everything is decided by the seed: games are played and solved in parallel but in fixed
//! batches, and candidates join their sets in game order, so the thread count never changes
//! the files.

use super::sample_positions::{MixError, mix_factories, play_mix_game};
use crate::arena::benchmark_sets::{BENCH_GEOMETRY, BENCH_SETS, BenchSet};
use crate::datasets::label::{self, ScoreMany};
use connect4_engine::agents::{AgentError, AgentSpec};
use connect4_engine::game::Position;
use connect4_engine::progress::{Progress, Quiet};
use connect4_engine::solver::{Mode, SolverError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::HashSet;
use std::ops::RangeInclusive;

/// What to make.
#[derive(Clone, Debug)]
pub struct BenchSetsConfig {
    /// Positions per set.
    pub count: usize,
    /// Positions in begin-hard, the one set whose positions cost seconds each to solve.
    pub begin_hard: usize,
    /// Fewest stones of a begin-phase candidate: below about six stones a strong solve takes
    /// from seconds to a minute here, so the begin sets start there.
    pub begin_min_stones: usize,
    /// The agents whose games give the positions; two are drawn for every game.
    pub mix: Vec<AgentSpec>,
    /// Chance that a move is a uniformly random legal one instead of the agent's.
    pub epsilon: f64,
    /// Seed of every game.
    pub seed: u64,
    /// Solver table per worker, MiB.
    pub tt_mib: usize,
    /// The opening book of the labelling solvers (`None`: none).
    pub book: Option<std::sync::Arc<connect4_engine::solver::book::Book>>,
}

impl Default for BenchSetsConfig {
    fn default() -> Self {
        let mix = [
            "random",
            "easy",
            "hard",
            "handtuned:depth=3",
            "window:depth=3",
        ]
        .iter()
        .map(|s| s.parse().expect("the default mix parses"))
        .collect();
        BenchSetsConfig {
            count: 1000,
            begin_hard: 1000,
            begin_min_stones: 6,
            mix,
            epsilon: 0.15,
            seed: 0,
            tt_mib: 64,
            book: Some(connect4_engine::solver::book::embedded()),
        }
    }
}

/// Why the sets could not be made.
#[derive(Debug, thiserror::Error)]
pub enum BenchSetsError {
    /// An agent of the mix could not be built.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// The solver could not be set up.
    #[error(transparent)]
    Solver(#[from] SolverError),
    /// The agent mix cannot play.
    #[error(transparent)]
    Mix(#[from] MixError),
    /// The begin phase's fewest stones are out of range.
    #[error("the begin phase's fewest stones must be 1..=14, not {0}")]
    BeginMinStones(usize),
    /// The games stopped giving positions for a set (its definition and the settings
    /// disagree, e.g. a minimum stone count that leaves no room for it).
    #[error("set {set}: only {found} of {wanted} positions after {games} games")]
    Starved {
        /// The set.
        set: &'static str,
        /// Positions found.
        found: usize,
        /// Positions wanted.
        wanted: usize,
        /// Games played for its phase.
        games: usize,
    },
}

/// One position of a set: its move string (1-based columns) and exact score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// a move string: columns 1-9, then a-z.
    pub moves: String,
    /// Exact score for the side to move.
    pub score: i32,
}

/// One finished set.
#[derive(Clone, Debug)]
pub struct MadeSet {
    /// Which set.
    pub set: &'static BenchSet,
    /// Its positions, in the order they were found.
    pub lines: Vec<BenchLine>,
}

/// What a run made and what it cost.
#[derive(Clone, Debug)]
pub struct BenchSetsOutput {
    /// The sets, in [`BENCH_SETS`] order.
    pub sets: Vec<MadeSet>,
    /// Games played (one candidate position each at most).
    pub games: usize,
    /// Candidates solved.
    pub solved: usize,
    /// Candidates dropped as the mirror or copy of one already taken.
    pub duplicates: usize,
}

/// One game of the mix stopped at a stone count drawn from `stones`; `None` when it ended
/// before.
fn candidate(
    cfg: &BenchSetsConfig,
    factories: &[connect4_engine::agents::AgentFactory],
    phase: u64,
    game: u64,
    stones: &RangeInclusive<usize>,
) -> Result<Option<(Position, String)>, AgentError> {
    let mut rng = ChaCha8Rng::seed_from_u64(connect4_engine::seed::derive_seed(
        cfg.seed,
        connect4_engine::seed::Stream::BenchSets,
        &[phase, game],
    ));
    let target = rng.gen_range(stones.clone());
    play_mix_game(factories, &mut rng, target, cfg.epsilon)
}

/// Makes the six sets.
pub fn make_benchmark_sets(
    cfg: &BenchSetsConfig,
    progress: &dyn Progress,
) -> Result<BenchSetsOutput, BenchSetsError> {
    let factories = mix_factories(&cfg.mix, cfg.epsilon, BENCH_GEOMETRY, cfg.book.clone())?;
    if !(1..=14).contains(&cfg.begin_min_stones) {
        return Err(BenchSetsError::BeginMinStones(cfg.begin_min_stones));
    }
    let pool = label::for_workers(BENCH_GEOMETRY, cfg.tt_mib, cfg.book.clone())?;
    let wanted = |s: &BenchSet| wanted(cfg, s);
    let mut sets: Vec<MadeSet> = BENCH_SETS
        .iter()
        .map(|set| MadeSet {
            set,
            lines: Vec::new(),
        })
        .collect();
    let mut seen = HashSet::new();
    let (mut games, mut solved, mut duplicates) = (0, 0, 0);
    let batch = 32 * rayon::current_num_threads().max(1);
    // Phases by stone band; each candidate game aims at a stone count drawn from the band.
    let phases: [(&str, RangeInclusive<usize>); 3] = [
        ("end", 29..=41),
        ("middle", 15..=28),
        ("begin", cfg.begin_min_stones..=14),
    ];
    for (phase_index, (phase, band)) in phases.iter().enumerate() {
        let members: Vec<usize> = (0..sets.len())
            .filter(|&i| sets[i].set.stones.contains(band.start()))
            .collect();
        let total: usize = members.iter().map(|&i| wanted(sets[i].set)).sum();
        progress.start(&format!("{phase} positions"), total);
        let mut phase_games = 0u64;
        let mut taken = 0;
        let mut reported = 0;
        let full = |sets: &[MadeSet], i: usize| full(cfg, sets, i);
        while members.iter().any(|&i| !full(&sets, i)) {
            if phase_games > 1000 * (total as u64 + 10) {
                return Err(starved(cfg, &sets, &members, phase_games));
            }
            let aim = aim(cfg, &sets, &members, band);
            let first = phase_games;
            let found: Vec<Option<(Position, String)>> = (first..first + batch as u64)
                .into_par_iter()
                .map(|g| candidate(cfg, &factories, phase_index as u64, g, &aim))
                .collect::<Result<_, _>>()?;
            phase_games += batch as u64;
            games += batch;
            let mut fresh = Vec::new();
            for (p, m) in found.into_iter().flatten() {
                if seen.contains(&p.canonical_key()) {
                    duplicates += 1;
                } else {
                    fresh.push((p, m));
                }
            }
            let positions: Vec<Position> = fresh.iter().map(|(p, _)| *p).collect();
            let scores = pool.scores(&positions, Mode::Strong, &Quiet);
            solved += positions.len();
            taken += place(cfg, &mut sets, &members, &mut seen, fresh, scores);
            progress.advance(taken - reported);
            reported = taken;
        }
    }
    progress.finish();
    Ok(BenchSetsOutput {
        sets,
        games,
        solved,
        duplicates,
    })
}

/// Puts each solved position into the set of the phase its score and stones make it
/// (`members`), when that set is not full and the position (or its mirror image) is new:
/// how many were taken.
fn place(
    cfg: &BenchSetsConfig,
    sets: &mut [MadeSet],
    members: &[usize],
    seen: &mut HashSet<u64>,
    fresh: Vec<(Position, String)>,
    scores: Vec<i32>,
) -> usize {
    let mut taken = 0;
    for ((p, moves), score) in fresh.into_iter().zip(scores) {
        let Some(set) = BenchSet::of(&p, score) else {
            continue;
        };
        let Some(i) = members.iter().copied().find(|&i| sets[i].set == set) else {
            continue;
        };
        if full(cfg, sets, i) || !seen.insert(p.canonical_key()) {
            continue;
        }
        sets[i].lines.push(BenchLine { moves, score });
        taken += 1;
    }
    taken
}

/// Positions wanted of `s`: `begin_hard` for begin-hard, `count` for the others.
fn wanted(cfg: &BenchSetsConfig, s: &BenchSet) -> usize {
    if s.name == "begin-hard" {
        cfg.begin_hard
    } else {
        cfg.count
    }
}

/// Whether set `i` has all it wants.
fn full(cfg: &BenchSetsConfig, sets: &[MadeSet], i: usize) -> bool {
    sets[i].lines.len() >= wanted(cfg, sets[i].set)
}

/// The error of a phase whose games stopped filling its first set that is not full.
fn starved(
    cfg: &BenchSetsConfig,
    sets: &[MadeSet],
    members: &[usize],
    games: u64,
) -> BenchSetsError {
    let i = members
        .iter()
        .copied()
        .find(|&i| !full(cfg, sets, i))
        .unwrap_or(members[0]);
    BenchSetsError::Starved {
        set: sets[i].set.name,
        found: sets[i].lines.len(),
        wanted: wanted(cfg, sets[i].set),
        games: games as usize,
    }
}

/// The stone counts a phase's games aim at: its band, cut at the most stones a set not yet
/// full takes (begin-hard: at most 13 stones), so that games can still join them.
fn aim(
    cfg: &BenchSetsConfig,
    sets: &[MadeSet],
    members: &[usize],
    band: &RangeInclusive<usize>,
) -> RangeInclusive<usize> {
    let top = members
        .iter()
        .filter(|&&i| !full(cfg, sets, i))
        .map(|&i| *sets[i].set.stones.end())
        .max()
        .unwrap_or(*band.end());
    *band.start()..=top.min(*band.end())
}

/// The set as file text: one "MOVES SCORE" line per position.
pub(crate) fn format_set(lines: &[BenchLine]) -> String {
    let mut s = String::with_capacity(lines.len() * 24);
    for l in lines {
        s.push_str(&l.moves);
        s.push(' ');
        s.push_str(&l.score.to_string());
        s.push('\n');
    }
    s
}

/// One written set: its name, size and the sha256 of its text.
#[derive(Clone, Debug, serde::Serialize)]
pub struct WrittenSet {
    /// The set's file name.
    pub set: &'static str,
    /// Positions in it.
    pub positions: usize,
    /// sha256 of the file.
    pub sha256: String,
}

/// Writes every set of `out` into `dir` (atomically, one file per set) and `sets.json`
/// beside them: the `command` that made them, the counts and each set's stones, distance to
/// the end and sha256.
pub fn write_bench_sets(
    dir: &std::path::Path,
    out: &BenchSetsOutput,
    command: &str,
) -> std::io::Result<Vec<WrittenSet>> {
    let mut written = Vec::new();
    let mut manifest = Vec::new();
    for made in &out.sets {
        let text = format_set(&made.lines);
        connect4_engine::io::write_bytes_atomic(&dir.join(made.set.name), text.as_bytes())?;
        let sha = connect4_engine::io::sha256_hex(text.as_bytes());
        manifest.push(serde_json::json!({
            "set": made.set.name,
            "pons_name": made.set.pons_name,
            "positions": made.lines.len(),
            "stones": [made.set.stones.start(), made.set.stones.end()],
            "plies_to_end": [made.set.plies_to_end.start(), made.set.plies_to_end.end()],
            "sha256": sha,
        }));
        written.push(WrittenSet {
            set: made.set.name,
            positions: made.lines.len(),
            sha256: sha,
        });
    }
    let summary = serde_json::json!({
        "command": command,
        "games": out.games,
        "solved": out.solved,
        "duplicates": out.duplicates,
        "sets": manifest,
    });
    connect4_engine::io::write_json_atomic(&dir.join("sets.json"), &summary)?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use connect4_engine::solver::Solver;

    #[test]
    fn small_sets_are_exact_distinct_and_in_their_bands() {
        let cfg = BenchSetsConfig {
            count: 6,
            begin_hard: 2,
            begin_min_stones: 10,
            seed: 3,
            tt_mib: 8,
            ..BenchSetsConfig::default()
        };
        let out = make_benchmark_sets(&cfg, &Quiet).unwrap();
        let mut solver = Solver::with_table_mib(BENCH_GEOMETRY, 8).unwrap();
        let mut keys = HashSet::new();
        for made in &out.sets {
            let want = if made.set.name == "begin-hard" { 2 } else { 6 };
            assert_eq!(made.lines.len(), want, "{}", made.set.name);
            for l in &made.lines {
                let p = Position::from_moves(BENCH_GEOMETRY, &l.moves).unwrap();
                assert_eq!(solver.solve(&p), l.score, "{}", l.moves);
                assert_eq!(BenchSet::of(&p, l.score), Some(made.set));
                assert!(keys.insert(p.canonical_key()), "duplicate {}", l.moves);
            }
        }
        // The same seed gives the same sets.
        let again = make_benchmark_sets(&cfg, &Quiet).unwrap();
        for (a, b) in out.sets.iter().zip(&again.sets) {
            assert_eq!(a.lines, b.lines);
        }
    }

    #[test]
    fn bad_settings_are_refused() {
        let cfg = BenchSetsConfig {
            epsilon: 1.5,
            ..BenchSetsConfig::default()
        };
        assert!(matches!(
            make_benchmark_sets(&cfg, &Quiet),
            Err(BenchSetsError::Mix(MixError::Epsilon(_)))
        ));
        let cfg = BenchSetsConfig {
            mix: Vec::new(),
            ..BenchSetsConfig::default()
        };
        assert!(make_benchmark_sets(&cfg, &Quiet).is_err());
    }
}
