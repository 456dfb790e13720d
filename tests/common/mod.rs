//! Helpers shared by the integration tests: running `c4` and reading what it printed,
//! temporary folders, a server to talk to, and where the data lies ([`data`], a file the
//! engine's and learn's tests include too).

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs the `c4` binary from the repository root.
pub fn c4(args: &[&str]) -> Output {
    c4_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// Runs the `c4` binary in `dir`.
pub fn c4_in<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_c4"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("c4 runs")
}

/// Runs the `c4` binary from the repository root with `stdin` as its standard input. A
/// program that stops before reading its input (a refused flag) closes the pipe: that is
/// not the test's failure, the output says what happened.
pub fn c4_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_c4"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("c4 runs");
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    if let Err(e) = written {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing to c4: {e}"
        );
    }
    child.wait_with_output().unwrap()
}

/// Bytes a command printed, as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Everything a command printed: standard output, then standard error.
pub fn both(o: &Output) -> String {
    format!("{}{}", text(&o.stdout), text(&o.stderr))
}

/// Asserts that a command succeeded (showing what it printed if not) and returns its
/// standard output.
pub fn ok(out: &Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what} failed:\nstdout: {}\nstderr: {}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// A temporary folder owned by one test: removed when the test passes, kept when it panics
/// so that what the failing command wrote can be inspected.
pub struct TempDir(PathBuf);

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A new, empty temporary folder for one test (named after the process and `name`).
pub fn temp_dir(name: &str) -> TempDir {
    let d = std::env::temp_dir().join(format!("c4-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    TempDir(d)
}

/// A path as `&str`, for argument lists (test paths are UTF-8).
pub fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

mod data;
#[allow(unused_imports)] // each test binary uses what it needs
pub use data::*;

/// A child process that is killed when dropped, so a failing test leaves nothing running.
pub struct Killed(pub std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `c4 serve --addr 127.0.0.1:0 ARGS...` with stderr going to `stderr`, and waits for
/// its first line, "listening on URL". Returns the process and the URL without a trailing
/// slash.
pub fn spawn_serve<S: AsRef<std::ffi::OsStr>>(
    args: &[S],
    stderr: std::process::Stdio,
) -> (Killed, String) {
    use std::io::{BufRead, BufReader};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_c4"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("start c4 serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped stdout"))
        .read_line(&mut line)
        .expect("read the first line of c4 serve");
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .trim_end_matches('/')
        .to_string();
    (Killed(child), url)
}

/// A `c4 serve` server in this process on a free loopback port, running on its own thread
/// (a two-worker runtime) until the test ends.
pub fn serve_in_process(config: connect4_ml::serve::ServeConfig) -> std::net::SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            connect4_ml::serve::serve(listener, config).await.unwrap();
        });
    });
    rx.recv().unwrap()
}
