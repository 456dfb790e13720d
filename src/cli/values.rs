//! Values read from the command line: agent specs, ranges, and the value parsers clap calls
//! (their errors are clap's strings, the one place the CLI builds an error from text).

use anyhow::{Context, Result, bail};

/// The long help of an agent flag: its first line, then every kind from the library's table.
pub fn agents_long_help(first: &str) -> String {
    format!("{first}\n\n{}", connect4_engine::agents::kinds_help())
}

/// Parses an agent spec given on the command line. A model path that does not exist but is a
/// bare name (`gbt`, `lms`) stands for the shipped `models/NAME.bin`, so `model:gbt` works from
/// the repository root; the library itself takes paths as given.
pub fn parse_agent(spec: &str) -> Result<connect4_engine::agents::AgentSpec> {
    let parsed: connect4_engine::agents::AgentSpec = spec.parse()?;
    Ok(parsed.map_model_paths(resolve_model_path))
}

/// `path` as given if it exists; otherwise, for a bare name like `gbt`, `models/NAME.bin`
/// when that exists (so that an error, if any, names what was asked for).
fn resolve_model_path(path: &std::path::Path) -> std::path::PathBuf {
    if path.exists() || path.components().count() != 1 || path.extension().is_some() {
        return path.to_path_buf();
    }
    let shipped = std::path::Path::new("models")
        .join(path)
        .with_extension("bin");
    if shipped.exists() {
        shipped
    } else {
        path.to_path_buf()
    }
}

/// A `--plies LO..HI` range (inclusive; `LO..=HI` also read).
pub(crate) fn parse_plies(s: &str) -> Result<std::ops::RangeInclusive<usize>> {
    let (lo, hi) = s
        .split_once("..")
        .ok_or_else(|| anyhow::anyhow!("--plies {s:?}: expected LO..HI, e.g. 8..41"))?;
    let lo: usize = lo
        .trim()
        .parse()
        .with_context(|| format!("--plies {s:?}: LO is not a number"))?;
    let hi: usize = hi
        .trim()
        .trim_start_matches('=')
        .parse()
        .with_context(|| format!("--plies {s:?}: HI is not a number"))?;
    if lo > hi {
        bail!("--plies {s:?}: LO is above HI");
    }
    Ok(lo..=hi)
}

/// A whole number of at least `min`, with a message clap prints after the flag's name.
fn at_least(s: &str, min: usize) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(v) if v >= min => Ok(v),
        Ok(_) => Err(format!("must be at least {min}")),
        Err(e) => Err(e.to_string()),
    }
}

/// The command line a model file records as its provenance, named `c4 ...` whatever path
/// the binary ran from (a file must not carry a path of the machine that made it).
pub(crate) fn command_line() -> String {
    std::iter::once("c4".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Threads by default: every core.
pub(crate) fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Value parser of a count flag: at least 1.
pub(crate) fn at_least_one(s: &str) -> Result<usize, String> {
    at_least(s, 1)
}

/// Value parser of a flag that needs at least 2 (e.g. folds).
pub(crate) fn at_least_two(s: &str) -> Result<usize, String> {
    at_least(s, 2)
}

/// Value parser of a chance: from 0 to 1.
pub(crate) fn unit_interval(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is not in [0, 1]"))
    }
}

/// Value parser of a share strictly between 0 and 1.
pub(crate) fn open_unit_interval(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if v > 0.0 && v < 1.0 {
        Ok(v)
    } else {
        Err(format!("{v} is not in (0, 1)"))
    }
}
