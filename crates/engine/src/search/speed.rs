//! Search speed: a fixed-depth search from every position of a set, what `c4 bench search`
//! reports per evaluator.

use super::{SearchParams, Searcher};
use crate::eval::Evaluator;
use crate::game::Position;
use std::sync::Arc;

/// Nodes and time of fixed-depth searches over a set of positions.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct SearchSpeed {
    /// Positions searched.
    pub positions: usize,
    /// Mean nodes per search.
    pub mean_nodes: f64,
    /// Mean milliseconds per search.
    pub mean_ms: f64,
    /// Nodes per second over all searches.
    pub nodes_per_second: f64,
}

/// Searches every position to `depth` with `eval`, each with a fresh table so that the
/// figures do not depend on the order of the positions.
pub fn search_speed(eval: &Arc<dyn Evaluator>, positions: &[Position], depth: u32) -> SearchSpeed {
    let (mut nodes, mut secs) = (0u64, 0.0f64);
    for pos in positions {
        let mut s = Searcher::new(eval.clone(), SearchParams::depth(depth));
        let r = s.choose(pos);
        nodes += r.nodes;
        secs += r.elapsed.as_secs_f64();
    }
    let n = positions.len().max(1) as f64;
    SearchSpeed {
        positions: positions.len(),
        mean_nodes: nodes as f64 / n,
        mean_ms: secs * 1e3 / n,
        nodes_per_second: if secs > 0.0 { nodes as f64 / secs } else { 0.0 },
    }
}
/// Mean nanoseconds of one static evaluation of `eval` over `positions` (each evaluated
/// `reps` times, on one thread): what one leaf of a search costs.
pub fn eval_nanos(eval: &Arc<dyn Evaluator>, positions: &[Position], reps: usize) -> f64 {
    let start = crate::clock::Instant::now();
    let mut sink = 0.0;
    for _ in 0..reps {
        for p in positions {
            sink += eval.evaluate(std::hint::black_box(p));
        }
    }
    std::hint::black_box(sink);
    let n = (positions.len() * reps).max(1) as f64;
    start.elapsed().as_secs_f64() * 1e9 / n
}
