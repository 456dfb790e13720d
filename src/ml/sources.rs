//! Where a learner's labelled positions come from: the UCI file and solver-labelled position
//! files, gathered into training examples with a note per source (path and sha256) for the
//! model file's metadata.

use super::experiment::Example;
use super::positions::{PositionsError, read_positions};
use super::uci::{UciError, load_uci};
use crate::game::Geometry;
use std::path::{Path, PathBuf};

/// Why the sources could not be gathered.
#[derive(Debug, thiserror::Error)]
pub enum SourcesError {
    /// The UCI file.
    #[error(transparent)]
    Uci(#[from] UciError),
    /// A position file.
    #[error(transparent)]
    Positions(#[from] PositionsError),
    /// A file read for its checksum.
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Too little data to train and test on.
    #[error("only {0} labelled positions: too few to train and test on")]
    TooFew(usize),
}

/// Examples ready for [`super::experiment::run_experiment`].
pub struct TrainingSources {
    /// The rows split into training and test parts (the UCI rows; the extra rows when there
    /// is no UCI file).
    pub main: Vec<Example>,
    /// Rows that only ever train.
    pub extra: Vec<Example>,
    /// One note per source, e.g. "uci:PATH sha256=...".
    pub notes: Vec<String>,
    /// Set when the UCI file was not found and the extra rows took its place.
    pub uci_missing: Option<UciError>,
}

/// Gathers the UCI rows (from `uci`, if given) and the rows of `position_files`. Without a
/// UCI file (not given, or not found while position files are given), the position rows are
/// split into training and test parts instead.
pub fn gather(
    uci: Option<&Path>,
    position_files: &[PathBuf],
    geom: Geometry,
) -> Result<TrainingSources, SourcesError> {
    let mut notes = Vec::new();
    let mut uci_missing = None;
    let mut main: Vec<Example> = match uci.map(load_uci) {
        None => Vec::new(),
        Some(Ok(data)) => {
            notes.push(format!("uci:{} sha256={}", data.source, data.sha256));
            data.rows.iter().map(Example::from).collect()
        }
        Some(Err(e @ UciError::Missing { .. })) if !position_files.is_empty() => {
            uci_missing = Some(e);
            Vec::new()
        }
        Some(Err(e)) => return Err(e.into()),
    };
    let mut extra = Vec::new();
    for f in position_files {
        let rows = read_positions(f, geom)?;
        let sha = crate::io::sha256_file(f).map_err(|source| SourcesError::Io {
            path: f.clone(),
            source,
        })?;
        notes.push(format!(
            "selfplay:{} rows={} sha256={sha}",
            f.display(),
            rows.len()
        ));
        extra.extend(rows.iter().map(Example::from));
    }
    if main.is_empty() {
        main = std::mem::take(&mut extra);
    }
    if main.len() < 10 {
        return Err(SourcesError::TooFew(main.len()));
    }
    Ok(TrainingSources {
        main,
        extra,
        notes,
        uci_missing,
    })
}
