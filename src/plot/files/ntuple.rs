//! The n-tuple learning curve (`c4 train ntuple`'s `.curve.csv`): mistake rate on each
//! benchmark set against training games and seconds, with the field's published rates as
//! reference lines, and the score against the hand-tuned agent.

use super::{Table, line};
use crate::plot::{Chart, Mark, PlotError, Series};

/// Published mistake rates (%) on Pons' six sets, by our set name and Pons' file name:
/// AlphaZero.jl's final connect-four agent and its minmax depth-5 baseline, read off the
/// plot in AlphaZero.jl's documentation ("Benchmark against a perfect solver").
pub(crate) const FIELD: [(&str, &str, f64, f64); 6] = [
    ("begin-easy", "Test_L1_R1", 0.0, 1.7),
    ("middle-easy", "Test_L2_R1", 0.0, 0.7),
    ("end-easy", "Test_L3_R1", 0.0, 1.4),
    ("begin-medium", "Test_L1_R2", 2.0, 7.3),
    ("middle-medium", "Test_L2_R2", 2.8, 9.2),
    ("begin-hard", "Test_L1_R3", 7.0, 23.5),
];

/// Thill (2026): the n-tuple agent (depth 1 with the one-move rule) trained by self-play
/// on one A100 GPU, wins as first player against a perfect player with random tie-breaks:
/// (label, win %).
pub(crate) const THILL_FIRST: [(&str, f64); 2] = [
    ("Thill 2026, A100, 5 min: 94.6%", 94.6),
    ("Thill 2026, A100, 8.6 min: 96.6%", 96.6),
];

/// Thill (2026) as second player against that perfect player with a share eps of random
/// moves: (eps, win %).
pub(crate) const THILL_SECOND: [(f64, f64); 3] = [(0.1, 48.8), (0.2, 85.8), (0.3, 90.2)];

/// Per curve point (by games), the mean over runs of x and of the win rate, with a 95%
/// band: across runs (t-free normal approximation on the runs' rates) when there are
/// several, else the one run's Wilson interval.
fn mean_band(
    rows: &[(usize, f64, f64, f64, f64, f64)],
    by_seconds: bool,
) -> Vec<(f64, f64, f64, f64)> {
    let mut games: Vec<f64> = rows.iter().map(|r| r.1).collect();
    games.sort_by(f64::total_cmp);
    games.dedup();
    games
        .iter()
        .map(|&g| {
            let at: Vec<_> = rows.iter().filter(|r| r.1 == g).collect();
            let n = at.len() as f64;
            let x = if by_seconds {
                at.iter().map(|r| r.2).sum::<f64>() / n
            } else {
                g
            };
            let mean = at.iter().map(|r| r.3).sum::<f64>() / n;
            let (lo, hi) = if at.len() > 1 {
                let var = at.iter().map(|r| (r.3 - mean).powi(2)).sum::<f64>() / (n - 1.0);
                let half = 1.96 * (var / n).sqrt();
                ((mean - half).max(0.0), (mean + half).min(1.0))
            } else {
                (at[0].4, at[0].5)
            };
            (x, 100.0 * mean, 100.0 * lo, 100.0 * hi)
        })
        .collect()
}

/// The charts of `NAME.perfect.csv` (`c4 train ntuple`, one or more runs): wins as first
/// player against the perfect player by training seconds and by games, each run thin, the
/// mean thick with a 95% band, Thill's results as reference lines; and wins as second
/// player by eps.
pub(super) fn perfect_charts(t: &Table, stem: &str) -> Result<Vec<(String, Chart)>, PlotError> {
    let runs = if t.has("run") {
        t.numbers("run")?
    } else {
        vec![0.0; t.rows.len()]
    };
    let games = t.numbers("games")?;
    let seconds = t.numbers("seconds")?;
    let sides = t.strings("side")?;
    let eps = t.numbers("eps")?;
    let rate = t.numbers("win_rate")?;
    let low = t.numbers("low")?;
    let high = t.numbers("high")?;
    let rows = |side: &str, e: f64| -> Vec<Row> {
        (0..games.len())
            .filter(|&i| sides[i] == side && (side == "first" || (eps[i] - e).abs() < 1e-9))
            .map(|i| {
                (
                    runs[i] as usize,
                    games[i],
                    seconds[i],
                    rate[i],
                    low[i],
                    high[i],
                )
            })
            .collect()
    };
    let first = rows("first", 0.0);
    let mut charts = Vec::new();
    if !first.is_empty() {
        charts.extend(first_player_charts(&first, stem));
    }
    let mut eps_seen: Vec<f64> = (0..games.len())
        .filter(|&i| sides[i] == "second")
        .map(|i| eps[i])
        .collect();
    eps_seen.sort_by(f64::total_cmp);
    eps_seen.dedup();
    if !eps_seen.is_empty() {
        let by_eps: Vec<(f64, Vec<Row>)> =
            eps_seen.iter().map(|&e| (e, rows("second", e))).collect();
        charts.push(second_player_chart(&by_eps, stem));
    }
    Ok(charts)
}

/// A match against the perfect player at one curve point: run, games, seconds, win rate and
/// its 95% interval.
type Row = (usize, f64, f64, f64, f64, f64);

/// The first player's charts, by training seconds and by games: each run thin, their mean
/// thick with a 95% band, Thill's published levels flat.
fn first_player_charts(first: &[Row], stem: &str) -> Vec<(String, Chart)> {
    let mut charts = Vec::new();
    let mut ids: Vec<usize> = first.iter().map(|r| r.0).collect();
    ids.sort_unstable();
    ids.dedup();
    for (by_seconds, x_label, suffix) in [
        (
            true,
            "training seconds (evaluation excluded)",
            "first_seconds",
        ),
        (false, "self-play games", "first_games"),
    ] {
        let band = mean_band(first, by_seconds);
        let (x0, x1) = (band[0].0, band[band.len() - 1].0);
        let mut series: Vec<Series> = vec![Series {
            name: "95% band".into(),
            points: band
                .iter()
                .map(|b| (b.0, b.2))
                .chain(band.iter().rev().map(|b| (b.0, b.3)))
                .collect(),
            mark: Mark::Band,
        }];
        for (k, id) in ids.iter().enumerate() {
            series.push(Series {
                name: if k == 0 && ids.len() > 1 {
                    format!("each of {} runs", ids.len())
                } else {
                    String::new()
                },
                points: first
                    .iter()
                    .filter(|r| r.0 == *id)
                    .map(|r| (if by_seconds { r.2 } else { r.1 }, 100.0 * r.3))
                    .collect(),
                mark: Mark::Thin,
            });
        }
        series.push(Series {
            name: if ids.len() > 1 {
                "mean of the runs".into()
            } else {
                "this run".into()
            },
            points: band.iter().map(|b| (b.0, b.1)).collect(),
            mark: Mark::Thick,
        });
        for (label, y) in THILL_FIRST {
            series.push(flat(label.into(), x0, x1, y));
        }
        let mut c = line(
            "n-tuple network (depth 1, one-move rule) as first player vs perfect play".into(),
            x_label,
            "wins (%)",
            series,
        );
        c.y_range = Some((0.0, 100.0));
        charts.push((format!("{stem}_{suffix}"), Chart::Line(c)));
    }
    charts
}

/// The second player's chart: the mean of the runs against each share eps of random moves,
/// Thill's published levels for the same eps flat.
fn second_player_chart(by_eps: &[(f64, Vec<Row>)], stem: &str) -> (String, Chart) {
    let mut series = Vec::new();
    let mut x_end = (f64::INFINITY, f64::NEG_INFINITY);
    for (e, rows) in by_eps {
        let band = mean_band(rows, true);
        x_end = (x_end.0.min(band[0].0), x_end.1.max(band[band.len() - 1].0));
        series.push(Series {
            name: format!("eps {e}"),
            points: band.iter().map(|b| (b.0, b.1)).collect(),
            mark: Mark::LinePoints,
        });
    }
    for (e, y) in THILL_SECOND {
        if by_eps.iter().any(|(x, _)| (x - e).abs() < 1e-9) {
            series.push(flat(
                format!("Thill 2026, eps {e}: {y}%"),
                x_end.0,
                x_end.1,
                y,
            ));
        }
    }
    let mut c = line(
        "as second player vs perfect play with a share eps of random moves".into(),
        "training seconds (evaluation excluded)",
        "wins (%)",
        series,
    );
    c.y_range = Some((0.0, 100.0));
    (format!("{stem}_second"), Chart::Line(c))
}

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
        charts.push(set_chart(set, pick(set, &games), stem));
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

/// One benchmark set's mistakes against self-play games (`pts`), with the field's published
/// rates on that set flat.
fn set_chart(set: &str, pts: Vec<(f64, f64)>, stem: &str) -> (String, Chart) {
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
    (format!("{stem}_{set}"), Chart::Line(c))
}
