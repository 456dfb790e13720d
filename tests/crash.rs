//! Crash consistency, tested the way databases test it: every command that writes is killed
//! with SIGKILL at many points spread over its run (`C4_KILL_POINTS`, 20 by default). After
//! each kill, every destination holds the old file or a whole new one, never part of one;
//! then a rerun (with `--resume` where the command left a checkpoint to resume from) ends
//! with the files of an uninterrupted run: byte for byte, except the measurements of time a
//! report or a curve records of its own run, which are left out of the comparison. No
//! temporary file is left beside a destination once the rerun is done. Kill points that
//! leave the same files behind (between the same two writes) share one rerun: it would
//! start from the same files and end the same way.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What the old file at every destination holds before a killed run.
const OLD: &[u8] = b"the file before this run\n";

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

/// Whether a header or key names a record of the run itself rather than of its result: a
/// measurement of time (different on every run), or how the n-tuple trainer's rounds fell in
/// this process (`sync`: a resumed run counts only its own).
fn timing(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.contains("seconds")
        || n == "ms"
        || n.ends_with("_ms")
        || n.contains("per_second")
        || n.contains("ms_per")
        || n == "sync"
}

/// `bytes` of `file` without the measurements of time: JSON without timing keys, CSV without
/// timing columns, a model file's header without the command line (a rerun's says
/// `--resume`) and timing metrics, anything else as it is.
fn comparable(file: &Path, bytes: &[u8]) -> Result<Vec<u8>, String> {
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    if ext == "bin" && bytes.starts_with(b"C4MODEL") {
        use connect4_engine::io::model_format::ModelParts;
        let parts = ModelParts::open(file, bytes).map_err(|e| e.to_string())?;
        let mut header = parts.header.clone();
        header.meta.command.clear();
        header.meta.metrics.retain(|(k, _)| !timing(k));
        let mut out = format!("{header:?}").into_bytes();
        out.extend_from_slice(parts.body_bytes());
        return Ok(out);
    }
    match ext {
        "json" => {
            fn strip(v: &mut serde_json::Value) {
                match v {
                    serde_json::Value::Object(m) => {
                        m.retain(|k, _| !timing(k));
                        m.values_mut().for_each(strip);
                    }
                    serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
                    _ => {}
                }
            }
            let mut v: serde_json::Value =
                serde_json::from_slice(bytes).map_err(|e| format!("not whole JSON: {e}"))?;
            strip(&mut v);
            Ok(v.to_string().into_bytes())
        }
        "csv" => {
            let text = std::str::from_utf8(bytes).map_err(|e| e.to_string())?;
            if !text.is_empty() && !text.ends_with('\n') {
                return Err("a CSV file cut in a line".into());
            }
            // Quoted fields may hold commas (agent specs): read as CSV, not split on commas.
            let mut rows = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(text.as_bytes());
            let mut out = String::new();
            let mut keep: Vec<bool> = Vec::new();
            for (i, row) in rows.records().enumerate() {
                let row = row.map_err(|e| format!("CSV line {}: {e}", i + 1))?;
                if i == 0 {
                    keep = row.iter().map(|h| !timing(h)).collect();
                }
                let kept: Vec<&str> = row
                    .iter()
                    .zip(&keep)
                    .filter(|(_, k)| **k)
                    .map(|(c, _)| c)
                    .collect();
                out.push_str(&kept.join("\u{1f}"));
                out.push('\n');
            }
            Ok(out.into_bytes())
        }
        _ => Ok(bytes.to_vec()),
    }
}

/// Whether a file a killed run left is whole: a model or book that loads, JSON or CSV that
/// parse to the end; other files must be the uninterrupted run's.
fn whole(path: &Path, reference: &[u8]) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    if bytes == reference {
        return Ok(());
    }
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    if name.ends_with(".bin") && name.starts_with("book") {
        return connect4_engine::solver::book::Book::load(path, None)
            .map(|_| ())
            .map_err(|e| e.to_string());
    }
    if name.ends_with(".bin") {
        return connect4_engine::ml::model_file::load_any(path, None)
            .map(|_| ())
            .map_err(|e| e.to_string());
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some("json" | "csv") => comparable(path, &bytes).map(|_| ()),
        Some("png") if bytes.starts_with(b"\x89PNG") && bytes.ends_with(b"IEND\xaeB`\x82") => {
            Ok(())
        }
        Some("svg")
            if std::str::from_utf8(&bytes).is_ok_and(|t| t.trim_end().ends_with("</svg>")) =>
        {
            Ok(())
        }
        // The pipeline's report: a heading first, its last section closed by a newline.
        Some("md")
            if std::str::from_utf8(&bytes)
                .is_ok_and(|t| t.starts_with("# ") && t.ends_with('\n')) =>
        {
            Ok(())
        }
        _ => Err(format!("{name} differs from the uninterrupted run's")),
    }
}

/// Runs `case` once whole, then kills it at each point and checks what it left and what a
/// rerun makes. `setup` puts the inputs into a fresh folder.
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
    // A second run, warm (files cached, tables paged in), is often much quicker than the
    // first: the kill points spread over the quicker of the two, so they fall inside a run.
    let warm_dir = root.join("warm");
    std::fs::create_dir_all(&warm_dir).unwrap();
    setup(&warm_dir);
    let started = Instant::now();
    let warm = c4(&warm_dir, &case.args).output().unwrap();
    let mut took = if warm.status.success() {
        took.min(started.elapsed())
    } else {
        took
    };
    std::fs::remove_dir_all(&warm_dir).unwrap();
    let outputs: Vec<PathBuf> = files(&reference_dir)
        .into_iter()
        .filter(|f| !inputs.contains(f))
        .collect();
    assert!(!outputs.is_empty(), "{} wrote nothing", case.name);
    let reference: Vec<Vec<u8>> = outputs
        .iter()
        .map(|f| std::fs::read(reference_dir.join(f)).unwrap())
        .collect();
    let mut report = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for point in 1..=points {
        let dir = root.join(format!("kill-{point}"));
        std::fs::create_dir_all(&dir).unwrap();
        setup(&dir);
        for f in &outputs {
            let p = dir.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, OLD).unwrap();
        }
        let at = took.mul_f64(point as f64 / (points + 1) as f64);
        let mut child = common::Killed(c4(&dir, &case.args).spawn().unwrap());
        let started = Instant::now();
        // Wait for the kill time, or for the run to end first: a run quicker than the two
        // measured (other tests ran beside those) ends before its later points, which then
        // spread over the time it took, so that they fall inside a run and wait for nothing.
        while started.elapsed() < at && child.0.try_wait().unwrap().is_none() {
            std::thread::sleep((at - started.elapsed().min(at)).min(Duration::from_millis(5)));
        }
        if child.0.try_wait().unwrap().is_some() {
            took = took.min(started.elapsed());
        }
        // SIGKILL: no handler runs, nothing is cleaned up.
        let _ = child.0.kill();
        let status = child.0.wait().unwrap();
        let mut new = 0;
        for (f, r) in outputs.iter().zip(&reference) {
            let bytes = std::fs::read(dir.join(f)).unwrap_or_else(|e| {
                panic!(
                    "{} killed at {at:?}: {} is gone ({e})",
                    case.name,
                    f.display()
                )
            });
            if bytes != OLD {
                new += 1;
                if let Err(e) = whole(&dir.join(f), r) {
                    panic!(
                        "{} killed at {at:?}: {} is neither the old file nor a whole new one: {e}",
                        case.name,
                        f.display()
                    );
                }
            }
        }
        // The rerun: from the checkpoint the killed run left, or from the start. A killed
        // run that left the very files an earlier kill point left (a kill between the same
        // two writes) would be rerun from the same start to the same end: that rerun is
        // checked once (most kill points of a command fall between the same writes).
        let left_checkpoint = case.checkpoints.iter().any(|c| dir.join(c).exists());
        // How the point went, for the report: when, killed or done, new files, then how the
        // rerun started.
        let point_note = |rerun: &str| {
            let new = if new > 0 {
                format!(",{new}new")
            } else {
                String::new()
            };
            let end = if status.success() { "done" } else { "killed" };
            format!("{:.0}ms:{end}{new}{rerun}", at.as_secs_f64() * 1e3)
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
        for (f, r) in outputs.iter().zip(&reference) {
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
        let leftovers: Vec<PathBuf> = files(&dir)
            .into_iter()
            .filter(|f| f.to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(
            leftovers.is_empty(),
            "{} left temporary files after its rerun: {leftovers:?}",
            case.name
        );
        report.push(point_note(if left_checkpoint { ",resumed" } else { "" }));
        std::fs::remove_dir_all(&dir).unwrap();
    }
    eprintln!(
        "{}: {} ms uninterrupted, {} files; kill points: {}",
        case.name,
        took.as_millis(),
        outputs.len(),
        report.join(" ")
    );
}

/// What a killed run left in `dir`, as far as a rerun can tell: every file's name and
/// bytes, except a temporary file's, whose process id (`.NAME.PID.tmp`) and unfinished bytes
/// a rerun only removes.
fn left_state(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files(dir)
        .into_iter()
        .map(|f| {
            let name = f.to_string_lossy().into_owned();
            match name.strip_suffix(".tmp") {
                Some(stem) => (
                    format!(
                        "{}.tmp",
                        stem.trim_end_matches(|c: char| c.is_ascii_digit())
                    ),
                    Vec::new(),
                ),
                None => {
                    let bytes = std::fs::read(dir.join(&f)).unwrap();
                    (name, bytes)
                }
            }
        })
        .collect()
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

/// A small tmpfs mounted for one test (root only), unmounted when dropped.
struct Mount(PathBuf);

impl Mount {
    /// A fresh 256 KiB tmpfs at `dir`, or a clear failure saying why there is none.
    fn tmpfs(dir: &Path) -> Option<Mount> {
        std::fs::create_dir_all(dir).unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
            .arg(dir)
            .output();
        match out {
            Ok(o) if o.status.success() => Some(Mount(dir.to_path_buf())),
            other => {
                let why = match other {
                    Ok(o) => common::text(&o.stderr),
                    Err(e) => e.to_string(),
                };
                assert!(
                    std::env::var_os("C4_NO_MOUNT").is_some(),
                    "this test mounts a small tmpfs to fill it and make it read-only, and \
                     cannot ({}); run it as root, or set C4_NO_MOUNT=1 to skip it",
                    why.trim()
                );
                eprintln!(
                    "skipped (C4_NO_MOUNT): cannot mount a tmpfs: {}",
                    why.trim()
                );
                None
            }
        }
    }

    fn remount_read_only(&self) {
        let o = Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.0)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", common::text(&o.stderr));
    }

    /// Fills every free byte.
    fn fill(&self) {
        use std::io::Write;
        let mut f = std::fs::File::create(self.0.join("filler")).unwrap();
        let block = vec![0u8; 4096];
        while f.write_all(&block).is_ok() {}
        let _ = f.sync_all();
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).output();
    }
}

/// A full disk and a read-only destination: every writing command fails with a message that
/// names the file and the cause, exits non-zero, leaves the old file as it was and no
/// temporary file beside it.
#[test]
#[ignore = "needs root: mounts a small tmpfs (C4_NO_MOUNT=1 skips it where none can be mounted)"]
fn a_full_disk_or_a_read_only_destination_keeps_the_old_file() {
    let root = common::temp_dir("crash-disk");
    let uci = repo("data/uci/connect-4.data.Z");
    let commands: Vec<(&str, Vec<String>)> = vec![
        (
            "gbt.bin",
            words(&format!(
                "train gbt --uci {uci} --max-iter 5 --seed 1 --out DEST/gbt.bin"
            )),
        ),
        (
            "lms.bin",
            words("train lms --games 200 --seed 1 --out DEST/lms.bin"),
        ),
        (
            "book-6x4.bin",
            words(
                "data book --no-book --width 6 --height 4 --plies 4 --tt-mib 8 \
                 --shallow-mib 16 --out DEST/book-6x4.bin",
            ),
        ),
        ("site/index.html", words("site --out DEST/site")),
    ];
    for full in [true, false] {
        for (file, args) in &commands {
            let dest = root.join(format!("dest-{}", file.replace('/', "-")));
            let Some(mount) = Mount::tmpfs(&dest) else {
                return;
            };
            let old = dest.join(file);
            std::fs::create_dir_all(old.parent().unwrap()).unwrap();
            std::fs::write(&old, OLD).unwrap();
            let cause = if full {
                mount.fill();
                "No space left on device"
            } else {
                mount.remount_read_only();
                "Read-only file system"
            };
            let args: Vec<String> = args
                .iter()
                .map(|a| a.replace("DEST", dest.to_str().unwrap()))
                .collect();
            let o = c4(&root, &args).output().unwrap();
            let said = common::text(&o.stderr);
            assert!(
                !o.status.success(),
                "{args:?} succeeded on a {cause} destination"
            );
            assert!(
                said.contains(cause) && said.contains(dest.to_str().unwrap()),
                "{args:?} ({cause}) should name the file and the cause: {said}"
            );
            assert_eq!(std::fs::read(&old).unwrap(), OLD, "{args:?} ({cause})");
            let leftovers: Vec<PathBuf> = files(&dest)
                .into_iter()
                .filter(|f| f.to_string_lossy().ends_with(".tmp"))
                .collect();
            assert!(
                leftovers.is_empty(),
                "{args:?} ({cause}) left {leftovers:?}"
            );
            drop(mount);
        }
    }
}
