//! The best any agent can score against an erring perfect baseline on a small board: the
//! whole game tree searched (`connect4_engine::agents::exploit_optimum`), printed beside the
//! agents' results so that `exploit`'s figures can be read against the ceiling.

use super::EvaluateConfig;
use connect4_engine::agents::{AgentBoard, AgentKind, Ties, exploit_optimum};
use connect4_engine::game::{Player, Position};
use serde::{Deserialize, Serialize};

/// Boards of at most this many cells get the optimum (5x4 takes about a second a side).
pub const OPTIMUM_MAX_CELLS: usize = 20;

/// The exact best chances against the baseline from the empty board, for each side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Optimum {
    /// The baseline's share of random moves.
    pub eps: f64,
    /// Best chance to win as first player, and the draws that go with it.
    pub first_win: f64,
    /// Draw chance of that play as first player.
    pub first_draw: f64,
    /// Best chance to win as second player.
    pub second_win: f64,
    /// Draw chance of that play as second player.
    pub second_draw: f64,
}

impl Optimum {
    /// The line `c4 evaluate` prints.
    pub fn text(&self, baseline: &str) -> String {
        format!(
            "\nthe exact optimum against {baseline} (every line of the board searched): as first player win {:.1}% (draw {:.1}%), as second player win {:.1}% (draw {:.1}%)\n",
            100.0 * self.first_win,
            100.0 * self.first_draw,
            100.0 * self.second_win,
            100.0 * self.second_draw
        )
    }
}

/// The optimum for `cfg`'s baseline where it is an erring perfect player with random ties
/// (`perfect:ties=random,eps=E`, E above 0), the games start from the empty board and the
/// board has at most [`OPTIMUM_MAX_CELLS`] cells; `None` elsewhere.
pub(super) fn optimum<B: AgentBoard>(cfg: &EvaluateConfig<B>) -> Option<Optimum> {
    let AgentKind::Perfect(p) = cfg.baseline.kind() else {
        return None;
    };
    let geom = cfg.geometry.narrow()?;
    if p.ties != Ties::Random
        || p.eps <= 0.0
        || cfg.openings > 0
        || geom.cells() > OPTIMUM_MAX_CELLS
    {
        return None;
    }
    let empty = Position::new(geom);
    let first = exploit_optimum(&empty, p.eps, Player::First).ok()?;
    let second = exploit_optimum(&empty, p.eps, Player::Second).ok()?;
    Some(Optimum {
        eps: p.eps,
        first_win: first.win,
        first_draw: first.draw,
        second_win: second.win,
        second_draw: second.draw,
    })
}
