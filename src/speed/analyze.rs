//! `c4 bench analyze`: how long a full analysis (every column exact, as `c4 analyze` and the
//! web UI give it) takes at each stage of the game, on positions from seeded games that a
//! user could reach: the moves are random among those that do not lose at once, so games
//! last and vary.

use connect4_engine::game::{Geometry, Position};
use connect4_engine::seed::{Stream, derive_seed};
use connect4_engine::solver::{Mode, Solver};
use rand::Rng;
use rand::SeedableRng;
use std::ops::RangeInclusive;

/// One timed analysis.
#[derive(Clone, Debug, serde::Serialize)]
pub struct AnalyzeTiming {
    /// The position, as a 1-based move string.
    pub moves: String,
    /// Stones on the board.
    pub ply: usize,
    /// Wall time of the analysis, milliseconds.
    pub ms: f64,
    /// Nodes the solver searched.
    pub nodes: u64,
}

/// Percentiles of the analysis time of one band of plies.
#[derive(Clone, Debug, serde::Serialize)]
pub struct AnalyzeBand {
    /// First ply of the band.
    pub from: usize,
    /// Last ply of the band.
    pub to: usize,
    /// Positions timed.
    pub positions: usize,
    /// Median, ms.
    pub p50: f64,
    /// 95th percentile, ms.
    pub p95: f64,
    /// 99th percentile, ms.
    pub p99: f64,
    /// Slowest, ms.
    pub max: f64,
}

/// `count` positions of each ply in `plies` from seeded games (game `i` gives its position
/// at every ply it reaches unfinished, until each ply has `count`), with their move strings.
pub fn positions_by_ply(
    geom: Geometry,
    plies: RangeInclusive<usize>,
    count: usize,
    seed: u64,
) -> Vec<(String, Position)> {
    let (lo, hi) = (*plies.start(), (*plies.end()).min(geom.cells() - 1));
    let mut per_ply: Vec<Vec<(String, Position)>> = vec![Vec::new(); hi + 1];
    let mut game = 0u64;
    // Late plies are not reached by every game; stop after plenty of tries.
    while (lo..=hi).any(|k| per_ply[k].len() < count) && game < 1000 * count as u64 + 1000 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(derive_seed(
            seed,
            Stream::BenchAnalyze,
            &[game],
        ));
        game += 1;
        let mut p = Position::new(geom);
        let mut moves = String::new();
        loop {
            let k = p.moves_played();
            if (lo..=hi).contains(&k) && per_ply[k].len() < count {
                per_ply[k].push((moves.clone(), p));
            }
            if k >= hi {
                break;
            }
            let safe = p.possible_non_losing_moves();
            let cols: Vec<usize> = (0..geom.width())
                .filter(|&c| p.can_play(c) && (safe == 0 || safe & geom.column_mask(c) != 0))
                .collect();
            let col = cols[rng.gen_range(0..cols.len())];
            p.play_col(col);
            moves.push(
                connect4_engine::game::moves::column_char(col)
                    .expect("a board's columns have names"),
            );
            if p.last_move_won() || p.is_full() {
                break;
            }
        }
    }
    per_ply.into_iter().skip(lo).flatten().collect()
}

/// Analyses each position (the exact score of every column, as `c4 analyze` prints them)
/// with a cleared solver of `tt_mib` MiB reading `book` (what a user asking about one
/// position gets), timing each.
pub fn time_analyses(
    geom: Geometry,
    positions: &[(String, Position)],
    tt_mib: usize,
    book: Option<std::sync::Arc<connect4_engine::solver::book::Book>>,
    progress: &dyn connect4_engine::progress::Progress,
) -> Result<Vec<AnalyzeTiming>, connect4_engine::solver::SolverError> {
    let mut solver = Solver::with_table_mib(geom, tt_mib)?;
    solver.set_book(book);
    solver.ready();
    progress.start("positions", positions.len());
    let mut out = Vec::with_capacity(positions.len());
    for (moves, p) in positions {
        solver.clear();
        let start = connect4_engine::clock::Instant::now();
        solver.reset_nodes();
        solver.analyze(p, Mode::Strong);
        out.push(AnalyzeTiming {
            moves: moves.clone(),
            ply: p.moves_played(),
            ms: start.elapsed().as_secs_f64() * 1e3,
            nodes: solver.nodes(),
        });
        progress.advance(1);
    }
    progress.finish();
    Ok(out)
}

/// The timings in bands of `width` plies (0..width-1, width..2 width-1, ...).
pub fn bands(timings: &[AnalyzeTiming], width: usize) -> Vec<AnalyzeBand> {
    let width = width.max(1);
    let mut out: Vec<AnalyzeBand> = Vec::new();
    let top = timings.iter().map(|t| t.ply).max().unwrap_or(0);
    for from in (0..=top).step_by(width) {
        let to = from + width - 1;
        let mut ms: Vec<f64> = timings
            .iter()
            .filter(|t| (from..=to).contains(&t.ply))
            .map(|t| t.ms)
            .collect();
        if ms.is_empty() {
            continue;
        }
        ms.sort_by(f64::total_cmp);
        let pct = |q: f64| ms[((q * ms.len() as f64).ceil() as usize).clamp(1, ms.len()) - 1];
        out.push(AnalyzeBand {
            from,
            to,
            positions: ms.len(),
            p50: pct(0.50),
            p95: pct(0.95),
            p99: pct(0.99),
            max: *ms.last().expect("not empty"),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_seeded_unfinished_and_cover_every_ply() {
        let g = Geometry::STANDARD;
        let a = positions_by_ply(g, 0..=20, 3, 5);
        assert_eq!(a.len(), 63);
        assert_eq!(a, positions_by_ply(g, 0..=20, 3, 5));
        assert_ne!(a, positions_by_ply(g, 0..=20, 3, 6));
        for k in 0..=20 {
            assert_eq!(a.iter().filter(|(_, p)| p.moves_played() == k).count(), 3);
        }
        for (m, p) in &a {
            assert!(!p.last_move_won());
            assert_eq!(&Position::from_moves(g, m).unwrap(), p);
        }
    }

    #[test]
    fn bands_give_percentiles() {
        let t: Vec<AnalyzeTiming> = (0..100)
            .map(|i| AnalyzeTiming {
                moves: String::new(),
                ply: i % 8,
                ms: i as f64,
                nodes: 0,
            })
            .collect();
        let b = bands(&t, 4);
        assert_eq!(b.len(), 2);
        assert_eq!((b[0].from, b[0].to, b[0].positions), (0, 3, 52));
        assert_eq!(b[0].max, 99.0);
        assert!(b[0].p50 <= b[0].p95 && b[0].p95 <= b[0].p99);
    }
}
