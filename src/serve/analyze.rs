//! `GET /api/analyze?moves=M[&width=W&height=H][&weak=true][&ms=T]`: the solver's verdict.

use super::error::{ApiError, ApiResult};
use super::{Shared, position_of};
use crate::game::Outcome;
use crate::solver::{Mode, analysis, describe_score};
use axum::Json;
use axum::extract::{Query, State, rejection::QueryRejection};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// The query of `/api/analyze`.
#[derive(Debug, Deserialize)]
pub(super) struct AnalyzeQuery {
    #[serde(default)]
    moves: String,
    width: Option<usize>,
    height: Option<usize>,
    #[serde(default)]
    weak: bool,
    /// Time limit in milliseconds (at most the server's maximum).
    ms: Option<u64>,
}

/// One column of the answer.
#[derive(Debug, Serialize)]
struct ColumnJson {
    column: usize,
    /// The exact score, when known.
    score: Option<i32>,
    /// Bounds (equal to `score` when exact).
    low: i32,
    high: i32,
    exact: bool,
}

/// The answer of `/api/analyze`.
#[derive(Debug, Serialize)]
struct AnalyzeJson {
    moves: String,
    width: usize,
    height: usize,
    mode: &'static str,
    /// 'x' or 'o': who is to move.
    to_move: char,
    stones: usize,
    /// `null` while the game goes on, else "x won", "o won" or "draw".
    result: Option<String>,
    /// Whether every column's score is exact (false: "still solving", ask again).
    complete: bool,
    columns: Vec<ColumnJson>,
    /// The position's score for the side to move, when exact.
    score: Option<i32>,
    score_low: Option<i32>,
    score_high: Option<i32>,
    /// The position's score in words (or what is known so far).
    words: String,
    /// 1-based columns proved best.
    best: Vec<usize>,
    principal_variation: Vec<usize>,
    /// Whether the principal variation reaches the end of the game (false: ask again).
    principal_variation_complete: bool,
    nodes: u64,
    ms: f64,
}

pub(super) async fn analyze(
    State(state): State<Shared>,
    query: Result<Query<AnalyzeQuery>, QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let Query(q) = query?;
    let pos = position_of(&q.moves, q.width, q.height)?;
    let mode = if q.weak { Mode::Weak } else { Mode::Strong };
    let limit =
        q.ms.map_or(state.config.analyze_limit, Duration::from_millis)
            .min(state.config.analyze_max);
    let geom = pos.geometry();
    let result = match pos.outcome() {
        Outcome::Won(p) => Some(format!("{} won", p.symbol())),
        Outcome::Draw => Some("draw".to_string()),
        Outcome::Ongoing => None,
    };
    let start = Instant::now();
    let analysis = if result.is_some() {
        // Nothing to solve: no slot, no solver.
        analysis::Analysis {
            columns: vec![None; geom.width()],
            complete: true,
            score: None,
            best: Vec::new(),
            principal_variation: Vec::new(),
            principal_variation_complete: true,
            nodes: 0,
        }
    } else {
        let (out, _stopped) = state
            .heavy(limit, move |st, stop| {
                let mut solver = st.take_solver(geom)?;
                solver.set_interrupt(Some(stop.clone()));
                let a = analysis::analyze(&mut solver, &pos, mode);
                st.put_solver(solver);
                Ok::<_, ApiError>(a)
            })
            .await?;
        out?
    };
    let exact = |b: Option<(i32, i32)>| b.and_then(|(l, h)| (l == h).then_some(l));
    let words = match (result.as_ref(), analysis.score) {
        (Some(r), _) => format!("game over: {r}"),
        (None, Some((l, h))) if l == h => describe_score(l, geom, mode),
        (None, Some((l, h))) => format!(
            "still solving: between {} and {}",
            describe_score(l, geom, mode),
            describe_score(h, geom, mode)
        ),
        (None, None) => "no move left".into(),
    };
    let body = AnalyzeJson {
        moves: q.moves.trim().to_string(),
        width: geom.width(),
        height: geom.height(),
        mode: if q.weak { "weak" } else { "strong" },
        to_move: pos.side_to_move().symbol(),
        stones: pos.moves_played(),
        result,
        complete: analysis.complete,
        columns: analysis
            .columns
            .iter()
            .enumerate()
            .filter_map(|(c, b)| {
                b.map(|(low, high)| ColumnJson {
                    column: c + 1,
                    score: (low == high).then_some(low),
                    low,
                    high,
                    exact: low == high,
                })
            })
            .collect(),
        score: exact(analysis.score),
        score_low: analysis.score.map(|s| s.0),
        score_high: analysis.score.map(|s| s.1),
        words,
        best: analysis.best,
        principal_variation: analysis.principal_variation,
        principal_variation_complete: analysis.principal_variation_complete,
        nodes: analysis.nodes,
        ms: start.elapsed().as_secs_f64() * 1e3,
    };
    serde_json::to_value(body)
        .map(Json)
        .map_err(|e| ApiError::Internal(e.to_string()))
}
