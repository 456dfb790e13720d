//! The data files the package carries (the six benchmark sets, the labelled positions, the
//! UCI file), found from any folder: by name ("middle-easy", "heldout", "uci") or by their
//! path in the repository ("data/bench/middle-easy"), in `./data` first (a clone) and then
//! inside the installed package.

use crate::errors::err;
use connect4_learn::arena::benchmark_sets::BENCH_SETS;
use pyo3::prelude::*;
use std::path::{Path, PathBuf};

/// The labelled "MOVES SCORE" files by name, with their path under `data/`.
pub const LABELLED: [(&str, &str); 4] = [
    ("heldout", "positions/heldout.txt.gz"),
    ("train", "positions/train.txt.gz"),
    ("opening-6", "positions/opening-6.txt.gz"),
    ("opening-8", "positions/opening-8.txt.gz"),
];

/// The UCI Connect-4 file's name and path under `data/`.
pub const UCI: (&str, &str) = ("uci", "uci/connect-4.data.Z");

/// Every data file the package carries: (name, kind, path under `data/`).
pub fn catalogue() -> Vec<(String, &'static str, String)> {
    let mut out: Vec<(String, &'static str, String)> = BENCH_SETS
        .iter()
        .map(|s| (s.name.to_string(), "bench", format!("bench/{}", s.name)))
        .collect();
    out.extend(
        LABELLED
            .iter()
            .map(|(n, p)| (n.to_string(), "labelled", p.to_string())),
    );
    out.push((UCI.0.to_string(), "uci", UCI.1.to_string()));
    out
}

/// The folders data files are looked for in: `./data` when it exists, then the package's.
fn data_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let here = PathBuf::from("data");
    if here.is_dir() {
        dirs.push(here);
    }
    if let Some(p) = crate::model::package_dir() {
        dirs.push(p.join("data"));
    }
    dirs
}

/// `path` as written when it is a file; else the data file it names (a name of
/// [`catalogue`], or a path starting `data/`) in the folders of [`data_dirs`]. A file found
/// nowhere is an error naming it, the folders looked in and the known names.
pub fn resolve(path: &Path) -> PyResult<PathBuf> {
    if path.is_file() {
        return Ok(path.to_path_buf());
    }
    let text = path.to_string_lossy();
    let relative: Option<String> = catalogue()
        .into_iter()
        .find(|(name, _, _)| *name == text)
        .map(|(_, _, rel)| rel)
        .or_else(|| {
            path.strip_prefix("data")
                .ok()
                .map(|r| r.to_string_lossy().into_owned())
        });
    let dirs = data_dirs();
    if let Some(rel) = &relative
        && let Some(found) = dirs.iter().map(|d| d.join(rel)).find(|p| p.is_file())
    {
        return Ok(found);
    }
    let names: Vec<String> = catalogue().into_iter().map(|(n, _, _)| n).collect();
    Err(err(format!(
        "{}: not found (no such file{}); a data set by name is one of {}",
        path.display(),
        if relative.is_some() {
            format!(
                ", nor in {}",
                dirs.iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" or ")
            )
        } else {
            String::new()
        },
        names.join(", ")
    )))
}

/// The file of a data set, by name or repository path, as [`resolve`] finds it.
#[pyfunction]
pub fn _data_path(name: crate::args::FilePath) -> PyResult<PathBuf> {
    resolve(&name.0)
}

/// Every data set the package carries: a list of (name, kind, path under `data/`), kind
/// one of "bench", "labelled", "uci".
#[pyfunction]
pub fn _data_catalogue() -> Vec<(String, &'static str, String)> {
    catalogue()
}
