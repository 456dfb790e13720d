//! `POST /api/move` (an agent's column) and `GET /api/agents` (the kinds on offer).

use super::Shared;
use super::error::{ApiError, ApiResult};
use axum::Json;
use axum::extract::{State, rejection::JsonRejection};
use connect4_engine::agents::{AgentBoard, AgentFactory, AgentSpec};
use connect4_engine::answers::{MoveAnswer, PlayError, wide_position_of};
use connect4_engine::game::{Geometry, Player, Position};
use connect4_engine::solver::SolverPool;
use serde::Deserialize;
use std::path::Path;
use std::sync::Arc;

/// Factories kept (each may hold a loaded model and a judge's solvers).
const CACHE_SIZE: usize = 64;

/// Agent factories by spec and board, so model files load once, not per move, and the
/// dial's and the adaptive agent's judges remember positions across requests.
pub(super) struct AgentCache(connect4_engine::answers::FactoryCache);

impl Default for AgentCache {
    fn default() -> Self {
        AgentCache(connect4_engine::answers::FactoryCache::new(CACHE_SIZE))
    }
}

impl AgentCache {
    fn get<B: AgentBoard>(
        &self,
        spec: &AgentSpec,
        geom: Geometry<B>,
        resources: &connect4_engine::agents::Resources,
        solvers: &Arc<SolverPool>,
    ) -> Result<AgentFactory<B>, ApiError> {
        self.0
            .get(spec, geom, resources, solvers)
            .map_err(ApiError::bad)
    }
}

/// The body of `/api/move`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MoveRequest {
    /// An agent spec, e.g. `easy`, `gbt:depth=3`, `model:lms.bin,depth=5`.
    agent: String,
    /// Moves so far (a move string: columns 1-9, then a-z).
    #[serde(default)]
    moves: String,
    width: Option<usize>,
    height: Option<usize>,
    /// Seed of agents that use randomness (default 0).
    #[serde(default)]
    seed: u64,
    /// Vary the play: a searching agent draws among its moves of equal value from the seed
    /// (default false: always the same move). The page asks for it, with a seed per game.
    #[serde(default)]
    vary: bool,
    /// The adaptive agent's saved state from the start of this game (JSON, as the last
    /// answer's `adaptive.state` gave it); none: a fresh agent.
    #[serde(default)]
    state: Option<String>,
}

/// The body of `/api/adaptive`: a game (finished or not) against the adaptive agent.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AdaptiveRequest {
    /// The adaptive spec played (`adaptive`, `adaptive:start=1200`).
    agent: String,
    /// The game's moves (a move string).
    #[serde(default)]
    moves: String,
    width: Option<usize>,
    height: Option<usize>,
    /// The state from the start of the game.
    #[serde(default)]
    state: Option<String>,
    /// The agent's colour: "x" (first) or "o" (second).
    side: String,
    /// Seed of the agent (default 0).
    #[serde(default)]
    seed: u64,
}

/// A move answer, with the adaptive agent's estimate when it played.
#[derive(Debug, serde::Serialize)]
pub(super) struct MoveWithEstimate {
    #[serde(flatten)]
    answer: MoveAnswer,
    #[serde(skip_serializing_if = "Option::is_none")]
    adaptive: Option<connect4_engine::answers::AdaptiveAnswer>,
}

/// Parses `text` and points its model paths into `models`: a spec may name a model by file
/// name (`model:gbt.bin`, `model:gbt`) or by the shipped default (`models/gbt.bin`), never by
/// another path, so requests cannot read files outside the models folder.
/// Options over the server's ceilings are refused (see [`super::limits`]).
pub(super) fn parse_spec(
    text: &str,
    models: &Path,
    move_limit: std::time::Duration,
) -> Result<AgentSpec, ApiError> {
    let spec = connect4_engine::answers::spec_in_folder(text, models).map_err(ApiError::bad)?;
    super::limits::check(&spec, move_limit)?;
    Ok(spec)
}

pub(super) async fn play_move(
    State(state): State<Shared>,
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> ApiResult<Json<MoveWithEstimate>> {
    let Json(req) = body?;
    if let Some(pos) = wide_position_of(&req.moves, req.width, req.height).map_err(ApiError::bad)? {
        return move_on(state, req, pos).await;
    }
    let pos = super::position_of(&req.moves, req.width, req.height)?;
    move_on(state, req, pos).await
}

/// `/api/move` on a board of the integer `B` (`u128` past 64 bits).
async fn move_on<B: AgentBoard>(
    state: Shared,
    req: MoveRequest,
    pos: Position<B>,
) -> ApiResult<Json<MoveWithEstimate>> {
    let spec = parse_spec(&req.agent, &state.config.models, state.config.move_limit)?;
    let factory = state
        .agents
        .get(&spec, pos.geometry(), &state.resources, &state.solvers)?;
    let limit = state.config.move_limit;
    let lane = super::lanes::of_move(&spec, &pos, state.config.book.as_deref());
    let (played, stopped) = state
        .work(lane, limit, move |_, stop| {
            connect4_engine::answers::play_move(
                &factory,
                pos,
                &req.moves,
                req.seed,
                req.vary,
                req.state.as_deref(),
                stop,
            )
        })
        .await?;
    let (mut answer, adaptive) = played.map_err(|e| match e {
        PlayError::Request(e) => ApiError::bad(e),
        PlayError::Agent(e) => ApiError::Internal(e.to_string()),
    })?;
    answer.stopped = stopped;
    Ok(Json(MoveWithEstimate { answer, adaptive }))
}

/// `POST /api/adaptive`: the adaptive agent's estimate of the player after a game (or the
/// game so far), and the state to keep once the game is over.
pub(super) async fn adaptive(
    State(state): State<Shared>,
    body: Result<Json<AdaptiveRequest>, JsonRejection>,
) -> ApiResult<Json<connect4_engine::answers::AdaptiveAnswer>> {
    let Json(req) = body?;
    if let Some(pos) = wide_position_of(&req.moves, req.width, req.height).map_err(ApiError::bad)? {
        return adaptive_on(state, req, pos).await;
    }
    let pos = super::position_of(&req.moves, req.width, req.height)?;
    adaptive_on(state, req, pos).await
}

/// `/api/adaptive` on a board of the integer `B`.
async fn adaptive_on<B: AgentBoard>(
    state: Shared,
    req: AdaptiveRequest,
    pos: Position<B>,
) -> ApiResult<Json<connect4_engine::answers::AdaptiveAnswer>> {
    let side = match req.side.as_str() {
        "x" | "first" => Player::First,
        "o" | "second" => Player::Second,
        other => {
            return Err(ApiError::BadRequest(format!(
                "side \"{}\": x (first) or o (second)",
                super::limits::short(other)
            )));
        }
    };
    let spec = parse_spec(&req.agent, &state.config.models, state.config.move_limit)?;
    let factory = state
        .agents
        .get(&spec, pos.geometry(), &state.resources, &state.solvers)?;
    let limit = state.config.move_limit;
    // The estimate grades the player's moves with the solver.
    let (answer, _) = state
        .work(super::lanes::Lane::Heavy, limit, move |_, stop| {
            connect4_engine::answers::adaptive_answer(
                &factory,
                &pos,
                &req.moves,
                side,
                req.seed,
                req.state.as_deref(),
                stop,
            )
            .map_err(ApiError::bad)
        })
        .await?;
    Ok(Json(answer?))
}

/// `GET /api/agents`: every kind with its usage and summary, and the model files on offer.
pub(super) async fn agents(State(state): State<Shared>) -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "kinds": connect4_engine::answers::kinds(),
        "models": state.models.names(),
        "limits": super::limits::limits(state.config.move_limit),
        "presets": state.presets,
        "board": connect4_engine::answers::board_rule(),
        "book": connect4_engine::answers::BookSummary::of(state.config.book.as_deref()),
        "dial": connect4_engine::answers::dial_range(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: std::time::Duration = std::time::Duration::from_secs(20);

    #[test]
    fn model_paths_stay_in_the_models_folder() {
        let dir = Path::new("somewhere");
        let ok = |s: &str| parse_spec(s, dir, LIMIT).map(|s| format!("{:?}", s.kind()));
        assert!(
            ok("model:gbt,depth=3")
                .unwrap()
                .contains("somewhere/gbt.bin")
        );
        assert!(ok("gbt:depth=2").unwrap().contains("somewhere/gbt.bin"));
        assert!(ok("lms:lms.bin").unwrap().contains("somewhere/lms.bin"));
        for bad in [
            "model:/etc/passwd",
            "model:../models/gbt.bin",
            "lms:a/b/c.bin",
        ] {
            let e = parse_spec(bad, dir, LIMIT).unwrap_err().to_string();
            assert!(
                e.contains("must be a file name in the models folder"),
                "{bad}: {e}"
            );
        }
        let e = parse_spec("perfect:tt=60000", dir, LIMIT)
            .unwrap_err()
            .to_string();
        assert!(e.contains("larger than this server allows"), "{e}");
        let e = parse_spec("hard:depth=3", dir, LIMIT)
            .unwrap_err()
            .to_string();
        assert!(e.contains("'hard' takes no option 'depth'"), "{e}");
    }
}
