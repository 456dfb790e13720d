//! The cluster recipes in deploy/: the Kubernetes manifests parse, their `c4` command lines
//! are valid for the CLI, and running those exact commands (and the Slurm scripts) here for
//! every shard, then merging, gives the file an unsharded run gives. (No Kubernetes, Slurm or
//! Docker engine runs here; the Dockerfile is checked for what it copies and builds.)

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

mod common;

use common::{c4_in, ok, temp_dir};
use std::path::Path;
use std::process::Command;
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

fn container(doc: &Yaml) -> &Yaml {
    &doc["spec"]["template"]["spec"]["containers"][0]
}

fn args_of(c: &Yaml) -> Vec<String> {
    c["args"]
        .as_vec()
        .expect("args")
        .iter()
        .map(|a| match a {
            Yaml::String(s) => s.clone(),
            Yaml::Integer(i) => i.to_string(),
            other => panic!("arg {other:?}"),
        })
        .collect()
}

#[test]
fn kubernetes_indexed_job_shards_and_merges_to_the_unsharded_file() {
    let load = |f: &str| {
        let text = std::fs::read_to_string(root().join("deploy/k8s").join(f)).unwrap();
        YamlLoader::load_from_str(&text).unwrap().remove(0)
    };
    let label = load("label-job.yaml");
    assert_eq!(label["kind"].as_str(), Some("Job"));
    assert_eq!(label["spec"]["completionMode"].as_str(), Some("Indexed"));
    let n = label["spec"]["completions"].as_i64().unwrap() as usize;
    assert!(label["spec"]["parallelism"].as_i64().unwrap() >= 1);
    let c = container(&label);
    assert_eq!(c["command"][0].as_str(), Some("c4"));
    let args = args_of(c);
    let shard = args.iter().position(|a| a == "--shard").unwrap();
    assert_eq!(args[shard + 1], format!("$(JOB_COMPLETION_INDEX)/{n}"));
    assert!(args.contains(&"--resume".to_string()));
    let merge = load("merge-job.yaml");
    let margs = args_of(container(&merge));
    assert_eq!(&margs[..2], ["data", "merge"]);
    assert_eq!(
        margs
            .iter()
            .filter(|a| a.starts_with("/jobs/parts/"))
            .count(),
        n,
        "the merge job names every part"
    );

    // The exact command lines, with the shared volume /jobs mapped to a folder here.
    let dir = temp_dir("k8s");
    let whole = job_inputs(&dir);
    let work = dir.display().to_string();
    std::fs::create_dir_all(dir.join("parts")).unwrap();
    for i in 0..n {
        let run: Vec<String> = args
            .iter()
            .map(|a| {
                a.replace("$(JOB_COMPLETION_INDEX)", &i.to_string())
                    .replace("/jobs", &work)
            })
            .collect();
        ok(&c4_in(&dir, &run), &format!("pod {i}"));
    }
    let run: Vec<String> = margs.iter().map(|a| a.replace("/jobs", &work)).collect();
    ok(&c4_in(&dir, &run), "merge job");
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
        .find_map(|l| l.strip_prefix("SHARDS=${SLURM_ARRAY_TASK_COUNT:-"))
        .and_then(|l| l.strip_suffix('}'))
        .unwrap()
        .parse()
        .unwrap();
    let array = label
        .lines()
        .find_map(|l| l.strip_prefix("#SBATCH --array="))
        .unwrap();
    assert_eq!(array, format!("0-{}", shards - 1), "array and SHARDS agree");
    let merge = std::fs::read_to_string(root().join("deploy/slurm/merge.sbatch")).unwrap();
    assert!(merge.contains(&format!("SHARDS=${{SHARDS:-{shards}}}")));
    // The scripts themselves, with c4 on the PATH, as Slurm would start them.
    let dir = temp_dir("slurm");
    let whole = job_inputs(&dir);
    let bin = Path::new(env!("CARGO_BIN_EXE_c4")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for i in 0..shards {
        let out = Command::new("bash")
            .arg(root().join("deploy/slurm/label.sbatch"))
            .env("PATH", &path)
            .env("SLURM_ARRAY_TASK_ID", i.to_string())
            .env("SLURM_CPUS_PER_TASK", "2")
            .current_dir(&dir)
            .output()
            .unwrap();
        ok(&out, &format!("array task {i}"));
    }
    let out = Command::new("bash")
        .arg(root().join("deploy/slurm/merge.sbatch"))
        .env("PATH", &path)
        .current_dir(&dir)
        .output()
        .unwrap();
    ok(&out, "merge script");
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
        connect4_ml::datasets::labelled::read_text(&dir.join("whole.txt.gz")).unwrap(),
        whole
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The n-tuple recipe's runs and pick, as a Kubernetes Indexed Job and a Slurm array: the
/// runs' exact command lines (and script) train here, one seed per index, with few games and
/// no matches against the perfect player (those solve positions for minutes in a test
/// build); the pick's command line is checked against the CLI, which refuses it only for
/// the missing candidates.
#[test]
fn ntuple_runs_train_one_seed_per_index_and_the_pick_command_is_valid() {
    let small = [
        ("GAMES", "600"),
        ("CURVE_PERFECT", "0"),
        ("CURVE_POSITIONS", "0"),
        ("PICK_GAMES", "2"),
    ];
    let subst = |a: &str, work: &str, i: usize| {
        small.iter().fold(
            a.replace("$(JOB_COMPLETION_INDEX)", &i.to_string())
                .replace("/jobs", work),
            |a, (k, v)| a.replace(&format!("$({k})"), v),
        )
    };
    let load = |f: &str| {
        let text = std::fs::read_to_string(root().join("deploy/k8s").join(f)).unwrap();
        YamlLoader::load_from_str(&text).unwrap().remove(0)
    };
    let runs = load("ntuple-runs-job.yaml");
    assert_eq!(runs["spec"]["completionMode"].as_str(), Some("Indexed"));
    let c = container(&runs);
    let env: Vec<&str> = c["env"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(env, ["GAMES", "CURVE_PERFECT", "CURVE_POSITIONS"]);
    assert_eq!(
        c["env"][0]["value"].as_str(),
        Some(
            connect4_ml::train::ntuple::NTupleConfig::default()
                .games
                .to_string()
                .as_str()
        ),
        "the manifest trains the shipped recipe's games"
    );
    let args = args_of(c);
    let dir = temp_dir("k8s-ntuple");
    let work = dir.display().to_string();
    std::fs::create_dir_all(dir.join("ntuple")).unwrap();
    let mut seeds = Vec::new();
    for i in 0..2 {
        let run: Vec<String> = args.iter().map(|a| subst(a, &work, i)).collect();
        ok(&c4_in(&dir, &run), &format!("run pod {i}"));
        let net = dir.join(format!("ntuple/run-{i}.bin"));
        let f = connect4_ml::ml::model_file::load_ntuple(&net, None).unwrap();
        seeds.push(f.header.meta.seed);
    }
    assert_eq!(seeds, [0, 1], "one seed per index");
    let pick = load("ntuple-pick-job.yaml");
    let line = subst(&args_of(container(&pick))[0], "/nonexistent-c4-jobs", 0);
    let out = Command::new("sh")
        .arg("-c")
        .arg(&line)
        .env("PATH", c4_path())
        .current_dir(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("candidate") && err.contains("run-*.bin"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();

    // Slurm: the script, with the small sizes in the environment.
    let dir = temp_dir("slurm-ntuple");
    for i in 0..2 {
        let mut cmd = Command::new("bash");
        cmd.arg(root().join("deploy/slurm/ntuple-runs.sbatch"))
            .env("PATH", c4_path())
            .env("SLURM_ARRAY_TASK_ID", i.to_string())
            .env("SLURM_CPUS_PER_TASK", "2")
            .current_dir(&dir);
        for (k, v) in small {
            cmd.env(k, v);
        }
        ok(&cmd.output().unwrap(), &format!("array task {i}"));
        assert!(dir.join(format!("ntuple/run-{i}.bin")).is_file());
    }
    let pick = std::fs::read_to_string(root().join("deploy/slurm/ntuple-pick.sbatch")).unwrap();
    assert!(pick.contains("c4 train ntuple-pick ntuple/run-*.bin"));
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
