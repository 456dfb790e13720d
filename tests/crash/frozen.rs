//! One run frozen at many instants: what a SIGKILL at each of them would leave, from one run.
//!
//! A kill changes no file: what a killed process leaves behind is exactly what its files held
//! at the instant it died (SIGKILL runs no handler and flushes nothing; what `write` returned
//! is in the files). So rather than start one run per kill point and kill it there, the run
//! is stopped with SIGSTOP (every thread of it, checked in `/proc`), the files it has written
//! are read while it stands still, and it goes on with SIGCONT. One run gives the state of a
//! kill at every point; each state is then put in a folder of its own and checked and rerun
//! as a killed run's folder would be. The run is reaped before any rerun, so a temporary file
//! named by its process id belongs to a process that is gone, as after a kill.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use crate::common;

/// A file's bytes as read at one instant, shared between the instants where it did not change.
pub type Bytes = Arc<Vec<u8>>;

/// What the run's folder held at one instant, its inputs left out.
pub struct State {
    /// How long the run had run when it was stopped (time stopped not counted).
    pub at: Duration,
    /// Every folder (so that an empty one a run made is there too), relative.
    dirs: Vec<PathBuf>,
    /// Every file but the inputs, relative, with its bytes.
    files: Vec<(PathBuf, Bytes)>,
}

impl State {
    /// The bytes of `file` (relative) at this instant, if it was there.
    pub fn file(&self, file: &Path) -> Option<&Bytes> {
        self.files.iter().find(|(f, _)| f == file).map(|(_, b)| b)
    }

    /// Writes the state into `dir`, which already holds the inputs.
    pub fn restore(&self, dir: &Path) {
        for d in &self.dirs {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        for (f, bytes) in &self.files {
            std::fs::write(dir.join(f), bytes.as_slice()).unwrap();
        }
    }
}

/// A whole run and the states it passed through.
pub struct Run {
    /// How long it ran, time stopped not counted.
    pub took: Duration,
    /// The folder before the run started, then at every stop, in order.
    pub states: Vec<State>,
}

impl Run {
    /// The states a kill at `points` instants spread evenly over the run would leave: for
    /// each instant, the last state taken at or before it.
    pub fn spread(&self, points: usize) -> Vec<&State> {
        (1..=points)
            .map(|k| {
                let instant = self.took.mul_f64(k as f64 / (points + 1) as f64);
                self.states
                    .iter()
                    .rev()
                    .find(|s| s.at <= instant)
                    .unwrap_or(&self.states[0])
            })
            .collect()
    }
}

/// Runs `command` in `dir` to its end, stopping it every `every` of its running time to take
/// what `dir` holds (less `inputs`). Panics, with its stderr, if the run fails.
pub fn run(mut command: Command, dir: &Path, inputs: &[PathBuf], every: Duration) -> Run {
    let mut cache = HashMap::new();
    let mut states = vec![capture(dir, inputs, &mut cache, Duration::ZERO)];
    command.stderr(std::process::Stdio::piped());
    let mut child = common::Killed(command.spawn().unwrap());
    // Read stderr beside the run: a full pipe would block it.
    let mut stderr = child.0.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let pid = libc::pid_t::try_from(child.0.id()).unwrap();
    let started = Instant::now();
    let mut stopped = Duration::ZERO;
    let running = |stopped: Duration| started.elapsed().saturating_sub(stopped);
    let status = loop {
        let next = every * u32::try_from(states.len()).unwrap();
        while running(stopped) < next && child.0.try_wait().unwrap().is_none() {
            std::thread::sleep(
                next.saturating_sub(running(stopped))
                    .min(Duration::from_millis(2)),
            );
        }
        if let Some(status) = child.0.try_wait().unwrap() {
            break status;
        }
        let stop = Instant::now();
        let at = running(stopped);
        // SAFETY: signals to our own child, which has not been reaped (try_wait said it
        // runs), so its pid is still its own.
        unsafe { libc::kill(pid, libc::SIGSTOP) };
        if all_stopped(pid) {
            states.push(capture(dir, inputs, &mut cache, at));
        }
        // SAFETY: as above.
        unsafe { libc::kill(pid, libc::SIGCONT) };
        stopped += stop.elapsed();
    };
    let took = running(stopped);
    let stderr = reader.join().unwrap();
    assert!(status.success(), "the frozen run failed: {stderr}");
    Run { took, states }
}

/// Waits until every thread of `pid` is stopped; false if the process ended first.
fn all_stopped(pid: libc::pid_t) -> bool {
    let tasks = PathBuf::from(format!("/proc/{pid}/task"));
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let Ok(entries) = std::fs::read_dir(&tasks) else {
            return false;
        };
        let mut all = true;
        for e in entries.flatten() {
            let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
                continue; // a thread that ended meanwhile
            };
            // "pid (name) S ...": the state follows the name's closing parenthesis.
            let state = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.trim_start().chars().next());
            match state {
                Some('T' | 't') => {}
                Some('Z' | 'X') => return false,
                _ => all = false,
            }
        }
        if all {
            return true;
        }
        assert!(Instant::now() < deadline, "pid {pid} did not stop in 30 s");
        std::thread::sleep(Duration::from_micros(50));
    }
}

/// Reads what `dir` holds, less `inputs`. A file whose inode, length and modification time
/// are those of its last reading is not read again (the atomic writer makes a new inode for
/// every new version; a file written in place grows or is stamped anew).
fn capture(
    dir: &Path,
    inputs: &[PathBuf],
    cache: &mut HashMap<PathBuf, ((u64, u64, SystemTime), Bytes)>,
    at: Duration,
) -> State {
    use std::os::unix::fs::MetadataExt;
    let mut state = State {
        at,
        dirs: Vec::new(),
        files: Vec::new(),
    };
    let mut pending = vec![PathBuf::new()];
    while let Some(rel) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(dir.join(&rel)) else {
            continue;
        };
        for e in entries.flatten() {
            let path = rel.join(e.file_name());
            // A file renamed or removed between the listing and its reading cannot be: the
            // run stands still.
            let meta = std::fs::symlink_metadata(dir.join(&path)).unwrap();
            if meta.is_dir() {
                state.dirs.push(path.clone());
                pending.push(path);
                continue;
            }
            if inputs.contains(&path) {
                continue;
            }
            // A temporary file's unfinished bytes are not kept: a rerun only removes it (the
            // atomic writer removes a dead writer's temporary files whatever they hold).
            if path.to_string_lossy().ends_with(".tmp") {
                state.files.push((path, Arc::new(Vec::new())));
                continue;
            }
            let key = (meta.ino(), meta.len(), meta.modified().unwrap());
            let bytes = match cache.get(&path) {
                Some((k, b)) if *k == key => b.clone(),
                _ => {
                    let b = Arc::new(std::fs::read(dir.join(&path)).unwrap());
                    cache.insert(path.clone(), (key, b.clone()));
                    b
                }
            };
            state.files.push((path, bytes));
        }
    }
    state
}
