//! Calibrating the strength dial: each skill setting plays every agent of the ladder, its
//! Elo is fitted with the ladder's agents held at their ratings, and a monotone curve
//! through the points becomes the calibration the dial reads (`models/level.json`).

use super::tournament::{Side, Tournament, TournamentConfig, TournamentError};
use connect4_engine::Interrupt;
use connect4_engine::agents::level::{Anchor, Calibration, CalibrationPoint, monotone_curve};
use connect4_engine::agents::{AgentBoard, AgentFactory, AgentSpec, Resources};
use connect4_engine::game::{BitBoard, Geometry};
use connect4_engine::progress::Progress;
use rayon::prelude::*;
use serde::Serialize;
use thiserror::Error;

/// Settings of a calibration run, on boards of the integer `B` (`u128` past 64 bits).
#[derive(Clone, Debug)]
pub struct CalibrateConfig<B: BitBoard = u64> {
    /// The ladder: agents and the ratings they are held at.
    pub anchors: Vec<Anchor>,
    /// The skills measured, from 0 to 1.
    pub skills: Vec<f64>,
    /// Games against each ladder agent per skill (colours alternate, openings shared).
    pub games: usize,
    /// Random opening plies per game.
    pub openings: usize,
    /// Seed of the openings and the agents' draws.
    pub seed: u64,
    /// Games played at once.
    pub jobs: usize,
    /// The board the dial and the ladder play on.
    pub geometry: Geometry<B>,
}

/// Why a calibration could not run.
#[derive(Debug, Error)]
pub enum CalibrateError {
    /// The ladder has fewer than two agents.
    #[error("the ladder needs at least two agents with ratings")]
    Ladder,
    /// The skills do not run from 0 to 1.
    #[error("the skills must include 0 and 1 and lie between them")]
    Skills,
    /// A game could not be played.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// A ladder agent's spec.
    #[error(transparent)]
    Agent(#[from] connect4_engine::agents::AgentError),
}

/// A calibration run's result: the calibration and how well its curve fits.
#[derive(Clone, Debug, Serialize)]
pub struct CalibrateReport {
    /// What the dial will read.
    pub calibration: Calibration,
    /// Per interior point: measured Elo minus the curve through its neighbours alone (the
    /// curve's error where it was not told the answer).
    pub leave_one_out: Vec<(f64, f64)>,
    /// The largest |leave-one-out error|, Elo.
    pub fit_error: f64,
}

/// The 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The Elo of one agent from its games against agents of known ratings (`games`: the
/// opponent's rating and the agent's points), by maximum likelihood under the Elo model,
/// with one virtual draw against each opponent met (so a clean sweep stays finite); the
/// interval from the likelihood's curvature.
///
/// ```
/// use connect4_learn::arena::fit_anchored;
/// // Even against a 1500 player: 1500.
/// let (elo, low, high) = fit_anchored(&[(1500.0, 1.0), (1500.0, 0.0)]);
/// assert!((elo - 1500.0).abs() < 0.01 && low < 1500.0 && high > 1500.0);
/// // Three wins in four against 1500: above it.
/// let (elo, ..) = fit_anchored(&[(1500.0, 1.0), (1500.0, 1.0), (1500.0, 1.0), (1500.0, 0.0)]);
/// assert!(elo > 1550.0);
/// ```
pub fn fit_anchored(games: &[(f64, f64)]) -> (f64, f64, f64) {
    let mut all: Vec<(f64, f64)> = games.to_vec();
    let mut met: Vec<f64> = Vec::new();
    for &(r, _) in games {
        if !met.contains(&r) {
            met.push(r);
        }
    }
    all.extend(met.iter().map(|&r| (r, 0.5)));
    let k = 10f64.ln() / 400.0;
    let p = |elo: f64, r: f64| 1.0 / (1.0 + 10f64.powf((r - elo) / 400.0));
    // The score equation sum(s - p) = 0 is monotone in elo: bisection.
    let (mut lo, mut hi) = (-2000.0, 6000.0);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        let g: f64 = all.iter().map(|&(r, s)| s - p(mid, r)).sum();
        if g > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let elo = (lo + hi) / 2.0;
    let info: f64 = all
        .iter()
        .map(|&(r, _)| {
            let q = p(elo, r);
            k * k * q * (1.0 - q)
        })
        .sum();
    let half = Z95 / info.max(1e-12).sqrt();
    (elo, elo - half, elo + half)
}

/// The agents of `geom`'s ladder (what `c4 calibrate` plays the dial against off 7x6, when
/// no ladder of that board is given): random, easy and hard as on 7x6, the board's network
/// at depth 1 where one ships, and the perfect player where the solver reaches the board,
/// else MCTS at 2000 simulations as the strong end.
pub fn board_ladder_agents<B: BitBoard>(geom: Geometry<B>, has_network: bool) -> Vec<String> {
    let mut agents: Vec<String> = ["random", "easy", "hard"].map(String::from).to_vec();
    if has_network {
        agents.push("ntuple:depth=1,safe=true".into());
    }
    agents.push(
        if geom.narrow().is_some_and(connect4_engine::solver::reaches) {
            "perfect:ties=random".into()
        } else {
            "mcts:sims=2000".into()
        },
    );
    agents
}

/// The ladder agents that carry the Elo scale from 7x6 to other boards: they play by the
/// same rules on every board (no model, no solver), unlike the networks and the perfect
/// player, whose strength against them differs from board to board.
pub const SCALE_AGENTS: [&str; 3] = ["random", "easy", "hard"];

/// The ratings of another board's ladder on the 7x6 ladder's scale: shifted so that the
/// [`SCALE_AGENTS`] both ladders hold average what they average on 7x6, so an Elo asked
/// of the dial means the same distance from them on every board. A ladder with none of
/// them is returned as it is.
///
/// ```
/// use connect4_engine::agents::level::Anchor;
/// use connect4_learn::arena::on_standard_scale;
/// let a = |agent: &str, elo| Anchor { agent: agent.into(), elo };
/// let std = [a("random", 700.0), a("easy", 1100.0), a("perfect", 2100.0)];
/// let board = vec![a("random", 1000.0), a("easy", 1600.0), a("perfect", 1900.0)];
/// let shifted = on_standard_scale(board, &std);
/// // random and easy average 900 on 7x6 and 1300 here: everything moves down 400.
/// assert_eq!(shifted.iter().map(|x| x.elo).collect::<Vec<_>>(), vec![600.0, 1200.0, 1500.0]);
/// ```
pub fn on_standard_scale(mut board: Vec<Anchor>, standard: &[Anchor]) -> Vec<Anchor> {
    let shared: Vec<(f64, f64)> = board
        .iter()
        .filter(|b| SCALE_AGENTS.contains(&b.agent.as_str()))
        .filter_map(|b| {
            standard
                .iter()
                .find(|s| s.agent == b.agent)
                .map(|s| (b.elo, s.elo))
        })
        .collect();
    if shared.is_empty() {
        return board;
    }
    let shift = shared.iter().map(|(b, s)| s - b).sum::<f64>() / shared.len() as f64;
    for b in &mut board {
        b.elo += shift;
    }
    board
}

/// Measures every skill against the ladder and fits the curve (`progress` advances once
/// per game). Settings run side by side, each pairing's games in parallel.
pub fn calibrate<B: AgentBoard>(
    cfg: &CalibrateConfig<B>,
    resources: &Resources,
    progress: &dyn Progress,
) -> Result<CalibrateReport, CalibrateError> {
    if cfg.anchors.len() < 2 {
        return Err(CalibrateError::Ladder);
    }
    let ok_skills = cfg.skills.iter().all(|s| (0.0..=1.0).contains(s))
        && cfg.skills.contains(&0.0)
        && cfg.skills.contains(&1.0);
    if !ok_skills {
        return Err(CalibrateError::Skills);
    }
    let mut skills = cfg.skills.clone();
    skills.sort_by(f64::total_cmp);
    skills.dedup();
    let specs = skills
        .iter()
        .map(|s| format!("level:skill={s}").parse::<AgentSpec>())
        .collect::<Result<Vec<_>, _>>()?;
    let ladder = ladder_factories(&cfg.anchors, cfg.geometry, resources)?;
    let dial = players(&specs, cfg.geometry, resources)?;
    let per_skill = gauntlet(&cfg.play(0), &dial, &ladder, progress, &Interrupt::new())?;
    let points: Vec<CalibrationPoint> = skills
        .iter()
        .zip(&per_skill)
        .map(|(&skill, games)| {
            let games = all_points(games);
            let (elo, low, high) = fit_anchored(&games);
            CalibrationPoint {
                skill,
                elo,
                low,
                high,
                games: games.len(),
                score_pct: 100.0 * games.iter().map(|g| g.1).sum::<f64>()
                    / games.len().max(1) as f64,
            }
        })
        .collect();
    Ok(report(cfg, points))
}

/// One agent of the dial checked against its calibration: the Elo asked for and the Elo
/// measured on the ladder.
#[derive(Clone, Debug, Serialize)]
pub struct CheckPoint {
    /// The spec played (`level:elo=E`).
    pub agent: String,
    /// E.
    pub asked: f64,
    /// Measured Elo.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// Games behind it.
    pub games: usize,
}

/// Plays `level:elo=E` for each of `elos` against the ladder (on other openings than the
/// calibration's: the seed's second stream) and measures the Elo each reaches: how far the
/// dial is from what it was asked, on games the curve was not fitted on.
pub fn check_calibration<B: AgentBoard>(
    cfg: &CalibrateConfig<B>,
    elos: &[f64],
    resources: &Resources,
    progress: &dyn Progress,
) -> Result<Vec<CheckPoint>, CalibrateError> {
    let specs = elos
        .iter()
        .map(|e| format!("level:elo={e}").parse::<AgentSpec>())
        .collect::<Result<Vec<_>, _>>()?;
    let ladder = ladder_factories(&cfg.anchors, cfg.geometry, resources)?;
    let dial = players(&specs, cfg.geometry, resources)?;
    let games = gauntlet(&cfg.play(1), &dial, &ladder, progress, &Interrupt::new())?;
    Ok(specs
        .iter()
        .zip(elos)
        .zip(games)
        .map(|((spec, &asked), g)| {
            let g = all_points(&g);
            let (elo, low, high) = fit_anchored(&g);
            CheckPoint {
                agent: spec.label().to_string(),
                asked,
                elo,
                low,
                high,
                games: g.len(),
            }
        })
        .collect())
}

/// One player's games against one ladder agent, as a measurement against the ladder
/// records them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LadderGames {
    /// The ladder agent's spec.
    pub opponent: String,
    /// The rating it is held at.
    pub opponent_elo: f64,
    /// Games played.
    pub games: usize,
    /// Won by the player measured.
    pub wins: usize,
    /// Drawn.
    pub draws: usize,
    /// Lost.
    pub losses: usize,
    /// Points scored / games, percent.
    pub score_pct: f64,
}

impl LadderGames {
    /// Its games as (the opponent's rating, the points scored), what [`fit_anchored`] takes.
    pub fn points(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        let r = self.opponent_elo;
        std::iter::repeat_n((r, 1.0), self.wins)
            .chain(std::iter::repeat_n((r, 0.5), self.draws))
            .chain(std::iter::repeat_n((r, 0.0), self.losses))
    }
}

/// How the players measured against a ladder meet it: the ladder, the games per ladder
/// agent, the openings, the seed, the threads and the board. `stream` keeps the openings
/// of different uses apart (the calibration, its check, a rating).
pub(crate) struct LadderPlay<'a, B: BitBoard = u64> {
    pub anchors: &'a [Anchor],
    pub games: usize,
    pub openings: usize,
    pub seed: u64,
    pub jobs: usize,
    pub geometry: Geometry<B>,
    pub stream: u64,
}

impl<B: BitBoard> CalibrateConfig<B> {
    fn play(&self, stream: u64) -> LadderPlay<'_, B> {
        LadderPlay {
            anchors: &self.anchors,
            games: self.games,
            openings: self.openings,
            seed: self.seed,
            jobs: self.jobs,
            geometry: self.geometry,
            stream,
        }
    }
}

/// The ladder's agents of `anchors`, built for `geom` with `resources`.
pub fn ladder_factories<B: AgentBoard>(
    anchors: &[Anchor],
    geom: Geometry<B>,
    resources: &Resources,
) -> Result<Vec<AgentFactory<B>>, connect4_engine::agents::AgentError> {
    anchors
        .iter()
        .map(|a| {
            a.agent
                .parse::<AgentSpec>()
                .and_then(|s| s.factory_on(geom, resources))
        })
        .collect()
}

/// Every player against every ladder agent (`ladder`, in the order of `play.anchors`),
/// `play.games` games each (pairings side by side, each pairing's games in order); per
/// player, its games against each ladder agent. `stop` ends it early
/// ([`TournamentError::Interrupted`]).
pub(crate) fn gauntlet<B: AgentBoard>(
    play: &LadderPlay<'_, B>,
    players: &[AgentFactory<B>],
    ladder: &[AgentFactory<B>],
    progress: &dyn Progress,
    stop: &Interrupt,
) -> Result<Vec<Vec<LadderGames>>, CalibrateError> {
    let geom = play.geometry;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(play.jobs.max(1))
        .build()
        .map_err(|source| TournamentError::Threads {
            jobs: play.jobs,
            source,
        })?;
    let work: Vec<(usize, usize)> = (0..players.len())
        .flat_map(|i| (0..ladder.len()).map(move |j| (i, j)))
        .collect();
    type Played = Result<(usize, LadderGames), CalibrateError>;
    let results: Vec<Played> = pool.install(|| {
        work.par_iter()
            .map(|&(i, j)| {
                let t = Tournament::pair(
                    TournamentConfig {
                        agents: Vec::new(),
                        games: play.games,
                        openings: play.openings,
                        seed: connect4_engine::seed::derive_seed(
                            play.seed,
                            connect4_engine::seed::Stream::Level,
                            &[play.stream, i as u64, j as u64],
                        ),
                        jobs: 1,
                        geometry: geom,
                        side: Side::Both,
                    },
                    players[i].clone(),
                    ladder[j].clone(),
                )?;
                let s = t.run_until(progress, stop)?;
                let p = &s.pairings[0];
                Ok((
                    i,
                    LadderGames {
                        opponent: play.anchors[j].agent.clone(),
                        opponent_elo: play.anchors[j].elo,
                        games: p.games,
                        wins: p.wins,
                        draws: p.draws,
                        losses: p.losses,
                        score_pct: p.score_pct,
                    },
                ))
            })
            .collect()
    });
    let mut out: Vec<Vec<LadderGames>> = vec![Vec::new(); players.len()];
    for r in results {
        let (i, games) = r?;
        out[i].push(games);
    }
    Ok(out)
}

/// The specs' players for `geom`.
fn players<B: AgentBoard>(
    specs: &[AgentSpec],
    geom: Geometry<B>,
    resources: &Resources,
) -> Result<Vec<AgentFactory<B>>, CalibrateError> {
    Ok(specs
        .iter()
        .map(|s| s.factory_on(geom, resources))
        .collect::<Result<_, _>>()?)
}

/// All the points of a player's games against the ladder.
fn all_points(games: &[LadderGames]) -> Vec<(f64, f64)> {
    games.iter().flat_map(LadderGames::points).collect()
}

/// The calibration of measured `points`: the monotone curve (weighted by each point's
/// precision) and its leave-one-out error.
pub fn report<B: BitBoard>(
    cfg: &CalibrateConfig<B>,
    points: Vec<CalibrationPoint>,
) -> CalibrateReport {
    let xy: Vec<(f64, f64)> = points.iter().map(|p| (p.skill, p.elo)).collect();
    let weights: Vec<f64> = points
        .iter()
        .map(|p| 1.0 / ((p.high - p.low) / 2.0).powi(2).max(1.0))
        .collect();
    let curve = monotone_curve(&xy, &weights);
    let leave_one_out: Vec<(f64, f64)> = (1..curve.len().saturating_sub(1))
        .map(|i| {
            let (a, b) = (curve[i - 1], curve[i + 1]);
            let t = (xy[i].0 - a.0) / (b.0 - a.0);
            (xy[i].0, xy[i].1 - (a.1 + t * (b.1 - a.1)))
        })
        .collect();
    let fit_error = leave_one_out
        .iter()
        .map(|(_, e)| e.abs())
        .fold(0.0, f64::max);
    CalibrateReport {
        calibration: Calibration {
            board: cfg.geometry.to_string(),
            anchors: cfg.anchors.clone(),
            games_per_agent: cfg.games,
            openings: cfg.openings,
            seed: cfg.seed,
            points,
            curve,
        },
        leave_one_out,
        fit_error,
    }
}
