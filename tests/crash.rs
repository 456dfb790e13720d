//! Crash consistency, tested the way databases test it: every command that writes is killed
//! with SIGKILL at many points spread over its run (`C4_KILL_POINTS`, 20 by default). After
//! each kill, every destination holds the old file or a whole new one, never part of one;
//! then a rerun (with `--resume` where the command left a checkpoint to resume from) ends
//! with the files of an uninterrupted run: byte for byte, except the measurements of time a
//! report or a curve records of its own run, which are left out of the comparison. No
//! temporary file is left beside a destination once the rerun is done. Kill points that
//! leave the same files behind (between the same two writes) share one rerun: it would
//! start from the same files and end the same way.
//!
//! What a kill at an instant leaves is what the files held at that instant (a kill changes
//! no file), so the kills are taken from one run, stopped at many instants and read while
//! it stands still ([`frozen`]), rather than from one run killed per point: the same states,
//! checked and rerun the same way, at the cost of one run instead of twenty.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use crate::common;

mod files;
mod frozen;
mod full_disk;

use files::{comparable, left_state, whole};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What the old file at every destination holds before a killed run.
const OLD: &[u8] = b"the file before this run\n";

/// How many times more often than there are kill points the frozen run is stopped: every
/// stop's files are checked old or whole, so that a write the points fall beside is seen.
const STOPS_PER_POINT: u32 = 60;

/// Kill points per command.
fn kill_points() -> usize {
    std::env::var("C4_KILL_POINTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20)
}

/// One writing command.
struct Case {
    name: &'static str,
    /// Its arguments; run in a fresh folder that holds `inputs`.
    args: Vec<String>,
    /// Added on a rerun when the killed run left one of `checkpoints`.
    resume: &'static [&'static str],
    checkpoints: &'static [&'static str],
    /// Which outputs a rerun must make as the uninterrupted run made them (less the
    /// measurements of time, see [`comparable`]); the others are checked to be whole. Not
    /// `calibrate`'s: the dial it measures solves each position within a time limit, so its
    /// games (and the fitted curve) depend on how busy the machine is. Not the pipeline's
    /// plots and report, which draw and quote how long each stage took.
    compared: fn(&Path) -> bool,
}

/// Every output is compared.
fn all(_: &Path) -> bool {
    true
}

fn c4(dir: &Path, args: &[String]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_c4"));
    c.args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c
}

/// Every file under `dir` (relative paths), sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push(p.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Runs `case` once whole, then once more frozen at many instants, and checks what a kill at
/// each of `kill_points()` instants spread over the run leaves and what a rerun from there
/// makes. `setup` puts the inputs into a fresh folder.
fn kill_everywhere(case: &Case, setup: impl Fn(&Path)) {
    let points = kill_points();
    let root = common::temp_dir(&format!("crash-{}", case.name));
    // The uninterrupted run: its files and how long it takes.
    let reference_dir = root.join("reference");
    std::fs::create_dir_all(&reference_dir).unwrap();
    setup(&reference_dir);
    let inputs = files(&reference_dir);
    let started = Instant::now();
    let out = c4(&reference_dir, &case.args).output().unwrap();
    let took = started.elapsed();
    assert!(
        out.status.success(),
        "{}: {}",
        case.name,
        common::text(&out.stderr)
    );
    let outputs: Vec<PathBuf> = files(&reference_dir)
        .into_iter()
        .filter(|f| !inputs.contains(f))
        .collect();
    assert!(!outputs.is_empty(), "{} wrote nothing", case.name);
    let reference: Vec<Vec<u8>> = outputs
        .iter()
        .map(|f| std::fs::read(reference_dir.join(f)).unwrap())
        .collect();
    // The run the kills are taken from, over the old files: stopped STOPS_PER_POINT times as
    // often as there are points (at steps of the first run's time), so that points spread
    // over this run's own time (a second run, warm, is often much quicker) each find a state
    // of their own, and a write between two points is seen.
    let frozen_dir = root.join("frozen");
    std::fs::create_dir_all(&frozen_dir).unwrap();
    setup(&frozen_dir);
    write_old(&frozen_dir, &outputs);
    let every = (took / (STOPS_PER_POINT * (points as u32 + 1))).max(Duration::from_millis(1));
    let run = frozen::run(c4(&frozen_dir, &case.args), &frozen_dir, &inputs, every);
    std::fs::remove_dir_all(&frozen_dir).unwrap();
    // Every state taken, not only the points' (a write the points fall beside).
    files::every_state_old_or_whole(case.name, &run, &outputs, &reference, &root.join("scratch"));
    let mut report = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (point, state) in run.spread(points).into_iter().enumerate() {
        let at = state.at;
        let dir = root.join(format!("kill-{}", point + 1));
        std::fs::create_dir_all(&dir).unwrap();
        setup(&dir);
        state.restore(&dir);
        // Its files were checked old or whole with every state above: count the new ones.
        let new = outputs
            .iter()
            .filter(|f| state.file(f).is_some_and(|b| b.as_slice() != OLD))
            .count();
        // The rerun: from the checkpoint the killed run left, or from the start. A killed
        // run that left the very files an earlier kill point left (a kill between the same
        // two writes) would be rerun from the same start to the same end: that rerun is
        // checked once (most kill points of a command fall between the same writes).
        let left_checkpoint = case.checkpoints.iter().any(|c| dir.join(c).exists());
        // How the point went, for the report: when, new files, then how the rerun started.
        let point_note = |rerun: &str| {
            let new = if new > 0 {
                format!(",{new}new")
            } else {
                String::new()
            };
            format!("{:.0}ms{new}{rerun}", at.as_secs_f64() * 1e3)
        };
        if !seen.insert(left_state(&dir)) {
            report.push(point_note(",as-before"));
            std::fs::remove_dir_all(&dir).unwrap();
            continue;
        }
        let mut args = case.args.clone();
        if left_checkpoint {
            args.extend(case.resume.iter().map(|s| s.to_string()));
        }
        let o = c4(&dir, &args).output().unwrap();
        assert!(
            o.status.success(),
            "{} rerun after a kill at {at:?} ({args:?}): {}",
            case.name,
            common::text(&o.stderr)
        );
        check_rerun(case, &dir, &outputs, &reference, at, left_checkpoint);
        report.push(point_note(if left_checkpoint { ",resumed" } else { "" }));
        std::fs::remove_dir_all(&dir).unwrap();
    }
    eprintln!(
        "{}: {} ms uninterrupted ({} ms frozen {} times), {} files; kill points: {}",
        case.name,
        took.as_millis(),
        run.took.as_millis(),
        run.states.len() - 1,
        outputs.len(),
        report.join(" ")
    );
}

/// Puts the old file at every destination.
fn write_old(dir: &Path, outputs: &[PathBuf]) {
    for f in outputs {
        let p = dir.join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, OLD).unwrap();
    }
}

/// Checks what a rerun after a kill at `at` left in `dir`: the compared outputs as the
/// uninterrupted run's, the others whole, no temporary file.
fn check_rerun(
    case: &Case,
    dir: &Path,
    outputs: &[PathBuf],
    reference: &[Vec<u8>],
    at: Duration,
    left_checkpoint: bool,
) {
    for (f, r) in outputs.iter().zip(reference) {
        if !(case.compared)(f) {
            let got = std::fs::read(dir.join(f)).unwrap();
            assert_ne!(
                got,
                OLD,
                "{}: the rerun left {} old",
                case.name,
                f.display()
            );
            if let Err(e) = whole(&dir.join(f), r) {
                panic!(
                    "{}: the rerun's {} is not whole: {e}",
                    case.name,
                    f.display()
                );
            }
            continue;
        }
        let got = std::fs::read(dir.join(f)).unwrap();
        let (got, want) = (comparable(f, &got).unwrap(), comparable(f, r).unwrap());
        let differs_at = got.iter().zip(&want).position(|(a, b)| a != b);
        assert!(
            got == want,
            "{}",
            format!(
                "{} after a kill at {at:?} and a rerun{}: {} differs from the uninterrupted run's near {:?}: {:?} against {:?}",
                case.name,
                if left_checkpoint {
                    " with --resume"
                } else {
                    ""
                },
                f.display(),
                differs_at,
                String::from_utf8_lossy(
                    &got[differs_at.unwrap_or(0).saturating_sub(60)
                        ..got.len().min(differs_at.unwrap_or(0) + 100)]
                ),
                String::from_utf8_lossy(
                    &want[differs_at.unwrap_or(0).saturating_sub(60)
                        ..want.len().min(differs_at.unwrap_or(0) + 100)]
                ),
            )
        );
    }
    let leftovers: Vec<PathBuf> = files(dir)
        .into_iter()
        .filter(|f| f.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "{} left temporary files after its rerun: {leftovers:?}",
        case.name
    );
}

/// A command line's words (no word here holds a space).
fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(String::from).collect()
}

fn repo(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn train_gbt_killed_anywhere() {
    let uci = repo("data/uci/connect-4.data.Z");
    kill_everywhere(
        &Case {
            name: "train-gbt",
            args: words(&format!(
                "train gbt --uci {uci} --max-iter 30 --seed 1 --out m/gbt.bin"
            )),
            resume: &[],
            checkpoints: &[],
            compared: all,
        },
        |_| {},
    );
}

#[test]
fn train_lms_killed_anywhere() {
    kill_everywhere(
        &Case {
            name: "train-lms",
            args: words("train lms --games 3000 --checkpoint-every 500 --seed 2 --out m/lms.bin"),
            resume: &["--resume"],
            checkpoints: &["m/lms.checkpoint", "m/lms.bin.checkpoint"],
            compared: all,
        },
        |_| {},
    );
}

#[test]
fn train_ntuple_killed_anywhere() {
    let bench = repo("data/bench");
    kill_everywhere(
        &Case {
            name: "train-ntuple",
            args: words(&format!(
                // The shipped layout (a 37 MB network, so a kill often lands inside a
                // write), five rounds of 1,600 games, a checkpoint after each and a curve
                // point after four of them.
                "train ntuple --games 8000 --lane-games 100 --seed 2 --threads 2 \
                 --curve-every 2000 --curve-games 10 --curve-perfect 0 --curve-positions 20 \
                 --curve-bench {bench} --checkpoint-every 1600 --out m/nt.bin"
            )),
            resume: &["--resume"],
            checkpoints: &["m/nt.checkpoint"],
            compared: all,
        },
        |_| {},
    );
}

#[test]
fn data_book_killed_anywhere() {
    kill_everywhere(
        &Case {
            name: "data-book",
            // Solved from scratch (no book), with a shared table of 64 MiB: the default
            // sizes it by the number of positions (gigabytes here), whose zeroing alone would
            // take most of the run. The solving takes about a second.
            args: words(
                "data book --no-book --width 6 --height 4 --plies 8 --jobs 2 --tt-mib 8 \
                 --shallow-mib 64 --out book-6x4.bin",
            ),
            resume: &["--resume"],
            checkpoints: &["book-6x4.bin.leaves.partial", "book-6x4.bin.partial"],
            compared: all,
        },
        |_| {},
    );
}

#[test]
fn data_label_killed_anywhere() {
    kill_everywhere(
        &Case {
            name: "data-label",
            // Flushed in chunks of 40 positions (1,024 by default, more than the whole job),
            // so that kills land between the partial file's writes.
            args: words("data label positions.txt --jobs 2 --chunk 40 --out labels.txt"),
            resume: &["--resume"],
            checkpoints: &["labels.txt.partial"],
            compared: all,
        },
        |dir| {
            let text = gz_lines(&repo("data/positions/train.txt.gz"), 400);
            std::fs::write(dir.join("positions.txt"), text).unwrap();
        },
    );
}

#[test]
fn data_label_shard_killed_anywhere() {
    kill_everywhere(
        &Case {
            name: "data-label-shard",
            args: words(
                "data label positions.txt --shard 1/3 --jobs 2 --chunk 25 --out parts/part-1.txt",
            ),
            resume: &["--resume"],
            checkpoints: &["parts/part-1.txt.partial"],
            compared: all,
        },
        |dir| {
            let text = gz_lines(&repo("data/positions/train.txt.gz"), 1500);
            std::fs::write(dir.join("positions.txt"), text).unwrap();
        },
    );
}

#[test]
fn site_killed_anywhere() {
    let models = repo("models");
    kill_everywhere(
        &Case {
            name: "site",
            args: words(&format!("site --models {models} --out site")),
            resume: &[],
            checkpoints: &[],
            compared: all,
        },
        |_| {},
    );
}

#[test]
fn calibrate_killed_anywhere() {
    kill_everywhere(
        &Case {
            name: "calibrate",
            args: words("calibrate --games 2 --skills 0,0.5,1 --seed 1 --out lv/level.json"),
            resume: &[],
            checkpoints: &[],
            compared: |_| false,
        },
        |_| {},
    );
}

#[test]
fn pipeline_killed_anywhere() {
    let root = repo("");
    kill_everywhere(
        &Case {
            name: "pipeline",
            args: words(&format!(
                "pipeline --quick --seed 1 --jobs 2 --out run \
                 --uci {root}/data/uci/connect-4.data.Z --positions {root}/data/positions/train.txt.gz \
                 --heldout {root}/data/positions/heldout.txt.gz --bench {root}/data/bench"
            )),
            resume: &["--resume"],
            checkpoints: &["run/stages"],
            // The data, models, games and grades as the uninterrupted run's; the plots and
            // the report quote times, the evaluation's equal-time match gives the model the
            // time the hand-tuned agent was measured to take, and the stages' records hold
            // checksums of files with times in them.
            compared: |f| {
                let name = f.to_string_lossy();
                !(name.starts_with("run/plots/")
                    || name.starts_with("run/stages/")
                    || name.starts_with("run/evaluate/")
                    || name.ends_with(".png")
                    || name.ends_with(".svg")
                    || name.ends_with(".md"))
            },
        },
        |_| {},
    );
}

/// The first `n` lines of a gzipped text file, positions only (the labels cut off).
fn gz_lines(path: &str, n: usize) -> String {
    use std::io::{BufRead, BufReader};
    let f = std::fs::File::open(path).unwrap();
    BufReader::new(flate2::read::GzDecoder::new(f))
        .lines()
        .take(n)
        .map(|l| {
            l.unwrap()
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_string()
                + "\n"
        })
        .collect()
}
