//! `c4 pipeline`: the main job, end to end, into one run directory.
//!
//! Not here: the trainers and games it orders (`train`, `arena`): each stage calls them.
//!
//! Before anything runs, [`inputs`] checks what the run reads (run folder, UCI file,
//! benchmark sets, agent specs), so a bad path fails in a second. Then the stages, in order;
//! each is one function returning a typed result, writes its files atomically, and records
//! the result with the sha256 of every file it wrote in `stages/NAME.json`:
//!
//! 1. [`data`]: the UCI rows and the shipped labelled positions (read by [`inputs`]), plus
//!    solver-labelled positions from self-play between `hard` and `handtuned`
//!    (`data/selfplay.csv`); half of those train the GBT, half are held out.
//! 2. [`lms`]: LMS weights: a supervised fit to the shipped positions, then self-play from
//!    it (`models/lms.bin` and its curves).
//! 3. [`gbt`]: the GBT, reference configuration on `cells+oddeven` features, trained on the
//!    UCI rows, the shipped positions and self-play (`models/gbt.bin`, curve, importance,
//!    report, `models/gbt.phases.csv`), scored by band of stones on the held-out set.
//! 4. [`ntuple`](mod@ntuple): the n-tuple network, TD self-play from scratch on every core
//!    (`models/ntuple.bin`, its learning curve against the perfect player and report).
//! 5. [`ladder`]: a round robin of every agent with Elo (`ladder/`), then the model agents,
//!    `hard` and `handtuned` in a longer round robin (`detail/`).
//! 6. [`evaluate`](mod@evaluate): `c4 evaluate`'s measurement of each learned agent against
//!    the hand-tuned one, at equal depth and equal time (`evaluate/`).
//! 7. [`bench`](mod@bench): every agent but `perfect` graded against the solver on the benchmark sets
//!    (`bench/error_rates.json`, `bench/moves.csv`).
//! 8. [`plots`]: every chart `c4 plot` knows, into `plots/`.
//!
//! [`report`] then writes `report.md` from the results and the run's configuration. A stage
//! that fails stops the run; everything before it is kept and the report says where it
//! stopped. With `resume`, a stage whose record matches this configuration and whose files
//! are all still there, unchanged, is not run again.

pub mod bench;
pub mod data;
pub mod evaluate;
pub mod gbt;
pub mod inputs;
pub mod ladder;
pub mod lms;
pub mod ntuple;
pub mod plots;
pub mod record;
pub mod report;

use connect4_engine::game::Geometry;
use connect4_engine::progress::Progress;
use connect4_learn::arena::TournamentConfig;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

pub use record::StageRecord;

/// What to run.
#[derive(Clone, Debug)]
pub struct PipelineConfig {
    /// The run directory.
    pub out: PathBuf,
    /// The small run (about 10 s) instead of the default (about 2 minutes).
    pub quick: bool,
    /// Seed of every stage.
    pub seed: u64,
    /// The board every stage learns and plays on. Off 7x6 the run reads no shipped file (the
    /// UCI rows, labelled positions and benchmark sets are 7x6 ones): the LMS fit reads the
    /// data stage's positions, the bench stage grades its held-out ones, and the agents and
    /// curves against the perfect player play only where the solver reaches the board.
    pub geometry: Geometry,
    /// The UCI data file (`None`: the GBT learns from self-play positions only).
    pub uci: Option<PathBuf>,
    /// Solver-labelled "MOVES SCORE" training positions of every phase (the shipped
    /// `data/positions/train.txt.gz`): the LMS fit's data and more GBT training rows.
    pub positions: Option<PathBuf>,
    /// Labelled positions no model trains on (the shipped `data/positions/heldout.txt.gz`):
    /// the GBT's accuracy on them is reported by band of stones.
    pub heldout: Option<PathBuf>,
    /// Folder of the benchmark files: the shipped sets (`data/bench`) or the Pons files
    /// (7x6 only; `None`: the bench stage grades the data stage's held-out positions).
    pub bench: Option<PathBuf>,
    /// Worker threads for games and grading.
    pub jobs: usize,
    /// Skip the stages whose recorded outputs are complete and unchanged.
    pub resume: bool,
    /// The opening book of labelling, grading and perfect agents (`None`: none).
    pub book: Option<std::sync::Arc<connect4_engine::solver::book::Book>>,
}

impl PipelineConfig {
    /// The command line's board flags: none on 7x6, ` --width W --height H` elsewhere.
    pub fn board_flags(&self) -> String {
        if self.geometry == Geometry::STANDARD {
            return String::new();
        }
        format!(
            " --width {} --height {}",
            self.geometry.width(),
            self.geometry.height()
        )
    }
}

/// Sizes of every stage, from `--quick` or the default (`recipes/pipeline*.toml`). The
/// report quotes these, never literals of its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sizes {
    /// Self-play games whose positions are labelled.
    pub selfplay_games: usize,
    /// Random opening plies of each self-play game.
    pub selfplay_openings: usize,
    /// Fewest and most stones of the self-play positions kept.
    pub selfplay_plies: (usize, usize),
    /// Most LMS training games.
    pub lms_games: usize,
    /// LMS evaluation interval.
    pub lms_eval_every: usize,
    /// Games per LMS evaluation match.
    pub lms_eval_games: usize,
    /// Most training positions read from `positions` (all when `None`).
    pub positions_limit: Option<usize>,
    /// Most held-out positions read from `heldout` (all when `None`).
    pub heldout_limit: Option<usize>,
    /// Epochs of the supervised LMS fit that starts self-play.
    pub lms_epochs: usize,
    /// Most boosting iterations.
    pub gbt_max_iter: usize,
    /// The n-tuple stage's recipe: the keys it changes of the shipped `recipes/ntuple.toml`
    /// (a partial recipe, the `[ntuple]` table), read by [`Sizes::ntuple_recipe`]. A short
    /// run learns faster in few lanes (500,000 games as first player against the perfect
    /// one: 2 lanes 93.5%, 4 lanes 55.0%, 16 lanes 29.5%), while the 7M-game recipe needs 16
    /// lanes to use big machines; either way the network does not depend on the cores.
    pub ntuple: toml::Table,
    /// Positions of each benchmark set its curve grades (0: no curve).
    pub ntuple_curve_positions: usize,
    /// Games of each curve match against `handtuned:depth=5` (0: none).
    pub ntuple_curve_games: usize,
    /// Games of each curve match against the perfect player (first player, and second at
    /// eps 0.2), the literature's yardstick (0: none).
    pub ntuple_curve_perfect: usize,
    /// Search depth of handtuned, lms, gbt and hybrid.
    pub depth: u32,
    /// Games per ladder pairing.
    pub ladder_games: usize,
    /// Random opening plies in the ladder. The perfect agent's book ends at three stones
    /// and solving a 4-stone position takes up to a minute, so ladder games start later
    /// than the detailed round robin's (which has no perfect agent).
    pub ladder_openings: usize,
    /// Games per pairing in the detailed round robin.
    pub detail_games: usize,
    /// Random opening plies in the detailed round robin.
    pub detail_openings: usize,
    /// Games per agent in the evaluation against the hand-tuned agent.
    pub evaluate_games: usize,
    /// Positions graded per benchmark file.
    pub bench_positions: usize,
    /// Benchmark sets graded (names of [`connect4_learn::arena::benchmark_sets::BENCH_SETS`]).
    pub bench_files: Vec<String>,
}

/// The most empty cells of the self-play positions labelled on a board the solver does not
/// reach from the empty board (6x7, 8x7, 9x6, ...): as many as a 7x6 position of 18 stones.
pub const UNREACHED_EMPTY: usize = 24;

/// The default run's sizes (`recipes/pipeline.toml`).
pub(crate) const PIPELINE_RECIPE: &str = include_str!("../../recipes/pipeline.toml");
/// The quick run's sizes (`recipes/pipeline-quick.toml`).
pub(crate) const PIPELINE_QUICK_RECIPE: &str = include_str!("../../recipes/pipeline-quick.toml");

impl Sizes {
    /// The sizes for a quick or a default run, from the recipe files built into the binary
    /// (a test reads both).
    pub fn new(quick: bool) -> Sizes {
        let (text, name) = if quick {
            (PIPELINE_QUICK_RECIPE, "recipes/pipeline-quick.toml")
        } else {
            (PIPELINE_RECIPE, "recipes/pipeline.toml")
        };
        Sizes::from_toml(text).unwrap_or_else(|e| panic!("{name} is not a pipeline recipe: {e}"))
    }

    /// The fewest and most stones of the self-play positions kept on `geom`. The recipe's
    /// range is a 7x6 one: its fewest stones as they are, its most as so many empty cells
    /// short of the board's (41 stones on 7x6 are 55 on 8x7); where the solver does not
    /// reach the board, only positions with at most [`UNREACHED_EMPTY`] empty cells, which
    /// it labels in milliseconds.
    pub fn selfplay_plies_on(&self, geom: Geometry) -> (usize, usize) {
        let cells = geom.cells();
        let short = Geometry::STANDARD
            .cells()
            .saturating_sub(self.selfplay_plies.1)
            .max(1);
        let (mut lo, hi) = (self.selfplay_plies.0, cells.saturating_sub(short));
        if !connect4_engine::solver::reaches(geom) {
            lo = lo.max(cells.saturating_sub(UNREACHED_EMPTY));
        }
        (lo.min(hi), hi)
    }

    /// Sizes from a recipe file's text.
    pub fn from_toml(text: &str) -> Result<Sizes, toml::de::Error> {
        toml::from_str(text)
    }

    /// The n-tuple stage's recipe: the shipped one with the `[ntuple]` table's keys, checked
    /// (the run's seed is the pipeline's own).
    pub fn ntuple_recipe(
        &self,
    ) -> Result<
        connect4_learn::train::ntuple::NTupleConfig,
        connect4_learn::train::ntuple::RecipeError,
    > {
        connect4_learn::train::ntuple::NTupleConfig::default()
            .overridden(self.ntuple.clone(), "the pipeline's [ntuple] table")
    }
}

#[cfg(test)]
mod sizes_tests {
    use super::*;

    #[test]
    fn the_pipeline_recipes_read_and_keep_their_sizes() {
        let (full, quick) = (Sizes::new(false), Sizes::new(true));
        use linfa::ParamGuard;
        let (net, quick_net) = (
            full.ntuple_recipe().unwrap().check().unwrap(),
            quick.ntuple_recipe().unwrap().check().unwrap(),
        );
        assert_eq!(net.games(), 500_000);
        assert_eq!(
            full.lms_games,
            connect4_learn::train::lms::ValidLmsConfig::default().max_games()
        );
        assert_eq!(
            full.lms_epochs,
            connect4_learn::train::lms::ValidSupervisedConfig::default().epochs()
        );
        assert_eq!(full.positions_limit, None);
        assert_eq!(quick.positions_limit, Some(20_000));
        assert_eq!(quick_net.games(), 4_000);
        assert_eq!((net.lanes(), net.lane_games()), (2, 2000));
        // Every other key is the shipped recipe's.
        let shipped = connect4_learn::train::ntuple::ValidNTupleConfig::default();
        assert_eq!(
            (net.rate(), net.layout(), net.tail()),
            (shipped.rate(), shipped.layout(), shipped.tail())
        );
        assert!(Sizes::from_toml("ntuple_gamez = 3").is_err());
        let mut bad = full.clone();
        bad.ntuple.insert("gamez".into(), toml::Value::Integer(3));
        let e = bad.ntuple_recipe().unwrap_err().to_string();
        assert!(e.contains("[ntuple]") && e.contains("gamez"), "{e}");
    }

    #[test]
    fn self_play_positions_span_each_board_and_stay_within_the_solvers_reach() {
        let full = Sizes::new(false);
        assert_eq!(full.selfplay_plies, (10, 41));
        let on = |w, h| full.selfplay_plies_on(Geometry::new(w, h).unwrap());
        assert_eq!(on(7, 6), (10, 41));
        // Boards the solver reaches from the empty board: from 10 stones to one empty cell.
        assert_eq!(on(5, 4), (10, 19));
        assert_eq!(on(6, 5), (10, 29));
        assert_eq!(on(6, 6), (10, 35));
        // The others: at most 24 empty cells.
        assert_eq!(on(6, 7), (18, 41));
        assert_eq!(on(8, 7), (32, 55));
        assert_eq!(on(9, 6), (30, 53));
        // A board smaller than the recipe's fewest stones keeps a non-empty range.
        let (lo, hi) = on(4, 4);
        assert!(lo <= hi && hi == 15, "{lo}-{hi}");
    }
}

/// Why the pipeline stopped.
#[derive(Debug, thiserror::Error)]
#[error("stage '{stage}' failed: {source}")]
pub struct PipelineError {
    /// The stage.
    pub stage: &'static str,
    /// What went wrong: the stage's own error, kept whole so callers can inspect it.
    pub source: Box<dyn std::error::Error + Send + Sync>,
}

/// A function turning any error into a [`PipelineError`] of `stage`.
fn fail<E: Into<Box<dyn std::error::Error + Send + Sync>>>(
    stage: &'static str,
) -> impl Fn(E) -> PipelineError {
    move |e| PipelineError {
        stage,
        source: e.into(),
    }
}

/// The roster: short name and typed spec of every agent; model paths point into the run
/// (any path works, whatever characters it holds). The perfect player joins where the solver
/// reaches the board.
fn agents(
    run: &Path,
    depth: u32,
    geom: Geometry,
) -> Result<Vec<(String, connect4_engine::agents::AgentSpec)>, connect4_engine::agents::AgentError>
{
    use connect4_engine::agents::AgentSpec;
    let lms = run.join("models/lms.bin");
    let gbt = run.join("models/gbt.bin");
    let mut roster = vec![
        ("random".into(), "random".parse()?),
        ("easy".into(), "easy".parse()?),
        ("hard".into(), "hard".parse()?),
        ("handtuned".into(), AgentSpec::builtin("handtuned", depth)?),
        ("lms".into(), AgentSpec::lms(&lms, depth)?),
        ("gbt".into(), AgentSpec::model(&gbt, depth)?),
        (
            "ntuple".into(),
            AgentSpec::ntuple(&run.join("models/ntuple.bin"), depth)?,
        ),
        ("hybrid".into(), AgentSpec::hybrid(&gbt, depth)?),
    ];
    if connect4_engine::solver::reaches(geom) {
        roster.push(("perfect".into(), "perfect".parse()?));
    }
    Ok(roster)
}

/// A tournament of the run's settings.
fn tournament_config(
    config: &PipelineConfig,
    agents: Vec<connect4_engine::agents::AgentSpec>,
    games: usize,
    openings: usize,
) -> TournamentConfig {
    TournamentConfig {
        agents,
        games,
        openings,
        seed: config.seed,
        jobs: config.jobs,
        geometry: config.geometry,
        side: Default::default(),
    }
}

/// What every stage produced (those that ran or were resumed), for the report.
#[derive(Default)]
pub struct Results {
    /// Stage 1.
    pub data: Option<data::DataResult>,
    /// Stage 2.
    pub lms: Option<lms::LmsResult>,
    /// Stage 3.
    pub gbt: Option<gbt::GbtResult>,
    /// Stage 4.
    pub ntuple: Option<ntuple::NTupleResult>,
    /// Stage 5.
    pub ladder: Option<ladder::LadderResult>,
    /// Stage 6.
    pub evaluate: Option<connect4_learn::arena::evaluate::EvaluateReport>,
    /// Stage 7.
    pub bench: Option<bench::BenchResult>,
    /// Stage 8.
    pub plots: Option<plots::PlotsResult>,
    /// Per stage: name, seconds, and whether it was resumed rather than run.
    pub timings: Vec<(&'static str, f64, bool)>,
}

/// Runs one stage, or reuses its record when resuming and the record still holds; records
/// what it produced.
fn stage<T: Serialize + serde::de::DeserializeOwned>(
    name: &'static str,
    ctx: &mut record::Ledger,
    results: &mut Vec<(&'static str, f64, bool)>,
    run: impl FnOnce() -> Result<(T, Vec<PathBuf>), PipelineError>,
) -> Result<T, PipelineError> {
    if let Some((value, seconds)) = ctx.reuse::<T>(name) {
        results.push((name, seconds, true));
        return Ok(value);
    }
    let started = Instant::now();
    let (value, outputs) = run()?;
    let seconds = started.elapsed().as_secs_f64();
    ctx.record(name, &value, &outputs, seconds)
        .map_err(fail(name))?;
    results.push((name, seconds, false));
    Ok(value)
}

/// Runs the pipeline; returns the path of `report.md`.
pub fn run_pipeline(
    config: &PipelineConfig,
    observer: &dyn Progress,
) -> Result<PathBuf, PipelineError> {
    let started = Instant::now();
    let inputs = inputs::check_inputs(config)?;
    let sizes = Sizes::new(config.quick);
    let mut ledger = record::Ledger::new(config, &sizes, &inputs);
    let mut results = Results::default();
    let outcome = run_stages(config, &sizes, &inputs, observer, &mut ledger, &mut results);
    let text = report::render(
        config,
        &sizes,
        &results,
        started.elapsed().as_secs_f64(),
        outcome.as_ref().err(),
    );
    let report = config.out.join("report.md");
    connect4_engine::io::write_bytes_atomic(&report, text.as_bytes()).map_err(fail("report"))?;
    outcome.map(|()| report)
}

fn run_stages(
    config: &PipelineConfig,
    sizes: &Sizes,
    inputs: &inputs::Inputs,
    observer: &dyn Progress,
    ledger: &mut record::Ledger,
    results: &mut Results,
) -> Result<(), PipelineError> {
    let t = &mut results.timings;
    let d = stage("data", ledger, t, || {
        data::run(config, sizes, inputs, observer)
    })?;
    let split = data::split(config, &d)?;
    let notes = d.notes();
    results.data = Some(d);
    let t = &mut results.timings;
    results.lms = Some(stage("lms", ledger, t, || {
        lms::run(config, sizes, inputs, &split, observer)
    })?);
    let t = &mut results.timings;
    results.gbt = Some(stage("gbt", ledger, t, || {
        gbt::run(config, sizes, inputs, &split, &notes, observer)
    })?);
    let t = &mut results.timings;
    results.ntuple = Some(stage("ntuple", ledger, t, || {
        ntuple::run(config, sizes, inputs, observer)
    })?);
    let t = &mut results.timings;
    results.ladder = Some(stage("ladder", ledger, t, || {
        ladder::run(config, sizes, observer)
    })?);
    let t = &mut results.timings;
    results.evaluate = Some(stage("evaluate", ledger, t, || {
        evaluate::run(config, sizes, observer)
    })?);
    let t = &mut results.timings;
    results.bench = Some(stage("bench", ledger, t, || {
        bench::run(config, sizes, inputs, &split, observer)
    })?);
    let t = &mut results.timings;
    results.plots = Some(stage("plots", ledger, t, || plots::run(config, observer))?);
    Ok(())
}
