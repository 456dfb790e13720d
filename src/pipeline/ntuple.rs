//! Stage 4, ntuple: the n-tuple network trained from scratch by TD self-play, with the
//! shipped recipe in the pipeline recipe's lanes (`models/ntuple.bin`, its curve and
//! report; the same network on any number of cores); its learning curve
//! is measured as `c4 train ntuple` measures it: mistakes on the benchmark sets and wins
//! against the perfect player.

use super::inputs::Inputs;
use super::{PipelineConfig, PipelineError, Sizes, fail};
use connect4_engine::io::model_format::TrainingMeta;
use connect4_engine::progress::Progress;
use connect4_learn::train::ntuple::{CurvePoint, CurveProbe, Guide, Job, Machine, train_job};
use linfa::ParamGuard;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What the n-tuple stage produced.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NTupleResult {
    /// Labelled positions of the supervised pass.
    pub labelled: usize,
    /// Self-play games.
    pub games: usize,
    /// Training seconds.
    pub seconds: f64,
    /// Weights in the network.
    pub weights: usize,
    /// The learning curve.
    pub curve: Vec<CurvePoint>,
}

/// Trains and saves the network.
pub fn run(
    config: &PipelineConfig,
    sizes: &Sizes,
    _inputs: &Inputs,
    observer: &dyn Progress,
) -> Result<(NTupleResult, Vec<PathBuf>), PipelineError> {
    // From scratch, as the literature's yardstick asks (the shipped positions are not read).
    let examples: &[connect4_learn::datasets::Example] = &[];
    let geom = config.geometry;
    let mut cfg = sizes
        .ntuple_recipe()
        .map_err(fail("ntuple"))?
        .seed(config.seed)
        .width(geom.width())
        .height(geom.height());
    if geom != connect4_engine::game::Geometry::STANDARD {
        // As `c4 train ntuple --width W --height H` learns: the shipped recipe's guided
        // openings are 7x6 ones, so another board learns by pure self-play.
        cfg = cfg.guided(0.0).guided_final(0.0);
    }
    let cfg = cfg.check().map_err(fail("ntuple"))?;
    // The curve at the start and the end: each point's matches cost seconds.
    let machine = Machine {
        threads: rayon::current_num_threads().max(1),
        curve_every: cfg.games(),
        guide: Guide::with_book(config.book.clone()),
        ..Machine::default()
    };
    let probe = probe(config, sizes, observer)?;
    let job = Job {
        config: cfg,
        examples,
        probe: probe.as_ref(),
        machine,
        checkpoint_every: 0,
        resume: false,
        runs: 1,
        out: config.out.join("models/ntuple.bin"),
        meta: TrainingMeta::new("c4 pipeline (stage ntuple)", config.seed),
    };
    let outcome = train_job(&job, observer, &mut |_, _| {}).map_err(fail("ntuple"))?;
    let (run, written) = (outcome.runs.into_iter().next(), outcome.written);
    let run = run.ok_or_else(|| fail("ntuple")("the job ran no run"))?;
    Ok((
        NTupleResult {
            labelled: run.labelled,
            games: run.games,
            seconds: run.seconds,
            weights: run.weights,
            curve: run.curve,
        },
        written,
    ))
}

/// The stage's curve: none without positions to measure; off 7x6 its matches alone.
fn probe(
    config: &PipelineConfig,
    sizes: &Sizes,
    observer: &dyn Progress,
) -> Result<Option<CurveProbe>, PipelineError> {
    let geom = config.geometry;
    // The curve needs the solved columns of the benchmark sets, which the shipped data/bench
    // keeps (`curve-columns.json`); a folder without them (the Pons files) gets no curve,
    // rather than minutes of solving the opening sets. Off 7x6 (no benchmark sets) the
    // curve plays its matches alone, against the perfect player where the solver reaches.
    let cache = config
        .bench
        .as_ref()
        .map(|b| (b, b.join("curve-columns.json")));
    Ok(if sizes.ntuple_curve_positions == 0 {
        None
    } else if geom != connect4_engine::game::Geometry::STANDARD {
        let perfect = if connect4_engine::solver::reaches(geom) {
            sizes.ntuple_curve_perfect
        } else {
            0
        };
        Some(
            CurveProbe::new(
                geom,
                connect4_engine::agents::AgentSpec::builtin("handtuned", 5)
                    .map_err(fail("ntuple"))?,
                sizes.ntuple_curve_games,
                config.seed,
                Vec::new(),
                observer,
            )
            .and_then(|p| p.with_perfect(perfect, &[0.2]))
            .map_err(fail("ntuple"))?,
        )
    } else if let Some((bench, cache)) = cache.filter(|(_, c)| c.is_file()) {
        Some(
            CurveProbe::cached(
                bench,
                &cache,
                &config.out.join("models/curve-columns.json"),
                sizes.ntuple_curve_positions,
                sizes.ntuple_curve_games,
                config.seed,
                observer,
            )
            .and_then(|p| p.with_perfect(sizes.ntuple_curve_perfect, &[0.2]))
            .map_err(fail("ntuple"))?,
        )
    } else {
        None
    })
}
