//! Round-robin tournaments: every pairing plays N games, colours alternating, openings shared
//! by the two colour assignments, games in parallel.

mod summary;
mod table;
mod units;

use summary::pairing_summaries;
pub use summary::{GameRow, PairingSummary, TournamentSummary};

use super::{GameResult, GameScore, PlayedGame};
use crate::arena::fit_elo;
use connect4_engine::Interrupt;
use connect4_engine::agents::{AgentBoard, AgentError, AgentFactory, AgentSpec, Resources};
use connect4_engine::game::moves::format_moves as move_string;
use connect4_engine::game::{BitBoard, Geometry};
use connect4_engine::progress::Progress;
use connect4_engine::seed::{Stream, derive_seed};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use thiserror::Error;

/// Settings of a round robin, on a board of any integer (`TournamentConfig` alone: 64-bit
/// boards; `TournamentConfig<u128>` for boards past 64 bits, where the agents of
/// [`AgentSpec::factory_on`] play).
#[derive(Clone, Debug)]
pub struct TournamentConfig<B: BitBoard = u64> {
    /// The agents, in report order.
    pub agents: Vec<AgentSpec>,
    /// Games per pairing (colours alternate: even-numbered games have the pairing's first
    /// agent as first player).
    pub games: usize,
    /// Random opening plies per game, played by the arena before the agents take over.
    pub openings: usize,
    /// Seed of openings, random agents and the Elo bootstrap.
    pub seed: u64,
    /// Worker threads.
    pub jobs: usize,
    /// Board size.
    pub geometry: Geometry<B>,
    /// Which colour each pairing's first agent plays.
    pub side: Side,
}

/// Which colour the first agent of each pairing plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Colours alternate game by game (pairs of games share an opening).
    #[default]
    Both,
    /// Always the first player.
    First,
    /// Always the second player.
    Second,
}

/// A side that is not `first`, `second` or `both`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("side {0:?}: first, second or both")]
pub struct UnknownSide(pub String);

impl std::str::FromStr for Side {
    type Err = UnknownSide;
    fn from_str(s: &str) -> Result<Self, UnknownSide> {
        match s {
            "both" => Ok(Side::Both),
            "first" => Ok(Side::First),
            "second" => Ok(Side::Second),
            _ => Err(UnknownSide(s.to_string())),
        }
    }
}

impl std::fmt::Display for Side {
    /// `both`, `first` or `second`, as the flag and the JSON write it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Side::Both => "both",
            Side::First => "first",
            Side::Second => "second",
        })
    }
}

/// Why a tournament could not run.
#[derive(Debug, Error)]
pub enum TournamentError {
    /// Fewer than two agents.
    #[error("a tournament needs at least two agents")]
    TooFewAgents,
    /// The same spec twice would make the report ambiguous.
    #[error("agent '{0}' is listed twice")]
    Duplicate(String),
    /// No games asked for.
    #[error("no games to play: every pairing needs at least one game")]
    NoGames,
    /// So many opening plies that no game is left to play.
    #[error("{openings} opening plies do not fit on a {geometry} board")]
    OpeningTooLong {
        /// Plies asked for.
        openings: usize,
        /// The board, `WxH`.
        geometry: String,
    },
    /// An agent could not be built.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// The caller's interrupt stopped the tournament before every game was played.
    #[error("the tournament was interrupted")]
    Interrupted,
    /// The thread pool could not start.
    #[error("cannot start {jobs} worker threads: {source}")]
    Threads {
        /// Threads asked for.
        jobs: usize,
        /// The reason.
        source: rayon::ThreadPoolBuildError,
    },
}

/// A prepared tournament.
///
/// ```
/// use connect4_learn::arena::{Tournament, TournamentConfig};
/// use connect4_engine::Geometry;
/// let t = Tournament::new(TournamentConfig {
///     agents: vec!["random".parse().unwrap(), "hard".parse().unwrap()],
///     games: 4,
///     openings: 2,
///     seed: 1,
///     jobs: 1,
///     geometry: Geometry::STANDARD,
///     side: Default::default(),
/// })
/// .unwrap();
/// let summary = t.run(&connect4_engine::progress::Quiet).unwrap();
/// let p = &summary.pairings[0];
/// assert_eq!(p.wins + p.draws + p.losses, 4);
/// assert_eq!(summary.elo.len(), 2);
/// ```
pub struct Tournament<B: AgentBoard = u64> {
    config: TournamentConfig<B>,
    factories: Vec<AgentFactory<B>>,
}

/// One scheduled game.
#[derive(Clone, Debug)]
struct Scheduled {
    game: usize,
    /// Agent indices: first player, second player.
    first: usize,
    second: usize,
    opening: Vec<usize>,
    seeds: [u64; 2],
}

/// `plies` random legal moves from the empty board of `geom` that leave the game open,
/// drawn from `rng`.
pub fn random_opening<B: BitBoard>(
    geom: Geometry<B>,
    plies: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<usize> {
    let draw = |n: usize| Ok::<_, std::convert::Infallible>(rng.gen_range(0..n));
    match connect4_engine::game::random_line(geom, plies, Default::default(), draw, None) {
        Ok(Some(moves)) => moves,
        // Without a limit on tries the line is always found; a board too small for `plies`
        // stones would never end (as before: callers check the plies against the board).
        Ok(None) => Vec::new(),
        Err(never) => match never {},
    }
}

impl<B: AgentBoard> Tournament<B> {
    /// A tournament on a board of any integer, its agents loaded with
    /// [`AgentSpec::factory_on`] from `resources` (how boards past 64 bits play:
    /// `Tournament::<u128>::on_board`).
    pub fn on_board(
        config: TournamentConfig<B>,
        resources: &Resources,
    ) -> Result<Self, TournamentError> {
        Self::check(&config)?;
        let factories = config
            .agents
            .iter()
            .map(|a| a.factory_on(config.geometry, resources))
            .collect::<Result<_, _>>()?;
        Ok(Tournament { config, factories })
    }

    /// A tournament of agents already built into factories (some may hold evaluators that
    /// exist only in memory, or be external agents such as Python policies);
    /// `config.agents` is replaced by the factories' specs.
    pub fn from_factories(
        mut config: TournamentConfig<B>,
        factories: Vec<AgentFactory<B>>,
    ) -> Result<Self, TournamentError> {
        config.agents = factories.iter().map(|f| f.spec().clone()).collect();
        Self::check(&config)?;
        Ok(Tournament { config, factories })
    }

    /// A match of `player` against `opponent` alone, which may be the same agent (a rating
    /// plays an agent against its own copy on the ladder): the pairing's first agent is
    /// `player`.
    pub(crate) fn pair(
        mut config: TournamentConfig<B>,
        player: AgentFactory<B>,
        opponent: AgentFactory<B>,
    ) -> Result<Self, TournamentError> {
        config.agents = vec![player.spec().clone(), opponent.spec().clone()];
        Self::check_games(&config)?;
        Ok(Tournament {
            config,
            factories: vec![player, opponent],
        })
    }

    fn check(config: &TournamentConfig<B>) -> Result<(), TournamentError> {
        if config.agents.len() < 2 {
            return Err(TournamentError::TooFewAgents);
        }
        for (i, a) in config.agents.iter().enumerate() {
            if config.agents[..i].iter().any(|b| b.label() == a.label()) {
                return Err(TournamentError::Duplicate(a.label().to_string()));
            }
        }
        Self::check_games(config)
    }

    /// The games asked for are playable: some, and openings that leave a move to play.
    fn check_games(config: &TournamentConfig<B>) -> Result<(), TournamentError> {
        if config.games == 0 {
            return Err(TournamentError::NoGames);
        }
        if config.openings + 1 > config.geometry.cells() {
            return Err(TournamentError::OpeningTooLong {
                openings: config.openings,
                geometry: config.geometry.to_string(),
            });
        }
        Ok(())
    }

    /// Number of games the tournament will play.
    pub fn total_games(&self) -> usize {
        let n = self.config.agents.len();
        n * (n - 1) / 2 * self.config.games
    }

    fn schedule(&self) -> Vec<Scheduled> {
        let c = &self.config;
        let n = c.agents.len();
        let mut out = Vec::with_capacity(self.total_games());
        let mut pairing = 0u64;
        for i in 0..n {
            for j in i + 1..n {
                let mut opening = Vec::new();
                for g in 0..c.games {
                    // Games 2k and 2k+1 share opening k, with colours swapped.
                    if g % 2 == 0 {
                        let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(
                            c.seed,
                            Stream::TournamentOpening,
                            &[pairing, g as u64 / 2],
                        ));
                        opening = random_opening(c.geometry, c.openings, &mut rng);
                    }
                    let first_here = match c.side {
                        Side::Both => g % 2 == 0,
                        Side::First => true,
                        Side::Second => false,
                    };
                    // With one side fixed every game gets its own opening.
                    if c.side != Side::Both && g % 2 == 1 {
                        let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(
                            c.seed,
                            Stream::TournamentOpening,
                            &[pairing, g as u64 / 2, 1],
                        ));
                        opening = random_opening(c.geometry, c.openings, &mut rng);
                    }
                    let (first, second) = if first_here { (i, j) } else { (j, i) };
                    let game = out.len();
                    out.push(Scheduled {
                        game,
                        first,
                        second,
                        opening: opening.clone(),
                        seeds: [
                            derive_seed(c.seed, Stream::TournamentAgent, &[pairing, g as u64, 0]),
                            derive_seed(c.seed, Stream::TournamentAgent, &[pairing, g as u64, 1]),
                        ],
                    });
                }
                pairing += 1;
            }
        }
        out
    }

    /// Plays every game (`progress` advances once per finished game, from worker threads)
    /// and summarises.
    pub fn run(&self, progress: &dyn Progress) -> Result<TournamentSummary, TournamentError> {
        self.run_until(progress, &Interrupt::new())
    }

    /// [`Tournament::run`] that `stop` can end early (each game checks it before it starts, and
    /// the agents' searches poll it): then [`TournamentError::Interrupted`], no summary of a
    /// part of the games. What a caller that must answer Ctrl-C (the Python package) runs.
    pub fn run_until(
        &self,
        progress: &dyn Progress,
        stop: &Interrupt,
    ) -> Result<TournamentSummary, TournamentError> {
        let c = &self.config;
        let jobs = c.jobs.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(|source| TournamentError::Threads { jobs, source })?;
        let units = self.units(self.schedule());
        let played: Vec<Result<Vec<(Scheduled, PlayedGame)>, TournamentError>> =
            pool.install(|| {
                units
                    .into_par_iter()
                    .map(|unit| self.play_unit(unit, progress, stop))
                    .collect()
            });
        let played: Vec<Vec<(Scheduled, PlayedGame)>> =
            played.into_iter().collect::<Result<_, _>>()?;
        let mut played: Vec<(Scheduled, PlayedGame)> = played.into_iter().flatten().collect();
        played.sort_by_key(|(s, _)| s.game);
        if stop.should_stop() {
            // A search cut short plays a weaker move: such games are not the agents' games.
            return Err(TournamentError::Interrupted);
        }
        Ok(self.summarise(&played))
    }

    fn summarise(&self, played: &[(Scheduled, PlayedGame)]) -> TournamentSummary {
        let c = &self.config;
        let names: Vec<String> = c.agents.iter().map(|a| a.label().to_string()).collect();
        let n = names.len();
        let mut rows = Vec::with_capacity(played.len());
        let mut scores = Vec::with_capacity(played.len());
        let mut time = vec![(0.0, 0usize); n];
        for (s, g) in played {
            let winner = match g.result {
                GameResult::FirstWin => names[s.first].clone(),
                GameResult::SecondWin => names[s.second].clone(),
                GameResult::Draw => String::new(),
            };
            rows.push(GameRow {
                game: s.game,
                first: names[s.first].clone(),
                second: names[s.second].clone(),
                opening: move_string(&s.opening),
                moves: move_string(&g.moves),
                result: g.result.notation().to_string(),
                winner,
                plies: g.moves.len(),
                first_ms_per_move: g.ms_per_move[0],
                second_ms_per_move: g.ms_per_move[1],
            });
            scores.push(GameScore {
                a: s.first,
                b: s.second,
                score: g.result.first_score(),
            });
            time[s.first].0 += g.ms_per_move[0];
            time[s.first].1 += 1;
            time[s.second].0 += g.ms_per_move[1];
            time[s.second].1 += 1;
        }
        let pairings = pairing_summaries(&names, &scores);
        let mut elo = fit_elo(
            &names,
            &scores,
            500,
            derive_seed(c.seed, Stream::TournamentElo, &[]),
        );
        elo.sort_by(|a, b| b.elo.total_cmp(&a.elo));
        TournamentSummary {
            agents: names.clone(),
            games_per_pairing: c.games,
            openings: c.openings,
            seed: c.seed,
            board: c.geometry.to_string(),
            total_games: rows.len(),
            pairings,
            elo,
            ms_per_move: names
                .iter()
                .zip(&time)
                .map(|(a, &(t, k))| (a.clone(), if k > 0 { t / k as f64 } else { 0.0 }))
                .collect(),
            rows,
        }
    }
}

impl Tournament {
    /// Checks the configuration and loads every agent's evaluators; perfect agents read the
    /// built-in book.
    pub fn new(config: TournamentConfig) -> Result<Self, TournamentError> {
        Self::with_book(config, Some(connect4_engine::solver::book::embedded()))
    }

    /// As [`Tournament::new`], with perfect agents reading `book` (`None`: none).
    pub fn with_book(
        config: TournamentConfig,
        book: Option<std::sync::Arc<connect4_engine::solver::book::Book>>,
    ) -> Result<Self, TournamentError> {
        Self::check(&config)?;
        let factories = config
            .agents
            .iter()
            .map(|a| a.factory_with_book(config.geometry, book.clone()))
            .collect::<Result<_, _>>()?;
        Ok(Tournament { config, factories })
    }
}
