//! Stage 8, plots: every chart `c4 plot` knows, from the run's models, tournaments and grades.

use super::{PipelineConfig, PipelineError, fail};
use connect4_engine::progress::Progress;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What the plots stage produced.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlotsResult {
    /// Chart names (file stems in `plots/`), each written as PNG and SVG.
    pub charts: Vec<String>,
}

/// Draws every chart into `plots/`.
pub fn run(
    config: &PipelineConfig,
    observer: &dyn Progress,
) -> Result<(PlotsResult, Vec<PathBuf>), PipelineError> {
    let run = &config.out;
    observer.start("plots", 0);
    let written = crate::plot::files::plot_paths(
        &[
            run.join("models"),
            run.join("ladder"),
            run.join("detail"),
            run.join("bench"),
        ],
        &run.join("plots"),
    )
    .map_err(fail("plots"))?;
    observer.finish();
    let charts = written
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    Ok((PlotsResult { charts }, written))
}
