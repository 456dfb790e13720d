//! The n-tuple literature's yardstick, as a user runs it: `c4 evaluate --side first
//! --openings 0` against `perfect:ties=random`, and the agent options it relies on.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

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
        (
            "exploit:eps=2",
            "eps=2: a share of random moves from 0 to 1",
        ),
        (
            "exploit:eps=often",
            "eps=often: a share of random moves from 0 to 1",
        ),
        (
            "exploit:eps=0.1,ms=0",
            "ms=0: milliseconds per move, 1 to 3600000",
        ),
        ("exploit", "needs eps"),
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
        assert_eq!(o.status.code(), Some(2), "{spec}");
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

/// `c4 evaluate` of `agent` on 5x4 against `baseline` from `openings` random plies.
fn on_5x4(agent: &str, baseline: &str, openings: &str, games: &str) -> serde_json::Value {
    evaluate_json(
        &[
            "evaluate",
            "--width",
            "5",
            "--height",
            "4",
            "--agent",
            agent,
            "--baseline",
            baseline,
            "--side",
            "both",
            "--openings",
            openings,
            "--games",
            games,
        ],
        "yard-exploit",
    )
}

#[test]
fn exploit_plays_an_erring_perfect_player_beside_the_exact_optimum() {
    // On 5x4 the whole tree fits: `c4 evaluate` prints the best any agent can do against
    // perfect:ties=random,eps=0.3 from the empty board, for each side (exact expectimax).
    let j = on_5x4(
        "exploit:eps=0.3,ms=20,seed=2",
        "perfect:ties=random,eps=0.3,seed=5",
        "0",
        "8",
    );
    let o = &j["optimum"];
    let near = |key: &str, want: f64| {
        let got = o[key].as_f64().unwrap();
        assert!((got - want).abs() < 1e-6, "{key}: {got} vs {want}");
    };
    near("first_win", 0.558_100_758);
    near("first_draw", 0.183_946_544);
    near("second_win", 0.743_027_533);
    near("second_draw", 0.167_813_379);
    let m = &j["agents"][0]["vs_baseline"];
    assert_eq!(m["as_first"]["games"], 4);
    assert_eq!(m["as_second"]["games"], 4);
    // A perfect baseline that never errs, or games from random openings: no optimum.
    for (baseline, openings) in [
        ("perfect:ties=random", "0"),
        ("perfect:ties=random,eps=0.3", "2"),
    ] {
        let j = on_5x4("random", baseline, openings, "2");
        assert!(j["optimum"].is_null(), "{baseline} {openings}");
    }
}
