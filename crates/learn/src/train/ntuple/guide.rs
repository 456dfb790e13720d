//! Guided openings: where the solver may pick where a self-play game starts.
//!
//! A share of the games (`guided`) open with a few plies (1 to `guided_plies`) in which one
//! side is the perfect player (`perfect:ties=random`: an optimal column, ties at random) and
//! the other is the network as it plays (its greedy move under the one-move rule). Nothing
//! is learned from those plies: the game starts where they end, and from there it is plain
//! self-play. With the solver as second player, the start is a position the network's own
//! first-player lines reach against best defence (where the perfect player grades it);
//! with the solver as first player, a position of perfect attack that the network has to
//! defend. Self-play alone can settle into lines it never leaves (a second player that
//! never finds the refutation teaches the first player its losing line is a win); these
//! starts keep the lines a perfect opponent would pick in what it plays.
//!
//! What the solver contributes is the opening's moves on its side, nothing else: no value,
//! score or label reaches the weights. The answers are exact, so they are the same whichever
//! thread asks first and whatever book the solvers read (the book only makes them fast: the
//! 12-ply book answers every position of an opening of up to 12 plies by a lookup a move).
//!
//! Where the solver does not reach (boards past 36 cells but 7x6), the recipe's `guide` may
//! name an agent instead (`hard`, `mcts:sims=200`): it plays the guide's side, built afresh
//! for each opening from the game's seed (nothing carries over from the games a thread
//! played before, so the openings are the same on any number of threads).

use super::config::{GuidedSide, NTupleConfig};
use super::lanes::Lane;
use connect4_engine::agents::{Agent, AgentBoard, AgentFactory, PerfectShared, Turn};
use connect4_engine::game::{BitBoard, Geometry, Player, Position};
use connect4_engine::ml::ntuple::{Compact, NTupleNetwork};
use connect4_engine::seed::{Stream, derive_seed};
use connect4_engine::solver::{SolverError, SolverPool};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The solver that guides openings (its solvers, their book and the optimal columns found
/// so far, shared by every lane). Part of the machine, not of the recipe: any book gives the
/// same answers.
#[derive(Clone)]
pub struct Guide(Arc<PerfectShared>);

impl Default for Guide {
    /// Solvers of the default table size reading the built-in book.
    fn default() -> Self {
        Guide(Arc::new(PerfectShared::default()))
    }
}

impl std::fmt::Debug for Guide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Guide")
    }
}

impl Guide {
    /// A guide whose solvers come from `solvers` (its table size and book).
    pub fn new(solvers: SolverPool) -> Self {
        Guide(Arc::new(PerfectShared::new(Arc::new(solvers))))
    }

    /// A guide with solvers of the default table size reading `book`, or the built-in book
    /// when the run reads none (`--no-book`): without a book every opening position would
    /// be a search of seconds to minutes, and a book changes no answer, only its cost.
    pub fn with_book(book: Option<Arc<connect4_engine::solver::book::Book>>) -> Self {
        let book = book.unwrap_or_else(connect4_engine::solver::book::embedded);
        Guide::new(SolverPool::new(connect4_engine::solver::DEFAULT_TT_MIB).with_book(Some(book)))
    }

    /// Lends one solver for `geom` and gives it back: the check a run makes before its first
    /// game, so that a table that cannot be had is an error then, not inside a game.
    pub(super) fn ready(&self, geom: Geometry) -> Result<(), SolverError> {
        self.0.solvers().lend(geom).map(drop)
    }

    /// The optimal columns of `pos` (bit c for column c), on a board the solver's pool
    /// holds (64 bits; runs on wider boards are never guided).
    fn optimal_columns<B: BitBoard>(&self, pos: &Position<B>) -> Result<u16, ()> {
        let narrow = pos.narrow().ok_or(())?;
        self.0.optimal_columns(&narrow).map_err(drop)
    }
}

/// Scratch slots for valuing the network's moves in an opening.
#[derive(Default)]
pub(super) struct Scratch {
    active: Vec<u32>,
    numbers: Vec<u32>,
    /// The last opening's moves.
    moves: Vec<usize>,
}

/// Plays game `g`'s guided opening on `pos`, when the recipe guides that game: nothing when
/// `config.guided` is 0 (no draw is made, so unguided recipes learn what they always did).
/// The share guided may fade over the run (`guided_final`).
/// Returns false when the opening ended the game (nobody learns from it).
#[allow(clippy::too_many_arguments)] // the lane's view of the network, as self-play's game has it
pub(super) fn guided_opening<B: AgentBoard>(
    config: &NTupleConfig,
    net: &NTupleNetwork<B>,
    compact: &Compact,
    weights: &Lane,
    guide: &Guide,
    agent: Option<&AgentFactory<B>>,
    g: usize,
    pos: &mut Position<B>,
    scratch: &mut Scratch,
) -> bool {
    scratch.moves.clear();
    if config.guided <= 0.0 {
        return true;
    }
    let mut rng =
        ChaCha8Rng::seed_from_u64(derive_seed(config.seed, Stream::NTupleGuide, &[g as u64]));
    if rng.r#gen::<f32>() >= config.guided_share(g) {
        return true;
    }
    let plies = rng.gen_range(1..=config.guided_plies.max(1));
    let solver_side = match config.guided_side {
        GuidedSide::First => Player::First,
        GuidedSide::Second => Player::Second,
        GuidedSide::Both if g.is_multiple_of(2) => Player::Second,
        GuidedSide::Both => Player::First,
    };
    let geom = pos.geometry();
    // An agent guide: built afresh for this opening (nothing carries over from the games
    // this thread played before), its ties drawn from the game's seed.
    let mut agent = match agent {
        Some(factory) => {
            let seed = rng.r#gen::<u64>();
            let Ok(mut agent) = factory.build(seed) else {
                // The run built one before its first game; should a later one fail, the
                // game starts here rather than stop the run.
                return true;
            };
            agent.vary(seed);
            Some(agent)
        }
        None => None,
    };
    for _ in 0..plies {
        let col = if pos.side_to_move() == solver_side {
            // The run checked before its first game that a solver can be lent; should the
            // machine refuse one later, the game starts here rather than stop the run.
            let Some(mask) = guide_columns(config, guide, agent.as_deref_mut(), pos, &mut rng)
            else {
                return true;
            };
            let cols: Vec<usize> = (0..geom.width()).filter(|&c| mask >> c & 1 == 1).collect();
            cols[rng.gen_range(0..cols.len())]
        } else {
            greedy(net, compact, weights, pos, scratch)
        };
        pos.play_col(col);
        scratch.moves.push(col);
        if pos.last_move_won() || pos.is_full() {
            return false;
        }
    }
    true
}

/// The columns (bit c for column c) the guide's side chooses among in `pos`: as
/// `perfect:ties=random,eps=E` plays, a share of random columns that hand over no win at once
/// (drawn only when the recipe asks, so that the draws of recipes without it stay as they
/// were), else the agent's move, or the solver's optimal columns. `None` when the solver
/// cannot answer.
fn guide_columns<B: AgentBoard>(
    config: &NTupleConfig,
    guide: &Guide,
    agent: Option<&mut (dyn Agent<B> + 'static)>,
    pos: &Position<B>,
    rng: &mut ChaCha8Rng,
) -> Option<u16> {
    let geom = pos.geometry();
    if config.guided_eps > 0.0 && rng.r#gen::<f32>() < config.guided_eps {
        let safe = pos.possible_non_losing_moves();
        let safe_cols = (0..geom.width())
            .filter(|&c| safe & geom.column_mask(c) != B::ZERO)
            .fold(0u16, |m, c| m | 1 << c);
        if safe_cols != 0 {
            return Some(safe_cols);
        }
    }
    match agent {
        Some(agent) => Some(1 << agent.choose(&Turn::new(*pos))),
        None => guide.optimal_columns(pos).ok(),
    }
}

/// The network's move as self-play's greedy move makes it: a win at once if there is one,
/// never a column that hands one over (while another is left), else the afterstate it
/// values best for the side to move (the leftmost of equals).
fn greedy<B: BitBoard>(
    net: &NTupleNetwork<B>,
    compact: &Compact,
    weights: &Lane,
    pos: &Position<B>,
    s: &mut Scratch,
) -> usize {
    let geom = pos.geometry();
    let allowed = pos.one_move_rule_cells();
    let sign = if pos.side_to_move() == Player::First {
        1.0
    } else {
        -1.0
    };
    let mut best = (usize::MAX, f32::NEG_INFINITY);
    for c in pos.legal_columns() {
        if allowed & geom.column_mask(c) == B::ZERO {
            continue;
        }
        let after = pos.after(c).expect("a legal column");
        let value = if after.last_move_won() {
            sign
        } else if after.is_full() {
            0.0
        } else {
            net.active_into(&after, &mut s.active);
            compact.numbers_into(&s.active, &mut s.numbers);
            weights.value(&s.numbers)
        };
        if sign * value > best.1 {
            best = (c, sign * value);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::ntuple::config::Rule;
    use crate::train::ntuple::lanes::Weights;
    use connect4_engine::ml::ntuple::NTupleLayout;
    use connect4_engine::solver::Solver;

    /// A 5x4 board, a network of zero weights (its greedy move is the leftmost safe
    /// column) and a recipe that guides the given share of games.
    fn setup(guided: f32, side: GuidedSide) -> (NTupleConfig, NTupleNetwork, Weights) {
        let geom = Geometry::new(5, 4).unwrap();
        let config = NTupleConfig {
            layout: NTupleLayout {
                tuples: 6,
                cells: 4,
                sets: 2,
                seed: 1,
            },
            guided,
            guided_final: guided,
            guided_plies: 6,
            guided_side: side,
            ..NTupleConfig::default()
        };
        let net = NTupleNetwork::new(geom, config.layout).unwrap();
        let weights = Weights::new(&net, Rule::Td, None);
        (config, net, weights)
    }

    /// The openings of games 0..n: the moves each played, or `None` when it ended the game.
    fn openings(
        config: &NTupleConfig,
        net: &NTupleNetwork,
        w: &Weights,
    ) -> Vec<Option<Vec<usize>>> {
        let agent = config.guide_spec().unwrap().map(|spec| {
            spec.factory_on(
                net.geometry(),
                &connect4_engine::agents::Resources::default(),
            )
            .unwrap()
        });
        let lane = Lane::new(w);
        let guide = Guide::new(SolverPool::new(8));
        let mut scratch = Scratch::default();
        (0..200)
            .map(|g| {
                let mut pos = Position::new(net.geometry());
                let open = guided_opening(
                    config,
                    net,
                    &w.compact,
                    &lane,
                    &guide,
                    agent.as_ref(),
                    g,
                    &mut pos,
                    &mut scratch,
                );
                open.then(|| scratch.moves.clone())
            })
            .collect()
    }

    /// The guide's plies of `openings` played with the guide on both sides (first in odd
    /// games): (game, ply, the position it moved in, its column).
    fn guide_plies(
        openings: Vec<Option<Vec<usize>>>,
        geom: Geometry,
    ) -> Vec<(usize, usize, Position, usize)> {
        let mut plies = Vec::new();
        for (g, moves) in openings.into_iter().enumerate() {
            let mut pos = Position::new(geom);
            for (ply, &col) in moves.unwrap_or_default().iter().enumerate() {
                if (ply % 2 == 0) == (g % 2 == 1) {
                    plies.push((g, ply, pos, col));
                }
                pos.play_col(col);
            }
        }
        plies
    }

    #[test]
    fn the_solver_plays_its_side_optimally_and_the_network_its_greedy_moves() {
        let (config, net, w) = setup(1.0, GuidedSide::Both);
        let geom = net.geometry();
        let mut solver = Solver::with_table_mib(geom, 8).unwrap();
        let mut lengths = std::collections::BTreeSet::new();
        for (g, moves) in openings(&config, &net, &w).into_iter().enumerate() {
            let moves = moves.expect("no 5x4 game ends within 6 plies of these openings");
            lengths.insert(moves.len());
            let solver_moves_first = g % 2 == 1;
            let mut pos = Position::new(geom);
            for (ply, &col) in moves.iter().enumerate() {
                if (ply % 2 == 0) == solver_moves_first {
                    // An optimal column: its exact score is the position's.
                    let best = solver.solve(&pos);
                    let after = pos.after(col).unwrap();
                    assert_eq!(-solver.solve(&after), best, "game {g} ply {ply}");
                } else {
                    // Zero weights value every afterstate alike: the leftmost safe column.
                    let safe = pos.possible_non_losing_moves();
                    let leftmost = (0..geom.width())
                        .find(|&c| safe & geom.column_mask(c) != 0)
                        .unwrap();
                    assert_eq!(col, leftmost, "game {g} ply {ply}");
                }
                pos.play_col(col);
            }
        }
        // Every length from 1 to guided_plies occurs.
        assert_eq!(lengths, (1..=6).collect());
    }

    #[test]
    fn a_fading_share_guides_the_early_games_and_leaves_the_late_ones() {
        // From every game (share 1) down to none (share 0) over a 200-game run: linear,
        // 1 - g/200 at game g.
        let (mut config, net, w) = setup(1.0, GuidedSide::Both);
        config.games = 200;
        config.guided_final = 0.0;
        assert_eq!(config.guided_share(0), 1.0);
        assert_eq!(config.guided_share(100), 0.5);
        let guided: Vec<bool> = openings(&config, &net, &w)
            .iter()
            .map(|m| !m.as_deref().unwrap_or(&[]).is_empty())
            .collect();
        // The first game is always guided; the first quarter nearly all, the last nearly none.
        assert!(guided[0]);
        let early = guided[..50].iter().filter(|&&x| x).count();
        let late = guided[150..].iter().filter(|&&x| x).count();
        assert!(
            early >= 35 && late <= 15,
            "{early} early, {late} late of 50 guided"
        );
        // A share that does not fade draws what the constant share drew, game for game.
        let (mut constant, net, w) = setup(0.5, GuidedSide::Both);
        let before = openings(&constant, &net, &w);
        constant.guided_final = 0.5;
        constant.games = 200;
        assert_eq!(openings(&constant, &net, &w), before);
    }

    #[test]
    fn the_share_guided_and_the_side_are_the_recipes() {
        // Off: no game is guided.
        let (config, net, w) = setup(0.0, GuidedSide::Both);
        assert!(
            openings(&config, &net, &w)
                .iter()
                .all(|m| m.as_deref() == Some(&[][..]))
        );
        // Half: some games, not all.
        let (config, net, w) = setup(0.5, GuidedSide::Second);
        let guided = openings(&config, &net, &w)
            .iter()
            .filter(|m| !m.as_deref().unwrap_or(&[]).is_empty())
            .count();
        assert!((60..140).contains(&guided), "{guided} of 200 guided");
        // With eps 1 every move of the solver is a random safe one: some are not optimal.
        let (mut config, net, w) = setup(1.0, GuidedSide::Both);
        config.guided_eps = 1.0;
        let geom = net.geometry();
        let mut solver = Solver::with_table_mib(geom, 8).unwrap();
        let mut erred = 0;
        for (_, _, pos, col) in guide_plies(openings(&config, &net, &w), geom) {
            assert!(pos.possible_non_losing_moves() & geom.column_mask(col) != 0);
            let after = pos.after(col).unwrap();
            erred += usize::from(-solver.solve(&after) < solver.solve(&pos));
        }
        assert!(erred > 20, "{erred} random moves that were not optimal");
        // The solver as first player: every opening's first move is an optimal one.
        let (config, net, w) = setup(1.0, GuidedSide::First);
        let geom = net.geometry();
        let mut solver = Solver::with_table_mib(geom, 8).unwrap();
        let start = Position::new(geom);
        let best = solver.solve(&start);
        for moves in openings(&config, &net, &w).into_iter().flatten() {
            let after = start.after(moves[0]).unwrap();
            assert_eq!(-solver.solve(&after), best);
        }
    }

    #[test]
    fn an_agent_named_as_the_guide_plays_its_side() {
        // The solver's centre-first player named as an agent spec (not `perfect`, the
        // solver's own path): each move on the guide's side is its move, the centre-most
        // optimal column.
        let (mut config, net, w) = setup(1.0, GuidedSide::Both);
        config.guide = "perfect:ties=centre".into();
        let geom = net.geometry();
        let mut solver = Solver::with_table_mib(geom, 8).unwrap();
        let mut checked = 0;
        for (g, ply, pos, col) in guide_plies(openings(&config, &net, &w), geom) {
            let best = solver.solve(&pos);
            // Centre first, then alternately left and right (2, 1, 3, 0, 4).
            let centre_most = [2, 1, 3, 0, 4]
                .into_iter()
                .find(|&c| {
                    pos.after(c).is_some_and(|a| {
                        a.last_move_won()
                            || if a.is_full() {
                                best == 0
                            } else {
                                -solver.solve(&a) == best
                            }
                    })
                })
                .unwrap();
            assert_eq!(col, centre_most, "game {g}, ply {ply}");
            checked += 1;
        }
        assert!(checked > 100, "{checked} guide moves checked");
        // `hard` as the guide: the same openings on every call (each is built afresh from
        // the game's seed), and not the solver's.
        config.guide = "hard".into();
        let hard = openings(&config, &net, &w);
        assert_eq!(hard, openings(&config, &net, &w));
        config.guide = "perfect".into();
        assert_ne!(hard, openings(&config, &net, &w));
        // Its ties varied from game to game: more than one first move as first player.
        let firsts: std::collections::BTreeSet<usize> = hard
            .iter()
            .enumerate()
            .filter(|(g, _)| g % 2 == 1)
            .filter_map(|(_, m)| m.as_ref().and_then(|m| m.first().copied()))
            .collect();
        assert!(firsts.len() > 1, "first moves {firsts:?}");
    }

    #[test]
    fn a_guide_that_is_no_agent_is_the_recipes_error() {
        let (mut config, _, _) = setup(1.0, GuidedSide::Both);
        config.guide = "hardest".into();
        let e = config.check_settings().unwrap_err().to_string();
        assert!(
            e.contains("guide = \"hardest\"") && e.contains("hardest"),
            "{e}"
        );
        config.guide = "hard".into();
        config.check_settings().unwrap();
    }
}
