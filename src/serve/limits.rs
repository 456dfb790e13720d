//! What one `/api/move` may ask of the server: every agent option that scales work or memory
//! has a ceiling here, so no request can hold a heavy slot for long or grow the server's
//! memory without bound. The time limit stops the work in any case; these ceilings keep
//! memory bounded and refuse, with a 400 naming the option, requests that could only be cut
//! short.

use super::error::ApiError;
use connect4_engine::agents::{AgentKind, AgentSpec, EvalSpec};
use serde::Serialize;
use std::time::Duration;

/// One documented ceiling.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Limit {
    /// The option as a spec writes it.
    pub option: &'static str,
    /// The agents that take it.
    pub agents: &'static str,
    /// The largest value a request may give.
    pub max: u64,
    /// What the ceiling bounds.
    pub why: &'static str,
}

/// Search depth: past the 42 cells of the standard board a deeper search is the same search.
pub(crate) const MAX_DEPTH: u64 = 42;
/// Search table entries as a power of two (2^22 entries, 64 MiB).
pub(crate) const MAX_TABLE_LOG2: u64 = 22;
/// Solver table of `perfect` in MiB.
pub(crate) const MAX_PERFECT_MIB: u64 = 64;
/// MCTS simulations per move: the tree keeps one node per simulation (about 200 bytes).
pub(crate) const MAX_SIMS: u64 = 1_000_000;
/// Random playouts per evaluated position (`rollouts` and `hybrid`).
pub(crate) const MAX_PLAYOUTS: u64 = 5_000;

/// Every ceiling, for `GET /api/agents` and the documentation; `ms` is the server's move
/// limit.
pub fn limits(move_limit: Duration) -> Vec<Limit> {
    vec![
        Limit {
            option: "depth",
            agents: "every searching agent, level, adaptive, schedule steps",
            max: MAX_DEPTH,
            why: "plies searched",
        },
        Limit {
            option: "ms",
            agents: "every searching agent",
            max: move_limit.as_millis() as u64,
            why: "the server's time limit of one move",
        },
        Limit {
            option: "tt",
            agents: "searching agents (log2 of entries)",
            max: MAX_TABLE_LOG2,
            why: "memory of the search table",
        },
        Limit {
            option: "tt",
            agents: "perfect (MiB)",
            max: MAX_PERFECT_MIB,
            why: "memory of the solver table",
        },
        Limit {
            option: "sims",
            agents: "mcts",
            max: MAX_SIMS,
            why: "memory of the search tree (one node per simulation)",
        },
        Limit {
            option: "playouts",
            agents: "rollouts (also rollouts= of hybrid)",
            max: MAX_PLAYOUTS,
            why: "work of one evaluation",
        },
    ]
}

/// A 400 naming the option, its value and the ceiling.
fn over(spec: &AgentSpec, option: &str, value: u64, max: u64) -> ApiError {
    ApiError::BadRequest(format!(
        "agent \"{}\": {option}={value} is larger than this server allows ({max})",
        short(&spec.to_string())
    ))
}

/// At most a few dozen characters of `text`, so an error never echoes a huge request.
pub fn short(text: &str) -> String {
    connect4_engine::answers::short(text)
}

/// Refuses `spec` when one of its options is over its ceiling.
pub fn check(spec: &AgentSpec, move_limit: Duration) -> Result<(), ApiError> {
    let cap = |option: &str, value: u64, max: u64| {
        if value > max {
            Err(over(spec, option, value, max))
        } else {
            Ok(())
        }
    };
    match spec.kind() {
        AgentKind::Search { eval, params } => {
            if let Some(ms) = params.time_budget {
                cap("ms", ms.as_millis() as u64, move_limit.as_millis() as u64)?;
            } else {
                // A time budget bounds the deepening by itself (`ms=T` searches to depth 64).
                cap("depth", u64::from(params.depth), MAX_DEPTH)?;
                for &(_, d) in &params.schedule {
                    cap("depth", u64::from(d), MAX_DEPTH)?;
                }
            }
            cap("tt", u64::from(params.table_log2), MAX_TABLE_LOG2)?;
            match eval {
                EvalSpec::Rollouts(r) => cap("playouts", u64::from(r.playouts), MAX_PLAYOUTS),
                EvalSpec::Hybrid { rollouts, .. } => {
                    cap("rollouts", u64::from(rollouts.playouts), MAX_PLAYOUTS)
                }
                _ => Ok(()),
            }
        }
        AgentKind::Perfect(p) => cap("tt", p.tt_mib as u64, MAX_PERFECT_MIB),
        AgentKind::Exploit(x) => {
            cap("ms", x.ms, move_limit.as_millis() as u64)?;
            cap("tt", x.tt_mib as u64, MAX_PERFECT_MIB)
        }
        AgentKind::Mcts { sims, .. } => cap("sims", u64::from(*sims), MAX_SIMS),
        // Their `ms` is the time to solve one position; the move limit cuts it short anyway.
        AgentKind::Adaptive { depth, .. } | AgentKind::Level { depth, .. } => {
            cap("depth", u64::from(*depth), MAX_DEPTH)
        }
        // A parsed spec is never external (only a caller's factory is): nothing to cap.
        AgentKind::Random | AgentKind::External => Ok(()),
    }
}
