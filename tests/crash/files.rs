//! What a file a killed run or its rerun left must hold: the uninterrupted run's bytes less
//! the measurements of time a run records of itself ([`comparable`]), or at least a whole file
//! of its kind ([`whole`]), at every state a frozen run passed through
//! ([`every_state_old_or_whole`]); and what a killed run left, as a rerun sees it
//! ([`left_state`]).

use super::{OLD, files, frozen};

use std::path::{Path, PathBuf};

/// Whether a header or key names a record of the run itself rather than of its result: a
/// measurement of time (different on every run), or how the n-tuple trainer's rounds fell in
/// this process (`sync`: a resumed run counts only its own).
fn timing(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.contains("seconds")
        || n == "ms"
        || n.ends_with("_ms")
        || n.contains("per_second")
        || n.contains("ms_per")
        || n == "sync"
}

/// `bytes` of `file` without the measurements of time: JSON without timing keys, CSV without
/// timing columns, a model file's header without the command line (a rerun's says
/// `--resume`) and timing metrics, anything else as it is.
pub fn comparable(file: &Path, bytes: &[u8]) -> Result<Vec<u8>, String> {
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    if ext == "bin" && bytes.starts_with(b"C4MODEL") {
        use connect4_engine::io::model_format::ModelParts;
        let parts = ModelParts::open(file, bytes).map_err(|e| e.to_string())?;
        let mut header = parts.header.clone();
        header.meta.command.clear();
        header.meta.metrics.retain(|(k, _)| !timing(k));
        let mut out = format!("{header:?}").into_bytes();
        out.extend_from_slice(parts.body_bytes());
        return Ok(out);
    }
    match ext {
        "json" => {
            fn strip(v: &mut serde_json::Value) {
                match v {
                    serde_json::Value::Object(m) => {
                        m.retain(|k, _| !timing(k));
                        m.values_mut().for_each(strip);
                    }
                    serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
                    _ => {}
                }
            }
            let mut v: serde_json::Value =
                serde_json::from_slice(bytes).map_err(|e| format!("not whole JSON: {e}"))?;
            strip(&mut v);
            Ok(v.to_string().into_bytes())
        }
        "csv" => {
            let text = std::str::from_utf8(bytes).map_err(|e| e.to_string())?;
            if !text.is_empty() && !text.ends_with('\n') {
                return Err("a CSV file cut in a line".into());
            }
            // Quoted fields may hold commas (agent specs): read as CSV, not split on commas.
            let mut rows = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(text.as_bytes());
            let mut out = String::new();
            let mut keep: Vec<bool> = Vec::new();
            for (i, row) in rows.records().enumerate() {
                let row = row.map_err(|e| format!("CSV line {}: {e}", i + 1))?;
                if i == 0 {
                    keep = row.iter().map(|h| !timing(h)).collect();
                }
                let kept: Vec<&str> = row
                    .iter()
                    .zip(&keep)
                    .filter(|(_, k)| **k)
                    .map(|(c, _)| c)
                    .collect();
                out.push_str(&kept.join("\u{1f}"));
                out.push('\n');
            }
            Ok(out.into_bytes())
        }
        _ => Ok(bytes.to_vec()),
    }
}

/// Whether a file a killed run left is whole: a model or book that loads, JSON or CSV that
/// parse to the end; other files must be the uninterrupted run's.
pub fn whole(path: &Path, reference: &[u8]) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    if bytes == reference {
        return Ok(());
    }
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    if name.ends_with(".bin") && name.starts_with("book") {
        return connect4_engine::solver::book::Book::load(path, None)
            .map(|_| ())
            .map_err(|e| e.to_string());
    }
    if name.ends_with(".bin") {
        return connect4_engine::ml::model_file::load_any(path, None)
            .map(|_| ())
            .map_err(|e| e.to_string());
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some("json" | "csv") => comparable(path, &bytes).map(|_| ()),
        Some("png") if bytes.starts_with(b"\x89PNG") && bytes.ends_with(b"IEND\xaeB`\x82") => {
            Ok(())
        }
        Some("svg")
            if std::str::from_utf8(&bytes).is_ok_and(|t| t.trim_end().ends_with("</svg>")) =>
        {
            Ok(())
        }
        // The pipeline's report: a heading first, its last section closed by a newline.
        Some("md")
            if std::str::from_utf8(&bytes)
                .is_ok_and(|t| t.starts_with("# ") && t.ends_with('\n')) =>
        {
            Ok(())
        }
        _ => Err(format!("{name} differs from the uninterrupted run's")),
    }
}

/// What a killed run left in `dir`, as far as a rerun can tell: every file's name and
/// bytes, except a temporary file's, whose process id (`.NAME.PID.tmp`) and unfinished bytes
/// a rerun only removes.
pub fn left_state(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files(dir)
        .into_iter()
        .map(|f| {
            let name = f.to_string_lossy().into_owned();
            match name.strip_suffix(".tmp") {
                Some(stem) => (
                    format!(
                        "{}.tmp",
                        stem.trim_end_matches(|c: char| c.is_ascii_digit())
                    ),
                    Vec::new(),
                ),
                None => {
                    let bytes = std::fs::read(dir.join(&f)).unwrap();
                    (name, bytes)
                }
            }
        })
        .collect()
}

/// Checks every state `run` passed through: each destination holds the old file or a whole
/// new one (each version of a file checked once, written into `scratch` to be loaded).
pub fn every_state_old_or_whole(
    name: &str,
    run: &frozen::Run,
    outputs: &[PathBuf],
    reference: &[Vec<u8>],
    scratch: &Path,
) {
    let mut checked = std::collections::HashSet::new();
    for state in &run.states {
        for (f, r) in outputs.iter().zip(reference) {
            let Some(bytes) = state.file(f) else {
                panic!("{name} killed at {:?}: {} is gone", state.at, f.display())
            };
            if bytes.as_slice() == OLD || !checked.insert(std::sync::Arc::as_ptr(bytes)) {
                continue;
            }
            let path = scratch.join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, bytes.as_slice()).unwrap();
            if let Err(e) = whole(&path, r) {
                panic!(
                    "{name} killed at {:?}: {} is neither the old file nor a whole new one: {e}",
                    state.at,
                    f.display()
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(scratch);
}
