//! Where a learner's labelled positions come from: the UCI file and solver-labelled position
//! files, gathered into training examples with a note per source (path and sha256) for the
//! model file's metadata.

use super::games_csv::{PositionsError, read_positions};
use super::uci::{UciError, load_uci};
use crate::datasets::Example;
use connect4_engine::game::Geometry;
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
    /// A labelled "MOVES SCORE" file.
    #[error(transparent)]
    Labelled(#[from] super::labelled::MovesFileError),
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

/// Examples ready for a trainer (the GBT's `train_gbt` reads them).
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

/// Gathers the UCI rows (from `uci`, if given), the rows of the self-play CSV files
/// `position_files` and of the labelled "MOVES SCORE" files `labelled_files` (their class is
/// the score's sign). Without a UCI file (not given, or not found while other files are
/// given), the other rows are split into training and test parts instead.
pub fn gather(
    uci: Option<&Path>,
    position_files: &[PathBuf],
    labelled_files: &[PathBuf],
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
        Some(Err(e @ UciError::Missing { .. }))
            if !position_files.is_empty() || !labelled_files.is_empty() =>
        {
            uci_missing = Some(e);
            Vec::new()
        }
        Some(Err(e)) => return Err(e.into()),
    };
    let mut extra = Vec::new();
    for f in position_files {
        let rows = read_positions(f, geom)?;
        let sha = connect4_engine::io::sha256_file(f).map_err(|source| SourcesError::Io {
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
    for f in labelled_files {
        let (rows, sha) = read_labelled_examples(f, geom)?;
        notes.push(format!(
            "positions:{} rows={} sha256={sha}",
            f.display(),
            rows.len()
        ));
        extra.extend(rows);
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

/// The examples of a labelled "MOVES SCORE" file (plain or gzip; class from the score's sign)
/// and the file's sha256.
pub fn read_labelled_examples(
    path: &Path,
    geom: Geometry,
) -> Result<(Vec<Example>, String), SourcesError> {
    use super::labelled::{Expect, read_moves_file};
    let rows = read_moves_file(path, geom, Expect::Labelled)?
        .into_iter()
        .map(|m| Example {
            position: m.position,
            label: super::Label::from_score(m.score.unwrap_or(0)),
            score: m.score,
        })
        .collect();
    let sha = connect4_engine::io::sha256_file(path).map_err(|source| SourcesError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok((rows, sha))
}
