//! The run: the supervised part and self-play in the recipe's order, the curve measured and
//! the state checkpointed as the machine says, the best point kept; self-play runs on the
//! loop every self-play trainer shares ([`crate::train::run_loop`]).

use super::collapse::{collapse, fell_from, first_player_wins, kept_summary};
use super::config::{NTupleConfig, Order, Target, ValidNTupleConfig};
use super::curve::CurveProbe;
use super::error::NTupleTrainError;
use super::files::{load_checkpoint, save_checkpoint};
use super::lanes::{TailAverage, Weights};
use super::run::{Checkpoint, Machine, NTupleRun};
use super::self_play::{SyncTimes, round_of, self_play};
use crate::datasets::Example;
use crate::train::run_loop::{self, Cadence, Checkpointing, KeepBest, Trainer};
use connect4_engine::agents::{AgentBoard, AgentFactory};
use connect4_engine::game::{BitBoard, Player};
use connect4_engine::ml::ntuple::NTupleNetwork;
use connect4_engine::progress::Progress;
use connect4_engine::seed::{Stream, derive_seed};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::ops::{ControlFlow, Range};
use std::time::Instant;

/// What a run learns from besides self-play, and what measures it: the labelled positions
/// of the supervised part (empty: none) and the curve's probe (none: no curve).
pub struct Sources<'a, B: AgentBoard = u64> {
    /// Solver-labelled positions for the supervised part.
    pub examples: &'a [Example],
    /// What measures the curve.
    pub probe: Option<&'a CurveProbe<B>>,
}

impl<B: AgentBoard> Default for Sources<'_, B> {
    /// Self-play alone, unmeasured.
    fn default() -> Self {
        Sources {
            examples: &[],
            probe: None,
        }
    }
}

/// Trains a network: the supervised part on the sources' examples (skipped when empty) and
/// `games` self-play games, in the configured order, measuring the curve with their probe
/// as often as `machine` says (and checkpointing as it says), on the recipe's board.
///
/// In bitboards of `B`: `u64` for boards of up to 64 bits, `u128` past them (see
/// [`connect4_engine::game::needs_wide`]); a board that does not fit `B` is an error.
pub fn train_ntuple<B: AgentBoard>(
    config: &ValidNTupleConfig,
    sources: &Sources<'_, B>,
    machine: &Machine,
    progress: &dyn Progress,
) -> Result<NTupleRun<B>, NTupleTrainError> {
    let Sources { examples, probe } = *sources;
    let checkpointing = machine.checkpointing.as_ref();
    let geom = config.geometry::<B>()?;
    if let Some(c) = checkpointing {
        c.check()?;
    }
    let restored = match checkpointing {
        Some(c) if c.resume => load_checkpoint(&c.path, config, geom)?,
        _ => None,
    };
    let mut state = match restored {
        Some(state) => state,
        None => Checkpoint {
            config: NTupleConfig::clone(config),
            supervised_done: examples.is_empty(),
            games_done: 0,
            seconds: 0.0,
            curve: Vec::new(),
            network: NTupleNetwork::new(geom, config.layout)?.data(),
            tcl: None,
            tail: None,
            best: KeepBest::default(),
        },
    };
    let mut net = NTupleNetwork::from_data(geom, state.network.clone())?;
    let measure = |net: &NTupleNetwork<B>, state: &mut Checkpoint, part: &str| {
        measure_into(probe, net, state, part, progress)
    };
    if state.curve.is_empty() {
        measure(&net, &mut state, "start")?;
    }
    let supervised_first = config.order == Order::SupervisedFirst;
    if supervised_first && !state.supervised_done {
        supervised(config, &mut net, examples, &mut state, progress);
        measure(&net, &mut state, "supervised")?;
    }
    let mut sync = SyncTimes::default();
    if state.games_done < config.games {
        let part = SelfPlayPart::start(config, net, state, probe, machine, progress)?;
        (net, state, sync) = part.run(checkpointing)?;
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
        && let Some(snap) = state.best.best().filter(|s| s.point == i)
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
        measure(&net, &mut state, "supervised")?;
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

/// Measures `net` for the curve as part `part` (nothing without a probe) and says so.
fn measure_into<B: AgentBoard>(
    probe: Option<&CurveProbe<B>>,
    net: &NTupleNetwork<B>,
    state: &mut Checkpoint,
    part: &str,
    progress: &dyn Progress,
) -> Result<(), NTupleTrainError> {
    if let Some(p) = probe {
        let pt = p.measure(net, part, state.games_done, state.seconds)?;
        progress.note(&pt.summary());
        state.curve.push(pt);
    }
    Ok(())
}

/// Self-play on the shared loop ([`run_loop`]): rounds of the recipe's lanes on the run's
/// own threads, the curve measured and the best network kept as the machine says.
struct SelfPlayPart<'a, B: AgentBoard> {
    config: &'a NTupleConfig,
    net: NTupleNetwork<B>,
    state: Checkpoint,
    shared: Weights,
    tail: TailAverage,
    pool: rayon::ThreadPool,
    probe: Option<&'a CurveProbe<B>>,
    machine: &'a Machine,
    /// The recipe's guide agent (`None`: the solver guides, or nothing does).
    agent_guide: Option<AgentFactory<B>>,
    sync: SyncTimes,
    progress: &'a dyn Progress,
}

impl<'a, B: AgentBoard> SelfPlayPart<'a, B> {
    fn start(
        config: &'a NTupleConfig,
        net: NTupleNetwork<B>,
        state: Checkpoint,
        probe: Option<&'a CurveProbe<B>>,
        machine: &'a Machine,
        progress: &'a dyn Progress,
    ) -> Result<Self, NTupleTrainError> {
        // The run's own threads, started once: a thread a copy, no more than the lanes.
        let threads = machine.threads.clamp(1, config.lanes.max(1));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("c4-lane-{i}"))
            .build()
            .map_err(|source| NTupleTrainError::Threads { threads, source })?;
        let guide_spec = config.guide_spec()?;
        let agent_guide = match &guide_spec {
            Some(spec) if config.guided > 0.0 => {
                // Built once here so that an agent that cannot play the board is the run's
                // error before its first game; each opening builds its own from it.
                let board = net.geometry();
                let factory = spec
                    .factory_on(board, &connect4_engine::agents::Resources::default())
                    .and_then(|f| f.build(0).map(|_| f))
                    .map_err(|source| NTupleTrainError::GuideAgent {
                        spec: config.guide.clone(),
                        board: board.to_string(),
                        source: Box::new(source),
                    })?;
                Some(factory)
            }
            _ => None,
        };
        if config.guided > 0.0 && guide_spec.is_none() {
            // The solver's pool holds 64-bit boards: wider ones are never guided by it (the
            // CLI refuses --guided where the solver cannot answer from the empty board).
            let narrow = net
                .geometry()
                .narrow()
                .ok_or_else(|| NTupleTrainError::GuidedPast64Bits(net.geometry().to_string()))?;
            machine
                .guide
                .ready(narrow)
                .map_err(NTupleTrainError::Guide)?;
        }
        Ok(SelfPlayPart {
            config,
            shared: Weights::new(&net, config.rule, state.tcl.as_ref()),
            tail: state.tail.clone().unwrap_or_default(),
            net,
            state,
            pool,
            probe,
            machine,
            agent_guide,
            sync: SyncTimes::default(),
            progress,
        })
    }

    /// Plays the rest of the recipe's games; hands back the network, the state and where
    /// self-play's time went.
    fn run(
        mut self,
        checkpointing: Option<&Checkpointing>,
    ) -> Result<(NTupleNetwork<B>, Checkpoint, SyncTimes), NTupleTrainError> {
        let cadence = Cadence {
            measure_every: self.machine.curve_every,
            measure_at_end: true,
        };
        self.progress.start("self-play games", self.config.games);
        self.progress.advance(self.state.games_done);
        let (done, total) = (self.state.games_done, self.config.games);
        let never = run_loop::run(&mut self, done, total, cadence, checkpointing)?;
        match never {
            None => {}
            Some(never) => match never {},
        }
        self.progress.finish();
        self.state.tail = (self.tail.count > 0).then_some(self.tail);
        Ok((self.net, self.state, self.sync))
    }

    /// The network the run would hand over if it stopped now: the tail average once it has
    /// a snapshot, else the weights as they are.
    fn handed(&self) -> NTupleNetwork<B> {
        let mut out = self.net.clone();
        if self.tail.count > 0 {
            out.weights_mut().copy_from_slice(&self.tail.mean);
        }
        out
    }
}

impl<B: AgentBoard> Trainer for SelfPlayPart<'_, B> {
    type Stop = std::convert::Infallible;
    type Error = NTupleTrainError;

    /// Rounds of games up to the one that reaches `games.end`: rounds are the recipe's, not
    /// the machine's, so the cadence never changes what is learned.
    fn play(&mut self, games: Range<usize>) -> Result<usize, NTupleTrainError> {
        let config = self.config;
        let end = round_of(config, games.end - 1, config.games).end;
        let t0 = Instant::now();
        let feed = (config.tail > 0.0).then_some((&mut self.tail, config.tail_from()));
        let times = self_play(
            config,
            &self.net,
            &mut self.shared,
            games.start..end,
            &self.pool,
            &self.machine.guide,
            self.agent_guide.as_ref(),
            feed,
            self.progress,
        )?;
        self.sync.add(&times);
        self.state.seconds += t0.elapsed().as_secs_f64();
        self.state.games_done = end;
        self.shared.copy_into(&mut self.net);
        Ok(end)
    }

    /// A curve point of the network the run would hand over; a warning when the curve shows
    /// a collapse; a copy kept when it is the best point so far.
    fn measure(&mut self, _games: usize) -> Result<ControlFlow<Self::Stop>, NTupleTrainError> {
        if self.probe.is_none() {
            return Ok(ControlFlow::Continue(()));
        }
        let now = self.handed();
        measure_into(
            self.probe,
            &now,
            &mut self.state,
            "self-play",
            self.progress,
        )?;
        let curve = &self.state.curve;
        if let Some(warning) = collapse(curve) {
            self.progress.note(&format!("warning: {warning}"));
        }
        let newest = curve.len() - 1;
        if self.machine.keep_best
            && let Some(wins) = first_player_wins(&curve[newest])
        {
            self.state
                .best
                .offer(newest, wins, || now.weights().to_vec());
        }
        Ok(ControlFlow::Continue(()))
    }

    fn save(&mut self, _games: usize, c: &Checkpointing) -> Result<(), NTupleTrainError> {
        self.state.network = self.net.data();
        self.state.tcl = self.shared.tcl_state(&self.net);
        self.state.tail = (self.tail.count > 0).then(|| self.tail.clone());
        save_checkpoint(&c.path, &self.state)
    }
}

/// The supervised part: `epochs` shuffled passes of the LMS rule over `examples`.
fn supervised<B: BitBoard>(
    config: &NTupleConfig,
    net: &mut NTupleNetwork<B>,
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
                net.active_into(&e.position.in_bits(), &mut active);
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
