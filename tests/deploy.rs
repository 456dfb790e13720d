//! The cluster recipes in deploy/: the Kubernetes manifests parse, their `c4` command lines
//! are valid for the CLI, and running those exact commands (and the Slurm scripts) here for
//! every shard, then merging, gives the file an unsharded run gives. (No Kubernetes, Slurm or
//! Docker engine runs here; the Dockerfile is checked for what it copies and builds.)

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{c4_in, ok, temp_dir};
use std::path::Path;
use std::process::{Command, Output};
use yaml_rust2::{Yaml, YamlLoader};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A small positions file and its unsharded labelling, in `dir`.
fn job_inputs(dir: &Path) -> String {
    let pos = dir.join("positions.txt");
    let args: Vec<String> = [
        "data",
        "positions",
        "--plies",
        "20..26",
        "--count",
        "35",
        "--seed",
        "9",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([pos.display().to_string()])
    .collect();
    ok(&c4_in(dir, &args), "data positions");
    let whole = dir.join("whole.txt");
    let args: Vec<String> = ["data", "label", "positions.txt", "--out", "whole.txt"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    ok(&c4_in(dir, &args), "unsharded label");
    std::fs::read_to_string(whole).unwrap()
}

/// A manifest of deploy/k8s.
fn manifest(file: &str) -> Yaml {
    let text = std::fs::read_to_string(root().join("deploy/k8s").join(file)).unwrap();
    YamlLoader::load_from_str(&text).unwrap().remove(0)
}

/// Runs a Job's pod `index` as Kubernetes would start it, with the shared volume a folder
/// here: its script by `sh -c` in `dir` (its workingDir is the volume), its env entries
/// (`overrides` replacing some) and JOB_COMPLETION_INDEX.
fn run_pod(job: &Yaml, dir: &Path, index: usize, overrides: &[(&str, &str)]) -> Output {
    let spec = &job["spec"]["template"]["spec"];
    let c = &spec["containers"][0];
    assert_eq!(c["workingDir"].as_str(), Some("/jobs"));
    assert_eq!(c["volumeMounts"][0]["mountPath"].as_str(), Some("/jobs"));
    let command: Vec<&str> = c["command"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(command, ["sh", "-c"]);
    let script = c["args"][0].as_str().unwrap();
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(script)
        .env("PATH", c4_path())
        .env("JOB_COMPLETION_INDEX", index.to_string())
        .current_dir(dir);
    for e in c["env"].as_vec().unwrap() {
        cmd.env(e["name"].as_str().unwrap(), e["value"].as_str().unwrap());
    }
    for (k, v) in overrides {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// Runs a Slurm script of deploy/slurm as array task `index` would run, in `dir`.
fn run_task(script: &str, dir: &Path, index: usize, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new("bash");
    cmd.arg(root().join("deploy/slurm").join(script))
        .env("PATH", c4_path())
        .env("SLURM_ARRAY_TASK_ID", index.to_string())
        .env("SLURM_CPUS_PER_TASK", "2")
        .current_dir(dir);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// Runs c4 in `dir`, asserts that it fails, and returns what it printed on stderr.
fn refused(dir: &Path, args: &[&str]) -> String {
    let out = c4_in(dir, args);
    assert!(!out.status.success(), "c4 {args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn the_manifests_and_scripts_are_the_ones_jobs_toml_describes() {
    let out = Command::new(env!("CARGO_BIN_EXE_c4"))
        .args(["deploy", "--check"])
        .current_dir(root())
        .output()
        .unwrap();
    ok(&out, "c4 deploy --check");
    // Written elsewhere, the files are those committed, and a changed description is
    // caught by --check.
    let dir = temp_dir("deploy-write");
    let jobs = root().join("deploy/jobs.toml");
    let args: Vec<String> = [
        "deploy",
        "--from",
        &jobs.display().to_string(),
        "--out",
        ".",
    ]
    .map(String::from)
    .to_vec();
    ok(&c4_in(&dir, &args), "c4 deploy");
    for sub in ["k8s", "slurm"] {
        for e in std::fs::read_dir(root().join("deploy").join(sub)).unwrap() {
            let e = e.unwrap();
            assert_eq!(
                std::fs::read(e.path()).unwrap(),
                std::fs::read(dir.join(sub).join(e.file_name())).unwrap(),
                "{sub}/{:?}",
                e.file_name()
            );
        }
    }
    let text = std::fs::read_to_string(&jobs)
        .unwrap()
        .replace("shards = 8", "shards = 6");
    std::fs::write(dir.join("jobs.toml"), text).unwrap();
    let err = refused(
        &dir,
        &["deploy", "--from", "jobs.toml", "--out", ".", "--check"],
    );
    assert!(
        err.contains("k8s/label-job.yaml differs") && err.contains("slurm/merge.sbatch differs"),
        "{err}"
    );
    // A description that cannot be made is refused, naming the file and the reason.
    std::fs::write(dir.join("bad.toml"), "image = \"x\"\n").unwrap();
    let err = refused(&dir, &["deploy", "--from", "bad.toml", "--out", "."]);
    assert!(
        err.contains("bad.toml") && err.contains("missing field"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn kubernetes_indexed_job_shards_and_merges_to_the_unsharded_file() {
    let label = manifest("label-job.yaml");
    assert_eq!(label["kind"].as_str(), Some("Job"));
    assert_eq!(label["spec"]["completionMode"].as_str(), Some("Indexed"));
    let n = label["spec"]["completions"].as_i64().unwrap() as usize;
    assert!(label["spec"]["parallelism"].as_i64().unwrap() >= 1);
    let merge = manifest("merge-job.yaml");

    // The pods' exact scripts and settings, with the shared volume /jobs a folder here.
    let dir = temp_dir("k8s");
    let whole = job_inputs(&dir);
    for i in 0..n {
        ok(&run_pod(&label, &dir, i, &[]), &format!("pod {i}"));
    }
    ok(&run_pod(&merge, &dir, 0, &[]), "merge job");
    assert_eq!(
        std::fs::read_to_string(dir.join("labelled.txt")).unwrap(),
        whole
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn slurm_array_scripts_shard_and_merge_to_the_unsharded_file() {
    let label = std::fs::read_to_string(root().join("deploy/slurm/label.sbatch")).unwrap();
    // The shard count is the array's size, 8 by default (outside Slurm).
    let shards: usize = label
        .lines()
        .find_map(|l| l.strip_prefix("TASKS=${SLURM_ARRAY_TASK_COUNT:-"))
        .and_then(|l| l.strip_suffix('}'))
        .unwrap()
        .parse()
        .unwrap();
    let array = label
        .lines()
        .find_map(|l| l.strip_prefix("#SBATCH --array="))
        .unwrap();
    assert_eq!(array, format!("0-{}", shards - 1), "array and TASKS agree");
    let merge = std::fs::read_to_string(root().join("deploy/slurm/merge.sbatch")).unwrap();
    assert!(merge.contains(&format!("SHARDS=${{SHARDS:-{shards}}}")));
    // The scripts themselves, with c4 on the PATH, as Slurm would start them.
    let dir = temp_dir("slurm");
    let whole = job_inputs(&dir);
    for i in 0..shards {
        ok(
            &run_task("label.sbatch", &dir, i, &[]),
            &format!("array task {i}"),
        );
    }
    ok(&run_task("merge.sbatch", &dir, 0, &[]), "merge script");
    assert_eq!(
        std::fs::read_to_string(dir.join("labelled.txt")).unwrap(),
        whole
    );
    // The unsharded run is one complete shard: merging it alone into a .gz file gives the
    // same lines, compressed (how data/positions/ is made).
    let args: Vec<String> = ["data", "merge", "whole.txt", "--out", "whole.txt.gz"]
        .map(String::from)
        .to_vec();
    ok(&c4_in(&dir, &args), "merge to gzip");
    assert_eq!(
        connect4_learn::datasets::labelled::read_text(&dir.join("whole.txt.gz")).unwrap(),
        whole
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The n-tuple recipe's runs and pick, as a Kubernetes Indexed Job and a Slurm array: the
/// runs' scripts train here, one seed per index, with few games and no matches against the
/// perfect player (those solve positions for minutes in a test build); the pick's script is
/// run where there are no runs, and the CLI refuses it only for the missing candidates.
#[test]
fn ntuple_runs_train_one_seed_per_index_and_the_pick_command_is_valid() {
    let small = [
        ("GAMES", "600"),
        ("CURVE_PERFECT", "0"),
        ("CURVE_POSITIONS", "0"),
        ("PICK_GAMES", "2"),
    ];
    let runs = manifest("ntuple-runs-job.yaml");
    assert_eq!(runs["spec"]["completionMode"].as_str(), Some("Indexed"));
    let env: Vec<&str> = runs["spec"]["template"]["spec"]["containers"][0]["env"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        env,
        [
            "TASKS",
            "CPUS",
            "GAMES",
            "CURVE_PERFECT",
            "CURVE_POSITIONS",
            "BENCH"
        ]
    );
    let dir = temp_dir("k8s-ntuple");
    let mut seeds = Vec::new();
    for i in 0..2 {
        ok(&run_pod(&runs, &dir, i, &small), &format!("run pod {i}"));
        let net = dir.join(format!("ntuple/run-{i}.bin"));
        let f = connect4_engine::ml::model_file::load_ntuple(&net, None).unwrap();
        seeds.push(f.header.meta.seed);
    }
    assert_eq!(seeds, [0, 1], "one seed per index");
    let empty = temp_dir("k8s-pick");
    let out = run_pod(&manifest("ntuple-pick-job.yaml"), &empty, 0, &small);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("candidate") && err.contains("run-*.bin"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&empty).unwrap();

    // Slurm: the script, with the small sizes in the environment; without GAMES, a run
    // trains the recipe's games (checked on the script's text: 7M games take minutes).
    let dir = temp_dir("slurm-ntuple");
    for i in 0..2 {
        ok(
            &run_task("ntuple-runs.sbatch", &dir, i, &small),
            &format!("array task {i}"),
        );
        assert!(dir.join(format!("ntuple/run-{i}.bin")).is_file());
    }
    let script = std::fs::read_to_string(root().join("deploy/slurm/ntuple-runs.sbatch")).unwrap();
    assert!(script.contains("GAMES=${GAMES:-}\n") && script.contains("${GAMES:+--games"));
    ok(&run_task("ntuple-pick.sbatch", &dir, 0, &small), "pick");
    assert!(dir.join("ntuple/best.bin").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// PATH with the built `c4` first.
fn c4_path() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_c4")).parent().unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn the_dockerfile_builds_c4_and_ships_the_data() {
    let text = std::fs::read_to_string(root().join("deploy/Dockerfile")).unwrap();
    let froms = text.lines().filter(|l| l.starts_with("FROM ")).count();
    assert_eq!(froms, 2, "multi-stage: build, then runtime");
    assert!(text.contains("cargo build --release --locked --bin c4"));
    for path in ["data", "models"] {
        assert!(text.contains(&format!("COPY {path} ")), "{path} not copied");
        assert!(root().join(path).is_dir());
    }
    assert!(text.contains("ENTRYPOINT [\"c4\"]"));
}
