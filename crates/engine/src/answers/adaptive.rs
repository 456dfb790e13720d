//! The adaptive agent for a page, which keeps no agent between requests: the page holds the
//! agent's saved state from the start of the game (and across games, in the browser), sends
//! it with the moves so far, and gets back the estimate of the player's Elo, and, once the
//! game is over, the state to keep.

use super::AnswerError;
use crate::agents::level::Calibration;
use crate::agents::{Adaptive, AdaptiveState, Agent, AgentBoard, AgentFactory, AgentKind};
use crate::game::{Outcome, Player, Position};
use serde::Serialize;

/// What the page shows and keeps of the adaptive agent.
#[derive(Clone, Debug, Serialize)]
pub struct AdaptiveAnswer {
    /// The estimate of the player's Elo, the game so far included.
    pub estimate: f64,
    /// Games the estimate has seen finished.
    pub games: u64,
    /// Whether the game sent is over (then `state` has it folded in).
    pub finished: bool,
    /// The state to keep and send with the next game's requests (JSON): the one sent while
    /// the game goes on, the one after the game once it is over.
    pub state: String,
    /// The estimates after each finished game (the last 50), for a chart.
    pub history: Vec<f64>,
}

/// The dial's Elo range, for a page's strength slider.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct DialRange {
    /// The lowest Elo (the random player's end).
    pub low: f64,
    /// The highest Elo (the perfect player's end).
    pub high: f64,
}

/// The Elo range `level:elo=E` takes.
///
/// ```
/// let r = connect4_engine::answers::dial_range();
/// assert!(r.low < r.high);
/// ```
pub fn dial_range() -> DialRange {
    let (low, high) = Calibration::builtin().range();
    DialRange { low, high }
}

/// The adaptive agent's answer after the game `moves` (finished or not) in `pos`, played
/// as `side` from `state` (its saved JSON; `None`: fresh): its estimate of the player, and
/// the state to keep once the game is over. What `/api/adaptive` and the WebAssembly
/// engine's `adaptive` op answer; `stop` bounds the judging of the moves.
pub fn adaptive_answer<B: AgentBoard>(
    factory: &AgentFactory<B>,
    pos: &Position<B>,
    moves: &str,
    side: Player,
    seed: u64,
    state: Option<&str>,
    stop: &crate::Interrupt,
) -> Result<AdaptiveAnswer, AnswerError> {
    let agent = adaptive_in_game(
        factory,
        state,
        Position::new(pos.geometry()),
        moves,
        side,
        seed,
        Some(stop),
    )?;
    Ok(AdaptiveAnswer::of(&agent, pos, state))
}

/// An adaptive agent of `factory` (which must be adaptive) that has read the game
/// `moves` (a move string from the empty board of `start`'s size) from `state` (the saved
/// JSON; `None`: a fresh agent at the spec's start), playing `side`; `stop` bounds its
/// judging of the moves (and later its own moves).
pub fn adaptive_in_game<B: AgentBoard>(
    factory: &AgentFactory<B>,
    state: Option<&str>,
    start: Position<B>,
    moves: &str,
    side: Player,
    seed: u64,
    stop: Option<&crate::Interrupt>,
) -> Result<Adaptive<B>, AnswerError> {
    let AgentKind::Adaptive { start: prior, .. } = factory.spec().kind() else {
        return Err(AnswerError::NotAdaptive {
            spec: super::short(factory.spec().label()),
        });
    };
    let state = match state {
        None | Some("") => AdaptiveState::new(*prior),
        Some(text) => AdaptiveState::from_json(text)?,
    };
    let text = moves.trim().trim_start_matches('-');
    let cols = crate::game::moves::parse_moves(text, start.width())
        .map_err(|e| AnswerError::moves(moves, e))?;
    let mut agent = factory.build_adaptive(seed, state)?;
    agent.set_interrupt(stop.cloned());
    agent.replay(start, &cols, side);
    Ok(agent)
}

impl AdaptiveAnswer {
    /// What `agent` knows after the game ending in (or standing at) `end`; `sent` is the
    /// state the request sent (kept while the game goes on).
    pub fn of<B: AgentBoard>(agent: &Adaptive<B>, end: &Position<B>, sent: Option<&str>) -> Self {
        let finished = end.outcome() != Outcome::Ongoing;
        let state = agent.state();
        let history = state.history.iter().rev().take(50).rev().copied().collect();
        AdaptiveAnswer {
            estimate: agent.estimate(),
            games: state.games,
            finished,
            state: if finished {
                state.to_json()
            } else {
                sent.filter(|s| !s.is_empty())
                    .map_or_else(|| state.to_json(), str::to_string)
            },
            history,
        }
    }
}
