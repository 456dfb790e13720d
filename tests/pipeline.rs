//! The training pipeline end to end: `c4 pipeline --quick` (with and without the UCI file,
//! and stopped by a failing stage), the notebooks executed on its output, `c4 train lms`,
//! `c4 plot`, and the model-backed agent specs.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn c4(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_c4"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("c4 runs")
}

fn ok(out: &Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what} failed:\nstdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("c4-pipeline-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn quick_pipeline_writes_every_stage_and_the_notebooks_run_on_it() {
    let uci = common::shared_data("uci/connect-4.data");
    let pons = common::shared_data("pons");
    let dir = temp("quick");
    let run = dir.join("run");
    let out = c4(&[
        "pipeline",
        "--quick",
        "--out",
        s(&run),
        "--seed",
        "3",
        "--uci",
        s(&uci),
        "--pons",
        s(&pons),
    ]);
    let stdout = ok(&out, "c4 pipeline --quick");
    assert!(stdout.contains("report:"), "{stdout}");
    for f in [
        "data/selfplay.csv",
        "models/lms.bin",
        "models/lms.curve.csv",
        "models/lms.eval.csv",
        "models/gbt.bin",
        "models/gbt.curve.csv",
        "models/gbt.importance.csv",
        "models/gbt.phases.csv",
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
        "## Tournament ladder",
        "| perfect |",
        "| hybrid |",
        "## Error rates against the solver",
        "(plots/ladder_elo.png)",
        "| total |",
    ] {
        assert!(report.contains(want), "report lacks {want}:\n{report}");
    }
    assert!(!report.contains("Run stopped"), "{report}");
    // The ladder has all eight agents; every graded agent has three files of five moves.
    let read_json = |f: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(run.join(f)).unwrap()).unwrap()
    };
    assert_eq!(
        read_json("ladder/summary.json")["agents"]
            .as_array()
            .unwrap()
            .len(),
        8
    );
    assert_eq!(
        read_json("bench/error_rates.json")
            .as_array()
            .unwrap()
            .len(),
        7 * 3
    );

    // The trained models play as agents.
    let lms = format!("lms:{},depth=2", run.join("models/lms.bin").display());
    let gbt = format!("model:{},depth=2", run.join("models/gbt.bin").display());
    let hyb = format!(
        "hybrid:model={},depth=2,rollouts=20",
        run.join("models/gbt.bin").display()
    );
    let t = dir.join("t");
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

    // The same seed gives the same data, models and games.
    let again = dir.join("again");
    ok(
        &c4(&[
            "pipeline",
            "--quick",
            "--out",
            s(&again),
            "--seed",
            "3",
            "--uci",
            s(&uci),
            "--pons",
            s(&pons),
        ]),
        "second run",
    );
    for f in [
        "data/selfplay.csv",
        "models/lms.curve.csv",
        "models/gbt.curve.csv",
    ] {
        let same = std::fs::read(run.join(f)).unwrap() == std::fs::read(again.join(f)).unwrap();
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
        games(&run) == games(&again),
        "ladder games differ between runs"
    );

    // The notebooks execute on the run (CI installs notebooks/requirements.txt; C4_PYTHON
    // names the interpreter that has them).
    let python = std::env::var("C4_PYTHON").unwrap_or_else(|_| "python3".into());
    let probe = Command::new(&python)
        .args([
            "-c",
            "import pandas, matplotlib, nbclient, nbformat, ipykernel",
        ])
        .output();
    let have = probe.as_ref().is_ok_and(|o| o.status.success());
    assert!(
        have,
        "the notebook test needs Python with notebooks/requirements.txt installed: \
         `pip install -r notebooks/requirements.txt`, or set C4_PYTHON to such an interpreter \
         ({python}: {})",
        probe.map_or_else(
            |e| e.to_string(),
            |o| String::from_utf8_lossy(&o.stderr).into_owned()
        )
    );
    let nb = Command::new(&python)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("notebooks/run_notebooks.py"))
        .arg(&run)
        .output()
        .unwrap();
    let text = ok(&nb, "notebooks");
    for name in [
        "01_learning_curves",
        "02_tournament_and_elo",
        "03_evaluator_quality",
    ] {
        assert!(text.contains(&format!("{name}.ipynb: executed")), "{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn without_the_uci_file_the_pipeline_says_so_and_goes_on() {
    let pons = common::shared_data("pons");
    let dir = temp("nouci");
    let run = dir.join("run");
    let out = c4(&[
        "pipeline",
        "--quick",
        "--out",
        s(&run),
        "--uci",
        s(&dir.join("missing.data")),
        "--pons",
        s(&pons),
    ]);
    ok(&out, "pipeline without UCI");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("missing.data is missing"), "{stderr}");
    let report = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(report.contains("**not used**"), "{report}");
    assert!(run.join("models/gbt.bin").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failing_stage_stops_the_run_and_keeps_what_finished() {
    let dir = temp("fail");
    let run = dir.join("run");
    let out = c4(&[
        "pipeline",
        "--quick",
        "--out",
        s(&run),
        "--uci",
        s(&dir.join("none")),
        "--pons",
        s(&dir.join("no-pons")),
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("stage 'bench' failed") && stderr.contains("Test_L3_R1"),
        "{stderr}"
    );
    let report = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(
        report.contains("## Run stopped") && report.contains("## Tournament ladder"),
        "{report}"
    );
    for f in ["models/lms.bin", "models/gbt.bin", "ladder/summary.json"] {
        assert!(run.join(f).is_file(), "{f} was not kept");
    }
    assert!(!run.join("bench/error_rates.json").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_lms_writes_weights_curves_and_rejects_bad_flags() {
    let dir = temp("lms");
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
    for (args, want) in [
        (vec!["--rate=-1"], "learning rate -1"),
        (vec!["--sample-rate", "1.5"], "sample_rate = 1.5"),
        (vec!["--depth", "0"], "depth = 0"),
        (vec!["--rate", "abc"], "invalid value 'abc'"),
    ] {
        let mut a = vec!["train", "lms", "--out", s(&model)];
        a.extend(args);
        let out = c4(&a);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{a:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn model_specs_fail_clearly() {
    let dir = temp("specs");
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
