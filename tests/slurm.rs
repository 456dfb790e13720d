//! deploy/slurm's scripts on a real Slurm: a single-node cluster (munge, slurmctld, slurmd)
//! started in a temporary folder, each script submitted at a tiny size, and each result
//! compared with what the one-machine command makes. Needs Debian's `slurm-wlm` and `munge`
//! (installed by .ci/run) and root (slurmd starts jobs as their users); without them the
//! test fails and says so.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const C4: &str = env!("CARGO_BIN_EXE_c4");

/// The daemons of one single-node cluster, stopped (by their pid files) when dropped, also
/// when the test fails.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
}

impl Cluster {
    fn start() -> Cluster {
        for tool in ["munged", "slurmctld", "slurmd", "sbatch", "sinfo"] {
            assert!(
                which(tool).is_some(),
                "{tool} is not installed: this test needs Debian's slurm-wlm and munge \
                 (apt-get install slurm-wlm munge; .ci/run installs them)"
            );
        }
        // SAFETY: geteuid has no preconditions and only reads the process's user id.
        let root = unsafe { libc::geteuid() } == 0;
        assert!(root, "this test starts slurmd, which must run as root");
        let dir = std::env::temp_dir().join(format!("c4-slurm-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["state", "spool", "log", "work"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let cluster = Cluster {
            conf: dir.join("slurm.conf"),
            dir,
        };
        let d = cluster.dir.display();
        let (ctl, node) = (free_port(), free_port());
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
        std::fs::write(
            &cluster.conf,
            format!(
                "ClusterName=c4test\nSlurmctldHost=localhost\nSlurmUser=root\nSlurmdUser=root\n\
                 AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket={d}/munge.sock\n\
                 StateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\n\
                 SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\n\
                 SlurmctldLogFile={d}/log/slurmctld.log\nSlurmdLogFile={d}/log/slurmd.log\n\
                 SlurmctldPort={ctl}\nSlurmdPort={node}\nProctrackType=proctrack/linuxproc\n\
                 TaskPlugin=task/none\nSelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n\
                 MpiDefault=none\nReturnToService=2\n\
                 NodeName=localhost CPUs={cpus} RealMemory=2000 State=UNKNOWN\n\
                 PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP\n"
            ),
        )
        .unwrap();
        // munge on a socket of its own, so that a munged already running is left alone.
        cluster.daemon(Command::new("munged").args([
            "--force".to_string(),
            format!("--socket={d}/munge.sock"),
            format!("--pid-file={d}/munged.pid"),
            format!("--log-file={d}/log/munged.log"),
            format!("--seed-file={d}/munged.seed"),
        ]));
        cluster.daemon(Command::new("slurmctld").arg("-c"));
        cluster.daemon(Command::new("slurmd").args(["-N", "localhost"]));
        // Wait for the node to be ready for jobs.
        let start = Instant::now();
        loop {
            let out = cluster.run(Command::new("sinfo").args(["-h", "-o", "%t"]));
            let state = String::from_utf8_lossy(&out.stdout).trim().to_string();
            if out.status.success() && state == "idle" {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the Slurm node is not idle after 60 s (state {state:?}); logs in {d}/log:\n{}",
                cluster.logs()
            );
            std::thread::sleep(Duration::from_millis(300));
        }
        cluster
    }

    /// Starts a daemon (it forks and writes its pid file) with this cluster's configuration.
    fn daemon(&self, cmd: &mut Command) {
        let out = self.run(cmd);
        assert!(
            out.status.success(),
            "{cmd:?} failed: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            self.logs()
        );
    }

    fn run(&self, cmd: &mut Command) -> Output {
        cmd.env("SLURM_CONF", &self.conf)
            .output()
            .unwrap_or_else(|e| panic!("{cmd:?}: {e}"))
    }

    fn work(&self) -> PathBuf {
        self.dir.join("work")
    }

    /// Submits `script` (a file of deploy/slurm) from the work folder with `env`, waits for
    /// it (and every task of an array) to finish, and fails with the jobs' output if any
    /// task failed.
    fn submit(&self, script: &str, array: Option<&str>, env: &[(&str, &str)]) {
        let script = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("deploy/slurm")
            .join(script);
        let bin = Path::new(C4).parent().unwrap();
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut cmd = Command::new("sbatch");
        cmd.arg("--wait")
            .arg(format!("--chdir={}", self.work().display()))
            .arg(format!("--output={}/log/%x-%A_%a.out", self.dir.display()))
            // The scripts ask production sizes; this node has 2,000 MB.
            .arg("--mem=400M")
            .arg("--cpus-per-task=1");
        if let Some(a) = array {
            cmd.arg(format!("--array={a}"));
        }
        cmd.arg(&script).env("PATH", path);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = self.run(&mut cmd);
        assert!(
            out.status.success(),
            "sbatch {}: {}{}\njob output:\n{}",
            script.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            self.logs()
        );
    }

    /// Every log and job output of the cluster, for a failure's message.
    fn logs(&self) -> String {
        let mut all = String::new();
        if let Ok(entries) = std::fs::read_dir(self.dir.join("log")) {
            for e in entries.flatten() {
                let text = std::fs::read_to_string(e.path()).unwrap_or_default();
                let tail: Vec<&str> = text.lines().rev().take(15).collect();
                all += &format!("== {}\n", e.path().display());
                for l in tail.iter().rev() {
                    all += l;
                    all.push('\n');
                }
            }
        }
        all
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for name in ["slurmd", "slurmctld", "munged"] {
            let Ok(pid) = std::fs::read_to_string(self.dir.join(format!("{name}.pid"))) else {
                continue;
            };
            let Ok(pid) = pid.trim().parse::<i32>() else {
                continue;
            };
            // SAFETY: kill only sends a signal to the daemon this cluster started.
            unsafe { libc::kill(pid, libc::SIGTERM) };
            let start = Instant::now();
            while Path::new(&format!("/proc/{pid}")).exists()
                && start.elapsed() < Duration::from_secs(10)
            {
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

fn which(tool: &str) -> Option<PathBuf> {
    let path = std::env::var("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin".into(), "/sbin".into()])
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap()
}

/// Runs `c4 ARGS` in `dir` and returns its stdout; fails with its stderr.
fn c4(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(C4)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "c4 {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn read(p: PathBuf) -> Vec<u8> {
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
#[ignore = "needs Slurm and munge (Debian's slurm-wlm, munge): run with --include-ignored"]
fn deploy_slurm_scripts_make_what_one_machine_makes() {
    let cluster = Cluster::start();
    let work = cluster.work();
    let one = cluster.dir.join("one");
    std::fs::create_dir_all(&one).unwrap();

    // Label array + merge: 24 end-game positions of data/bench in 3 shards.
    let bench =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/bench/end-easy"))
            .unwrap();
    let positions: String = bench
        .lines()
        .take(24)
        .map(|l| format!("{}\n", l.split_whitespace().next().unwrap()))
        .collect();
    std::fs::write(work.join("positions.txt"), &positions).unwrap();
    std::fs::write(one.join("positions.txt"), &positions).unwrap();
    cluster.submit("label.sbatch", Some("0-2"), &[]);
    cluster.submit("merge.sbatch", None, &[("SHARDS", "3")]);
    c4(
        &one,
        &["data", "label", "positions.txt", "--out", "labelled.txt"],
    );
    let labelled = read(work.join("labelled.txt"));
    assert_eq!(labelled, read(one.join("labelled.txt")));
    assert_eq!(String::from_utf8_lossy(&labelled).lines().count(), 24);

    // n-tuple runs + pick: two runs of 600 games; a run's weights do not depend on its
    // threads, so the cluster's one-CPU runs must value every position as two threads do.
    let runs = [
        ("GAMES", "600"),
        ("CURVE_PERFECT", "0"),
        ("CURVE_POSITIONS", "0"),
    ];
    cluster.submit("ntuple-runs.sbatch", Some("0-1"), &runs);
    cluster.submit("ntuple-pick.sbatch", None, &[("PICK_GAMES", "2")]);
    std::fs::create_dir_all(one.join("ntuple")).unwrap();
    for k in ["0", "1"] {
        let out = format!("ntuple/run-{k}.bin");
        c4(
            &one,
            &[
                "train",
                "ntuple",
                "--seed",
                k,
                "--games",
                "600",
                "--curve-perfect",
                "0",
                "--curve-positions",
                "0",
                "--threads",
                "2",
                "--out",
                &out,
            ],
        );
    }
    c4(
        &one,
        &[
            "train",
            "ntuple-pick",
            "ntuple/run-0.bin",
            "ntuple/run-1.bin",
            "--by",
            "games",
            "--games",
            "2",
            "--seed",
            "1000",
            "--out",
            "ntuple/best.bin",
        ],
    );
    let predict = |dir: &Path, model: &str| c4(dir, &["predict", model, "positions.txt"]);
    for model in ["ntuple/run-0.bin", "ntuple/run-1.bin", "ntuple/best.bin"] {
        let values = predict(&work, model);
        assert_eq!(values.lines().count(), 25, "a header and 24 values");
        assert_eq!(values, predict(&one, model), "{model}");
    }

    // Book: a 5x4 board's leaves of 4 stones, labelled by the array, merged, made into the
    // book; byte for byte the book one machine makes in one command.
    let board = "--width 5 --height 4";
    std::fs::remove_dir_all(work.join("parts")).unwrap();
    cluster.submit(
        "book-leaves.sbatch",
        None,
        &[("PLIES", "4"), ("BOARD_ARGS", board)],
    );
    cluster.submit(
        "label.sbatch",
        Some("0-1"),
        &[("INPUT", "leaves.txt"), ("LABEL_ARGS", board)],
    );
    let leaves = [
        ("SHARDS", "2"),
        ("INPUT", "leaves.txt"),
        ("OUTPUT", "leaves-labelled.txt"),
    ];
    cluster.submit("merge.sbatch", None, &leaves);
    cluster.submit(
        "book.sbatch",
        None,
        &[("PLIES", "4"), ("BOARD_ARGS", board)],
    );
    c4(
        &one,
        &[
            "data", "book", "--plies", "4", "--width", "5", "--height", "4", "--out", "book.bin",
        ],
    );
    assert_eq!(read(work.join("book.bin")), read(one.join("book.bin")));
}
