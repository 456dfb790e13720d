//! `c4 evaluate` as a user runs it: the table, evaluate.json and the charts, and clear errors.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{c4, text};
use std::path::Path;

#[test]
fn evaluate_writes_the_table_json_and_charts() {
    let dir = std::env::temp_dir().join(format!("c4-evaluate-{}", std::process::id()));
    let out = c4(&[
        "evaluate",
        "--agent",
        "hard",
        "negamax:eval=handtuned,depth=2",
        "--baseline",
        "random",
        "--games",
        "10",
        "--seeds",
        "2",
        "--sets",
        "end-easy,middle-easy",
        "--positions",
        "20",
        "--equal-time",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("against random (10 games x 2 seed(s)"),
        "{stdout}"
    );
    assert!(stdout.contains("random (baseline)"), "{stdout}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("evaluate.json")).unwrap()).unwrap();
    assert_eq!(json["baseline"], "random");
    let agents = json["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 2);
    for a in agents {
        let m = &a["vs_baseline"];
        assert_eq!(m["games"], 20);
        let (w, d, l) = (
            m["wins"].as_u64().unwrap(),
            m["draws"].as_u64().unwrap(),
            m["losses"].as_u64().unwrap(),
        );
        assert_eq!(w + d + l, 20);
        let s = &m["score"];
        let value = s["value"].as_f64().unwrap();
        assert!((value - (w as f64 + d as f64 / 2.0) / 20.0).abs() < 1e-9);
        assert!(s["low"].as_f64().unwrap() <= value && value <= s["high"].as_f64().unwrap());
        // Both search: each also played on random's time per move.
        assert_eq!(a["equal_time"]["games"], 20);
        let errs = a["errors"].as_array().unwrap();
        assert_eq!(errs.len(), 2);
        assert_eq!(errs[0]["set"], "end-easy");
        assert_eq!(errs[0]["positions"], 20);
    }
    // hard beats random.
    assert!(agents[0]["vs_baseline"]["score"]["value"].as_f64().unwrap() > 0.8);
    for f in ["score.png", "score.svg", "errors.png", "errors.svg"] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn evaluate_plays_a_board_past_64_bits_the_same_at_any_thread_count() {
    let dir = std::env::temp_dir().join(format!("c4-evaluate-wide-{}", std::process::id()));
    let run = |jobs: &str| {
        let out_dir = dir.join(jobs);
        let out = c4(&[
            "evaluate",
            "--width",
            "8",
            "--height",
            "8",
            "--agent",
            "ntuple:depth=1,safe=true",
            "hard",
            "--baseline",
            "random",
            "--games",
            "6",
            "--openings",
            "2",
            "--seed",
            "5",
            "--jobs",
            jobs,
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains("no move graded on 8x8"),
            "{}",
            text(&out.stdout)
        );
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out_dir.join("evaluate.json")).unwrap())
                .unwrap();
        json["agents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                let m = &a["vs_baseline"];
                assert_eq!(m["games"], 6);
                (m["wins"].as_u64().unwrap(), m["draws"].as_u64().unwrap())
            })
            .collect::<Vec<_>>()
    };
    let one = run("1");
    assert_eq!(one.len(), 2);
    // The network and hard beat random on 8x8 (72 bits) as on 7x6.
    assert!(one.iter().all(|&(w, _)| w >= 5), "{one:?}");
    assert_eq!(run("8"), one);
    // A kind that needs 64-bit tables is named with the board, and nothing runs.
    let out = c4(&[
        "evaluate",
        "--width",
        "8",
        "--height",
        "8",
        "--agent",
        "perfect",
        "--baseline",
        "easy",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("8x8"), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn evaluate_rejects_bad_input_with_a_message() {
    let out_dir = std::env::temp_dir().join("c4-evaluate-never-written");
    let o = out_dir.to_str().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &["evaluate", "--agent", "hard:depth=3", "--out", o],
            "'hard' takes no option 'depth'",
        ),
        (
            &[
                "evaluate",
                "--agent",
                "easy",
                "--baseline",
                "nobody",
                "--out",
                o,
            ],
            "nobody",
        ),
        (
            &[
                "evaluate",
                "--agent",
                "easy",
                "--sets",
                "middle-ish",
                "--out",
                o,
            ],
            "unknown benchmark set \"middle-ish\"",
        ),
        (
            &[
                "evaluate",
                "--agent",
                "easy",
                "--games",
                "0",
                "--positions",
                "0",
                "--out",
                o,
            ],
            "'--games <GAMES>': must be at least 1",
        ),
    ];
    for (args, want) in cases {
        let out = c4(args);
        assert!(!out.status.success(), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    }
    assert!(!Path::new(&out_dir).exists());
}
