//! Charts from the project's JSON outputs: tournament Elo with intervals, error rates by
//! agent and set, and the other summaries a run writes.

use super::{short_label, stem_of};
use crate::plot::{BarChart, Chart, InputProblem, PlotError};
use std::path::Path;

pub(super) fn charts(path: &Path) -> Result<Vec<(String, Chart)>, PlotError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| input_error(path, InputProblem::Unreadable(e)))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| input_error(path, InputProblem::Json(e)))?;
    if let Some(elo) = v.get("elo").and_then(|e| e.as_array()) {
        return Ok(vec![elo_chart(path, elo)?]);
    }
    if let Some(rows) = v
        .as_array()
        .filter(|a| a.iter().any(|r| r.get("error_rate").is_some()))
    {
        return Ok(vec![error_rate_chart(path, rows)?]);
    }
    Ok(Vec::new())
}

/// A problem with the input file `path`.
fn input_error(path: &Path, problem: InputProblem) -> PlotError {
    PlotError::Input {
        path: path.to_path_buf(),
        problem,
    }
}

/// The number under `k`.
fn num(x: &serde_json::Value, k: &str) -> Option<f64> {
    x.get(k).and_then(|v| v.as_f64())
}

/// The text under `k`, shortened for a label.
fn text_of(x: &serde_json::Value, k: &str) -> Option<String> {
    x.get(k).and_then(|v| v.as_str()).map(short_label)
}

/// A tournament summary's Elo per agent with its interval.
fn elo_chart(path: &Path, elo: &[serde_json::Value]) -> Result<(String, Chart), PlotError> {
    let input = |problem| input_error(path, problem);
    let mut cats = Vec::new();
    let mut vals = Vec::new();
    let mut iv = Vec::new();
    for (i, r) in elo.iter().enumerate() {
        let (Some(a), Some(e), Some(lo), Some(hi)) = (
            text_of(r, "agent"),
            num(r, "elo"),
            num(r, "low"),
            num(r, "high"),
        ) else {
            return Err(input(InputProblem::Entry {
                what: "elo entry",
                index: i,
                needs: "agent, elo, low, high",
            }));
        };
        cats.push(a);
        vals.push(e);
        iv.push((lo, hi));
    }
    // Tournaments all write `summary.json`: name the chart after the folder.
    let name = match path.parent().and_then(|d| d.file_name()) {
        Some(d) if path.file_name().is_some_and(|n| n == "summary.json") => {
            format!("{}_elo", d.to_string_lossy())
        }
        _ => format!("{}_elo", stem_of(path)),
    };
    Ok((
        name,
        Chart::Bar(BarChart {
            title: "Elo per agent (bars: 95% bootstrap interval)".into(),
            value_label: "Elo (mean of the field = 1500)".into(),
            categories: cats,
            groups: vec![("Elo".into(), vals)],
            intervals: Some(iv),
            dots: true,
        }),
    ))
}

/// Error rates per agent and benchmark set (`c4 bench agent --json` records).
fn error_rate_chart(path: &Path, rows: &[serde_json::Value]) -> Result<(String, Chart), PlotError> {
    let input = |problem| input_error(path, problem);
    let mut agents: Vec<String> = Vec::new();
    let mut sets: Vec<String> = Vec::new();
    let mut cells = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let (Some(a), Some(s), Some(e)) =
            (text_of(r, "agent"), text_of(r, "set"), num(r, "error_rate"))
        else {
            return Err(input(InputProblem::Entry {
                what: "record",
                index: i,
                needs: "agent, set, error_rate",
            }));
        };
        if !agents.contains(&a) {
            agents.push(a.clone());
        }
        if !sets.contains(&s) {
            sets.push(s.clone());
        }
        cells.push((a, s, e));
    }
    let groups = sets
        .iter()
        .map(|s| {
            let vals = agents
                .iter()
                .map(|a| {
                    cells
                        .iter()
                        .find(|(ca, cs, _)| ca == a && cs == s)
                        .map_or(f64::NAN, |c| 100.0 * c.2)
                })
                .collect();
            (s.clone(), vals)
        })
        .collect();
    Ok((
        stem_of(path),
        Chart::Bar(BarChart {
            title: "Error rate per agent and benchmark file (moves that lose value)".into(),
            value_label: "error rate (%)".into(),
            categories: agents,
            groups,
            intervals: None,
            dots: false,
        }),
    ))
}
