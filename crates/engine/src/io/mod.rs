//! Files: atomic writes, so that an interrupted run never leaves a half-written model, data
//! set or report where a good one was.
//!
//! Also here: the model-file container ([`model_format`]) and the files a program carries
//! inside itself in place of missing ones ([`carried`]). Not here: what a model body means
//! (`ml::model_file`).

pub mod carried;
pub mod model_format;

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// `path` with its extension replaced by `suffix`: `beside("models/gbt.bin", ".curve.csv")`
/// is `models/gbt.curve.csv`. Files that belong to a model sit beside it under these names.
pub fn beside(path: &Path, suffix: &str) -> std::path::PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(|| "model".into(), |s| s.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}{suffix}"))
}

/// Temporary files of atomic writes under way, so that an interrupted program can remove
/// them (see [`remove_unfinished_writes`]).
///
/// The one process-wide value the engine keeps, on purpose: Ctrl-C is delivered to the
/// process, and its handler must find every write under way wherever it was started, without
/// each caller of [`write_atomic`] handing it a registry. It holds only paths of files being
/// written now (empty between writes), so no result depends on it.
static UNFINISHED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

fn unfinished() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    UNFINISHED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes the temporary files of every atomic write still under way. Called when the
/// program is interrupted (Ctrl-C): the files being replaced keep their old content, the new
/// content was never renamed over them, and nothing half-written is left beside them.
pub fn remove_unfinished_writes() {
    for tmp in unfinished().drain(..) {
        let _ = fs::remove_file(tmp);
    }
}

/// Writes `path` atomically: the content goes to a temporary file beside it, which is
/// flushed to disk and then renamed over `path`. Readers see the old file or the new one,
/// never a mix. Parent folders are created.
pub fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir)?;
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no file name"))?;
    remove_stale_temporaries(&dir, &name.to_string_lossy());
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    unfinished().push(tmp.clone());
    let result = (|| {
        let mut w = BufWriter::new(File::create(&tmp)?);
        write(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    unfinished().retain(|p| p != &tmp);
    result
}

/// Removes the temporary files that earlier writes of `name` in `dir` left when their process
/// was killed (`.NAME.PID.tmp` of a process that no longer runs), so that no half-written
/// file stays beside a destination for longer than the next write of it. A temporary file of
/// a process still running (another writer of the same name) is left alone.
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(pid) = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !process_runs(pid) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether process `pid` exists (where that cannot be known, it is assumed to, and its
/// temporary files are kept).
fn process_runs(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return true;
        };
        // SAFETY: kill with signal 0 sends nothing; it only checks that the process exists.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// The sha256 of `bytes` as lowercase hex: how data files and models are identified.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    format!("{:x}", sha2::Sha256::digest(bytes))
}

/// The sha256 of a file's content as lowercase hex.
pub fn sha256_file(path: &Path) -> io::Result<String> {
    Ok(sha256_hex(&fs::read(path)?))
}

/// [`write_atomic`] of a byte slice.
pub fn write_bytes_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic(path, |w| w.write_all(bytes))
}

/// Writes `rows` as CSV with a header row (from the serde field names), atomically.
pub fn write_csv_atomic<T: serde::Serialize>(path: &Path, rows: &[T]) -> io::Result<()> {
    write_atomic(path, |w| {
        let mut c = csv::Writer::from_writer(w);
        for r in rows {
            c.serialize(r).map_err(io::Error::other)?;
        }
        c.flush()
    })
}

/// Writes `value` as pretty JSON, atomically.
pub fn write_json_atomic<T: serde::Serialize>(path: &Path, value: &T) -> io::Result<()> {
    write_atomic(path, |w| {
        serde_json::to_writer_pretty(&mut *w, value).map_err(io::Error::other)?;
        w.write_all(b"\n")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_a_failed_write_keeps_the_old_file() {
        let dir = std::env::temp_dir().join(format!("c4-io-{}", std::process::id()));
        let path = dir.join("sub/file.txt");
        write_bytes_atomic(&path, b"one").unwrap();
        write_bytes_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        let err = write_atomic(&path, |w| {
            w.write_all(b"partial")?;
            Err(io::Error::other("interrupted"))
        });
        assert!(err.is_err());
        assert_eq!(fs::read(&path).unwrap(), b"two");
        let leftovers = fs::read_dir(path.parent().unwrap()).unwrap().count();
        assert_eq!(leftovers, 1, "the temporary file is removed");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    #[cfg(unix)]
    fn the_next_write_removes_what_a_killed_writer_left() {
        let dir = std::env::temp_dir().join(format!("c4-io-stale-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        // A process that has exited: its pid names no process now (pids are not reused so
        // soon on Linux, which hands them out in turn).
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let stale = dir.join(format!(".model.bin.{dead}.tmp"));
        let other = dir.join(format!(".other.bin.{dead}.tmp"));
        for f in [&stale, &other] {
            fs::write(f, b"half").unwrap();
        }
        write_bytes_atomic(&dir.join("model.bin"), b"whole").unwrap();
        assert!(!stale.exists(), "a dead writer's temporary file is removed");
        assert!(
            other.exists(),
            "only the temporary files of the name written"
        );
        assert_eq!(fs::read(dir.join("model.bin")).unwrap(), b"whole");
        fs::remove_dir_all(&dir).unwrap();
    }
}
