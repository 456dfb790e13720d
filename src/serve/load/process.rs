//! The server a load test starts, and its memory.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// The peak resident memory of process `pid` (Linux's `VmHWM`), MiB.
pub fn peak_rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// A `c4 serve` started for a load test on a free loopback port, stopped when dropped.
pub struct Spawned {
    child: Child,
    /// Its address, `http://127.0.0.1:PORT`.
    pub url: String,
}

impl Spawned {
    /// Starts `exe serve --addr 127.0.0.1:0 ARGS` and reads the address it prints first.
    pub fn start(exe: &Path, args: &[String]) -> std::io::Result<Spawned> {
        let mut child = Command::new(exe)
            .arg("serve")
            .args(["--addr", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let mut line = String::new();
        if let Some(out) = child.stdout.take() {
            BufReader::new(out).read_line(&mut line)?;
        }
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .map(|u| u.trim_end_matches('/').to_string());
        match url {
            Some(url) => Ok(Spawned { child, url }),
            None => {
                let _ = child.kill();
                let _ = child.wait();
                Err(std::io::Error::other(format!(
                    "c4 serve did not start (it printed {:?}); run it alone to see why",
                    line.trim()
                )))
            }
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
