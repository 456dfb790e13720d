//! The perfect agent: the solver's best move, with the options the n-tuple literature's
//! yardstick needs (Thill 2026): ties broken at random among the columns of the best exact
//! score, and a share `eps` of random moves that hand the opponent no immediate win.

use super::{Agent, Turn};
use crate::game::{Geometry, Position};
use crate::seed::{Stream, derive_seed};
use crate::solver::{PooledSolver, Solver, SolverError, SolverPool};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// How the perfect agent chooses among columns of equal exact score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// The most central one (deterministic; the solver's own order).
    Centre,
    /// Uniformly at random (seeded): the literature's perfect opponent.
    Random,
    /// Uniformly at random among every column that keeps the position's outcome: any winning
    /// column, not only the fastest (draws and the slowest loss as with `Random`). A reading
    /// of "equally good moves" by value alone, which makes a winning player's games longer.
    Value,
}

/// The perfect agent's settings (`perfect[:tt=MIB][,ties=centre|random|value][,eps=E][,seed=S]`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerfectSettings {
    /// Solver table size, MiB.
    pub tt_mib: usize,
    /// Tie-breaking among optimal columns.
    pub ties: Ties,
    /// Chance of a random move that gives the opponent no immediate win.
    pub eps: f64,
    /// Seed of the random tie-breaks and random moves (mixed with each game's seed).
    pub seed: u64,
}

impl PerfectSettings {
    /// The classic solver agent: centre first, never random.
    pub fn centre(tt_mib: usize) -> Self {
        PerfectSettings {
            tt_mib,
            ties: Ties::Centre,
            eps: 0.0,
            seed: 0,
        }
    }
}

/// What the perfect agents of one spec share across games: the optimal columns of every
/// position solved so far (games against a fixed opponent revisit the same positions) and the
/// solvers themselves, whose tables stay warm from one game to the next (and whose pool
/// carries the book they read).
pub struct PerfectShared {
    /// Canonical key (mirror images share an entry) -> bit mask of the optimal columns in the
    /// canonical orientation.
    optimal: Mutex<HashMap<u64, u16>>,
    solvers: Arc<SolverPool>,
}

impl Default for PerfectShared {
    /// Solvers of the default table size reading the built-in book.
    fn default() -> Self {
        Self::new(Arc::new(SolverPool::new(crate::solver::DEFAULT_TT_MIB)))
    }
}

impl PerfectShared {
    /// What agents share when their solvers come from `solvers` (its table size and book).
    pub fn new(solvers: Arc<SolverPool>) -> Self {
        PerfectShared {
            optimal: Mutex::default(),
            solvers,
        }
    }

    /// The pool the agents' solvers come from.
    pub fn solvers(&self) -> &Arc<SolverPool> {
        &self.solvers
    }

    #[cfg(test)] // only the tests ask
    /// Positions whose optimal columns are known.
    pub(crate) fn cached_positions(&self) -> usize {
        self.optimal.lock().map(|m| m.len()).unwrap_or(0)
    }

    /// The columns of `pos` that `perfect:ties=random` chooses among (bit c = column c):
    /// every winning column when one wins at once, else those of the best exact score (the
    /// fastest win, the slowest loss). Remembered, so a position asked again costs a lookup;
    /// a solver is lent from the pool only for a position not seen before. What trainers
    /// ask when the solver picks where games start: exact, so the same whichever thread
    /// asks first and whatever book the pool reads.
    pub fn optimal_columns(&self, pos: &Position) -> Result<u16, SolverError> {
        if let Some(m) = self.lookup(pos) {
            return Ok(m);
        }
        let mut solver = self.solvers.lend(pos.geometry())?;
        // A solver an agent handed back may still carry that agent's interrupt.
        solver.set_interrupt(None);
        let mask = optimal_mask(&mut solver, pos, Ties::Random)
            .expect("a solver with no interrupt proves every position");
        self.remember(pos, mask);
        Ok(mask)
    }

    fn lookup(&self, pos: &Position) -> Option<u16> {
        let (key, mirrored) = canonical(pos);
        let mask = *self.optimal.lock().ok()?.get(&key)?;
        Some(if mirrored {
            mirror_mask(mask, pos.width())
        } else {
            mask
        })
    }

    fn remember(&self, pos: &Position, mask: u16) {
        let (key, mirrored) = canonical(pos);
        let stored = if mirrored {
            mirror_mask(mask, pos.width())
        } else {
            mask
        };
        if let Ok(mut m) = self.optimal.lock() {
            m.insert(key, stored);
        }
    }
}

/// The canonical key of `pos` and whether it is the mirror image's.
fn canonical(pos: &Position) -> (u64, bool) {
    let key = pos.key();
    let canon = pos.canonical_key();
    (canon, canon != key)
}

fn mirror_mask(mask: u16, width: usize) -> u16 {
    (0..width)
        .filter(|&c| mask >> c & 1 == 1)
        .fold(0, |m, c| m | 1 << (width - 1 - c))
}

/// Plays a game-theoretically optimal move; among optimal moves the fastest win or the
/// slowest loss, most central first or at random (see [`Ties`]). On 7x6 the first plies come
/// from the opening book, where solving would take tens of seconds per move.
pub struct Perfect {
    name: String,
    solver: PooledSolver,
    settings: PerfectSettings,
    rng: ChaCha8Rng,
    shared: Arc<PerfectShared>,
    /// Whether the optimal columns are worth remembering (agents of one spec share them);
    /// a lone centre-first agent asks the solver for its best move directly.
    caches: bool,
}

impl Perfect {
    /// A perfect agent for `geom` whose solver table takes `tt_mib` MiB (centre first).
    pub fn new(
        name: impl Into<String>,
        geom: Geometry,
        tt_mib: usize,
    ) -> Result<Self, SolverError> {
        Self::with_settings(name, geom, PerfectSettings::centre(tt_mib), None, 0)
    }

    /// A perfect agent with `settings`; `game_seed` varies its random choices from game to
    /// game; `shared` (if any) lends it a warm solver (with its pool's book) and the optimal
    /// columns known so far; without it the agent has a solver of its own reading the built-in
    /// book.
    pub(crate) fn with_settings(
        name: impl Into<String>,
        geom: Geometry,
        settings: PerfectSettings,
        shared: Option<Arc<PerfectShared>>,
        game_seed: u64,
    ) -> Result<Self, SolverError> {
        let caches = shared.is_some();
        let shared = shared.unwrap_or_else(|| {
            Arc::new(PerfectShared::new(Arc::new(SolverPool::new(
                settings.tt_mib,
            ))))
        });
        Ok(Perfect {
            name: name.into(),
            solver: shared.solvers.lend(geom)?,
            settings,
            rng: ChaCha8Rng::seed_from_u64(derive_seed(
                settings.seed,
                Stream::PerfectTies,
                &[game_seed],
            )),
            shared,
            caches,
        })
    }

    fn solver(&mut self) -> &mut Solver {
        &mut self.solver
    }

    /// The optimal columns of `pos` as a bit mask (bit c = column c), `None` when the solver
    /// was interrupted before it proved them.
    fn optimal_columns(&mut self, pos: &Position) -> Option<u16> {
        if let Some(m) = self.shared.lookup(pos) {
            return Some(m);
        }
        let mask = optimal_mask(&mut self.solver, pos, self.settings.ties)?;
        self.shared.remember(pos, mask);
        Some(mask)
    }

    /// What the agent plays when its solver is stopped before it proves anything: the most
    /// central move that does not lose at once.
    fn fallback(pos: &Position) -> usize {
        let safe = pos.possible_non_losing_moves();
        let g = pos.geometry();
        g.centre_order()
            .find(|&c| safe & g.column_mask(c) != 0)
            .or_else(|| g.centre_order().find(|&c| pos.can_play(c)))
            .expect("an open game has a legal column")
    }

    fn pick(&mut self, cols: impl Iterator<Item = usize>) -> Option<usize> {
        let cols: Vec<usize> = cols.collect();
        (!cols.is_empty()).then(|| cols[self.rng.gen_range(0..cols.len())])
    }
}

/// The columns of `pos` that `ties` counts as optimal (bit c = column c): every winning
/// column when one wins at once, else those of the best exact score (by value alone with
/// [`Ties::Value`]); `None` when the solver was interrupted before it proved them.
fn optimal_mask(solver: &mut Solver, pos: &Position, ties: Ties) -> Option<u16> {
    let g = pos.geometry();
    let wins = pos.winning_cells() & pos.possible();
    if wins != 0 {
        return Some(
            (0..g.width())
                .filter(|&c| wins & g.column_mask(c) != 0)
                .fold(0u16, |m, c| m | 1 << c),
        );
    }
    let target = solver.solve(pos);
    if solver.was_interrupted() {
        return None;
    }
    // Every child scores at least -target from its side; optimal ones exactly. By value, a
    // won position accepts every child lost for the other side.
    let bound = if ties == Ties::Value && target > 0 {
        -1
    } else {
        -target
    };
    let mut mask = 0u16;
    for col in pos.legal_columns().collect::<Vec<_>>() {
        let mut child = *pos;
        child.play_col(col);
        if solver.score_at_most(&child, bound) {
            mask |= 1 << col;
        }
        if solver.was_interrupted() {
            return None;
        }
    }
    Some(mask)
}

impl Agent for Perfect {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, turn: &Turn) -> usize {
        let pos = turn.position;
        let g = pos.geometry();
        if self.settings.eps > 0.0 && self.rng.r#gen::<f64>() < self.settings.eps {
            let safe = pos.possible_non_losing_moves();
            if let Some(c) = self.pick((0..g.width()).filter(|&c| safe & g.column_mask(c) != 0)) {
                return c;
            }
        }
        if self.settings.ties == Ties::Centre && !self.caches {
            let (col, _) = self
                .solver()
                .best_move(&pos)
                .expect("agents are only asked to move in open games");
            if self.solver().was_interrupted() {
                return Self::fallback(&pos);
            }
            return col;
        }
        let Some(mask) = self.optimal_columns(&pos) else {
            return Self::fallback(&pos);
        };
        let optimal = (0..g.width()).filter(|&c| mask >> c & 1 == 1);
        match self.settings.ties {
            Ties::Random | Ties::Value => self.pick(optimal),
            Ties::Centre => g.centre_order().find(|&c| mask >> c & 1 == 1),
        }
        .unwrap_or_else(|| Self::fallback(&pos))
    }

    fn set_interrupt(&mut self, interrupt: Option<crate::Interrupt>) {
        self.solver().set_interrupt(interrupt);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(ties: Ties, eps: f64, shared: &Arc<PerfectShared>, seed: u64) -> Perfect {
        let s = PerfectSettings {
            tt_mib: 16,
            ties,
            eps,
            seed: 3,
        };
        Perfect::with_settings("p", Geometry::STANDARD, s, Some(shared.clone()), seed).unwrap()
    }

    #[test]
    fn random_ties_play_only_optimal_columns_and_vary() {
        let g = Geometry::STANDARD;
        let shared = Arc::new(PerfectShared::default());
        // After 4 4 (x d1, o d2): x's optimal columns by exact score, from the book.
        let pos = Position::from_moves(g, "44").unwrap();
        let mut s = Solver::with_table_mib(g, 16).unwrap();
        let scores = s.analyze(&pos, crate::Mode::Strong);
        let best = scores.iter().flatten().max().copied().unwrap();
        let optimal: Vec<usize> = (0..7).filter(|&c| scores[c] == Some(best)).collect();
        let mut seen = std::collections::BTreeSet::new();
        for game in 0..40 {
            let c = agent(Ties::Random, 0.0, &shared, game).choose(&Turn::new(pos));
            assert!(optimal.contains(&c), "{c} not in {optimal:?}");
            seen.insert(c);
        }
        assert_eq!(seen.len(), optimal.len(), "every optimal column is played");
        assert!(shared.cached_positions() >= 1);
        // The mirror image reads the mirrored cache entry.
        let m = pos.mirror();
        let c = agent(Ties::Random, 0.0, &shared, 1).choose(&Turn::new(m));
        assert!(optimal.contains(&(6 - c)));
        // Same seeds, same choices.
        let a = agent(Ties::Random, 0.0, &shared, 7).choose(&Turn::new(pos));
        let b = agent(Ties::Random, 0.0, &shared, 7).choose(&Turn::new(pos));
        assert_eq!(a, b);
    }

    #[test]
    fn value_ties_play_every_winning_column() {
        let g = Geometry::STANDARD;
        // After 4 4 5 5 x wins with columns 3 and 6 (score 18, fastest) and 4 and 5 (score 2).
        let pos = Position::from_moves(g, "4455").unwrap();
        let played = |ties| {
            let shared = Arc::new(PerfectShared::default());
            (0..40)
                .map(|game| agent(ties, 0.0, &shared, game).choose(&Turn::new(pos)))
                .collect::<std::collections::BTreeSet<usize>>()
        };
        assert_eq!(played(Ties::Random), [2, 5].into());
        assert_eq!(played(Ties::Value), [2, 3, 4, 5].into());
        // Drawn and lost positions keep the best exact score: after 4 3 4 only 4 draws.
        let drawn = Position::from_moves(g, "434").unwrap();
        let shared = Arc::new(PerfectShared::default());
        for game in 0..10 {
            assert_eq!(
                agent(Ties::Value, 0.0, &shared, game).choose(&Turn::new(drawn)),
                3
            );
        }
    }

    #[test]
    fn eps_moves_never_hand_over_an_immediate_win() {
        let g = Geometry::STANDARD;
        let shared = Arc::new(PerfectShared::default());
        // x threatens d1-d3 upward: o must block column 4; every other move loses at once.
        let pos = Position::from_moves(g, "41424").unwrap();
        for game in 0..30 {
            let c = agent(Ties::Random, 1.0, &shared, game).choose(&Turn::new(pos));
            assert_eq!(c, 3);
        }
        // On an open board eps=1 plays more than the optimal columns.
        let open = Position::from_moves(g, "4").unwrap();
        let cols: std::collections::BTreeSet<usize> = (0..40)
            .map(|game| agent(Ties::Random, 1.0, &shared, game).choose(&Turn::new(open)))
            .collect();
        assert!(cols.len() >= 5, "{cols:?}");
    }
}
