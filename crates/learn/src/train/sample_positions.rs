//! Varied positions for the data engine: games between a seeded mix of agents, each move
//! replaced by a random one with some probability, stopped at a chosen stone count. What
//! `c4 data positions` samples and `c4 data bench-sets` draws its candidates from.

use connect4_engine::agents::{AgentBoard, AgentError, AgentFactory, AgentSpec, Resources, Turn};
use connect4_engine::game::{Geometry, Outcome, Position};
use connect4_engine::progress::Progress;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::HashSet;
use std::ops::RangeInclusive;

/// Plays one game between two agents drawn from `factories` (with `rng`), each move replaced
/// by a uniformly random legal one with probability `epsilon`, up to `target` stones. Returns
/// the position and its move string (1-based columns), or `None` when the game ended first
/// (or there is no agent to play it).
pub fn play_mix_game<B: AgentBoard>(
    factories: &[AgentFactory<B>],
    rng: &mut ChaCha8Rng,
    target: usize,
    epsilon: f64,
) -> Result<Option<(Position<B>, String)>, AgentError> {
    let Some(geom) = factories.first().map(|f| f.geometry()) else {
        return Ok(None);
    };
    let a = rng.gen_range(0..factories.len());
    let b = rng.gen_range(0..factories.len());
    let mut agents = [
        factories[a].build(rng.r#gen())?,
        factories[b].build(rng.r#gen())?,
    ];
    let mut pos = Position::new(geom);
    let mut moves = String::with_capacity(target);
    while pos.moves_played() < target {
        if pos.outcome() != Outcome::Ongoing {
            return Ok(None);
        }
        let col = if rng.gen_bool(epsilon) {
            let legal: Vec<usize> = pos.legal_columns().collect();
            legal[rng.gen_range(0..legal.len())]
        } else {
            agents[pos.moves_played() % 2].choose(&Turn::new(pos))
        };
        pos.play_col(col);
        moves.push(connect4_engine::game::moves::column_char(col).unwrap_or('?'));
    }
    Ok((pos.outcome() == Outcome::Ongoing).then_some((pos, moves)))
}

/// Why an agent mix cannot play.
#[derive(Debug, thiserror::Error)]
pub enum MixError {
    /// An agent of the mix could not be built.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// The agent mix is empty.
    #[error("the agent mix is empty")]
    Empty,
    /// The random-move chance is not a probability.
    #[error("epsilon {0} is not a probability in [0, 1]")]
    Epsilon(f64),
}

/// Checks an agent mix and its random-move chance, and builds the agents' factories for
/// [`play_mix_game`].
pub(crate) fn mix_factories<B: AgentBoard>(
    mix: &[AgentSpec],
    epsilon: f64,
    geom: Geometry<B>,
    book: Option<std::sync::Arc<connect4_engine::solver::book::Book>>,
) -> Result<Vec<AgentFactory<B>>, MixError> {
    if mix.is_empty() {
        return Err(MixError::Empty);
    }
    if !(0.0..=1.0).contains(&epsilon) {
        return Err(MixError::Epsilon(epsilon));
    }
    Ok(mix
        .iter()
        .map(|s| {
            let resources = Resources {
                book: book.clone(),
                ..Resources::default()
            };
            s.factory_on(geom, &resources)
        })
        .collect::<Result<Vec<_>, _>>()?)
}

/// What to sample, on a board of the integer `B` (`u128` past 64 bits).
#[derive(Clone, Debug)]
pub struct PositionsConfig<B: AgentBoard = u64> {
    /// Stones on the board of the positions kept, spread evenly over the range.
    pub plies: RangeInclusive<usize>,
    /// Positions wanted.
    pub count: usize,
    /// The agents whose games give the positions; two are drawn for every game.
    pub mix: Vec<AgentSpec>,
    /// Chance that a move is a uniformly random legal one instead of the agent's.
    pub epsilon: f64,
    /// Seed of every game.
    pub seed: u64,
    /// The board.
    pub geometry: Geometry<B>,
    /// Canonical keys ([`Position::canonical_key`]) of positions to leave out, e.g. a
    /// training set that a held-out set must not overlap.
    pub exclude: HashSet<B>,
}

/// Why the positions could not be sampled.
#[derive(Debug, thiserror::Error)]
pub enum PositionsError {
    /// The agent mix cannot play.
    #[error(transparent)]
    Mix(#[from] MixError),
    /// An agent could not be built for a game.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// The stone range does not fit the board.
    #[error("stones {lo}..{hi}: need 0 <= LO <= HI < {cells} (cells on the board)")]
    Plies {
        /// Fewest stones.
        lo: usize,
        /// Most stones.
        hi: usize,
        /// Cells on the board.
        cells: usize,
    },
    /// Games stopped giving new positions of a stone count: there may not be that many.
    #[error(
        "only {found} distinct positions of {stones} stones after {games} games aimed at them (wanted {wanted}); ask for fewer, or a wider range"
    )]
    Starved {
        /// The stone count.
        stones: usize,
        /// Distinct positions found.
        found: usize,
        /// Positions wanted.
        wanted: usize,
        /// Games aimed at that stone count.
        games: usize,
    },
}

/// The sample and how varied it is.
#[derive(Clone, Debug)]
pub struct PositionsOutput<B: AgentBoard = u64> {
    /// The positions with their move strings, in the order they were found.
    pub positions: Vec<(Position<B>, String)>,
    /// Games played.
    pub games: usize,
    /// Games that reached their stone count with an eligible position (open, no win in one
    /// for the side to move), before removing repeats.
    pub sampled: usize,
    /// Of those, repeats of a position already taken (mirror images count as the same).
    pub duplicates: usize,
    /// Of those, positions left out because they are in the exclusion set.
    pub excluded: usize,
    /// Positions per stone count, in stone order.
    pub per_stones: Vec<(usize, usize)>,
}

impl<B: AgentBoard> PositionsOutput<B> {
    /// Distinct positions per sampled one: 1.0 when no game repeated another's position.
    pub fn distinct_ratio(&self) -> f64 {
        if self.sampled == 0 {
            0.0
        } else {
            self.positions.len() as f64 / self.sampled as f64
        }
    }
}

/// Samples `cfg.count` distinct positions: no two equal up to mirror, none finished, none
/// with a win in one for the side to move, the same number (within one) for every stone
/// count of the range. Games are played in parallel in fixed batches and positions taken in
/// game order, so the result depends on the seed only. `progress` hears of one part.
pub fn sample_positions<B: AgentBoard>(
    cfg: &PositionsConfig<B>,
    progress: &dyn Progress,
) -> Result<PositionsOutput<B>, PositionsError> {
    let factories = mix_factories(
        &cfg.mix,
        cfg.epsilon,
        cfg.geometry,
        Some(connect4_engine::solver::book::embedded()),
    )?;
    let (lo, hi) = (*cfg.plies.start(), *cfg.plies.end());
    let cells = cfg.geometry.cells();
    if lo > hi || hi >= cells {
        return Err(PositionsError::Plies { lo, hi, cells });
    }
    let k = hi - lo + 1;
    // Quotas: count / k per stone count, the first count % k of them one more.
    let mut quota: Vec<usize> = (0..k)
        .map(|i| cfg.count / k + usize::from(i < cfg.count % k))
        .collect();
    let mut taken_per = vec![0usize; k];
    let mut aimed = vec![0usize; k];
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(cfg.count);
    let (mut games, mut sampled, mut duplicates, mut excluded) = (0usize, 0usize, 0usize, 0usize);
    let batch = 64 * rayon::current_num_threads().max(1);
    progress.start("positions", cfg.count);
    while out.len() < cfg.count {
        let open: Vec<usize> = (0..k).filter(|&i| quota[i] > 0).collect();
        let targets: Vec<usize> = (0..batch).map(|j| open[j % open.len()]).collect();
        let found = play_batch(cfg, &factories, &targets, games, lo)?;
        games += batch;
        for (&i, f) in targets.iter().zip(found) {
            aimed[i] += 1;
            let Some((pos, moves)) = f else { continue };
            if pos.can_win_next() {
                continue;
            }
            sampled += 1;
            if quota[i] == 0 {
                continue;
            }
            if cfg.exclude.contains(&pos.canonical_key()) {
                excluded += 1;
                continue;
            }
            if !seen.insert(pos.canonical_key()) {
                duplicates += 1;
                continue;
            }
            quota[i] -= 1;
            taken_per[i] += 1;
            out.push((pos, moves));
            progress.advance(1);
        }
        // A stone count whose games keep repeating known positions has run dry.
        if let Some(i) = (0..k).find(|&i| quota[i] > 0 && aimed[i] > 200 * (taken_per[i] + 10)) {
            return Err(PositionsError::Starved {
                stones: lo + i,
                found: taken_per[i],
                wanted: taken_per[i] + quota[i],
                games: aimed[i],
            });
        }
    }
    progress.finish();
    Ok(PositionsOutput {
        positions: out,
        games,
        sampled,
        duplicates,
        excluded,
        per_stones: (0..k).map(|i| (lo + i, taken_per[i])).collect(),
    })
}

/// Where a game stopped and its moves (`None`: it ended first).
type Found<B> = Option<(Position<B>, String)>;

/// One batch of games, game `games + j` aiming at the stone count `lo + targets[j]`: the
/// position each stopped at and its moves (`None` where the game ended first).
fn play_batch<B: AgentBoard>(
    cfg: &PositionsConfig<B>,
    factories: &[AgentFactory<B>],
    targets: &[usize],
    games: usize,
    lo: usize,
) -> Result<Vec<Found<B>>, PositionsError> {
    targets
        .par_iter()
        .enumerate()
        .map(|(j, &i)| {
            let game = (games + j) as u64;
            let mut rng = ChaCha8Rng::seed_from_u64(connect4_engine::seed::derive_seed(
                cfg.seed,
                connect4_engine::seed::Stream::SamplePositions,
                &[game],
            ));
            play_mix_game(factories, &mut rng, lo + i, cfg.epsilon)
        })
        .collect::<Result<_, _>>()
        .map_err(PositionsError::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use connect4_engine::progress::Quiet;

    fn config(plies: RangeInclusive<usize>, count: usize, seed: u64) -> PositionsConfig {
        PositionsConfig {
            plies,
            count,
            mix: ["random", "easy", "hard"]
                .iter()
                .map(|s| s.parse().unwrap())
                .collect(),
            epsilon: 0.2,
            seed,
            geometry: Geometry::STANDARD,
            exclude: HashSet::new(),
        }
    }

    #[test]
    fn positions_are_distinct_open_spread_evenly_and_replayable() {
        let cfg = config(10..=20, 110, 4);
        let out = sample_positions(&cfg, &Quiet).unwrap();
        assert_eq!(out.positions.len(), 110);
        assert_eq!(
            out.per_stones,
            (10..=20).map(|s| (s, 10)).collect::<Vec<_>>()
        );
        let mut keys = HashSet::new();
        for (pos, moves) in &out.positions {
            let replayed = Position::from_moves(Geometry::STANDARD, moves).unwrap();
            assert_eq!(replayed.key(), pos.key(), "{moves}");
            assert_eq!(pos.outcome(), Outcome::Ongoing, "{moves}");
            assert!(!pos.can_win_next(), "{moves}: a win in one");
            assert!(keys.insert(pos.canonical_key()), "{moves}: a repeat");
        }
        assert!(out.distinct_ratio() > 0.0 && out.distinct_ratio() <= 1.0);
        // The same seed gives the same positions; another seed others.
        let again = sample_positions(&cfg, &Quiet).unwrap();
        assert_eq!(again.positions, out.positions);
        let other = sample_positions(&config(10..=20, 110, 5), &Quiet).unwrap();
        assert_ne!(other.positions, out.positions);
    }

    #[test]
    fn impossible_requests_are_refused() {
        // One stone: 4 positions up to mirror, and x never has a win in one.
        let err = sample_positions(&config(1..=1, 10, 1), &Quiet).unwrap_err();
        assert!(
            matches!(
                err,
                PositionsError::Starved {
                    stones: 1,
                    found: 4,
                    ..
                }
            ),
            "{err}"
        );
        assert!(matches!(
            sample_positions(&config(5..=50, 10, 1), &Quiet),
            Err(PositionsError::Plies { .. })
        ));
        let mut bad = config(5..=6, 10, 1);
        bad.epsilon = -0.1;
        assert!(matches!(
            sample_positions(&bad, &Quiet),
            Err(PositionsError::Mix(MixError::Epsilon(_)))
        ));
    }
}
