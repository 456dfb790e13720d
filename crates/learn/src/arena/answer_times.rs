//! How long a player waits for the computer's move: each agent answers as the page asks it
//! to (`answers::play_move`, the call behind the server's `/api/move` and the WebAssembly
//! engine's `move` op: a fresh agent per move from a factory kept across moves, the adaptive
//! agent rebuilt from its saved state and the game so far), in whole games against an
//! opponent, every answer timed on the wall clock. What `c4 bench answers` reports.

use super::random_opening;
use connect4_engine::agents::{
    AgentBoard, AgentError, AgentFactory, AgentKind, AgentSpec, Resources, Turn,
};
use connect4_engine::answers::{AnswerError, PlayError, adaptive_answer, play_move};
use connect4_engine::game::moves::format_moves;
use connect4_engine::game::{BitBoard, Geometry, Outcome, Player, Position};
use connect4_engine::progress::Progress;
use connect4_engine::seed::{Stream, derive_seed};
use connect4_engine::{Interrupt, clock::Instant};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::time::Duration;

/// What to time, on boards of the integer `B` (`u128` past 64 bits).
#[derive(Clone, Debug)]
pub struct AnswerTimesConfig<B: BitBoard = u64> {
    /// The board.
    pub geometry: Geometry<B>,
    /// The agents timed (the page's presets, the dial, the adaptive agent).
    pub agents: Vec<AgentSpec>,
    /// Who plays the other side (a player's stand-in).
    pub opponent: AgentSpec,
    /// Games per agent, colours alternating.
    pub games: usize,
    /// Random plies that open each game (untimed), so that games differ.
    pub openings: usize,
    /// Seed of the openings and the agents.
    pub seed: u64,
    /// The longest a move may take (the server's per-move limit): a move stopped there is
    /// timed as long as it took and counted as stopped.
    pub limit: Duration,
    /// The book and the model files the agents are built from.
    pub resources: Resources,
}

/// One agent's answer times.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnswerTimes {
    /// The agent's spec.
    pub agent: String,
    /// Moves timed.
    pub moves: usize,
    /// Median answer, ms.
    pub p50_ms: f64,
    /// 95th percentile, ms.
    pub p95_ms: f64,
    /// Slowest answer, ms.
    pub max_ms: f64,
    /// Answers that took more than a second.
    pub over_1s: usize,
    /// Answers the limit stopped.
    pub stopped: usize,
}

/// Why the answers could not be timed.
#[derive(Debug, thiserror::Error)]
pub enum AnswerTimesError {
    /// An agent (or the opponent) cannot be built on this board.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// An agent could not answer.
    #[error("{agent}: {source}")]
    Play {
        /// The agent's spec.
        agent: String,
        /// What went wrong.
        source: PlayError,
    },
}

/// The `q` quantile (0 to 1) of sorted `xs` (nearest rank); 0 when empty.
fn quantile(xs: &[f64], q: f64) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let rank = ((q * xs.len() as f64).ceil() as usize).clamp(1, xs.len());
    xs[rank - 1]
}

/// Times every agent of `cfg` over its games, one move at a time (as one player waits for
/// them), telling `progress` of each game.
pub fn answer_times<B: AgentBoard>(
    cfg: &AnswerTimesConfig<B>,
    progress: &dyn Progress,
) -> Result<Vec<AnswerTimes>, AnswerTimesError> {
    let geom = cfg.geometry;
    let opponent = cfg.opponent.factory_on(geom, &cfg.resources)?;
    progress.start("timed games", cfg.agents.len() * cfg.games);
    let mut out = Vec::new();
    for spec in &cfg.agents {
        let factory = spec.factory_on(geom, &cfg.resources)?;
        let mut times = Vec::new();
        let mut stopped = 0;
        let mut state: Option<String> = None;
        for g in 0..cfg.games {
            let seed = derive_seed(cfg.seed, Stream::AnswerTimes, &[g as u64]);
            let me = if g % 2 == 0 {
                Player::First
            } else {
                Player::Second
            };
            let game = timed_game(cfg, &factory, &opponent, me, seed, state.as_deref()).map_err(
                |source| AnswerTimesError::Play {
                    agent: spec.label().to_string(),
                    source,
                },
            )?;
            times.extend(game.times);
            stopped += game.stopped;
            state = game.state.or(state);
            progress.advance(1);
        }
        times.sort_by(f64::total_cmp);
        out.push(AnswerTimes {
            agent: spec.label().to_string(),
            moves: times.len(),
            p50_ms: quantile(&times, 0.5),
            p95_ms: quantile(&times, 0.95),
            max_ms: times.last().copied().unwrap_or(0.0),
            over_1s: times.iter().filter(|&&t| t > 1000.0).count(),
            stopped,
        });
    }
    progress.finish();
    Ok(out)
}

/// One game's timed answers, the moves the limit stopped, and the adaptive agent's state
/// after it.
struct TimedGame {
    times: Vec<f64>,
    stopped: usize,
    state: Option<String>,
}

fn timed_game<B: AgentBoard>(
    cfg: &AnswerTimesConfig<B>,
    factory: &AgentFactory<B>,
    opponent: &AgentFactory<B>,
    me: Player,
    seed: u64,
    state: Option<&str>,
) -> Result<TimedGame, PlayError> {
    let geom = cfg.geometry;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cols = random_opening(geom, cfg.openings, &mut rng);
    let mut pos = Position::new(geom);
    for &c in &cols {
        pos.play_col(c);
    }
    let mut other = opponent.build(seed).map_err(AnswerError::from)?;
    let (mut times, mut stopped) = (Vec::new(), 0);
    while pos.outcome() == Outcome::Ongoing {
        let col = if pos.side_to_move() == me {
            let stop = Interrupt::new().with_deadline(Instant::now() + cfg.limit);
            let start = std::time::Instant::now();
            // As the page asks: varied play, seeded per game.
            let (answer, _) =
                play_move(factory, pos, &format_moves(&cols), seed, true, state, &stop)?;
            times.push(start.elapsed().as_secs_f64() * 1e3);
            stopped += usize::from(answer.stopped);
            answer.column - 1
        } else {
            other.choose(&Turn::new(pos))
        };
        pos.play(col)
            .map_err(|e| AnswerError::moves(&format_moves(&cols), e))?;
        cols.push(col);
    }
    // The adaptive agent's state after the game, for the next one (as the page keeps it).
    let state = if matches!(factory.spec().kind(), AgentKind::Adaptive { .. }) {
        let answer = adaptive_answer(
            factory,
            &pos,
            &format_moves(&cols),
            me,
            seed,
            state,
            &Interrupt::new(),
        )?;
        Some(answer.state)
    } else {
        None
    };
    Ok(TimedGame {
        times,
        stopped,
        state,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agent_answers_every_move_of_its_games_and_the_figures_order() {
        let cfg = AnswerTimesConfig {
            geometry: Geometry::new(5, 4).unwrap(),
            agents: vec!["easy".parse().unwrap(), "adaptive".parse().unwrap()],
            opponent: "random".parse().unwrap(),
            games: 2,
            openings: 2,
            seed: 3,
            limit: Duration::from_secs(20),
            resources: Resources::default(),
        };
        let times = answer_times(&cfg, &connect4_engine::progress::Quiet).unwrap();
        assert_eq!(times.len(), 2);
        for t in &times {
            // Two games of at least four moves each on 5x4: the agent moved in both.
            assert!(t.moves >= 4, "{t:?}");
            assert!(t.p50_ms <= t.p95_ms && t.p95_ms <= t.max_ms, "{t:?}");
            assert_eq!(t.stopped, 0, "{t:?}");
        }
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.0);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 0.95), 4.0);
    }
}
