//! `GET /api/review?moves=M[&width=W&height=H][&ms=T]`: every move of a game graded by the
//! solver (best, inaccuracy, mistake, or unknown where the time ran out), with the best
//! alternatives. Asking again goes further: the server's solvers keep what they proved.

use super::error::{ApiError, ApiResult};
use super::{Shared, position_of};
use axum::Json;
use axum::extract::{Query, State, rejection::QueryRejection};
use connect4_engine::answers::{ReviewAnswer, wide_position_of};
use connect4_engine::game::Position;
use connect4_engine::solver::PoolBoard;
use connect4_engine::solver::review::review;
use serde::Deserialize;
use std::time::{Duration, Instant};

/// The query of `/api/review`.
#[derive(Debug, Deserialize)]
pub(super) struct ReviewQuery {
    #[serde(default)]
    moves: String,
    width: Option<usize>,
    height: Option<usize>,
    /// Time limit in milliseconds (at most the server's maximum).
    ms: Option<u64>,
}

pub(super) async fn review_game(
    State(state): State<Shared>,
    query: Result<Query<ReviewQuery>, QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let Query(q) = query?;
    if let Some(end) = wide_position_of(&q.moves, q.width, q.height).map_err(ApiError::bad)? {
        return review_on(state, q, end).await;
    }
    let end = position_of(&q.moves, q.width, q.height)?;
    review_on(state, q, end).await
}

/// `/api/review` on a board of the integer `B` (`u128` past 64 bits).
async fn review_on<B: PoolBoard>(
    state: Shared,
    q: ReviewQuery,
    end: Position<B>,
) -> ApiResult<Json<serde_json::Value>> {
    let geom = end.geometry();
    let text = q.moves.trim();
    let text = if text == "-" { "" } else { text };
    // position_of checked every move: each names a legal column.
    let moves = connect4_engine::game::moves::parse_moves(text, geom.width()).unwrap_or_default();
    let limit =
        q.ms.map_or(state.config.analyze_limit, Duration::from_millis)
            .min(state.config.analyze_max);
    let start = Instant::now();
    // A review solves every position of the game.
    let (out, _stopped) = state
        .work(super::lanes::Lane::Heavy, limit, move |st, stop| {
            let mut solver = st.lend_solver(geom)?;
            solver.set_interrupt(Some(stop.clone()));
            Ok::<_, ApiError>(review(&mut solver, &Position::new(geom), &moves))
        })
        .await?;
    let body = ReviewAnswer::new(text, geom, out?, start.elapsed().as_secs_f64() * 1e3);
    serde_json::to_value(body)
        .map(Json)
        .map_err(|e| ApiError::Internal(e.to_string()))
}
