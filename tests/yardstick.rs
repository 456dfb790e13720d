//! The n-tuple literature's yardstick, as a user runs it: `c4 evaluate --side first
//! --openings 0` against `perfect:ties=random`, and the agent options it relies on.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

mod common;

use common::{c4, ok, temp_dir};

fn evaluate_json(args: &[&str], name: &str) -> serde_json::Value {
    let dir = temp_dir(name);
    let out = dir.join("ev");
    let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    all.extend([
        "--positions".into(),
        "0".into(),
        "--out".into(),
        out.display().to_string(),
    ]);
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let o = c4(&refs);
    ok(&o, "c4 evaluate");
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(text.contains("as first player"), "{text}");
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("evaluate.json")).unwrap()).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    j
}

#[test]
fn the_perfect_first_player_beats_a_perfect_player_with_random_ties_every_game() {
    // Connect Four is a first-player win: perfect play moving first wins every game,
    // whatever optimal moves the opponent picks.
    let j = evaluate_json(
        &[
            "evaluate",
            "--agent",
            "perfect",
            "--baseline",
            "perfect:ties=random,seed=3",
            "--side",
            "first",
            "--openings",
            "0",
            "--games",
            "4",
        ],
        "yard-first",
    );
    let m = &j["agents"][0]["vs_baseline"];
    assert_eq!(j["side"], "first");
    assert_eq!(m["as_first"]["games"], 4);
    assert_eq!(m["as_first"]["wins"], 4);
    assert_eq!(m["as_second"]["games"], 0);
    assert!(m["as_first"]["win_rate"]["low"].as_f64().unwrap() > 0.4);
    // Moving second against perfect play, every game is lost.
    let j = evaluate_json(
        &[
            "evaluate",
            "--agent",
            "perfect:ties=random,seed=4",
            "--baseline",
            "perfect",
            "--side",
            "second",
            "--openings",
            "0",
            "--games",
            "2",
        ],
        "yard-second",
    );
    let m = &j["agents"][0]["vs_baseline"];
    assert_eq!(m["as_second"]["games"], 2);
    assert_eq!(m["as_second"]["losses"], 2);
}

#[test]
fn agent_options_of_the_yardstick_are_checked() {
    for (spec, want) in [
        ("perfect:ties=sideways", "ties"),
        ("perfect:eps=1.5", "eps"),
        ("ntuple:safe=maybe", "safe"),
        ("perfect:safe=true", "safe"),
    ] {
        let o = c4(&[
            "evaluate",
            "--agent",
            spec,
            "--games",
            "2",
            "--out",
            "/nonexistent-c4",
        ]);
        assert!(!o.status.success(), "{spec}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{spec}: {err}");
    }
    let o = c4(&[
        "evaluate",
        "--agent",
        "random",
        "--side",
        "left",
        "--out",
        "/nonexistent-c4",
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("first, second or both"));
}
