//! Pipeline runs: `GET /api/runs` (the run folders under `--runs`), `GET /api/runs/NAME` (a
//! run's report, plots and tables) and `GET /runs/NAME/FILE` (its files, read-only, never
//! outside the run's folder).

use super::Shared;
use super::error::{ApiError, ApiResult};
use axum::Json;
use axum::extract::{Path as UrlPath, State};
use axum::http::header;
use axum::response::IntoResponse;
use std::path::{Component, Path, PathBuf};
use std::time::UNIX_EPOCH;

/// Files listed per run at most.
const MAX_FILES: usize = 2000;
/// Largest file served or embedded (bytes).
const MAX_FILE_BYTES: u64 = 32 << 20;

/// The folder of run `name`, if `name` is one plain folder name that exists.
fn run_dir(runs: &Path, name: &str) -> Result<PathBuf, ApiError> {
    let mut parts = Path::new(name).components();
    let plain = matches!(
        (parts.next(), parts.next()),
        (Some(Component::Normal(_)), None)
    );
    let dir = runs.join(name);
    if !plain || !dir.is_dir() {
        return Err(ApiError::NotFound(format!("no run \"{name}\"")));
    }
    Ok(dir)
}

/// Seconds since 1970 of `path`'s last change (0 if unknown).
fn modified(path: &Path) -> u64 {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs())
}

/// Every file under `dir`, relative, sorted (at most [`MAX_FILES`]).
fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(rel) = p.strip_prefix(dir) {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
            if out.len() >= MAX_FILES {
                out.sort();
                return out;
            }
        }
    }
    out.sort();
    out
}

/// `GET /api/runs`: the run folders, newest first.
pub(super) async fn list(State(state): State<Shared>) -> Json<serde_json::Value> {
    let runs_dir = &state.config.runs;
    let mut runs: Vec<(u64, serde_json::Value)> = std::fs::read_dir(runs_dir)
        .map(|d| d.flatten().map(|e| e.path()).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter(|p| p.is_dir())
        .map(|p| {
            let name = p
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into());
            let t = modified(&p);
            let report = p.join("report.md").is_file();
            (
                t,
                serde_json::json!({"name": name, "modified": t, "report": report}),
            )
        })
        .collect();
    runs.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then_with(|| a.1["name"].as_str().cmp(&b.1["name"].as_str()))
    });
    Json(serde_json::json!({
        "folder": runs_dir.display().to_string(),
        "runs": runs.into_iter().map(|(_, v)| v).collect::<Vec<_>>(),
    }))
}

/// A JSON file of the run, if present and readable.
fn json_file(path: &Path) -> Option<serde_json::Value> {
    if std::fs::metadata(path).ok()?.len() > MAX_FILE_BYTES {
        return None;
    }
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// `GET /api/runs/NAME`: the report (Markdown), the plots, the Elo ladder, error rates and
/// the evaluate stage's table, and every file's path.
pub(super) async fn show(
    State(state): State<Shared>,
    UrlPath(name): UrlPath<String>,
) -> ApiResult<Json<serde_json::Value>> {
    let dir = run_dir(&state.config.runs, &name)?;
    let files = files_under(&dir);
    let report = std::fs::read_to_string(dir.join("report.md")).ok();
    let plots: Vec<&String> = files
        .iter()
        .filter(|f| f.ends_with(".svg") || f.ends_with(".png"))
        .filter(|f| {
            // One format per chart: the SVG when both exist.
            !(f.ends_with(".png") && files.contains(&f.replace(".png", ".svg")))
        })
        .collect();
    Ok(Json(serde_json::json!({
        "name": name,
        "modified": modified(&dir),
        "report": report,
        "plots": plots,
        "ladder": json_file(&dir.join("ladder/summary.json")),
        "error_rates": json_file(&dir.join("bench/error_rates.json")),
        "evaluate": json_file(&dir.join("evaluate/evaluate.json")),
        "files": files,
    })))
}

/// `GET /runs/NAME/FILE`: one file of a run, with its content type.
pub(super) async fn file(
    State(state): State<Shared>,
    UrlPath((name, file)): UrlPath<(String, String)>,
) -> ApiResult<impl IntoResponse> {
    let dir = run_dir(&state.config.runs, &name)?;
    let rel = Path::new(&file);
    let missing = || ApiError::NotFound(format!("no file \"{file}\" in run \"{name}\""));
    if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(missing());
    }
    let path = dir.join(rel);
    // Symbolic links must not lead out of the run.
    let inside = match (path.canonicalize(), dir.canonicalize()) {
        (Ok(p), Ok(d)) => p.starts_with(d),
        _ => false,
    };
    let meta = std::fs::metadata(&path).map_err(|_| missing())?;
    if !inside || !meta.is_file() || meta.len() > MAX_FILE_BYTES {
        return Err(missing());
    }
    let kind = match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "csv" => "text/csv; charset=utf-8",
        "md" | "txt" | "log" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    };
    let bytes = std::fs::read(&path).map_err(|_| missing())?;
    Ok(([(header::CONTENT_TYPE, kind)], bytes))
}
