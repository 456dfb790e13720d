//! The training pipeline end to end: `c4 pipeline --quick` (with and without the UCI file,
//! and stopped by a failing stage), the notebooks executed on its output, `c4 train lms`,
//! `c4 plot`, and the model-backed agent specs.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{c4, ok, s, temp_dir};
use std::path::Path;
use std::process::Command;

/// The pipeline arguments of the one quick run the tests below share (`--out` aside).
fn quick_args() -> Vec<String> {
    quick_args_seeded("3")
}

/// The shared run's arguments with another seed.
fn quick_args_seeded(seed: &str) -> Vec<String> {
    let uci = common::repo_data("uci/connect-4.data.Z");
    let pons = common::repo_data("bench");
    [
        "--quick",
        "--seed",
        seed,
        "--uci",
        s(&uci),
        "--pons",
        s(&pons),
    ]
    .iter()
    .map(|a| a.to_string())
    .collect()
}

/// One `c4 pipeline --quick` run shared by the tests that read it, made on first use. Its
/// folder's name holds `,` and `=`, the characters of agent specs: the run's model agents
/// must still load their models.
fn quick_run() -> &'static Path {
    static RUN: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    RUN.get_or_init(|| {
        let run = temp_dir("quick").join("run,seed=3");
        let mut args = vec!["pipeline".to_string(), "--out".into(), s(&run).into()];
        args.extend(quick_args());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let stdout = ok(&c4(&args), "c4 pipeline --quick");
        assert!(stdout.contains("report:"), "{stdout}");
        run
    })
}

#[test]
fn quick_pipeline_writes_every_stage_and_its_report() {
    let run = quick_run();
    for f in [
        "data/selfplay.csv",
        "models/lms.bin",
        "models/lms.curve.csv",
        "models/lms.eval.csv",
        "models/gbt.bin",
        "models/gbt.curve.csv",
        "models/gbt.importance.csv",
        "models/gbt.phases.csv",
        "models/ntuple.bin",
        "models/ntuple.curve.csv",
        "models/ntuple.report.json",
        "models/lms.supervised.json",
        "evaluate/evaluate.json",
        "evaluate/score.png",
        "ladder/summary.json",
        "ladder/games.csv",
        "detail/summary.json",
        "bench/error_rates.json",
        "bench/moves.csv",
        "plots/lms_error.png",
        "plots/lms_weights.svg",
        "plots/lms_score.png",
        "plots/gbt_loss.png",
        "plots/gbt_accuracy.png",
        "plots/gbt_importance.png",
        "plots/ladder_elo.png",
        "plots/error_rates.svg",
        "report.md",
    ] {
        assert!(run.join(f).is_file(), "{f} missing");
    }
    let report = std::fs::read_to_string(run.join("report.md")).unwrap();
    for want in [
        "063152e6eadbb424c7ef4645df76e493a43812edd9c992400983da4fa54f8cba",
        "## LMS weights",
        "## GBT",
        "## n-tuple network",
        "in AlphaZero.jl's layout",
        "| ntuple |",
        "## Tournament ladder",
        "| perfect |",
        "| hybrid |",
        "## Error rates against the solver",
        "Supervised start: the LMS rule on 18000 labelled positions",
        "`cells+oddeven` features",
        "| 10-36 | 2000 |",
        "## Against the hand-tuned agent",
        "(plots/ladder_elo.png)",
        "| total |",
    ] {
        assert!(report.contains(want), "report lacks {want}:\n{report}");
    }
    assert!(!report.contains("Run stopped"), "{report}");
}

#[test]
fn quick_pipeline_results_rank_the_agents_sensibly() {
    let run = quick_run();
    // The ladder has all nine agents; every graded agent has three files of five moves.
    let read_json = |f: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(run.join(f)).unwrap()).unwrap()
    };
    assert_eq!(
        read_json("ladder/summary.json")["agents"]
            .as_array()
            .unwrap()
            .len(),
        9
    );
    // The learned agents against the hand-tuned one, at equal depth and on its time.
    let evaluation = read_json("evaluate/evaluate.json");
    assert_eq!(evaluation["baseline"], "handtuned:depth=3");
    let evaluated = evaluation["agents"].as_array().unwrap();
    assert_eq!(evaluated.len(), 4);
    for a in evaluated {
        assert_eq!(a["vs_baseline"]["games"], 10);
        assert!(a["equal_time"]["agent"].as_str().unwrap().ends_with("ms"));
    }
    assert_eq!(
        read_json("bench/error_rates.json")
            .as_array()
            .unwrap()
            .len(),
        8 * 3
    );
    // Results, not only files: the oracle tops the ladder and random play ends it.
    let ladder = read_json("ladder/summary.json");
    let elo: Vec<(String, f64)> = ladder["elo"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["agent"].as_str().unwrap().to_string(),
                e["elo"].as_f64().unwrap(),
            )
        })
        .collect();
    let top = elo.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
    let bottom = elo.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
    assert_eq!(
        (top.0.as_str(), bottom.0.as_str()),
        ("perfect", "random"),
        "{elo:?}"
    );
    // Error rates against the solver: random errs most, and more than easy; no rate is
    // outside [0, 1].
    let rates = read_json("bench/error_rates.json");
    let mean_rate = |agent: &str| {
        let v: Vec<f64> = rates
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["agent"] == agent)
            .map(|r| r["error_rate"].as_f64().unwrap())
            .collect();
        assert_eq!(v.len(), 3, "{agent}: one rate per set");
        assert!(v.iter().all(|r| (0.0..=1.0).contains(r)), "{agent}: {v:?}");
        v.iter().sum::<f64>() / 3.0
    };
    let (random, easy, hard) = (mean_rate("random"), mean_rate("easy"), mean_rate("hard"));
    assert!(
        random > easy && random > hard,
        "random {random}, easy {easy}, hard {hard}"
    );
}

#[test]
fn the_quick_runs_models_play_as_agents_from_a_folder_with_commas() {
    let run = quick_run();
    // The trained models play as agents.
    let lms = format!("lms:\"{}\",depth=2", run.join("models/lms.bin").display());
    let gbt = format!("model:\"{}\",depth=2", run.join("models/gbt.bin").display());
    let hyb = format!(
        "hybrid:model=\"{}\",depth=2,rollouts=20",
        run.join("models/gbt.bin").display()
    );
    let t = temp_dir("quick-models").join("t");
    ok(
        &c4(&[
            "tournament",
            "--agents",
            &lms,
            &gbt,
            &hyb,
            "--games",
            "2",
            "--out",
            s(&t),
        ]),
        "tournament of the run's models",
    );
}

#[test]
#[ignore = "needs Python with notebooks/requirements.txt and the connect4_ml wheel (C4_PYTHON): run with --include-ignored"]
fn the_notebooks_run_on_the_quick_run() {
    let run = quick_run();
    // The notebooks execute on the run (CI installs notebooks/requirements.txt; C4_PYTHON
    // names the interpreter that has them).
    let python = std::env::var("C4_PYTHON").unwrap_or_else(|_| "python3".into());
    let probe = Command::new(&python)
        .args([
            "-c",
            "import pandas, matplotlib, nbclient, nbformat, ipykernel, sklearn, pyspiel, connect4_ml",
        ])
        .output();
    let have = probe.as_ref().is_ok_and(|o| o.status.success());
    assert!(
        have,
        "the notebook test needs Python with the notebooks' requirements and the package: \
         `pip install -r notebooks/requirements.txt -r python/requirements-test.txt ./python`, \
         or set C4_PYTHON to such an interpreter \
         ({python}: {})",
        probe.map_or_else(
            |e| e.to_string(),
            |o| String::from_utf8_lossy(&o.stderr).into_owned()
        )
    );
    let nb = Command::new(&python)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("notebooks/run_notebooks.py"))
        .arg(run)
        // The other tests share the cores: OpenMP threads (scikit-learn in notebook 04) that
        // spin-wait for a busy core slow a fit from seconds to minutes.
        .env("OMP_NUM_THREADS", "1")
        .output()
        .unwrap();
    let text = ok(&nb, "notebooks");
    for name in [
        "01_learning_curves",
        "02_tournament_and_elo",
        "03_evaluator_quality",
        "04_python_package",
    ] {
        assert!(text.contains(&format!("{name}.ipynb: executed")), "{text}");
    }
}

#[test]
fn a_fresh_copy_of_the_repository_runs_the_quick_pipeline_on_its_own_data() {
    // Every file git tracks, copied to a folder with nothing beside it (no ../shared).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let listed = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .expect("this test needs git to list the repository's tracked files");
    assert!(
        listed.status.success() && !listed.stdout.is_empty(),
        "this test needs a git checkout: `git ls-files` failed: {}",
        String::from_utf8_lossy(&listed.stderr)
    );
    let dir = temp_dir("fresh");
    let copy = dir.join("clone");
    for name in listed.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let rel = Path::new(std::str::from_utf8(name).unwrap());
        let from = root.join(rel);
        if !from.is_file() {
            continue; // deleted in the work tree but not yet in git
        }
        let to = copy.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&from, &to).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_c4"))
        .args(["pipeline", "--quick", "--out", "runs/fresh"])
        .current_dir(&copy)
        .output()
        .unwrap();
    ok(&out, "c4 pipeline --quick in a fresh copy");
    let report = std::fs::read_to_string(copy.join("runs/fresh/report.md")).unwrap();
    assert!(
        report.contains("- UCI: `data/uci/connect-4.data.Z`, 67557 rows")
            && report.contains("(the published file)"),
        "the report does not show the shipped UCI file's 67,557 rows:\n{report}"
    );
    for set in ["end-easy", "middle-easy", "begin-easy"] {
        assert!(report.contains(set), "{set} not graded:\n{report}");
    }
    assert!(copy.join("runs/fresh/models/gbt.bin").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_same_seed_gives_the_same_run_and_resume_reruns_only_what_is_damaged() {
    // A second run of the shared run's arguments: the same seed gives the same data, models
    // and games; then it is resumed (finished, then damaged). The shared run is
    // asked for after the second one, so that the two run side by side.
    let dir = temp_dir("resume");
    let run = dir.join("run");
    // The shared run's arguments with another seed where `seed` says so.
    let pipeline = |seed: &str, extra: &[&str], what: &str| {
        let mut args = vec!["pipeline".to_string(), "--out".into(), s(&run).into()];
        args.extend(quick_args_seeded(seed));
        args.extend(extra.iter().map(|a| a.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&c4(&args), what);
    };
    pipeline("3", &[], "second run");
    let first = quick_run();
    for f in [
        "data/selfplay.csv",
        "models/lms.curve.csv",
        "models/gbt.curve.csv",
    ] {
        let same = std::fs::read(first.join(f)).unwrap() == std::fs::read(run.join(f)).unwrap();
        assert!(same, "{f} differs between two runs with the same seed");
    }
    // Games: the same moves and results (the files also hold paths and timings).
    let games = |d: &Path| -> Vec<(String, String)> {
        let mut r = csv::Reader::from_path(d.join("ladder/games.csv")).unwrap();
        r.records()
            .map(|x| x.unwrap())
            .map(|x| (x[4].to_string(), x[5].to_string()))
            .collect()
    };
    assert!(
        games(first) == games(&run),
        "ladder games differ between runs"
    );

    let snapshot = |files: &[&str]| -> Vec<Vec<u8>> {
        files
            .iter()
            .map(|f| std::fs::read(run.join(f)).unwrap())
            .collect()
    };
    let files = [
        "data/selfplay.csv",
        "models/lms.bin",
        "models/gbt.bin",
        "models/gbt.phases.csv",
        "bench/error_rates.json",
    ];
    let before = snapshot(&files);
    // Nothing changed: every stage is taken from its record.
    pipeline("3", &["--resume"], "resume of a finished run");
    let report = std::fs::read_to_string(run.join("report.md")).unwrap();
    for stage in ["data", "lms", "gbt", "ntuple", "ladder", "bench", "plots"] {
        assert!(
            report.contains(&format!("| {stage} (resumed: not run again) |")),
            "{stage} ran again:\n{report}"
        );
    }
    assert!(
        report.contains("## Error rates against the solver"),
        "{report}"
    );
    // A damaged model: its stage and every later one run again, the earlier ones do not,
    // and the run ends where an uninterrupted one does.
    std::fs::write(run.join("models/gbt.bin"), b"damaged").unwrap();
    pipeline("3", &["--resume"], "resume after damage");
    let report = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(
        report.contains("| lms (resumed: not run again) |"),
        "{report}"
    );
    assert!(
        report.contains("| gbt |") && report.contains("| bench |"),
        "{report}"
    );
    assert_eq!(
        snapshot(&files)[..4],
        before[..4],
        "outputs differ from the first run"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resume_with_another_seed_reuses_nothing() {
    // A copy of the shared run, resumed with another seed: every stage runs again. (Its own
    // test, so that it runs beside the resume test above rather than after it.)
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                copy(&e.path(), &to.join(e.file_name()));
            } else {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }
    let dir = temp_dir("reseed");
    let run = dir.join("run");
    copy(quick_run(), &run);
    let resume = |seed: &str| -> String {
        let mut args = vec!["pipeline".to_string(), "--out".into(), s(&run).into()];
        args.extend(quick_args_seeded(seed));
        args.push("--resume".into());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&c4(&args), &format!("resume with seed {seed}"));
        std::fs::read_to_string(run.join("report.md")).unwrap()
    };
    // The copy with its own seed is taken whole from its records (so the copy is a run that
    // resumes), and with another seed nothing is.
    let report = resume("3");
    assert!(
        report.contains("| ntuple (resumed: not run again) |"),
        "{report}"
    );
    let report = resume("6");
    assert!(!report.contains("resumed"), "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn with_no_uci_the_gbt_learns_from_selfplay_only() {
    let dir = temp_dir("nouci");
    let run = dir.join("run");
    let out = c4(&["pipeline", "--quick", "--out", s(&run), "--no-uci"]);
    ok(&out, "pipeline --no-uci");
    let report = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(report.contains("**not used** (`--no-uci`)"), "{report}");
    assert!(run.join("models/gbt.bin").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_pipeline_checks_its_inputs_before_the_first_stage() {
    let dir = temp_dir("inputs");
    let file = dir.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let binary = dir.join("binary.data");
    std::fs::write(&binary, [0u8, 159, 146, 150, 10, 255, 0, 1]).unwrap();
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let run = dir.join("run");
    let missing = dir.join("missing.data");
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["--out", s(&file)],
            format!(
                "the run folder {} exists and is not a folder",
                file.display()
            ),
        ),
        (
            vec!["--out", s(&run), "--uci", s(&missing)],
            format!("UCI data file {} not found", missing.display()),
        ),
        (
            vec!["--out", s(&run), "--uci", s(&binary)],
            format!("{}:1: ", binary.display()),
        ),
        (
            vec!["--out", s(&run), "--bench", s(&empty)],
            format!("benchmark set end-easy not found in {}", empty.display()),
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["pipeline", "--quick"];
        all.extend(args.iter().copied());
        let out = c4(&all);
        assert!(!out.status.success(), "{all:?} succeeded");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("stage 'inputs' failed") && stderr.contains(&expected),
            "{all:?}: expected {expected:?} in:\n{stderr}"
        );
        assert!(
            !run.join("data/selfplay.csv").exists() && !run.join("report.md").exists(),
            "{all:?}: a stage ran before the inputs were checked"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failing_stage_stops_the_run_and_keeps_what_finished() {
    let dir = temp_dir("fail");
    let run = dir.join("run");
    // The plots stage cannot make its folder: a file stands where it goes.
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(run.join("plots"), "in the way").unwrap();
    let out = c4(&["pipeline", "--quick", "--out", s(&run)]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("stage 'plots' failed"), "{stderr}");
    let report = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(
        report.contains("## Run stopped") && report.contains("## Error rates against the solver"),
        "{report}"
    );
    for f in [
        "models/lms.bin",
        "models/gbt.bin",
        "ladder/summary.json",
        "bench/error_rates.json",
    ] {
        assert!(run.join(f).is_file(), "{f} was not kept");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Short self-play settings for `c4 train lms` tests: 20 games, matches of 4 every 10, depth 1.
const QUICK_SELFPLAY: [&str; 10] = [
    "--games",
    "20",
    "--window",
    "10",
    "--eval-every",
    "10",
    "--eval-games",
    "4",
    "--depth",
    "1",
];

/// Runs `c4 train lms --out MODEL ARGS` for each case and checks it fails naming `want`.
fn train_lms_fails(model: &Path, cases: Vec<(Vec<&str>, &str)>) {
    for (args, want) in cases {
        let mut a = vec!["train", "lms", "--out", s(model)];
        a.extend(args);
        let out = c4(&a);
        assert!(!out.status.success(), "{a:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{a:?}: {err}");
    }
}

#[test]
fn train_lms_writes_weights_curves_and_rejects_bad_flags() {
    let dir = temp_dir("lms");
    let model = dir.join("w.bin");
    let out = c4(&[
        "train",
        "lms",
        "--games",
        "40",
        "--window",
        "10",
        "--eval-every",
        "20",
        "--eval-games",
        "4",
        "--depth",
        "2",
        "--seed",
        "5",
        "--weight-tol",
        "0",
        "--out",
        s(&model),
    ]);
    let text = ok(&out, "train lms");
    assert!(
        text.contains("LMS: 40 games") && text.contains("hand-tuned"),
        "{text}"
    );
    let curve = std::fs::read_to_string(dir.join("w.curve.csv")).unwrap();
    assert_eq!(curve.lines().count(), 41, "header + one row per game");
    assert!(curve.starts_with(
        "game,trainee_first,trainee_score,plies,examples,mse,max_change,w_twos_first"
    ));
    let evals = std::fs::read_to_string(dir.join("w.eval.csv")).unwrap();
    assert_eq!(
        evals.lines().count(),
        4,
        "header + matches before training, at 20 and 40"
    );
    // The weights play as an agent; a GBT file is refused by `lms:`.
    let t = dir.join("t");
    ok(
        &c4(&[
            "tournament",
            "--agents",
            &format!("lms:{},depth=2", model.display()),
            "handtuned:depth=2",
            "--games",
            "2",
            "--out",
            s(&t),
        ]),
        "lms agent",
    );
    let plot = c4(&[
        "plot",
        s(&dir.join("w.curve.csv")),
        s(&dir.join("w.eval.csv")),
        "--out",
        s(&dir.join("p")),
    ]);
    let listed = ok(&plot, "plot");
    assert!(
        listed.contains("w_error.png") && listed.contains("w_score.svg"),
        "{listed}"
    );
    train_lms_fails(
        &model,
        vec![
            (vec!["--rate=-1"], "learning rate -1"),
            (vec!["--sample-rate", "1.5"], "sample_rate = 1.5"),
            (vec!["--depth", "0"], "depth = 0"),
            (vec!["--rate", "abc"], "invalid value 'abc'"),
            (
                vec!["--restarts", "0"],
                "'--restarts <RESTARTS>': must be at least 1",
            ),
            (
                vec!["--restarts", "2", "--resume"],
                "cannot be used with --restarts",
            ),
        ],
    );
    // Restarts: each seed's weights play one common match; the best one is written.
    let best = dir.join("best.bin");
    let mut a = vec!["train", "lms", "--seed", "5", "--restarts", "3"];
    a.extend(QUICK_SELFPLAY);
    a.extend(["--restart-games", "10", "--out", s(&best)]);
    let out = c4(&a);
    let text = ok(&out, "train lms --restarts");
    let rows: Vec<&str> = text.lines().filter(|l| l.contains("  seed ")).collect();
    assert_eq!(rows.len(), 3, "{text}");
    assert_eq!(text.matches("<- kept").count(), 1, "{text}");
    assert!(best.is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `c4 train lms --supervised`: the LMS rule on labelled positions (here the shipped training
/// set), graded in a match, saved; with --self-play it starts self-play from the fit; a file
/// with a bad line is named with its line.
#[test]
fn train_lms_supervised_fits_labelled_positions() {
    let dir = temp_dir("lms-supervised");
    let model = dir.join("sup.bin");
    let train = "data/positions/train.txt.gz";
    let out = c4(&[
        "train",
        "lms",
        "--supervised",
        train,
        "--epochs",
        "3",
        "--restart-games",
        "20",
        "--depth",
        "2",
        "--out",
        s(&model),
    ]);
    let text = ok(&out, "train lms --supervised");
    assert!(
        text.contains("supervised LMS: 200000 positions (20000 held out), 3 epochs"),
        "{text}"
    );
    assert_eq!(text.matches("  epoch ").count(), 3, "{text}");
    assert!(
        text.contains("against handtuned:depth=2 (20 games"),
        "{text}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("sup.supervised.json")).unwrap())
            .unwrap();
    let w: Vec<f64> = report["fit"]["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    // Open threes of the first player are good for the first player, and the second
    // player's are bad: the fit must find both signs.
    assert!(w[2] > 0.0 && w[3] < 0.0, "{w:?}");
    assert!(report["data"][0].as_str().unwrap().contains("train.txt.gz"));
    // The weights play as an agent.
    ok(
        &c4(&[
            "tournament",
            "--agents",
            &format!("lms:{},depth=2", model.display()),
            "easy",
            "--games",
            "2",
            "--out",
            s(&dir.join("t")),
        ]),
        "supervised weights as an agent",
    );
    // Then self-play from the fit: the curve and the supervised report are both written.
    let both = dir.join("both.bin");
    let mut a = vec![
        "train",
        "lms",
        "--supervised",
        train,
        "--epochs",
        "1",
        "--self-play",
    ];
    a.extend(QUICK_SELFPLAY);
    a.extend(["--out", s(&both)]);
    let out = c4(&a);
    let text = ok(&out, "train lms --supervised --self-play");
    assert!(text.contains("LMS: "), "{text}");
    assert!(dir.join("both.curve.csv").is_file() && dir.join("both.supervised.json").is_file());
    // Bad input: a torn line, --self-play alone, restarts without self-play.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "4455 3\n44x 1\n").unwrap();
    train_lms_fails(
        &model,
        vec![
            (vec!["--supervised", s(&bad)], "bad.txt:2: move 3"),
            (
                vec!["--self-play"],
                "--self-play continues a supervised fit",
            ),
            (
                vec!["--supervised", train, "--restarts", "2"],
                "--restarts repeats self-play runs",
            ),
            (vec!["--supervised", train, "--epochs", "0"], "epochs = 0"),
        ],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn model_specs_fail_clearly() {
    let dir = temp_dir("specs");
    let bogus = dir.join("bogus.bin");
    std::fs::write(&bogus, b"not a model").unwrap();
    for (spec, want) in [
        (
            format!("lms:{}", bogus.display()),
            "not a connect4-ml model file",
        ),
        (
            format!("hybrid:model={}", bogus.display()),
            "not a connect4-ml model file",
        ),
        (
            "hybrid:weight=2".to_string(),
            "weight=2: a weight from 0 to 1",
        ),
        (
            "hybrid:model_until=12,blend_until=10".to_string(),
            "blend_until=10",
        ),
        ("rollouts:playouts=0".to_string(), "playouts=0"),
        (
            "rollouts:smart=maybe".to_string(),
            "smart=maybe: true or false",
        ),
        (
            format!("lms:{}", dir.join("none.bin").display()),
            "none.bin",
        ),
    ] {
        let out = c4(&[
            "tournament",
            "--agents",
            &spec,
            "random",
            "--games",
            "1",
            "--out",
            s(&dir.join("t")),
        ]);
        assert!(!out.status.success(), "{spec}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{spec}: {err}");
    }
    let plot = c4(&["plot", s(&bogus)]);
    assert!(!plot.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn playout_benchmark_reports_a_rate() {
    let out = c4(&["bench", "playouts", "--playouts", "20000", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&ok(&out, "bench playouts")).unwrap();
    assert_eq!(v["playouts"], 20000);
    let total = v["first_mover_wins"].as_u64().unwrap()
        + v["draws"].as_u64().unwrap()
        + v["first_mover_losses"].as_u64().unwrap();
    assert_eq!(total, 20000);
    // Random play from the empty board: the first player wins about 55-56% of games.
    let wins = v["first_mover_wins"].as_f64().unwrap() / 20000.0;
    assert!((0.53..0.59).contains(&wins), "{wins}");
    let bad = c4(&["bench", "playouts", "--from", "4444444"]);
    assert!(!bad.status.success());
}

#[test]
fn ctrl_c_stops_a_long_job_and_leaves_no_half_written_file() {
    let dir = temp_dir("ctrlc");
    let run = dir.join("run");
    let mut child = Command::new(env!("CARGO_BIN_EXE_c4"))
        .args(["pipeline", "--out", s(&run)])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the run is under way (its folder exists), then interrupt it.
    for _ in 0..200 {
        if run.is_dir() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: sending SIGINT to our own child process.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    let mut left = Vec::new();
    let mut stack = vec![run.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(".tmp") {
                left.push(p);
            }
        }
    }
    assert!(left.is_empty(), "temporary files left: {left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `c4 pipeline --quick --seed 3` on a `width` x `height` board into `out`; its report.
fn quick_on(width: &str, height: &str, out: &Path) -> String {
    let args = [
        "pipeline",
        "--quick",
        "--width",
        width,
        "--height",
        height,
        "--seed",
        "3",
        "--out",
        s(out),
    ];
    ok(
        &c4(&args),
        &format!("c4 pipeline --quick --width {width} --height {height}"),
    );
    std::fs::read_to_string(out.join("report.md")).unwrap()
}

#[test]
fn the_quick_pipeline_learns_and_plays_on_other_boards() {
    let dir = temp_dir("boards");
    // 5x4: the solver reaches it, so the perfect player joins the ladder and the curve.
    let small = dir.join("5x4");
    let report = quick_on("5", "4", &small);
    for expected in [
        "--width 5 --height 4",
        "Board: 5x4.",
        "UCI: **not used** (its positions are 7x6)",
        "positions of plies 10-19 labelled",
        "| perfect | `perfect` |",
        "heldout-",
        "second eps 0.2",
    ] {
        assert!(report.contains(expected), "{expected:?} not in:\n{report}");
    }
    let lms = format!("lms:{},depth=2", small.join("models/lms.bin").display());
    let gbt = format!("model:{},depth=2", small.join("models/gbt.bin").display());
    let net = format!(
        "ntuple:path={},depth=1",
        small.join("models/ntuple.bin").display()
    );
    // Every model it wrote plays on its board, and is refused on another naming both.
    let t = dir.join("t");
    let out = c4(&[
        "tournament",
        "--width",
        "5",
        "--height",
        "4",
        "--agents",
        &lms,
        &gbt,
        &net,
        "--games",
        "2",
        "--seed",
        "1",
        "--out",
        s(&t),
    ]);
    ok(&out, "a tournament of the 5x4 run's models on 5x4");
    for spec in [&lms, &gbt, &net] {
        let out = c4(&[
            "tournament",
            "--agents",
            spec,
            "random",
            "--games",
            "2",
            "--out",
            s(&t),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && stderr.contains("5x4") && stderr.contains("7x6"),
            "{spec} on 7x6: {stderr}"
        );
    }
    // 8x7: the solver does not reach it from the empty board, so no perfect player, and
    // the labelled positions have at most 24 empty cells.
    let big = dir.join("8x7");
    let report = quick_on("8", "7", &big);
    assert!(
        report.contains("positions of plies 32-55 labelled"),
        "{report}"
    );
    assert!(!report.contains("| perfect |"), "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_pipeline_refuses_7x6_files_and_boards_past_64_bits_on_other_boards() {
    let dir = temp_dir("boardfiles");
    let run = dir.join("run");
    let uci = common::repo_data("uci/connect-4.data.Z");
    let bench = common::repo_data("bench");
    let train = common::repo_data("positions/train.txt.gz");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--uci", s(&uci)],
            "holds 7x6 positions and this run's board is 6x5",
        ),
        (
            vec!["--bench", s(&bench)],
            "are 7x6 positions and this run's board is 6x5",
        ),
        // A 7x6 file read as 6x5 positions fails on its first 7th-column move.
        (
            vec!["--positions", s(&train)],
            "column 7 is out of range 1..=6",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec![
            "pipeline",
            "--quick",
            "--width",
            "6",
            "--height",
            "5",
            "--out",
            s(&run),
        ];
        all.extend(args.iter().copied());
        let out = c4(&all);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success()
                && stderr.contains("stage 'inputs' failed")
                && stderr.contains(expected),
            "{all:?}: expected {expected:?} in:\n{stderr}"
        );
        assert!(
            !run.join("data/selfplay.csv").exists(),
            "{all:?}: a stage ran"
        );
    }
    let out = c4(&[
        "pipeline",
        "--quick",
        "--width",
        "8",
        "--height",
        "8",
        "--out",
        s(&run),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("8x8 takes 72"),
        "{stderr}"
    );
    assert!(!run.join("data").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
