//! The learned models on offer (`GET /api/models`) and what each thinks of a position and of
//! every column, with per-feature reasons (`GET /api/evaluate`).

use super::Shared;
use super::error::{ApiError, ApiResult};
use axum::Json;
use axum::extract::{Query, State, rejection::QueryRejection};
use connect4_engine::eval::{
    Contribution, Evaluator, Explanation, LinearEvaluator, ModelEvaluator,
};
use connect4_engine::game::Geometry;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The 7x6 models of the models folder (every `*.bin` that loads as a GBT or linear model),
/// plus the hand-tuned linear weights as `handtuned`.
pub(super) struct Models(Vec<(String, ModelEvaluator)>);

impl Models {
    /// Loads the folder; files that are not models are skipped with a line on stderr.
    pub(super) fn load(dir: &Path) -> Models {
        let g = Geometry::STANDARD;
        let mut models = vec![(
            "handtuned".to_string(),
            ModelEvaluator::Linear(LinearEvaluator::hand_tuned(g)),
        )];
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        for path in files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        {
            let name = path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into());
            match ModelEvaluator::load(path, g) {
                Ok(e) => models.push((name, e)),
                Err(e) => eprintln!("c4 serve: skipping {}: {e}", path.display()),
            }
        }
        // The shipped models the folder lacks come from the copies built into c4.
        let (store, missing) = crate::builtin::missing_from(dir);
        for name in missing {
            let path = dir.join(name);
            if let Some(Ok(e)) = store
                .get(&path)
                .map(|b| ModelEvaluator::decode(&path, b, g))
            {
                models.push((name.to_string(), e));
            }
        }
        models[1..].sort_by(|a, b| a.0.cmp(&b.0));
        Models(models)
    }

    /// Model names, `handtuned` first.
    pub(super) fn names(&self) -> Vec<String> {
        self.0.iter().map(|(n, _)| n.clone()).collect()
    }

    /// The model called `name` (a file name, with or without `.bin`).
    fn get(&self, name: &str) -> Option<&ModelEvaluator> {
        let bin = format!("{name}.bin");
        self.0
            .iter()
            .find(|(n, _)| n == name || *n == bin)
            .map(|(_, m)| m)
    }
}

/// `GET /api/models`: every model's name, kind and feature set.
pub(super) async fn list(State(state): State<Shared>) -> Json<serde_json::Value> {
    let models: Vec<_> = state
        .models
        .0
        .iter()
        .map(|(name, m)| serde_json::json!({"name": name, "kind": m.kind(), "features": m.features()}))
        .collect();
    Json(serde_json::json!({ "models": models }))
}

/// The query of `/api/evaluate`.
#[derive(Debug, Deserialize)]
pub(super) struct EvaluateQuery {
    model: String,
    #[serde(default)]
    moves: String,
    width: Option<usize>,
    height: Option<usize>,
    /// Contributions listed per explanation, largest first (default 12; the rest are summed).
    top: Option<usize>,
}

/// An explanation cut to its largest contributions.
#[derive(Debug, Serialize)]
struct ExplanationJson {
    value: f64,
    probabilities: Option<[f64; 3]>,
    scale: &'static str,
    bias: f64,
    /// The largest contributions by size, largest first.
    contributions: Vec<Contribution>,
    /// The sum of the contributions not listed.
    rest: f64,
}

impl ExplanationJson {
    fn new(mut x: Explanation, top: usize) -> Self {
        x.contributions
            .sort_by(|a, b| b.contribution.abs().total_cmp(&a.contribution.abs()));
        let rest = x
            .contributions
            .iter()
            .skip(top)
            .map(|c| c.contribution)
            .sum();
        x.contributions.truncate(top);
        ExplanationJson {
            value: x.value,
            probabilities: x.probabilities,
            scale: x.scale,
            bias: x.bias,
            contributions: x.contributions,
            rest,
        }
    }

    /// The same explanation seen from the other player: a child position explained for the
    /// player who moved into it.
    fn flipped(mut self) -> Self {
        self.value = -self.value;
        self.probabilities = self.probabilities.map(|[l, d, w]| [w, d, l]);
        self.bias = -self.bias;
        self.rest = -self.rest;
        for c in &mut self.contributions {
            c.contribution = -c.contribution;
        }
        self
    }
}

/// One column: the model's view of the position after it, for the side to move now.
#[derive(Debug, Serialize)]
struct ColumnJson {
    column: usize,
    /// "win" when the column wins at once, "draw" when it fills the board, else null.
    result: Option<&'static str>,
    /// The model's value for the mover after this column (null when the game ends).
    value: Option<f64>,
    explanation: Option<ExplanationJson>,
}

/// `GET /api/evaluate?model=NAME&moves=M`.
pub(super) async fn evaluate(
    State(state): State<Shared>,
    query: Result<Query<EvaluateQuery>, QueryRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let Query(q) = query?;
    let pos = super::position_of(&q.moves, q.width, q.height)?;
    let model = state.models.get(&q.model).ok_or_else(|| {
        ApiError::NotFound(format!(
            "no model \"{}\" (loaded: {})",
            q.model,
            state.models.names().join(", ")
        ))
    })?;
    if pos.geometry() != Geometry::STANDARD {
        return Err(ApiError::BadRequest(format!(
            "model \"{}\" is for 7x6 boards, not {}x{}",
            q.model,
            pos.width(),
            pos.geometry().height()
        )));
    }
    if pos.last_move_won() || pos.is_full() {
        return Err(ApiError::BadRequest(format!(
            "moves \"{}\": the game is over",
            q.moves.trim()
        )));
    }
    let top = q.top.unwrap_or(12).min(500);
    let columns: Vec<ColumnJson> = (0..pos.width())
        .filter(|&c| pos.can_play(c))
        .map(|c| {
            let mut child = pos;
            child.play_col(c);
            let (result, value, explanation) = if child.last_move_won() {
                (Some("win"), None, None)
            } else if child.is_full() {
                (Some("draw"), None, None)
            } else {
                let x = ExplanationJson::new(model.explain(&child), top).flipped();
                (None, Some(-model.evaluate(&child)), Some(x))
            };
            ColumnJson {
                column: c + 1,
                result,
                value,
                explanation,
            }
        })
        .collect();
    Ok(Json(serde_json::json!({
        "model": q.model,
        "kind": model.kind(),
        "features": model.features(),
        "to_move": pos.side_to_move().symbol(),
        "position": ExplanationJson::new(model.explain(&pos), top),
        "columns": columns,
    })))
}
