//! The n-tuple learning curve's yardsticks: the network as a depth-1 agent, its score in a
//! fixed match against the hand-tuned agent (depth 5) and its mistake rate on a fixed
//! sample of each benchmark set. The sample's columns are solved once, when the probe is
//! made, so a measurement costs only the agent's moves.

mod perfect;

use crate::arena::Side;
use crate::arena::{Tournament, TournamentConfig, TournamentError, score_estimate, wilson};
use connect4_engine::agents::{AgentBoard, AgentError, AgentFactory, AgentSpec, Resources, Turn};
use connect4_engine::eval::NTupleEvaluator;
use connect4_engine::game::{BitBoard, Geometry, Position};
use connect4_engine::ml::ntuple::NTupleNetwork;
use connect4_engine::progress::{Progress, Quiet};
use connect4_engine::search::SearchParams;
use connect4_engine::solver::{Mode, Solver, SolverError};
pub use perfect::{perfect_opponents, play_perfect};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One point of the curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    /// `start`, `supervised` or `self-play`.
    pub part: String,
    /// Self-play games played so far.
    pub games: usize,
    /// Training seconds so far.
    pub seconds: f64,
    /// Score of the depth-1 network agent against the opponent, with its 95% interval.
    pub score: f64,
    /// Lower end of the interval.
    pub score_low: f64,
    /// Upper end of the interval.
    pub score_high: f64,
    /// Mistake rate per benchmark set (set name, rate), in set order.
    pub mistakes: Vec<(String, f64)>,
    /// The literature's yardstick: the network (depth 1, one-move rule) against the perfect
    /// player with random tie-breaks, from the empty board. As first player against
    /// `perfect:ties=random` (eps 0), then as second against `eps=E` for each E: wins /
    /// games with the 95% Wilson interval.
    #[serde(default)]
    pub vs_perfect: Vec<PerfectMatch>,
}

/// The network's wins in one match against the perfect player (see [`CurvePoint::vs_perfect`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PerfectMatch {
    /// The network's colour: first or second (written `first`, `second`).
    pub side: Side,
    /// The perfect player's share of random safe moves.
    pub eps: f64,
    /// Games.
    pub games: usize,
    /// The network's wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// wins / games.
    pub win_rate: f64,
    /// Lower end of the 95% Wilson interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

impl PerfectMatch {
    /// "first" or "second at eps 0.1".
    pub fn label(&self) -> String {
        if self.side == Side::First {
            "first".into()
        } else {
            format!("second eps {}", self.eps)
        }
    }
}

impl CurvePoint {
    /// One line for the terminal.
    pub fn summary(&self) -> String {
        let m: Vec<String> = self
            .mistakes
            .iter()
            .map(|(s, r)| format!("{s} {:.1}%", 100.0 * r))
            .collect();
        let p: Vec<String> = self
            .vs_perfect
            .iter()
            .map(|p| format!("{} {:.1}%", p.label(), 100.0 * p.win_rate))
            .collect();
        let perfect = if p.is_empty() {
            String::new()
        } else {
            format!("; wins against perfect: {}", p.join(", "))
        };
        // `--curve-games 0` plays no match against the hand-tuned agent: no score to show.
        let score = if self.score.is_finite() {
            format!(
                "score {:.1}% [{:.1}, {:.1}]; ",
                100.0 * self.score,
                100.0 * self.score_low,
                100.0 * self.score_high
            )
        } else {
            String::new()
        };
        format!(
            "{} after {} games, {:.0} s: {score}mistakes {}{perfect}",
            self.part,
            self.games,
            self.seconds,
            m.join(", ")
        )
    }
}

/// Why a probe could not be made or used.
#[derive(Debug, thiserror::Error)]
pub enum CurveError {
    /// The solver's table.
    #[error(transparent)]
    Solver(#[from] SolverError),
    /// The opponent's spec.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// The match.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// A benchmark file.
    #[error(transparent)]
    Bench(#[from] crate::datasets::labelled::MovesFileError),
    /// The cache file could not be written.
    #[error("{path}: {source}", path = path.display())]
    Cache {
        /// The file.
        path: std::path::PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// No benchmark sets where they were looked for.
    #[error("no benchmark sets in {}", .0.display())]
    NoSets(std::path::PathBuf),
}

/// The first `per_set` lines of every benchmark set in `dir`, by set name.
fn read_sample(
    dir: &std::path::Path,
    per_set: usize,
) -> Result<Vec<(String, Vec<crate::datasets::labelled::MovesLine>)>, CurveError> {
    use crate::datasets::labelled::{Expect, read_moves_head};
    let mut sets = Vec::new();
    for (name, path) in crate::arena::benchmark_sets::files_in(dir) {
        sets.push((
            name,
            read_moves_head(&path, Geometry::STANDARD, Expect::Any, Some(per_set))?,
        ));
    }
    if sets.is_empty() {
        return Err(CurveError::NoSets(dir.to_path_buf()));
    }
    Ok(sets)
}

/// The solved columns of one set's sample, as the cache file stores them.
#[derive(Serialize, Deserialize)]
struct CachedSet {
    set: String,
    positions: Vec<(String, Vec<Option<i32>>)>,
}

/// A sampled benchmark position with each column's weak value for the side to move.
struct Graded<B: BitBoard> {
    position: Position<B>,
    columns: Vec<Option<i32>>,
}

/// What the curve measures, prepared once, on a board of any integer (`CurveProbe` alone:
/// 64-bit boards; past 64 bits the perfect-player matches are not to be had).
pub struct CurveProbe<B: AgentBoard = u64> {
    geom: Geometry<B>,
    opponent: AgentSpec,
    games: usize,
    openings: usize,
    seed: u64,
    sets: Vec<(String, Vec<Graded<B>>)>,
    /// The perfect-player matches: games per match and the eps of each second-player match
    /// (empty games: none).
    perfect_games: usize,
    perfect_eps: Vec<f64>,
    /// One perfect opponent per match, kept across measurements (their caches of solved
    /// positions stay warm).
    perfect: Vec<(f64, AgentFactory<B>)>,
}

impl<B: AgentBoard> CurveProbe<B> {
    /// A probe with a match of `games` games (two random opening plies, colours
    /// alternating) against `opponent`, and `sets` (name and positions) whose every column
    /// is weak-solved now, on rayon's threads.
    pub fn new(
        geom: Geometry<B>,
        opponent: AgentSpec,
        games: usize,
        seed: u64,
        sets: Vec<(String, Vec<Position<B>>)>,
        progress: &dyn Progress,
    ) -> Result<Self, CurveError> {
        let total = sets.iter().map(|(_, p)| p.len()).sum();
        progress.start("solving the curve's positions", total);
        let mut graded = Vec::new();
        for (name, positions) in sets {
            let g: Result<Vec<Graded<B>>, SolverError> = positions
                .into_par_iter()
                .map_init(
                    || Solver::with_table_mib(geom, 32),
                    |solver, position| {
                        let solver = solver.as_mut().map_err(|e| e.clone())?;
                        let columns = solver.analyze(&position, Mode::Weak);
                        progress.advance(1);
                        Ok(Graded { position, columns })
                    },
                )
                .collect();
            graded.push((name, g?));
        }
        progress.finish();
        Ok(CurveProbe {
            geom,
            opponent,
            games,
            openings: 2,
            seed,
            sets: graded,
            perfect_games: 0,
            perfect_eps: Vec::new(),
            perfect: Vec::new(),
        })
    }

    /// Adds the literature's matches to every measurement: `games` games from the empty
    /// board as first player against `perfect:ties=random`, and as second against the same
    /// player with each share `eps` of random safe moves (0 games: none).
    pub fn with_perfect(mut self, games: usize, eps: &[f64]) -> Result<Self, CurveError> {
        self.perfect_games = games;
        self.perfect_eps = eps.to_vec();
        self.perfect = if games > 0 {
            perfect_opponents(self.geom, eps, self.seed)?
        } else {
            Vec::new()
        };
        Ok(self)
    }

    /// Measures `net` as a depth-1 agent.
    pub fn measure(
        &self,
        net: &NTupleNetwork<B>,
        part: &str,
        games: usize,
        seconds: f64,
    ) -> Result<CurvePoint, CurveError> {
        let eval = Arc::new(NTupleEvaluator::new(net.clone(), "trainee"));
        let agent = AgentFactory::search("ntuple", self.geom, eval.clone(), SearchParams::depth(1));
        // The literature's agent: depth 1 with the one-move rule alone.
        let ruled = AgentFactory::search(
            "ntuple-safe",
            self.geom,
            eval,
            SearchParams {
                safe: Some(true),
                ..SearchParams::depth(1)
            },
        );
        let vs_perfect = play_perfect(
            self.geom,
            &ruled,
            &self.perfect,
            self.perfect_games,
            self.seed,
        )?;
        let mistakes = self
            .sets
            .iter()
            .map(|(name, positions)| {
                let errors: usize = positions
                    .par_iter()
                    .map(|g| {
                        let mut a = agent.build(0).expect("in-memory agents build");
                        let col = a.choose(&Turn::new(g.position));
                        let best = g.columns.iter().flatten().max();
                        usize::from(g.columns[col] < best.copied())
                    })
                    .sum();
                (name.clone(), wilson(errors, positions.len()).value)
            })
            .collect();
        let (score, low, high) = self.match_score(agent)?;
        Ok(CurvePoint {
            part: part.to_string(),
            games,
            seconds,
            score,
            score_low: low,
            score_high: high,
            mistakes,
            vs_perfect,
        })
    }

    /// The score of `agent`'s match against the probe's opponent, with its 95% interval
    /// (NaN without a match).
    fn match_score(&self, agent: AgentFactory<B>) -> Result<(f64, f64, f64), CurveError> {
        Ok(if self.games > 0 {
            let t = Tournament::from_factories(
                TournamentConfig {
                    agents: Vec::new(),
                    games: self.games,
                    openings: self.openings,
                    seed: connect4_engine::seed::derive_seed(
                        self.seed,
                        connect4_engine::seed::Stream::NTupleCurve,
                        &[],
                    ),
                    jobs: rayon::current_num_threads().max(1),
                    geometry: self.geom,
                    side: Default::default(),
                },
                vec![
                    agent,
                    self.opponent.factory_on(self.geom, &Resources::default())?,
                ],
            )?;
            let s = t.run(&Quiet)?;
            let p = &s.pairings[0];
            let mut points = vec![1.0; p.wins];
            points.extend(std::iter::repeat_n(0.5, p.draws));
            points.extend(std::iter::repeat_n(0.0, p.losses));
            let e = score_estimate(&points);
            (e.value, e.low, e.high)
        } else {
            (f64::NAN, f64::NAN, f64::NAN)
        })
    }
}

impl CurveProbe {
    /// A probe over the first `per_set` positions of each benchmark set in `dir` (ours or
    /// Pons' files), with a match of `games` games against `handtuned:depth=5`. The solved
    /// columns are read from `read` (which may hold more positions per set than asked: the
    /// first `per_set` serve) and, when they are not there, solved now and written to
    /// `write`, so that later runs skip the solving.
    pub fn cached(
        dir: &std::path::Path,
        read: &std::path::Path,
        write: &std::path::Path,
        per_set: usize,
        games: usize,
        seed: u64,
        progress: &dyn Progress,
    ) -> Result<Self, CurveError> {
        let geom = Geometry::STANDARD;
        let wanted: Vec<(String, Vec<String>)> = read_sample(dir, per_set)?
            .into_iter()
            .map(|(name, lines)| (name, lines.into_iter().map(|m| m.moves).collect()))
            .collect();
        let stored = read_cache(read, per_set, &wanted);
        let opponent: AgentSpec = "handtuned:depth=5".parse()?;
        if let Some(stored) = stored {
            let sets = stored
                .into_iter()
                .map(|c| {
                    let graded = c
                        .positions
                        .into_iter()
                        .map(|(m, columns)| Graded {
                            position: Position::from_moves(geom, &m).expect("checked above"),
                            columns,
                        })
                        .collect();
                    (c.set, graded)
                })
                .collect();
            return Ok(CurveProbe {
                geom,
                opponent,
                games,
                openings: 2,
                seed,
                sets,
                perfect_games: 0,
                perfect_eps: Vec::new(),
                perfect: Vec::new(),
            });
        }
        let sets = wanted
            .iter()
            .map(|(n, ms)| {
                let ps = ms
                    .iter()
                    .map(|m| Position::from_moves(geom, m).expect("read above"))
                    .collect();
                (n.clone(), ps)
            })
            .collect();
        let probe = Self::new(geom, opponent, games, seed, sets, progress)?;
        let store: Vec<CachedSet> = probe
            .sets
            .iter()
            .zip(&wanted)
            .map(|((set, graded), (_, moves))| CachedSet {
                set: set.clone(),
                positions: moves
                    .iter()
                    .cloned()
                    .zip(graded.iter().map(|g| g.columns.clone()))
                    .collect(),
            })
            .collect();
        connect4_engine::io::write_json_atomic(write, &store).map_err(|source| {
            CurveError::Cache {
                path: write.to_path_buf(),
                source,
            }
        })?;
        Ok(probe)
    }
}

/// The solved columns cached in `read` (each set cut to `per_set` positions) when they are
/// those of exactly the `wanted` sets and positions, else `None` (solve them again).
fn read_cache(
    read: &std::path::Path,
    per_set: usize,
    wanted: &[(String, Vec<String>)],
) -> Option<Vec<CachedSet>> {
    let stored: Option<Vec<CachedSet>> = std::fs::read_to_string(read)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .map(|sets: Vec<CachedSet>| {
            sets.into_iter()
                .map(|mut c| {
                    c.positions.truncate(per_set);
                    c
                })
                .collect()
        });
    let matches = stored.as_ref().is_some_and(|st| {
        st.len() == wanted.len()
            && st.iter().zip(wanted).all(|(c, (name, moves))| {
                &c.set == name && c.positions.iter().map(|p| &p.0).eq(moves.iter())
            })
    });
    matches.then_some(stored).flatten()
}
