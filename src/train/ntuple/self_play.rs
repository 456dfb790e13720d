//! TD(lambda) self-play on afterstates: one game, learning as it goes.

use super::NTupleConfig;
use crate::game::{Player, Position};
use crate::ml::ntuple::NTupleNetwork;
use crate::seed::{Stream, derive_seed};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The afterstates of one game still learning, most recent last, with their value when
/// they were reached (for the squash's gradient).
#[derive(Default)]
pub(super) struct Traces {
    states: Vec<(Vec<u32>, f32)>,
}

/// How far back traces reach: weights below this share of the newest are dropped.
const TRACE_CUT: f32 = 0.01;

/// One self-play game, learning as it goes.
pub(super) fn self_play_game(
    config: &NTupleConfig,
    net: &mut NTupleNetwork,
    g: usize,
    traces: &mut Traces,
) {
    let geom = net.geometry();
    let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(
        config.seed,
        Stream::NTupleSelfPlay,
        &[g as u64],
    ));
    let rate = config.decay(config.rate, config.rate_final, g);
    let epsilon = config.decay(config.epsilon, config.epsilon_final, g);
    let opening = crate::arena::random_opening(geom, config.opening, &mut rng);
    let mut pos = Position::new(geom);
    for c in opening {
        pos.play_col(c);
    }
    if pos.last_move_won() || pos.is_full() {
        return;
    }
    traces.states.clear();
    let horizon = if config.lambda > 0.0 {
        (TRACE_CUT.ln() / config.lambda.ln()).ceil() as usize + 1
    } else {
        1
    };
    loop {
        let mover = pos.side_to_move();
        let sign = if mover == Player::First { 1.0 } else { -1.0 };
        let legal: Vec<usize> = pos.legal_columns().collect();
        let explore = rng.r#gen::<f32>() < epsilon;
        let (col, value) = if explore {
            let c = legal[rng.gen_range(0..legal.len())];
            (c, afterstate_value(net, &pos, c))
        } else {
            let mut best = (legal[0], f32::NEG_INFINITY);
            for &c in &legal {
                let v = afterstate_value(net, &pos, c);
                if sign * v > best.1 {
                    best = (c, sign * v);
                }
            }
            (best.0, sign * best.1)
        };
        let after = pos.after(col).expect("a legal column");
        let terminal = after.last_move_won() || after.is_full();
        if explore {
            traces.states.clear();
        } else if let Some((newest, _)) = traces.states.last() {
            // TD error of the newest afterstate, at its current value (earlier steps of this
            // game moved it); the older ones share the error by lambda^k.
            let delta = value - net.raw(newest).tanh();
            let mut credit = rate * delta;
            for (active, v) in traces.states.iter().rev() {
                net.step(active, credit * (1.0 - v * v));
                credit *= config.lambda;
                if config.lambda == 0.0 {
                    break;
                }
            }
        }
        if terminal {
            break;
        }
        let active = net.active(&after);
        let v = net.raw(&active).tanh();
        traces.states.push((active, v));
        if traces.states.len() > horizon {
            traces.states.remove(0);
        }
        pos = after;
    }
}

/// The value (first player's view) of the position after `col`: the result when the move
/// ends the game, else the network's.
fn afterstate_value(net: &NTupleNetwork, pos: &Position, col: usize) -> f32 {
    let after = pos.after(col).expect("a legal column");
    if after.last_move_won() {
        match pos.side_to_move() {
            Player::First => 1.0,
            Player::Second => -1.0,
        }
    } else if after.is_full() {
        0.0
    } else {
        net.value(&after)
    }
}
