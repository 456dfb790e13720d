//! The run: the supervised part and self-play in the recipe's order, the curve measured and
//! the state checkpointed as the machine says, the best point kept.

use super::collapse::{best_point, collapse, fell_from, kept_summary};
use super::config::{NTupleConfig, Order, Target};
use super::curve::{CurvePoint, CurveProbe};
use super::error::NTupleTrainError;
use super::files::{load_checkpoint, save_checkpoint};
use super::lanes::{TailAverage, Weights};
use super::run::{Checkpoint, Checkpointing, Machine, NTupleRun, Snapshot};
use super::self_play::{SyncTimes, round_of, self_play};
use crate::datasets::Example;
use crate::game::{Geometry, Player};
use crate::ml::ntuple::NTupleNetwork;
use crate::progress::Progress;
use crate::seed::{Stream, derive_seed};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// Trains a network: the supervised part on `examples` (skipped when empty) and `games`
/// self-play games, in the configured order, measuring the curve with `probe` (none:
/// no curve) as often as `machine` says.
pub fn train_ntuple(
    config: &NTupleConfig,
    geom: Geometry,
    examples: &[Example],
    probe: Option<&CurveProbe>,
    checkpointing: Option<&Checkpointing>,
    machine: &Machine,
    progress: &dyn Progress,
) -> Result<NTupleRun, NTupleTrainError> {
    config.check()?;
    let restored = match checkpointing {
        Some(c) if c.resume => load_checkpoint(&c.path, config, geom)?,
        _ => None,
    };
    let mut state = match restored {
        Some(state) => state,
        None => Checkpoint {
            config: config.clone(),
            supervised_done: examples.is_empty(),
            games_done: 0,
            seconds: 0.0,
            curve: Vec::new(),
            network: NTupleNetwork::new(geom, config.layout)?.data(),
            tcl: None,
            tail: None,
            best: None,
        },
    };
    let mut net = NTupleNetwork::from_data(geom, state.network.clone())?;
    let measure = |net: &NTupleNetwork,
                   state: &Checkpoint,
                   part: &str|
     -> Result<Option<CurvePoint>, NTupleTrainError> {
        Ok(match probe {
            Some(p) => Some(p.measure(net, part, state.games_done, state.seconds)?),
            None => None,
        })
    };
    if state.curve.is_empty()
        && let Some(pt) = measure(&net, &state, "start")?
    {
        progress.note(&pt.summary());
        state.curve.push(pt);
    }
    let supervised_first = config.order == Order::SupervisedFirst;
    if supervised_first && !state.supervised_done {
        supervised(config, &mut net, examples, &mut state, progress);
        if let Some(pt) = measure(&net, &state, "supervised")? {
            progress.note(&pt.summary());
            state.curve.push(pt);
        }
    }
    let mut sync = SyncTimes::default();
    if state.games_done < config.games {
        progress.start("self-play games", config.games);
        progress.advance(state.games_done);
        let mut shared = Weights::new(&net, config.rule, state.tcl.as_ref());
        // The run's own threads, started once: a thread a copy, no more than the lanes.
        let threads = machine.threads.clamp(1, config.lanes.max(1));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("c4-lane-{i}"))
            .build()
            .map_err(|e| NTupleTrainError::Threads {
                threads,
                problem: e.to_string(),
            })?;
        let tail_from = config.tail_from();
        let mut tail = state.tail.clone().unwrap_or_default();
        // The network the run would hand over if it stopped now: the tail average once it
        // has a snapshot, else the weights as they are.
        let handed = |net: &NTupleNetwork, tail: &TailAverage| {
            let mut out = net.clone();
            if tail.count > 0 {
                out.weights_mut().copy_from_slice(&tail.mean);
            }
            out
        };
        while state.games_done < config.games {
            // Play up to the next curve point, checkpoint or the end, whichever comes first.
            let done = state.games_done;
            let next_at = |every: usize| match every {
                0 => config.games,
                k => (done / k + 1) * k,
            };
            let every = checkpointing.map_or(0, |c| c.every);
            let curve_due = next_at(machine.curve_every);
            let end = curve_due.min(next_at(every)).min(config.games);
            // Rounds are the recipe's, not the machine's: stop at the end of the round
            // that reaches the point, so the cadence never changes what is learned.
            let end = round_of(config, end - 1, config.games).end;
            let t0 = Instant::now();
            let feed = (config.tail > 0.0).then_some((&mut tail, tail_from));
            let times = self_play(config, &net, &mut shared, done..end, &pool, feed, progress)?;
            sync.add(&times);
            state.seconds += t0.elapsed().as_secs_f64();
            state.games_done = end;
            shared.copy_into(&mut net);
            let at_curve = machine.curve_every > 0 && end >= curve_due;
            if at_curve || end == config.games {
                let now = handed(&net, &tail);
                if let Some(pt) = measure(&now, &state, "self-play")? {
                    progress.note(&pt.summary());
                    state.curve.push(pt);
                    if let Some(warning) = collapse(&state.curve) {
                        progress.note(&format!("warning: {warning}"));
                    }
                    let newest = state.curve.len() - 1;
                    if machine.keep_best && best_point(&state.curve) == Some(newest) {
                        state.best = Some(Snapshot {
                            point: newest,
                            weights: now.weights().to_vec(),
                        });
                    }
                }
            }
            if let Some(c) = checkpointing {
                state.network = net.data();
                state.tcl = shared.tcl_state(&net);
                state.tail = (tail.count > 0).then(|| tail.clone());
                save_checkpoint(&c.path, &state)?;
            }
        }
        progress.finish();
        state.tail = (tail.count > 0).then_some(tail);
    }
    // A tail-averaging run hands over the average, not the last weights.
    if let Some(t) = &state.tail
        && t.count > 0
    {
        net.weights_mut().copy_from_slice(&t.mean);
    }
    let mut kept = None;
    if machine.keep_best
        && let Some(i) = fell_from(&state.curve)
        && let Some(snap) = state.best.as_ref().filter(|s| s.point == i)
    {
        net.weights_mut().copy_from_slice(&snap.weights);
        kept = Some(i);
        progress.note(&format!(
            "kept: {}",
            kept_summary(&state.curve, i).unwrap_or_default()
        ));
    }
    if !supervised_first && !state.supervised_done {
        supervised(config, &mut net, examples, &mut state, progress);
        if let Some(pt) = measure(&net, &state, "supervised")? {
            progress.note(&pt.summary());
            state.curve.push(pt);
        }
    }
    Ok(NTupleRun {
        network: net,
        curve: state.curve,
        games: state.games_done,
        labelled: examples.len(),
        seconds: state.seconds,
        sync,
        kept,
    })
}

/// The supervised part: `epochs` shuffled passes of the LMS rule over `examples`.
fn supervised(
    config: &NTupleConfig,
    net: &mut NTupleNetwork,
    examples: &[Example],
    state: &mut Checkpoint,
    progress: &dyn Progress,
) {
    let t0 = Instant::now();
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let mut rng =
        ChaCha8Rng::seed_from_u64(derive_seed(config.seed, Stream::NTupleSupervised, &[]));
    let mut active = Vec::new();
    progress.start("supervised positions", examples.len() * config.epochs);
    for _ in 0..config.epochs {
        order.shuffle(&mut rng);
        for chunk in order.chunks(4096) {
            for &i in chunk {
                let e = &examples[i];
                net.active_into(&e.position, &mut active);
                net.learn(&active, target(e, config.target), config.supervised_rate);
            }
            progress.advance(chunk.len());
        }
    }
    progress.finish();
    state.supervised_done = true;
    state.seconds += t0.elapsed().as_secs_f64();
}

/// The first player's target for a labelled position.
pub(super) fn target(e: &Example, kind: Target) -> f32 {
    use crate::datasets::Label;
    let mover = match e.label {
        Label::Win => 1.0,
        Label::Draw => 0.0,
        Label::Loss => -1.0,
    };
    let mover = match (kind, e.score) {
        (Target::Score, Some(s)) if s != 0 => {
            let best = e
                .position
                .geometry()
                .win_score(e.position.moves_played())
                .max(1);
            s.signum() as f32 * (0.5 + 0.5 * s.unsigned_abs() as f32 / best as f32).min(1.0)
        }
        _ => mover,
    };
    match e.position.side_to_move() {
        Player::First => mover,
        Player::Second => -mover,
    }
}
