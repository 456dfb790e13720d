//! How good each move is, on one scale for every source: exact where the opening book or a
//! solve within a time limit proves it, estimated by an evaluator where it does not. The
//! dial plays from these values and the adaptive agent grades its opponent's moves by them.

use crate::Interrupt;
use crate::eval::Evaluator;
use crate::game::{BitBoard, Geometry, Position};
use crate::search::{DECISIVE, SearchParams, Searcher};
use crate::solver::analysis::analyze_columns;
use crate::solver::{Mode, PoolBoard, PooledSolver, SolverError, SolverPool};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A proven win is worth at least this much (a win with the last stone), the fastest win 1;
/// losses the same below zero; a draw 0. Between wins the distance still counts a little, so
/// a player who could win at once and drags it out has made a (small) mistake.
const DECISIVE_VALUE: f64 = 0.6;

/// Positions whose exact scores are kept before the cache is emptied.
const CACHE_LIMIT: usize = 2_000_000;

/// The value in [-1, 1] of an exact strong `score` (from the side to move) on `geom`.
///
/// ```
/// use connect4_engine::agents::level::exact_value;
/// use connect4_engine::Geometry;
/// let g = Geometry::STANDARD;
/// assert_eq!(exact_value(0, g), 0.0);
/// assert_eq!(exact_value(18, g), 1.0);
/// assert!(exact_value(1, g) > 0.6 && exact_value(1, g) < exact_value(2, g));
/// assert_eq!(exact_value(-18, g), -1.0);
/// ```
pub fn exact_value<B: BitBoard>(score: i32, geom: Geometry<B>) -> f64 {
    if score == 0 {
        return 0.0;
    }
    // The fastest possible win: with the fourth stone.
    let top = f64::from(geom.win_score(6).max(1));
    let distance = (f64::from(score.abs()) / top).min(1.0);
    f64::from(score.signum()) * (DECISIVE_VALUE + (1.0 - DECISIVE_VALUE) * distance)
}

/// Where values come from when the solver runs out of time (on boards of the integer `B`).
#[derive(Clone)]
pub enum Fallback<B: BitBoard = u64> {
    /// A learned evaluator whose values lie in [-1, 1] (the n-tuple network): each child is
    /// evaluated once.
    Model(Arc<dyn Evaluator<B>>),
    /// A search at `depth` over a heuristic evaluator whose values are squashed by
    /// tanh(value / `scale`).
    Search {
        /// The leaf evaluator.
        eval: Arc<dyn Evaluator<B>>,
        /// Plies searched.
        depth: u32,
        /// Value units that count as one: tanh's scale.
        scale: f64,
    },
}

/// Every column's value for the side to move, and whether all of them are proven.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValues {
    /// Index = column; `None` for a full column (or a finished game).
    pub values: Vec<Option<f64>>,
    /// Whether every value comes from an exact score.
    pub exact: bool,
}

/// What judges of one spec share across games and threads: their solvers (warm tables, the
/// book), the fallback, the time limit and the exact scores found so far. Generic over the
/// board's integer, as [`Judge`].
pub struct JudgeShared<B: BitBoard = u64> {
    solvers: Arc<SolverPool>,
    fallback: Fallback<B>,
    limit: Duration,
    /// Position key -> every column's exact strong score (`i8::MIN`: not legal).
    exact: Mutex<HashMap<B, Vec<i8>>>,
    /// Position key -> the values of a position the solver did not finish in time: asked
    /// again (a page's stateless request replays the game's every move), it answers at once
    /// with what it answered the first time, rather than solving again for the whole limit.
    estimated: Mutex<HashMap<B, Vec<Option<f64>>>>,
}

impl<B: BitBoard> JudgeShared<B> {
    /// Judges drawing solvers from `solvers`, solving each position for at most `limit`
    /// before `fallback` estimates what is left.
    pub fn new(solvers: Arc<SolverPool>, fallback: Fallback<B>, limit: Duration) -> Self {
        JudgeShared {
            solvers,
            fallback,
            limit,
            exact: Mutex::default(),
            estimated: Mutex::default(),
        }
    }

    /// The time a position may be solved for.
    pub fn limit(&self) -> Duration {
        self.limit
    }

    fn cached(&self, pos: &Position<B>) -> Option<Vec<i8>> {
        self.exact.lock().ok()?.get(&pos.key()).cloned()
    }

    fn remember(&self, pos: &Position<B>, scores: Vec<i8>) {
        if let Ok(mut m) = self.exact.lock() {
            if m.len() >= CACHE_LIMIT {
                m.clear();
            }
            m.insert(pos.key(), scores);
        }
    }

    fn estimate_of(&self, pos: &Position<B>) -> Option<Vec<Option<f64>>> {
        self.estimated.lock().ok()?.get(&pos.key()).cloned()
    }

    fn remember_estimate(&self, pos: &Position<B>, values: &[Option<f64>]) {
        if let Ok(mut m) = self.estimated.lock() {
            if m.len() >= CACHE_LIMIT / 4 {
                m.clear();
            }
            m.insert(pos.key(), values.to_vec());
        }
    }
}

/// Values the moves of positions (see [`MoveValues`]); one per agent, since it holds a
/// solver. Generic over the board's integer (`Judge` alone: boards of up to 64 bits; past
/// them the solver reaches only late positions in time and the fallback answers the rest).
pub struct Judge<B: PoolBoard = u64> {
    shared: Arc<JudgeShared<B>>,
    solver: PooledSolver<B>,
    searcher: Option<Searcher<B>>,
    interrupt: Option<Interrupt>,
}

impl<B: PoolBoard> Judge<B> {
    /// A judge for boards of `geom`.
    pub fn new(shared: Arc<JudgeShared<B>>, geom: Geometry<B>) -> Result<Self, SolverError> {
        let searcher = match &shared.fallback {
            Fallback::Model(_) => None,
            Fallback::Search { eval, depth, .. } => {
                Some(Searcher::new(eval.clone(), SearchParams::depth(*depth)))
            }
        };
        Ok(Judge {
            solver: shared.solvers.lend(geom)?,
            shared,
            searcher,
            interrupt: None,
        })
    }

    /// Lets `interrupt` cut the solving short (the fallback then answers at once).
    pub fn set_interrupt(&mut self, interrupt: Option<Interrupt>) {
        self.interrupt = interrupt;
    }

    /// The value of every column of `pos` for the side to move.
    pub fn values(&mut self, pos: &Position<B>) -> MoveValues {
        let g = pos.geometry();
        let width = pos.width();
        if pos.last_move_won() || pos.is_full() {
            return MoveValues {
                values: vec![None; width],
                exact: true,
            };
        }
        if let Some(scores) = self.shared.cached(pos) {
            let values = scores
                .iter()
                .map(|&s| (s != i8::MIN).then(|| exact_value(i32::from(s), g)))
                .collect();
            return MoveValues {
                values,
                exact: true,
            };
        }
        if let Some(values) = self.shared.estimate_of(pos) {
            return MoveValues {
                values,
                exact: false,
            };
        }
        let stop = self
            .interrupt
            .clone()
            .unwrap_or_default()
            .with_deadline(crate::clock::Instant::now() + self.shared.limit);
        self.solver.set_interrupt(Some(stop));
        let analysis = analyze_columns(&mut self.solver, pos, Mode::Strong);
        self.solver.set_interrupt(None);
        if analysis.complete {
            let scores: Vec<i8> = analysis
                .columns
                .iter()
                .map(|c| c.map_or(i8::MIN, |(s, _)| s.clamp(-127, 127) as i8))
                .collect();
            self.shared.remember(pos, scores);
        }
        let mut estimates: Option<Vec<Option<f64>>> = None;
        let values: Vec<Option<f64>> = (0..width)
            .map(|col| {
                let (low, high) = analysis.columns[col]?;
                if low == high {
                    return Some(exact_value(low, g));
                }
                let child = pos.after(col)?;
                if child.can_win_next() {
                    // Hands the opponent a win at once: proven, whatever the time.
                    return Some(exact_value(-g.win_score(pos.moves_played() + 1), g));
                }
                let guess = estimates.get_or_insert_with(|| self.estimate(pos))[col]?;
                Some(guess.clamp(exact_value(low, g), exact_value(high, g)))
            })
            .collect();
        if !analysis.complete {
            self.shared.remember_estimate(pos, &values);
        }
        MoveValues {
            values,
            exact: analysis.complete,
        }
    }

    /// The fallback's value of every column of `pos`.
    fn estimate(&mut self, pos: &Position<B>) -> Vec<Option<f64>> {
        match (&self.shared.fallback, self.searcher.as_mut()) {
            (Fallback::Search { depth, scale, .. }, Some(searcher)) => searcher
                .analyze(pos, *depth)
                .into_iter()
                .map(|v| {
                    v.map(|v| {
                        if v.abs() >= DECISIVE {
                            v.signum()
                        } else {
                            (v / scale).tanh()
                        }
                    })
                })
                .collect(),
            (Fallback::Model(eval), _) => (0..pos.width())
                .map(|col| {
                    let child = pos.after(col)?;
                    Some(if child.last_move_won() {
                        1.0
                    } else if child.is_full() {
                        0.0
                    } else {
                        -eval.evaluate(&child).clamp(-1.0, 1.0)
                    })
                })
                .collect(),
            (Fallback::Search { .. }, None) => vec![Some(0.0); pos.width()],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(limit: Duration) -> Judge {
        let g = Geometry::STANDARD;
        let eval = crate::eval::builtin("openlines", g).unwrap();
        let shared = Arc::new(JudgeShared::new(
            Arc::new(SolverPool::new(16).with_book(Some(crate::solver::book::embedded()))),
            Fallback::Search {
                eval,
                depth: 2,
                scale: 40.0,
            },
            limit,
        ));
        Judge::new(shared, g).unwrap()
    }

    #[test]
    fn values_are_exact_from_the_book_and_the_solver() {
        let g = Geometry::STANDARD;
        let mut j = judge(Duration::from_secs(30));
        // The empty board: only the centre wins (book).
        let v = j.values(&Position::new(g));
        assert!(v.exact);
        let best: Vec<usize> = (0..7)
            .filter(|&c| v.values[c] == v.values.iter().flatten().copied().reduce(f64::max))
            .collect();
        assert_eq!(best, vec![3]);
        assert!(v.values[3].unwrap() > 0.6 && v.values[0].unwrap() < -0.6);
        // A Pons end-game position: the same as the solver's strong analysis.
        let p = Position::from_moves(g, "2252576253462244111563365343671351441").unwrap();
        let scores = crate::solver::Solver::with_table_mib(g, 8)
            .unwrap()
            .analyze(&p, Mode::Strong);
        let want: Vec<Option<f64>> = scores
            .iter()
            .map(|s| s.map(|s| exact_value(s, g)))
            .collect();
        assert_eq!(j.values(&p).values, want);
        // Asked again: from the cache, the same.
        assert_eq!(j.values(&p).values, want);
    }

    #[test]
    fn without_time_the_fallback_estimates_and_threats_stay_exact() {
        let g = Geometry::STANDARD;
        let mut j = judge(Duration::ZERO);
        // x threatens d1-d3 upward: o must block column 4 or lose at once.
        let p = Position::from_moves(g, "41424").unwrap();
        let v = j.values(&p);
        // Every column but 4 hands x a vertical four: exactly the fastest loss.
        for c in [0, 1, 2, 4, 5, 6] {
            assert_eq!(v.values[c], Some(exact_value(-g.win_score(6), g)), "{c}");
        }
        let past_book = Position::from_moves(g, "4544443312324").unwrap();
        let v = j.values(&past_book);
        assert!(!v.exact);
        assert!(v.values.iter().flatten().all(|x| (-1.0..=1.0).contains(x)));
    }
}
