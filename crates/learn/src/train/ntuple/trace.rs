//! The trace of a self-play game: the afterstates still learning, and what a move (greedy or
//! exploring) does to them under the recipe's `learn_explored`.

use super::config::{LearnExplored, NTupleConfig};
use super::lanes::Lane;
use connect4_engine::game::Player;

/// An afterstate still learning in a self-play game.
pub(super) struct Traced {
    /// Its network slots' dense numbers.
    pub(super) slots: Vec<u32>,
    /// Its value when reached.
    pub(super) value: f32,
    /// The move of the game that reached it: its share of a later TD error is lambda to the
    /// power of the moves since, and its side is the one that moved an even number of moves
    /// before the newest.
    pub(super) ply: usize,
}

/// Which afterstates of the trace learn through a move, and which stay in the trace after it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Through {
    /// Every one, and all stay (a greedy move, or on-policy learning).
    Everyone,
    /// The newest only (the side that did not move), then the trace is cut.
    Newest,
    /// The side that did not move, which alone stays in the trace.
    Opponent,
    /// None, and the trace is cut.
    Nobody,
}

impl Through {
    /// At an exploring move the trace is cut (the values of greedy play), or only its newest
    /// afterstate learns (the second player's, before a first-player error it learns from),
    /// or the other side's afterstates learn through it and go on learning (values of play
    /// against an opponent that errs), or it goes on as at any move (on-policy).
    pub(super) fn of(explore: bool, learn_explored: LearnExplored, mover: Player) -> Self {
        match (explore, learn_explored) {
            (false, _) | (true, LearnExplored::All) => Self::Everyone,
            (true, LearnExplored::First) if mover == Player::First => Self::Newest,
            (true, LearnExplored::FirstTrace) if mover == Player::First => Self::Opponent,
            (true, LearnExplored::Opponent) => Self::Opponent,
            (true, _) => Self::Nobody,
        }
    }
}

/// Steps the trace's afterstates toward `value`, the value after move `ply`, as `through`
/// says, then drops those that stop learning (their slot vectors go to `spare`).
#[allow(clippy::too_many_arguments)]
pub(super) fn learn(
    trace: &mut Vec<Traced>,
    spare: &mut Vec<Vec<u32>>,
    weights: &mut Lane,
    config: &NTupleConfig,
    through: Through,
    value: f32,
    ply: usize,
    rate: f32,
) {
    // The mover's own afterstates are those an even number of moves back.
    let movers = |t: &Traced| (ply - t.ply).is_multiple_of(2);
    if let Some(newest) = trace.last().filter(|_| through != Through::Nobody) {
        // The newest afterstate's TD error at its current value (this game's earlier
        // steps moved it); older ones share it by lambda per move back.
        let delta = value - weights.value(&newest.slots);
        let mut credit = rate * delta;
        let mut at = newest.ply;
        for t in trace.iter().rev() {
            for _ in t.ply..at {
                credit *= config.lambda;
            }
            at = t.ply;
            if through == Through::Opponent && movers(t) {
                continue;
            }
            weights.step(&t.slots, credit * config.loss.slope(t.value));
            if through == Through::Newest {
                break;
            }
        }
    }
    match through {
        Through::Everyone => {}
        Through::Newest | Through::Nobody => spare.extend(trace.drain(..).map(|t| t.slots)),
        Through::Opponent => {
            let mut kept = Vec::with_capacity(trace.len());
            for t in trace.drain(..) {
                if movers(&t) {
                    spare.push(t.slots);
                } else {
                    kept.push(t);
                }
            }
            *trace = kept;
        }
    }
}

/// Adds the afterstate just reached; afterstates `horizon` or more moves back leave (the
/// same as a trace of `horizon` entries where no exploring move thinned it).
pub(super) fn push(trace: &mut Vec<Traced>, spare: &mut Vec<Vec<u32>>, t: Traced, horizon: usize) {
    let ply = t.ply;
    trace.push(t);
    while trace.first().is_some_and(|t| ply - t.ply >= horizon) {
        spare.push(trace.remove(0).slots);
    }
}
