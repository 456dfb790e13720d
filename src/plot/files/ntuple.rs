//! The n-tuple learning curve (`c4 train ntuple`'s `.curve.csv`): mistake rate on each
//! benchmark set against training games and seconds, with the field's published rates as
//! reference lines, and the score against the hand-tuned agent.

use super::{Table, line};
use crate::plot::{Chart, Mark, PlotError, Series};

/// Published mistake rates (%) on Pons' six sets, by our set name and Pons' file name:
/// AlphaZero.jl's final connect-four agent and its minmax depth-5 baseline, read off the
/// plot in AlphaZero.jl's documentation ("Benchmark against a perfect solver").
pub const FIELD: [(&str, &str, f64, f64); 6] = [
    ("begin-easy", "Test_L1_R1", 0.0, 1.7),
    ("middle-easy", "Test_L2_R1", 0.0, 0.7),
    ("end-easy", "Test_L3_R1", 0.0, 1.4),
    ("begin-medium", "Test_L1_R2", 2.0, 7.3),
    ("middle-medium", "Test_L2_R2", 2.8, 9.2),
    ("begin-hard", "Test_L1_R3", 7.0, 23.5),
];

/// A flat series from `x0` to `x1` at `y`: a labelled reference line.
fn flat(name: String, x0: f64, x1: f64, y: f64) -> Series {
    Series {
        name,
        points: vec![(x0, y), (x1, y)],
        mark: Mark::Line,
    }
}

pub(super) fn charts(t: &Table, stem: &str) -> Result<Vec<(String, Chart)>, PlotError> {
    let games = t.numbers("games")?;
    let seconds = t.numbers("seconds")?;
    let sets = t.strings("set")?;
    let mistakes = t.numbers("mistakes")?;
    let score = t.numbers("score")?;
    let mut names: Vec<String> = Vec::new();
    for s in &sets {
        if !names.contains(s) {
            names.push(s.clone());
        }
    }
    let pick = |set: &str, x: &[f64]| -> Vec<(f64, f64)> {
        (0..sets.len())
            .filter(|&i| sets[i] == set)
            .map(|i| (x[i], 100.0 * mistakes[i]))
            .collect()
    };
    let mut charts = Vec::new();
    // One chart per set against games, with the field's rates.
    for set in &names {
        let pts = pick(set, &games);
        let (x0, x1) = pts
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                (a.min(p.0), b.max(p.0))
            });
        let mut series = vec![Series {
            name: format!("{set}: this network (depth 1)"),
            points: pts,
            mark: Mark::LinePoints,
        }];
        if let Some(&(_, _, az, mm)) = FIELD.iter().find(|f| f.0 == set || f.1 == set) {
            series.push(flat(format!("AlphaZero.jl final: {az}%"), x0, x1, az));
            series.push(flat(format!("minmax depth 5: {mm}%"), x0, x1, mm));
        }
        let mut c = line(
            format!("n-tuple network: mistakes on {set}"),
            "self-play games",
            "mistakes (%)",
            series,
        );
        c.y_range = Some((0.0, 50.0));
        charts.push((format!("{stem}_{set}"), Chart::Line(c)));
    }
    // Every set against seconds.
    let series: Vec<Series> = names
        .iter()
        .map(|set| Series {
            name: set.clone(),
            points: pick(set, &seconds),
            mark: Mark::LinePoints,
        })
        .collect();
    let mut c = line(
        "n-tuple network: mistakes by set against training time".into(),
        "training seconds",
        "mistakes (%)",
        series,
    );
    c.y_range = Some((0.0, 50.0));
    charts.push((format!("{stem}_mistakes_time"), Chart::Line(c)));
    // The score, once per point (rows repeat it for each set).
    let first = names.first().cloned().unwrap_or_default();
    let pts: Vec<(f64, f64)> = (0..sets.len())
        .filter(|&i| sets[i] == first && score[i].is_finite())
        .map(|i| (games[i], 100.0 * score[i]))
        .collect();
    if !pts.is_empty() {
        let mut c = line(
            "n-tuple network (depth 1) against handtuned:depth=5".into(),
            "self-play games",
            "score (%)",
            vec![Series {
                name: "score".into(),
                points: pts,
                mark: Mark::LinePoints,
            }],
        );
        c.y_range = Some((0.0, 100.0));
        c.reference = Some((50.0, "50%: even".into()));
        charts.push((format!("{stem}_score"), Chart::Line(c)));
    }
    Ok(charts)
}
