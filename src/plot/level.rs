//! The charts of the strength dial and the adaptive agent: the calibration (Elo against the
//! dial's skill, with the measured points' intervals and the fitted curve) and the adaptive
//! agent's estimate of its opponent game by game beside the opponent's ladder Elo.

use super::{Chart, LineChart, Mark, Series};
use connect4_engine::agents::level::Calibration;
use connect4_learn::arena::AdaptiveGame;

/// Elo against skill: the measured points, their 95% band, the curve the dial reads.
pub fn calibration_chart(c: &Calibration) -> Chart {
    let mut band: Vec<(f64, f64)> = c.points.iter().map(|p| (p.skill, p.low)).collect();
    band.extend(c.points.iter().rev().map(|p| (p.skill, p.high)));
    let mut series = vec![
        Series {
            name: "95% interval".into(),
            points: band,
            mark: Mark::Band,
        },
        Series {
            name: "measured".into(),
            points: c.points.iter().map(|p| (p.skill, p.elo)).collect(),
            mark: Mark::Points,
        },
        Series {
            name: "calibration curve".into(),
            points: c.curve.clone(),
            mark: Mark::Line,
        },
    ];
    for a in &c.anchors {
        series.push(Series {
            name: format!("{} ({:.0})", super::short_label(&a.agent), a.elo),
            points: vec![(0.0, a.elo), (1.0, a.elo)],
            mark: Mark::Thin,
        });
    }
    Chart::Line(LineChart {
        title: format!(
            "The strength dial on the ladder ({} games per ladder agent and setting)",
            c.games_per_agent
        ),
        x_label: "skill (0 random, 1 perfect)".into(),
        y_label: "Elo on the ladder".into(),
        series,
        y_range: None,
        reference: None,
    })
}

/// One run's estimate after each game, and each opponent's ladder Elo (where known) over
/// its games.
pub fn track_chart(
    title: &str,
    games: &[&AdaptiveGame],
    true_elo: &dyn Fn(&str) -> Option<f64>,
) -> Chart {
    let mut series = vec![Series {
        name: "adaptive's estimate".into(),
        points: games
            .iter()
            .map(|g| (g.game as f64 + 1.0, g.estimate))
            .collect(),
        mark: Mark::LinePoints,
    }];
    let mut start = 0;
    while start < games.len() {
        let name = &games[start].opponent;
        let end = games[start..]
            .iter()
            .position(|g| &g.opponent != name)
            .map_or(games.len(), |n| start + n);
        if let Some(elo) = true_elo(name) {
            series.push(Series {
                name: format!("{} on the ladder ({elo:.0})", super::short_label(name)),
                points: vec![(start as f64 + 0.5, elo), (end as f64 + 0.5, elo)],
                mark: Mark::Thick,
            });
        }
        start = end;
    }
    Chart::Line(LineChart {
        title: title.into(),
        x_label: "game".into(),
        y_label: "Elo".into(),
        series,
        y_range: None,
        reference: None,
    })
}
