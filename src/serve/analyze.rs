//! `GET /api/analyze?moves=M[&width=W&height=H][&weak=true][&ms=T]`: the solver's verdict.

use super::error::{ApiError, ApiResult};
use super::lanes::Lane;
use super::{Shared, position_of};
use axum::Json;
use axum::extract::{Query, State, rejection::QueryRejection};
use connect4_engine::answers::{AnalyzeAnswer, WIDE_TT_MIB, game_over_analysis, wide_position_of};
use connect4_engine::game::{BitBoard, Outcome, Position};
use connect4_engine::solver::{Mode, Solver, analysis};
use serde::Deserialize;
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

pub(super) async fn analyze(
    State(state): State<Shared>,
    query: Result<Query<AnalyzeQuery>, QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let Query(q) = query?;
    let mode = if q.weak { Mode::Weak } else { Mode::Strong };
    let limit =
        q.ms.map_or(state.config.analyze_limit, Duration::from_millis)
            .min(state.config.analyze_max);
    let start = Instant::now();
    // Boards past 64 bits: the same analysis on wide bitboards, with a solver of its own.
    if let Some(pos) = wide_position_of(&q.moves, q.width, q.height).map_err(ApiError::bad)? {
        let analysis = if pos.outcome() != Outcome::Ongoing {
            game_over_analysis(&pos)
        } else {
            let lane = super::lanes::of_solving(&pos, None);
            let (out, _stopped) = state
                .work(lane, limit, move |_, stop| {
                    let mut solver = Solver::with_table_mib(pos.geometry(), WIDE_TT_MIB)
                        .map_err(|e| ApiError::Internal(e.to_string()))?;
                    solver.set_interrupt(Some(stop.clone()));
                    Ok::<_, ApiError>(analysis::analyze(&mut solver, &pos, mode))
                })
                .await?;
            out?
        };
        return respond(&pos, &q.moves, mode, analysis, start);
    }
    let pos = position_of(&q.moves, q.width, q.height)?;
    let geom = pos.geometry();
    let analysis = if pos.outcome() != Outcome::Ongoing {
        // Nothing to solve: no slot, no solver.
        game_over_analysis(&pos)
    } else {
        let lane = super::lanes::of_solving(&pos, state.config.book.as_deref());
        let (out, _stopped) = state
            .work(lane, limit, move |st, stop| {
                let mut solver = st.lend_solver(geom)?;
                solver.set_interrupt(Some(stop.clone()));
                Ok::<_, ApiError>(match lane {
                    // The scores are the book's; the line past it only as far as a quick
                    // answer allows (asking again goes further).
                    Lane::Quick => {
                        analysis::analyze_within(&mut solver, &pos, mode, super::lanes::QUICK_PV)
                    }
                    Lane::Heavy => analysis::analyze(&mut solver, &pos, mode),
                })
            })
            .await?;
        out?
    };
    respond(&pos, &q.moves, mode, analysis, start)
}

/// The answer's JSON for `analysis` of `pos`, begun at `start`.
fn respond<B: BitBoard>(
    pos: &Position<B>,
    moves: &str,
    mode: Mode,
    analysis: analysis::Analysis,
    start: Instant,
) -> ApiResult<Json<serde_json::Value>> {
    let body = AnalyzeAnswer::new(
        pos,
        moves,
        mode,
        analysis,
        start.elapsed().as_secs_f64() * 1e3,
    );
    serde_json::to_value(body)
        .map(Json)
        .map_err(|e| ApiError::Internal(e.to_string()))
}
