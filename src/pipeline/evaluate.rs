//! Stage 6, evaluate: each learned agent (lms, gbt, ntuple, hybrid) against the hand-tuned agent at
//! the same depth, as `c4 evaluate --equal-time` measures it: score and Elo difference with
//! 95% intervals, time per move, and the same match on the hand-tuned agent's time per move.
//! Error rates are left to the bench stage, which grades every agent.

use super::{PipelineConfig, PipelineError, Sizes, agents, fail};
use connect4_engine::agents::AgentSpec;
use connect4_engine::progress::Progress;
use connect4_learn::arena::evaluate::{EvaluateConfig, EvaluateReport, evaluate, work_items};
use std::path::PathBuf;

/// The agents evaluated, by roster name.
pub(crate) const EVALUATED: [&str; 4] = ["lms", "gbt", "ntuple", "hybrid"];

/// Plays the matches and writes `evaluate/evaluate.json` and its charts.
pub fn run(
    config: &PipelineConfig,
    sizes: &Sizes,
    observer: &dyn Progress,
) -> Result<(EvaluateReport, Vec<PathBuf>), PipelineError> {
    let roster = agents(&config.out, sizes.depth, config.geometry).map_err(fail("evaluate"))?;
    let spec = |name: &str| -> Result<AgentSpec, PipelineError> {
        let (_, s) = roster
            .iter()
            .find(|(n, _)| n == name)
            .ok_or_else(|| fail("evaluate")(format!("no agent {name} in the roster")))?;
        Ok(s.clone())
    };
    let cfg = EvaluateConfig {
        agents: EVALUATED
            .iter()
            .map(|n| spec(n))
            .collect::<Result<_, _>>()?,
        baseline: spec("handtuned")?,
        games: sizes.evaluate_games,
        seeds: 1,
        openings: sizes.detail_openings,
        seed: config.seed,
        bench: Vec::new(),
        equal_time: true,
        jobs: config.jobs,
        tt_mib: 64,
        geometry: config.geometry,
        side: Default::default(),
        book: config.book.clone(),
    };
    observer.start("evaluate: games", work_items(&cfg));
    let report = evaluate(&cfg, observer).map_err(fail("evaluate"))?;
    observer.finish();
    let dir = config.out.join("evaluate");
    let json = dir.join("evaluate.json");
    connect4_engine::io::write_json_atomic(&json, &report).map_err(fail("evaluate"))?;
    let mut written = vec![json];
    for (stem, chart) in crate::plot::evaluation::charts(&report) {
        written.extend(chart.save(&dir.join(stem)).map_err(fail("evaluate"))?);
    }
    Ok((report, written))
}
