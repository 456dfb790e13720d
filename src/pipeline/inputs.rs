//! Checking everything the run reads before any stage starts, so that a bad path or file
//! fails in a second, not after minutes of work.

use super::{PipelineConfig, PipelineError, Sizes, agents, fail};
use connect4_engine::game::{Geometry, Position};
use connect4_learn::arena::benchmark_sets::BenchSet;
use connect4_learn::arena::read_graded_file;
use connect4_learn::datasets::uci;

/// A benchmark position to grade, with the file's score if it gives one.
pub(crate) type GradedInput = (Position, Option<i32>);

/// A file of solver-labelled positions as read (the first rows, up to the run's limit).
pub struct LabelledSet {
    /// The file.
    pub source: String,
    /// sha256 of the file.
    pub sha256: String,
    /// Its rows (class from the score's sign).
    pub rows: Vec<connect4_learn::datasets::Example>,
}

/// Reads the labelled positions of `path` on the run's board, keeping the first `limit` rows
/// when given.
fn labelled_set(
    path: &std::path::Path,
    geom: Geometry,
    limit: Option<usize>,
) -> Result<LabelledSet, PipelineError> {
    let (mut rows, sha256) = connect4_learn::datasets::sources::read_labelled_examples(path, geom)
        .map_err(fail("inputs"))?;
    if let Some(n) = limit {
        rows.truncate(n);
    }
    Ok(LabelledSet {
        source: path.display().to_string(),
        sha256,
        rows,
    })
}

/// What the run reads, loaded and checked.
pub struct Inputs {
    /// The UCI rows, unless the run goes without them.
    pub uci: Option<uci::UciData>,
    /// The labelled training positions, unless the run goes without them.
    pub positions: Option<LabelledSet>,
    /// The labelled held-out positions, unless the run goes without them.
    pub heldout: Option<LabelledSet>,
    /// The benchmark positions to grade, per set (file name, positions).
    pub bench: Vec<(String, Vec<GradedInput>)>,
    /// sha256 of each benchmark file read, by file name.
    pub bench_sha256: Vec<(String, String)>,
}

/// The run folder can be written, the UCI file and the labelled position files read and
/// validate, every benchmark set is there and parses, every agent spec parses.
pub(crate) fn check_inputs(config: &PipelineConfig) -> Result<Inputs, PipelineError> {
    let bad = fail("inputs");
    let out = &config.out;
    writable_folder(out)?;
    let geom = config.geometry;
    let uci = match &config.uci {
        Some(path) if geom != Geometry::STANDARD => {
            return Err(bad(format!(
                "the UCI file {} holds 7x6 positions and this run's board is {geom}: leave it out on that board",
                path.display()
            )));
        }
        Some(path) => Some(uci::load_uci(path).map_err(fail("inputs"))?),
        None => None,
    };
    let sizes = Sizes::new(config.quick);
    let positions = match &config.positions {
        Some(p) => Some(labelled_set(p, geom, sizes.positions_limit)?),
        None => None,
    };
    let heldout = match &config.heldout {
        Some(p) => Some(labelled_set(p, geom, sizes.heldout_limit)?),
        None => None,
    };
    let (bench, bench_sha256) = benchmark_sets(config, &sizes)?;
    agents(out, sizes.depth, config.geometry).map_err(fail("inputs"))?;
    Ok(Inputs {
        uci,
        positions,
        heldout,
        bench,
        bench_sha256,
    })
}

/// The run folder, made if need be, and a file written in it (then removed): a run that
/// cannot write its results stops before it works.
fn writable_folder(out: &std::path::Path) -> Result<(), PipelineError> {
    let bad = fail("inputs");
    if out.exists() && !out.is_dir() {
        return Err(bad(format!(
            "the run folder {} exists and is not a folder",
            out.display()
        )));
    }
    std::fs::create_dir_all(out).map_err(|e| {
        bad(format!(
            "cannot create the run folder {}: {e}",
            out.display()
        ))
    })?;
    let probe = out.join(format!(".c4-write-check.{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| {
        bad(format!(
            "cannot write in the run folder {}: {e}",
            out.display()
        ))
    })?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// The benchmark sets the bench stage grades, each with its file's sha256 (none off 7x6,
/// where the stage grades held-out positions).
#[allow(clippy::type_complexity)]
fn benchmark_sets(
    config: &PipelineConfig,
    sizes: &Sizes,
) -> Result<(Vec<(String, Vec<GradedInput>)>, Vec<(String, String)>), PipelineError> {
    let bad = fail("inputs");
    let geom = config.geometry;
    let mut bench = Vec::new();
    let mut bench_sha256 = Vec::new();
    // Without a benchmark folder (other boards) the bench stage grades held-out positions.
    let dir = config.bench.as_deref();
    if let (Some(dir), false) = (dir, geom == Geometry::STANDARD) {
        return Err(bad(format!(
            "the benchmark sets of {} are 7x6 positions and this run's board is {geom}: off 7x6 the bench stage grades the data stage's held-out positions",
            dir.display()
        )));
    }
    for (name, dir) in dir
        .into_iter()
        .flat_map(|d| sizes.bench_files.iter().map(move |n| (n, d)))
    {
        let set =
            BenchSet::named(name).ok_or_else(|| bad(format!("unknown benchmark set {name}")))?;
        let path = set.file_in(dir).ok_or_else(|| {
            bad(format!(
                "benchmark set {} not found in {} (looked for {} and {})",
                set.name,
                dir.display(),
                set.name,
                set.pons_name
            ))
        })?;
        let positions =
            read_graded_file(&path, geom, Some(sizes.bench_positions)).map_err(fail("inputs"))?;
        if positions.len() < sizes.bench_positions {
            return Err(bad(format!(
                "{} has {} positions; the run grades {}",
                path.display(),
                positions.len(),
                sizes.bench_positions
            )));
        }
        let file_name = path.file_name().map_or_else(
            || set.name.to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let sha = connect4_engine::io::sha256_file(&path).map_err(fail("inputs"))?;
        bench_sha256.push((file_name.clone(), sha));
        bench.push((file_name, positions));
    }
    Ok((bench, bench_sha256))
}
