//! Reads the project's outputs (CSV and JSON, by column and field names) into charts.
//!
//! | file | charts |
//! |---|---|
//! | `NAME.curve.csv` with a `game` column (`c4 train lms`) | `NAME_error`, `NAME_weights` |
//! | `NAME.eval.csv` (`c4 train lms`) | `NAME_score` |
//! | `NAME.curve.csv` with an `iteration` column (`c4 train gbt`) | `NAME_loss`, `NAME_accuracy` |
//! | `NAME.importance.csv` (`c4 train gbt`) | `NAME_importance` |
//! | `DIR/summary.json` with an `elo` list (`c4 tournament`) | `DIR_elo` |
//! | `NAME.json` list of `agent`/`set`/`error_rate` records (`c4 bench agent --out`) | `NAME` |

mod json;
mod ntuple;

use super::{BarChart, Chart, InputProblem, LineChart, Mark, PlotError, Series};
use std::path::{Path, PathBuf};

/// A CSV file held as a header and rows of strings, for reading columns by name.
struct Table {
    path: PathBuf,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn read(path: &Path) -> Result<Table, PlotError> {
        let input = |e: csv::Error| PlotError::Input {
            path: path.to_path_buf(),
            problem: InputProblem::Csv(e),
        };
        let mut r = csv::Reader::from_path(path).map_err(input)?;
        let header = r
            .headers()
            .map_err(input)?
            .iter()
            .map(str::to_string)
            .collect();
        let mut rows = Vec::new();
        for rec in r.records() {
            let rec = rec.map_err(input)?;
            rows.push(rec.iter().map(str::to_string).collect());
        }
        Ok(Table {
            path: path.to_path_buf(),
            header,
            rows,
        })
    }

    fn has(&self, name: &str) -> bool {
        self.header.iter().any(|h| h == name)
    }

    /// Column `name` as numbers; empty cells are NaN (missing values).
    fn numbers(&self, name: &str) -> Result<Vec<f64>, PlotError> {
        let col = self
            .header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| PlotError::Input {
                path: self.path.clone(),
                problem: InputProblem::NoColumn {
                    name: name.to_string(),
                    columns: self.header.join(", "),
                },
            })?;
        self.rows
            .iter()
            .enumerate()
            .map(|(i, row)| {
                let cell = row.get(col).map_or("", String::as_str).trim();
                if cell.is_empty() {
                    return Ok(f64::NAN);
                }
                cell.parse().map_err(|_| PlotError::Input {
                    path: self.path.clone(),
                    // +2: one for the header, one for 1-based lines.
                    problem: InputProblem::NotANumber {
                        line: i + 2,
                        column: name.to_string(),
                        cell: cell.to_string(),
                    },
                })
            })
            .collect()
    }

    fn strings(&self, name: &str) -> Result<Vec<String>, PlotError> {
        let col = self
            .header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| PlotError::Input {
                path: self.path.clone(),
                problem: InputProblem::NoColumn {
                    name: name.to_string(),
                    columns: self.header.join(", "),
                },
            })?;
        Ok(self
            .rows
            .iter()
            .map(|r| r.get(col).cloned().unwrap_or_default())
            .collect())
    }
}

fn zip(x: &[f64], y: &[f64]) -> Vec<(f64, f64)> {
    x.iter().copied().zip(y.iter().copied()).collect()
}

/// Trailing mean over `w` points (fewer at the start).
fn moving_average(points: &[(f64, f64)], w: usize) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(points.len());
    let mut sum = 0.0;
    for (i, &(x, y)) in points.iter().enumerate() {
        sum += y;
        if i >= w {
            sum -= points[i - w].1;
        }
        out.push((x, sum / (i + 1).min(w) as f64));
    }
    out
}

/// An agent spec shortened for a chart: paths reduced to their file names.
pub fn short_label(spec: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let w = std::mem::take(word);
        match w.rsplit_once('/') {
            Some((_, name)) => out.push_str(name),
            None => out.push_str(&w),
        }
    };
    for ch in spec.chars() {
        if ch == ':' || ch == ',' || ch == '=' {
            flush(&mut word, &mut out);
            out.push(ch);
        } else {
            word.push(ch);
        }
    }
    flush(&mut word, &mut out);
    out
}

fn stem_of(path: &Path) -> String {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    name.split('.').next().unwrap_or("chart").to_string()
}

fn line(title: String, x: &str, y: &str, series: Vec<Series>) -> LineChart {
    LineChart {
        title,
        x_label: x.into(),
        y_label: y.into(),
        series,
        y_range: None,
        reference: None,
    }
}

fn lms_curve(t: &Table, stem: &str) -> Result<Vec<(String, Chart)>, PlotError> {
    let games = t.numbers("game")?;
    let mse = zip(&games, &t.numbers("mse")?);
    let error = line(
        "LMS: mean squared error per training game".into(),
        "training game",
        "mean squared error",
        vec![
            Series {
                name: "per game".into(),
                points: mse.clone(),
                mark: Mark::Line,
            },
            Series {
                name: "mean of the last 50 games".into(),
                points: moving_average(&mse, 50),
                mark: Mark::Line,
            },
        ],
    );
    // One series per weight column (`w_NAME`), in the file's order: the plot needs no
    // knowledge of the features.
    let mut weights = Vec::new();
    for col in t.header.iter().filter(|c| c.starts_with("w_")) {
        weights.push(Series {
            name: col.trim_start_matches("w_").to_string(),
            points: zip(&games, &t.numbers(col)?),
            mark: Mark::Line,
        });
    }
    let mut w = line(
        "LMS: weights after each training game".into(),
        "training game",
        "weight (normalised by the largest)",
        weights,
    );
    w.y_range = Some((-1.05, 1.6));
    Ok(vec![
        (format!("{stem}_error"), Chart::Line(error)),
        (format!("{stem}_weights"), Chart::Line(w)),
    ])
}

fn lms_eval(t: &Table, stem: &str) -> Result<Vec<(String, Chart)>, PlotError> {
    let games = t.numbers("after_games")?;
    let score: Vec<f64> = t.numbers("score")?.iter().map(|s| 100.0 * s).collect();
    let mut c = line(
        "LMS: score against the hand-tuned agent during training".into(),
        "training games before the match",
        "score (%)",
        vec![Series {
            name: "evaluation match".into(),
            points: zip(&games, &score),
            mark: Mark::LinePoints,
        }],
    );
    c.y_range = Some((0.0, 100.0));
    c.reference = Some((50.0, "50%: even".into()));
    Ok(vec![(format!("{stem}_score"), Chart::Line(c))])
}

fn gbt_curve(t: &Table, stem: &str) -> Result<Vec<(String, Chart)>, PlotError> {
    let it = t.numbers("iteration")?;
    let mut charts = Vec::new();
    for (what, label, suffix) in [
        ("loss", "log loss", "loss"),
        ("accuracy", "accuracy", "accuracy"),
    ] {
        let mut series = Vec::new();
        for (col, name) in [
            (format!("train_{what}"), "train"),
            (format!("validation_{what}"), "validation (early stopping)"),
            (format!("eval_{what}"), "test (holdout)"),
        ] {
            if !t.has(&col) {
                continue;
            }
            let pts: Vec<(f64, f64)> = zip(&it, &t.numbers(&col)?)
                .into_iter()
                .filter(|p| p.1.is_finite())
                .collect();
            if !pts.is_empty() {
                series.push(Series {
                    name: name.into(),
                    points: pts,
                    mark: Mark::Line,
                });
            }
        }
        charts.push((
            format!("{stem}_{suffix}"),
            Chart::Line(line(
                format!("GBT: {label} per boosting iteration"),
                "iteration",
                label,
                series,
            )),
        ));
    }
    Ok(charts)
}

fn importance(t: &Table, stem: &str) -> Result<Vec<(String, Chart)>, PlotError> {
    let names = t.strings("feature")?;
    let values = t.numbers("importance")?;
    let mut pairs: Vec<(String, f64)> = names.into_iter().zip(values).collect();
    pairs.sort_by(|a, b| b.1.total_cmp(&a.1));
    pairs.truncate(20);
    Ok(vec![(
        format!("{stem}_importance"),
        Chart::Bar(BarChart {
            title: "GBT: feature importance (top 20, share of total gain)".into(),
            value_label: "share of split gain".into(),
            categories: pairs.iter().map(|p| p.0.clone()).collect(),
            groups: vec![("gain".into(), pairs.iter().map(|p| p.1).collect())],
            intervals: None,
            dots: false,
        }),
    )])
}

/// The charts one file gives (empty for a file this module does not know).
pub fn charts_for(path: &Path) -> Result<Vec<(String, Chart)>, PlotError> {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let stem = stem_of(path);
    if name.ends_with(".curve.csv") {
        let t = Table::read(path)?;
        if t.header.is_empty() && t.rows.is_empty() {
            // A run that measured no curve (e.g. n-tuple training without benchmark sets).
            return Ok(Vec::new());
        }
        if t.has("game") {
            return lms_curve(&t, &stem);
        }
        if t.has("iteration") {
            return gbt_curve(&t, &stem);
        }
        if t.has("mistakes") {
            return ntuple::charts(&t, &stem);
        }
        return Err(PlotError::Input {
            path: path.to_path_buf(),
            problem: InputProblem::CurveKind,
        });
    }
    if name.ends_with(".perfect.csv") {
        let t = Table::read(path)?;
        if t.rows.is_empty() {
            return Ok(Vec::new());
        }
        // Runs of one recipe sit side by side (NAME.runK.perfect.csv): keep K in the name.
        let stem = name.trim_end_matches(".perfect.csv").replace('.', "_");
        return ntuple::perfect_charts(&t, &stem);
    }
    if name.ends_with(".eval.csv") {
        return lms_eval(&Table::read(path)?, &stem);
    }
    if name.ends_with(".importance.csv") {
        return importance(&Table::read(path)?, &stem);
    }
    if name.ends_with(".json") {
        return json::charts(path);
    }
    Ok(Vec::new())
}

/// Files under `path` worth plotting: the file itself, or a directory's files and those of
/// its immediate subdirectories, sorted.
fn inputs(path: &Path) -> Result<Vec<PathBuf>, PlotError> {
    if !path.is_dir() {
        if !path.exists() {
            return Err(PlotError::Input {
                path: path.to_path_buf(),
                problem: InputProblem::Missing,
            });
        }
        return Ok(vec![path.to_path_buf()]);
    }
    let list = |dir: &Path| -> Result<Vec<PathBuf>, PlotError> {
        let rd = std::fs::read_dir(dir).map_err(|source| PlotError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let mut v: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        v.sort();
        Ok(v)
    };
    let mut out = Vec::new();
    for p in list(path)? {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "plots") {
                continue;
            }
            out.extend(list(&p)?.into_iter().filter(|q| q.is_file()));
        } else {
            out.push(p);
        }
    }
    Ok(out)
}

/// Draws every chart the files under `paths` give into `out_dir` (PNG and SVG each);
/// returns the pictures written. Fails if nothing could be plotted.
pub fn plot_paths(paths: &[PathBuf], out_dir: &Path) -> Result<Vec<PathBuf>, PlotError> {
    std::fs::create_dir_all(out_dir).map_err(|source| PlotError::Io {
        path: out_dir.to_path_buf(),
        source,
    })?;
    let mut written = Vec::new();
    for p in paths {
        for file in inputs(p)? {
            for (name, chart) in charts_for(&file)? {
                let has_data = match &chart {
                    Chart::Line(c) => c.series.iter().any(|s| !s.points.is_empty()),
                    Chart::Bar(c) => !c.categories.is_empty(),
                };
                if has_data {
                    written.extend(chart.save(&out_dir.join(name))?);
                }
            }
        }
    }
    if written.is_empty() {
        return Err(PlotError::Empty(
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        ));
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_lose_their_directories() {
        assert_eq!(
            short_label("lms:runs/x/lms.bin,depth=3"),
            "lms:lms.bin,depth=3"
        );
        assert_eq!(
            short_label("hybrid:model=models/gbt.bin,depth=3"),
            "hybrid:model=gbt.bin,depth=3"
        );
        assert_eq!(short_label("hard"), "hard");
        assert_eq!(short_label("../shared/data/pons/Test_L2_R1"), "Test_L2_R1");
    }

    #[test]
    fn bad_numbers_name_the_line_and_column() {
        let dir = std::env::temp_dir().join(format!("c4-plotfiles-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("x.eval.csv");
        std::fs::write(&p, "after_games,score\n0,0.5\n10,abc\n").unwrap();
        let err = charts_for(&p).unwrap_err().to_string();
        assert!(err.contains("line 3: column 'score': 'abc'"), "{err}");
        std::fs::write(&p, "after_games\n0\n").unwrap();
        let err = charts_for(&p).unwrap_err().to_string();
        assert!(err.contains("no column 'score'"), "{err}");
        let err = plot_paths(&[dir.join("missing")], &dir)
            .unwrap_err()
            .to_string();
        assert!(err.contains("no such file"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
