//! The player an `Agent` holds, on boards of either integer: any agent, or the adaptive
//! agent, whose state is read, saved and told about finished games; and how a spec's
//! player is built on a board of `B`.

use crate::board::Board;
use crate::errors::err;
use connect4_engine::agents::{
    Adaptive, AdaptiveState, AgentBoard, AgentKind, AgentSpec, Resources, Turn,
};
use connect4_engine::game::Geometry;
use pyo3::prelude::*;

/// The player an `Agent` holds: any agent, or the adaptive agent, whose state can be read,
/// saved and told about finished games; on a board past 64 bits, the same in 128-bit boards.
pub enum Held {
    Plain(Box<dyn connect4_engine::agents::Agent>),
    Adaptive(Box<Adaptive>),
    WidePlain(Box<dyn connect4_engine::agents::Agent<u128>>),
    WideAdaptive(Box<Adaptive<u128>>),
}

/// What a call that only the adaptive agent answers says to any other.
fn not_adaptive() -> PyErr {
    err("only the adaptive agent keeps a state (spec \"adaptive\")")
}

impl Held {
    /// The column the agent plays in `board` under `stop`; `None` when the board's integer
    /// is not the agent's (the size check before rules that out).
    pub fn choose(
        &mut self,
        board: &Board,
        stop: &connect4_engine::Interrupt,
    ) -> Option<Result<usize, connect4_engine::agents::MoveError>> {
        use connect4_engine::agents::choose_under;
        Some(match (self, board) {
            (Held::Plain(a), Board::Narrow(p)) => choose_under(a.as_mut(), &Turn::new(*p), stop),
            (Held::Adaptive(a), Board::Narrow(p)) => choose_under(a.as_mut(), &Turn::new(*p), stop),
            (Held::WidePlain(a), Board::Wide(p)) => choose_under(a.as_mut(), &Turn::new(*p), stop),
            (Held::WideAdaptive(a), Board::Wide(p)) => {
                choose_under(a.as_mut(), &Turn::new(*p), stop)
            }
            _ => return None,
        })
    }

    pub fn is_adaptive(&self) -> bool {
        matches!(self, Held::Adaptive(_) | Held::WideAdaptive(_))
    }

    pub fn estimate(&self) -> PyResult<f64> {
        match self {
            Held::Adaptive(a) => Ok(a.estimate()),
            Held::WideAdaptive(a) => Ok(a.estimate()),
            _ => Err(not_adaptive()),
        }
    }

    pub fn state_json(&self) -> PyResult<String> {
        match self {
            Held::Adaptive(a) => Ok(a.state().to_json()),
            Held::WideAdaptive(a) => Ok(a.state().to_json()),
            _ => Err(not_adaptive()),
        }
    }

    /// The adaptive agent reads the game of `cols` that ended in `end`, played as `side`,
    /// under `stop`; its new estimate. `None` for another agent or another board's integer.
    pub fn replay(
        &mut self,
        end: &Board,
        cols: &[usize],
        side: connect4_engine::Player,
        stop: &connect4_engine::Interrupt,
    ) -> Option<f64> {
        use connect4_engine::agents::Agent as _;
        match (self, end) {
            (Held::Adaptive(a), Board::Narrow(p)) => {
                a.set_interrupt(Some(stop.clone()));
                a.replay(connect4_engine::Position::new(p.geometry()), cols, side);
                a.set_interrupt(None);
                Some(a.estimate())
            }
            (Held::WideAdaptive(a), Board::Wide(p)) => {
                a.set_interrupt(Some(stop.clone()));
                a.replay(connect4_engine::Position::new(p.geometry()), cols, side);
                a.set_interrupt(None);
                Some(a.estimate())
            }
            _ => None,
        }
    }
}

/// A spec's player on boards of `B`: the adaptive agent (from `state`, or its spec's start)
/// apart, since its state is read and saved.
pub enum Built<B: AgentBoard> {
    Plain(Box<dyn connect4_engine::agents::Agent<B>>),
    Adaptive(Box<Adaptive<B>>),
}

/// Builds the player of `spec` (parsed, with its model files found) on boards of `g`,
/// seeded by `seed`; `state` only for the adaptive agent.
pub fn build_player<B: AgentBoard>(
    spec: &str,
    parsed: &AgentSpec,
    g: Geometry<B>,
    resources: &Resources,
    seed: u64,
    state: Option<String>,
) -> PyResult<Built<B>> {
    let factory = parsed.factory_on(g, resources).map_err(err)?;
    Ok(match (parsed.kind(), state) {
        (AgentKind::Adaptive { start, .. }, state) => {
            let state = match state {
                None => AdaptiveState::new(*start),
                Some(text) => {
                    AdaptiveState::from_json(&text).map_err(|e| err(format!("state: {e}")))?
                }
            };
            Built::Adaptive(Box::new(factory.build_adaptive(seed, state).map_err(err)?))
        }
        (_, Some(_)) => {
            return Err(err(format!(
                "state: only the adaptive agent keeps a state, not \"{spec}\""
            )));
        }
        (_, None) => Built::Plain(factory.build(seed).map_err(err)?),
    })
}
