//! Files a program carries inside itself (the `c4` binary's shipped models), read where a
//! file of the same path is missing: `c4 tournament --agents gbt:depth=1` finds
//! `models/gbt.bin` run from any folder, as the engine finds its built-in opening book.
//!
//! A second process-wide value of the engine, on purpose: model files are read deep inside
//! spec parsing, tournaments and trainers, and every command of a program should fall back
//! alike without each caller handing the files down. It is set once, by the program's `main`
//! (libraries and tests that do not set it read files only), and a file on disk always wins,
//! so no result depends on it beyond where the bytes come from; the program is told each
//! time a carried file stands in (once per path), so that a user sees which model played.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// A carried file: its path, its bytes, and whether its use was told.
struct Carried {
    path: PathBuf,
    bytes: &'static [u8],
    told: AtomicBool,
}

struct Registry {
    files: Vec<Carried>,
    notice: fn(&Path),
}

static REGISTRY: OnceLock<Registry> = OnceLock::new();

/// Registers the files the program carries, by the paths they stand in for (e.g.
/// `models/gbt.bin`), and what to call the first time each stands in for a missing file (a
/// line on stderr). Once per process: false (and nothing changed) when already set.
pub fn carry(files: impl IntoIterator<Item = (PathBuf, &'static [u8])>, notice: fn(&Path)) -> bool {
    let files = files
        .into_iter()
        .map(|(path, bytes)| Carried {
            path,
            bytes,
            told: AtomicBool::new(false),
        })
        .collect();
    REGISTRY.set(Registry { files, notice }).is_ok()
}

/// The carried bytes standing in for `path`, if the program carries a file by that path
/// (the notice called the first time).
pub fn carried(path: &Path) -> Option<&'static [u8]> {
    let registry = REGISTRY.get()?;
    let file = registry.files.iter().find(|f| f.path == path)?;
    if !file.told.swap(true, Ordering::Relaxed) {
        (registry.notice)(path);
    }
    Some(file.bytes)
}

/// The bytes of the file `path`, or of the carried file standing in for it when it does not
/// exist.
pub fn read_or_carried(path: &Path) -> std::io::Result<Vec<u8>> {
    match std::fs::read(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            carried(path).map(<[u8]>::to_vec).ok_or(e)
        }
        read => read,
    }
}
