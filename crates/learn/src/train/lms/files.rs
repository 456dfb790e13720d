//! A run's files: the weights and, beside them, the curve, the matches and the report.

use super::config::ValidLmsConfig;
use super::records::{GameRecord, LmsRun};
use super::report::LmsReport;
use thiserror::Error;

/// Why a run's files could not be written.
#[derive(Debug, Error)]
pub enum SaveError {
    /// The model file.
    #[error(transparent)]
    Model(#[from] connect4_engine::io::model_format::ModelFileError),
    /// A CSV or JSON file beside it.
    #[error("writing {path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

/// Writes the weights to `out` (a linear model file) and, beside it, the learning curve
/// (`NAME.curve.csv`, one row per game), the evaluation matches (`NAME.eval.csv`) and the
/// report (`NAME.report.json`), each atomically. Returns the paths written.
pub fn save_run(
    out: &std::path::Path,
    config: &ValidLmsConfig,
    run: &LmsRun,
    meta: connect4_engine::io::model_format::TrainingMeta,
) -> Result<Vec<std::path::PathBuf>, SaveError> {
    use connect4_engine::io::{write_csv_atomic, write_json_atomic};
    connect4_engine::ml::model_file::save_linear(out, run.weights, config.geometry, meta)?;
    let io = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |source| SaveError::Io { path, source }
    };
    let curve = crate::train::outputs::curve_csv(out);
    connect4_engine::io::write_atomic(&curve, |w| {
        let mut c = csv::Writer::from_writer(w);
        c.write_record(GameRecord::csv_header())?;
        for r in &run.records {
            c.write_record(r.csv_row())?;
        }
        c.flush()
    })
    .map_err(io(&curve))?;
    let evals = crate::train::outputs::eval_csv(out);
    write_csv_atomic(&evals, &run.evaluations).map_err(io(&evals))?;
    let report = crate::train::outputs::report_json(out);
    write_json_atomic(&report, &LmsReport::new(config, run)).map_err(io(&report))?;
    Ok(vec![out.to_path_buf(), curve, evals, report])
}

/// What `c4 train lms --supervised` writes beside the weights (`NAME.supervised.json`): the
/// fit's settings, per-epoch errors, data notes and, when one was played, the match of the
/// fitted weights against the hand-tuned agent.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SupervisedReport {
    /// The fit's settings.
    pub config: super::ValidSupervisedConfig,
    /// The fit.
    pub fit: super::SupervisedFit,
    /// One note per data source (path and sha256).
    pub data: Vec<String>,
    /// The fitted weights against the hand-tuned agent.
    pub evaluation: Option<super::MatchScore>,
}

/// Writes `report` to `out`'s `.supervised.json` (atomically) and returns its path.
pub fn save_supervised_report(
    out: &std::path::Path,
    report: &SupervisedReport,
) -> Result<std::path::PathBuf, SaveError> {
    let path = connect4_engine::io::beside(out, ".supervised.json");
    connect4_engine::io::write_json_atomic(&path, report).map_err(|source| SaveError::Io {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}
