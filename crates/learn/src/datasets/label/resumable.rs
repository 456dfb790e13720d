//! Resumable output: one line per item, written through `OUT.partial` in flushed chunks and
//! renamed when complete; the errors of every resumable labelling job.

/// What a `generate-uci` run did.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GenerateReport {
    /// Positions in this shard.
    pub total: usize,
    /// Positions already labelled in the partial file when the run (re)started.
    pub resumed: usize,
    /// Positions labelled by this run.
    pub labelled: usize,
    /// Wall time of the labelling, seconds.
    pub seconds: f64,
    /// Rows per class (loss, draw, win) in the finished file.
    pub classes: [usize; 3],
}

/// Why a line of a partial labelling file cannot be resumed from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PartialRowError {
    /// Not a UCI-format row.
    #[error(transparent)]
    Row(crate::datasets::uci::RowError),
    /// A valid row of another job.
    #[error("position is not part of this job (other shard or ply?)")]
    NotInJob,
    /// Not a "MOVES SCORE" line.
    #[error("not a \"MOVES SCORE\" line")]
    NotALabelLine,
    /// A row of this job, but not the next one: the file is not this job's prefix.
    #[error("row is out of order for this job (another source or shard?)")]
    OutOfOrder,
}

/// Errors of the resumable labelling job.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// File trouble.
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A partial file exists but the job was not asked to resume it.
    #[error("{path} exists from an interrupted run: resume it, or delete it to start over", path = path.display())]
    PartialExists {
        /// The partial file.
        path: std::path::PathBuf,
    },
    /// The partial file holds a row that cannot belong to this job.
    #[error("{path}:{line}: {problem}", path = path.display())]
    BadPartial {
        /// The partial file.
        path: std::path::PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        problem: PartialRowError,
    },
}

/// The file a run of [`super::generate_uci`] appends to until it is complete.
pub fn partial_path(out: &std::path::Path) -> std::path::PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".partial");
    s.into()
}

/// Items a resumable job solves and flushes to its partial file at a time, unless its job
/// says otherwise: a killed run loses at most this much work.
pub const DEFAULT_CHUNK: usize = 1024;

/// A resumable job that writes one line per item of `items`, in order: lines go to
/// `out.partial` in flushed chunks of `chunk` items (at least 1), so an interrupted run
/// loses at most one chunk; with `resume`, the complete lines already there are kept (a
/// torn last line is cut off) and the job goes on after them; when every item has its line
/// the file is renamed to `out`. `resumed_item` names the item a kept line belongs to (its
/// index in `items`), or says why the line cannot belong to this job; `make_lines` turns a
/// chunk of items into their lines. Returns the number of lines kept from an earlier run.
pub(crate) fn write_resumable<T>(
    items: &[T],
    out: &std::path::Path,
    resume: bool,
    chunk: usize,
    resumed_item: &dyn Fn(&str) -> Result<usize, PartialRowError>,
    make_lines: &mut dyn FnMut(&[T]) -> Vec<String>,
    progress: &dyn connect4_engine::progress::Progress,
) -> Result<usize, GenerateError> {
    use std::io::Write;
    let part = partial_path(out);
    let io_err = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |source| GenerateError::Io { path, source }
    };
    let mut done = 0;
    if part.exists() {
        if !resume {
            return Err(GenerateError::PartialExists { path: part });
        }
        let text = std::fs::read_to_string(&part).map_err(io_err(&part))?;
        // Keep complete lines only; a torn final line is cut off the file.
        let keep = text.rfind('\n').map_or(0, |i| i + 1);
        for (n, line) in text[..keep].lines().enumerate() {
            let bad = |problem| GenerateError::BadPartial {
                path: part.clone(),
                line: n + 1,
                problem,
            };
            // Lines are written in item order: line n must be item n.
            match resumed_item(line) {
                Ok(i) if i == n => {}
                Ok(_) => return Err(bad(PartialRowError::OutOfOrder)),
                Err(e) => return Err(bad(e)),
            }
            done += 1;
        }
        if done > items.len() {
            return Err(GenerateError::BadPartial {
                path: part.clone(),
                line: items.len() + 1,
                problem: PartialRowError::NotInJob,
            });
        }
        if keep < text.len() {
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(&part)
                .map_err(io_err(&part))?;
            f.set_len(keep as u64).map_err(io_err(&part))?;
        }
        progress.advance(done);
    }
    if let Some(dir) = part.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io_err(dir))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&part)
        .map_err(io_err(&part))?;
    for chunk in items[done..].chunks(chunk.max(1)) {
        let mut text = String::with_capacity(chunk.len() * 48);
        for line in make_lines(chunk) {
            text.push_str(&line);
            text.push('\n');
        }
        file.write_all(text.as_bytes()).map_err(io_err(&part))?;
        file.sync_data().map_err(io_err(&part))?;
    }
    drop(file);
    std::fs::rename(&part, out).map_err(io_err(out))?;
    Ok(done)
}
