//! The charts of an evaluation ([`connect4_learn::arena::evaluate`]): scores against the baseline with their
//! intervals, and error rates per benchmark set, as plain series for `plot`.

use super::{BarChart, Chart, short_label};
use connect4_learn::arena::evaluate::{EvaluateReport, MatchReport};

/// The score chart (with intervals) and, when moves were graded, the error-rate chart, each
/// with the file stem it is saved under (`score`, `errors`).
pub fn charts(r: &EvaluateReport) -> Vec<(&'static str, Chart)> {
    let mut matches: Vec<&MatchReport> = Vec::new();
    for a in &r.agents {
        matches.push(&a.vs_baseline);
        if let Some(m) = &a.equal_time {
            matches.push(m);
        }
    }
    let score = Chart::Bar(BarChart {
        title: format!("Score against {} (95% CI)", r.baseline),
        value_label: "score %".into(),
        categories: matches.iter().map(|m| short_label(&m.agent)).collect(),
        groups: vec![(
            "score".into(),
            matches.iter().map(|m| 100.0 * m.score.value).collect(),
        )],
        intervals: Some(
            matches
                .iter()
                .map(|m| (100.0 * m.score.low, 100.0 * m.score.high))
                .collect(),
        ),
        dots: false,
    });
    let mut out = vec![("score", score)];
    if !r.baseline_errors.is_empty() {
        let mut groups = vec![(
            short_label(&r.baseline),
            r.baseline_errors
                .iter()
                .map(|e| 100.0 * e.error_rate.value)
                .collect(),
        )];
        for a in &r.agents {
            groups.push((
                short_label(&a.agent),
                a.errors
                    .iter()
                    .map(|e| 100.0 * e.error_rate.value)
                    .collect(),
            ));
        }
        out.push((
            "errors",
            Chart::Bar(BarChart {
                title: "Error rate against the solver".into(),
                value_label: "moves that lose value, %".into(),
                categories: r.baseline_errors.iter().map(|e| e.set.clone()).collect(),
                groups,
                intervals: None,
                dots: false,
            }),
        ));
    }
    out
}
