//! The experiment's report as text: what `c4 train gbt` prints after training.

use super::experiment::ExperimentReport;

impl ExperimentReport {
    /// The held-out files' metrics by band of stones (nothing when none were given).
    fn write_by_stones(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.by_stones.is_empty() {
            writeln!(f, "held-out positions by stones (--test-positions):")?;
            writeln!(
                f,
                "  {:<8} {:>7} {:>9} {:>9}",
                "stones", "rows", "accuracy", "log loss"
            )?;
            for (i, b) in self.by_stones.iter().enumerate() {
                let all = if i + 1 == self.by_stones.len() {
                    "all "
                } else {
                    ""
                };
                writeln!(
                    f,
                    "  {:<8} {:>7} {:>9.4} {:>9.4}",
                    format!("{all}{}-{}", b.lo, b.hi),
                    b.metrics.rows,
                    b.metrics.accuracy,
                    b.metrics.log_loss
                )?;
            }
        }
        Ok(())
    }
}

impl std::fmt::Display for ExperimentReport {
    /// The holdout's metrics, recall and confusion, the folds, the baselines, the most
    /// important features and the held-out files by stones: what `c4 train gbt` prints.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::datasets::Label;
        writeln!(
            f,
            "GBT: {} iterations, fit {:.2} s, accuracy {:.4}, log loss {:.4}, predict {:.3} ms per 1000 rows",
            self.holdout.iterations,
            self.holdout.fit_seconds,
            self.holdout.test.accuracy,
            self.holdout.test.log_loss,
            self.holdout.predict_ms_per_1000
        )?;
        if let Some(m) = &self.holdout.test_mirror_averaged {
            writeln!(
                f,
                "mirror-averaged: accuracy {:.4}, log loss {:.4}",
                m.accuracy, m.log_loss
            )?;
        }
        writeln!(
            f,
            "recall: loss {:.4}  draw {:.4}  win {:.4}",
            self.holdout.test.recall[0], self.holdout.test.recall[1], self.holdout.test.recall[2]
        )?;
        writeln!(f, "confusion (rows true, columns predicted: loss draw win)")?;
        for l in Label::ALL {
            let row = &self.holdout.test.confusion[l.index()];
            writeln!(
                f,
                "  {:<5} {:>6} {:>6} {:>6}",
                l.as_str(),
                row[0],
                row[1],
                row[2]
            )?;
        }
        if let Some([ma, sa, ml, sl]) = self.cv_summary {
            writeln!(
                f,
                "{}-fold CV: accuracy {:.4} +- {:.4}, log loss {:.4} +- {:.4}",
                self.folds.len(),
                ma,
                sa,
                ml,
                sl
            )?;
        }
        for b in &self.baselines {
            writeln!(
                f,
                "baseline {}: accuracy {:.4}, recall {:.3}/{:.3}/{:.3}, fit {:.2} s",
                b.name, b.accuracy, b.recall[0], b.recall[1], b.recall[2], b.fit_seconds
            )?;
        }
        let top: Vec<String> = self
            .importance
            .iter()
            .take(8)
            .map(|(n, v)| format!("{n} {v:.3}"))
            .collect();
        writeln!(f, "top features by gain: {}", top.join(", "))?;
        self.write_by_stones(f)
    }
}
