//! The files a training run writes beside its model, named in one place: every trainer, the
//! command line and the pipeline take their names from here.

use connect4_engine::io::beside;
use std::path::{Path, PathBuf};

/// The learning curve's CSV beside `model` (`NAME.curve.csv`).
pub fn curve_csv(model: &Path) -> PathBuf {
    beside(model, ".curve.csv")
}

/// The run's report beside `model` (`NAME.report.json`).
pub fn report_json(model: &Path) -> PathBuf {
    beside(model, ".report.json")
}

/// The matches against the perfect player beside `model` (`NAME.perfect.csv`).
pub fn perfect_csv(model: &Path) -> PathBuf {
    beside(model, ".perfect.csv")
}

/// A GBT's gain importance per feature beside `model` (`NAME.importance.csv`).
pub fn importance_csv(model: &Path) -> PathBuf {
    beside(model, ".importance.csv")
}

/// The LMS trainer's evaluation matches beside `model` (`NAME.eval.csv`).
pub fn eval_csv(model: &Path) -> PathBuf {
    beside(model, ".eval.csv")
}

/// The checkpoint a run resumes from, beside `model` (`NAME.checkpoint`).
pub fn checkpoint(model: &Path) -> PathBuf {
    beside(model, ".checkpoint")
}

/// Run `k` of several, beside `model` (`NAME.run{k}.bin`).
pub fn run_model(model: &Path, k: usize) -> PathBuf {
    beside(model, &format!(".run{k}.bin"))
}

/// The curve's solved benchmark columns, beside `model` (`NAME.curve-columns.json`).
pub fn curve_columns(model: &Path) -> PathBuf {
    beside(model, ".curve-columns.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_go_beside_the_model() {
        let m = Path::new("runs/net.bin");
        assert_eq!(curve_csv(m), Path::new("runs/net.curve.csv"));
        assert_eq!(report_json(m), Path::new("runs/net.report.json"));
        assert_eq!(perfect_csv(m), Path::new("runs/net.perfect.csv"));
        assert_eq!(checkpoint(m), Path::new("runs/net.checkpoint"));
        assert_eq!(importance_csv(m), Path::new("runs/net.importance.csv"));
        assert_eq!(eval_csv(m), Path::new("runs/net.eval.csv"));
        assert_eq!(run_model(m, 3), Path::new("runs/net.run3.bin"));
        assert_eq!(curve_columns(m), Path::new("runs/net.curve-columns.json"));
    }
}
