//! Helpers shared by the integration tests: running `c4` and reading what it printed,
//! temporary folders, the location of the shared benchmark data, a naive array model of the
//! game and an exhaustive minimax over it.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]
#![allow(dead_code)]

use std::collections::HashMap;
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

/// The ignore reason of every test that reads Pons' benchmark files (they stay outside the
/// repository, in ../shared/data/pons). `cargo test` in a plain clone skips those tests;
/// `cargo test -- --include-ignored` runs them (CI does).
pub const NEEDS_PONS: &str = "needs Pons' files in ../shared/data/pons: run with --include-ignored";

/// The shared data folder (`../shared/data` from the repository root), read only by tests
/// marked `#[ignore]` (a plain clone has no such folder). Tests that need it fail loudly when
/// it is missing instead of passing without checking anything; with `C4_FORBID_SHARED` set
/// (CI's run of the tests that are not ignored) any read fails, which keeps a plain clone's
/// `cargo test` self-contained.
pub fn shared_data(rel: &str) -> PathBuf {
    assert!(
        std::env::var_os("C4_FORBID_SHARED").is_none(),
        "a test that is not marked #[ignore] reads ../shared/data/{rel}: a plain clone has no \
         ../shared, so mark it #[ignore] or use the repository's data/"
    );
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(rel);
    assert!(
        p.exists(),
        "test data {} is missing: these tests need ../shared/data beside the repository (see ../shared/GUIDE.md)",
        p.display()
    );
    p
}

/// A file of the repository's own data/ (shipped with every clone).
pub fn repo_data(rel: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(rel);
    assert!(
        p.exists(),
        "{} is missing: the repository ships it",
        p.display()
    );
    p
}

/// A plain 2-D array board: 0 empty, 1 first player, 2 second player.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Naive {
    pub w: usize,
    pub h: usize,
    /// cells[col][row], row 0 at the bottom.
    pub cells: Vec<Vec<u8>>,
    pub moves: usize,
}

impl Naive {
    pub fn new(w: usize, h: usize) -> Self {
        Naive {
            w,
            h,
            cells: vec![vec![0; h]; w],
            moves: 0,
        }
    }

    pub fn to_move(&self) -> u8 {
        if self.moves.is_multiple_of(2) { 1 } else { 2 }
    }

    pub fn height_of(&self, col: usize) -> usize {
        self.cells[col].iter().take_while(|&&c| c != 0).count()
    }

    pub fn can_play(&self, col: usize) -> bool {
        col < self.w && self.height_of(col) < self.h
    }

    pub fn play(&mut self, col: usize) {
        let r = self.height_of(col);
        self.cells[col][r] = self.to_move();
        self.moves += 1;
    }

    /// Whether `player` has four in a row anywhere.
    pub fn has_four(&self, player: u8) -> bool {
        let dirs = [(1i32, 0i32), (0, 1), (1, 1), (1, -1)];
        for c in 0..self.w as i32 {
            for r in 0..self.h as i32 {
                for (dc, dr) in dirs {
                    if (0..4).all(|k| {
                        let (cc, rr) = (c + k * dc, r + k * dr);
                        cc >= 0
                            && rr >= 0
                            && cc < self.w as i32
                            && rr < self.h as i32
                            && self.cells[cc as usize][rr as usize] == player
                    }) {
                        return true;
                    }
                }
            }
        }
        false
    }

    pub fn full(&self) -> bool {
        self.moves == self.w * self.h
    }

    fn key(&self) -> u128 {
        self.cells
            .iter()
            .flatten()
            .fold(0u128, |k, &c| k * 3 + c as u128)
    }
}

/// Exact score by exhaustive minimax (no pruning, memoised): the side to move's value with
/// the benchmark convention, `ceil(cells/2) + 1 - k` for a win with the k-th stone.
pub fn minimax(n: &Naive, memo: &mut HashMap<u128, i32>) -> i32 {
    if let Some(&v) = memo.get(&n.key()) {
        return v;
    }
    let best = (0..n.w)
        .filter_map(|col| column_value(n, col, memo))
        .max()
        .unwrap_or(i32::MIN);
    memo.insert(n.key(), best);
    best
}

/// The exact value of playing `col` for the player to move (`None` if the column is full):
/// the win itself, a draw on the last cell, or minus the opponent's minimax value.
pub fn column_value(n: &Naive, col: usize, memo: &mut HashMap<u128, i32>) -> Option<i32> {
    if !n.can_play(col) {
        return None;
    }
    let half = (n.w * n.h).div_ceil(2) as i32;
    let me = n.to_move();
    let mut child = n.clone();
    child.play(col);
    Some(if child.has_four(me) {
        // My k-th stone, k = stones of mine after the move.
        let k = child.cells.iter().flatten().filter(|&&c| c == me).count() as i32;
        half + 1 - k
    } else if child.full() {
        0
    } else {
        -minimax(&child, memo)
    })
}

/// A tiny deterministic generator so tests need no seeding crate.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

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
