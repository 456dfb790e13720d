//! `c4 serve`'s JSON API end to end on a loopback port: every endpoint with legal and
//! illegal input, the limits on heavy work, and cancellation when a client goes away.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use connect4_ml::serve::ServeConfig;
use serde_json::Value;
use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A server on a free loopback port, running on its own thread until the test ends.
fn start(config: ServeConfig) -> SocketAddr {
    common::serve_in_process(config)
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn config(runs: &Path) -> ServeConfig {
    ServeConfig {
        runs: runs.to_path_buf(),
        models: repo().join("models"),
        tt_mib: 16,
        ..ServeConfig::default()
    }
}

/// Status and JSON body of a GET.
fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    let r = match ureq::get(&format!("http://{addr}{path}")).call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("GET {path}: {e}"),
    };
    let status = r.status();
    let text = r.into_string().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// Status and JSON body of a POST of `body` as JSON.
fn post(addr: SocketAddr, path: &str, body: &str) -> (u16, Value) {
    let r = match ureq::post(&format!("http://{addr}{path}"))
        .set("Content-Type", "application/json")
        .send_string(body)
    {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("POST {path}: {e}"),
    };
    let status = r.status();
    (
        status,
        serde_json::from_str(&r.into_string().unwrap()).unwrap(),
    )
}

fn error_of(v: &Value) -> &str {
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {v}"))
}

/// A temporary folder with one fake run, removed when dropped.
struct Runs(PathBuf);

impl Runs {
    fn new(tag: &str) -> Runs {
        let dir = std::env::temp_dir().join(format!("c4-serve-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let run = dir.join("first");
        std::fs::create_dir_all(run.join("plots")).unwrap();
        std::fs::create_dir_all(run.join("ladder")).unwrap();
        std::fs::write(
            run.join("report.md"),
            "# A run\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
        )
        .unwrap();
        std::fs::write(
            run.join("plots/curve.svg"),
            "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
        )
        .unwrap();
        std::fs::write(run.join("plots/curve.png"), b"\x89PNG").unwrap();
        std::fs::write(
            run.join("ladder/summary.json"),
            r#"{"elo": [{"agent": "easy", "elo": 1500.0, "low": 1400.0, "high": 1600.0, "games": 4, "score_pct": 50.0}]}"#,
        )
        .unwrap();
        std::fs::create_dir_all(dir.join("second")).unwrap();
        std::fs::write(dir.join("secret.txt"), "not a run file").unwrap();
        Runs(dir)
    }
}

impl Drop for Runs {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn analyze_scores_every_column_and_refuses_bad_moves() {
    let runs = Runs::new("analyze");
    let addr = start(config(&runs.0));
    // The first line of the end-game benchmark set: score -1, every column exact.
    let (s, a) = get(
        addr,
        "/api/analyze?moves=2252576253462244111563365343671351441",
    );
    assert_eq!(s, 200, "{a}");
    assert_eq!(a["complete"], true);
    assert_eq!(a["score"], -1);
    assert_eq!(a["to_move"], "o");
    assert_eq!(a["stones"], 37);
    let cols = a["columns"].as_array().unwrap();
    assert!(
        cols.iter()
            .all(|c| c["exact"] == true && c["low"] == c["high"])
    );
    let best: Vec<i64> = a["best"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    for b in &best {
        let col = cols.iter().find(|c| c["column"] == *b).unwrap();
        assert_eq!(col["score"], -1);
    }
    assert!(!a["principal_variation"].as_array().unwrap().is_empty());
    assert_eq!(a["principal_variation_complete"], true);

    // The empty board comes from the opening book: column 4 the only win. Its best line
    // leaves the book after 8 stones; asking again goes on to the end of the game.
    let (_, a) = get(addr, "/api/analyze");
    assert_eq!(a["complete"], true);
    let mut line = a.clone();
    for _ in 0..10 {
        if line["principal_variation_complete"] == true {
            break;
        }
        line = get(addr, "/api/analyze").1;
    }
    assert_eq!(line["principal_variation_complete"], true, "{line}");
    assert_eq!(line["principal_variation"][0], 4);
    assert_eq!(line["principal_variation"].as_array().unwrap().len(), 41);
    assert_eq!(a["best"], serde_json::json!([4]));
    assert_eq!(a["score"], 1);
    assert_eq!(a["columns"][3]["score"], 1);
    assert_eq!(a["columns"][0]["score"], -2);

    // Weak mode: only the sign.
    let (_, a) = get(
        addr,
        "/api/analyze?moves=2252576253462244111563365343671351441&weak=true",
    );
    assert_eq!(a["score"], -1);
    assert_eq!(a["mode"], "weak");

    // A finished game: no columns, its result in words.
    let (s, a) = get(addr, "/api/analyze?moves=1212121");
    assert_eq!(s, 200);
    assert_eq!(a["result"], "x won");
    assert_eq!(a["columns"], serde_json::json!([]));
    assert_eq!(a["best"], serde_json::json!([]));

    // Other board sizes.
    let (s, a) = get(addr, "/api/analyze?moves=33&width=5&height=4");
    assert_eq!(s, 200, "{a}");
    assert_eq!(a["width"], 5);
    assert_eq!(a["complete"], true);

    // Boards past 64 bits: the 8x8 position of the CLI's test, on wide bitboards.
    let (s, a) = get(
        addr,
        "/api/analyze?moves=637122614117422267122177141635748278646744846688&width=8&height=8",
    );
    assert_eq!(s, 200, "{a}");
    assert_eq!(
        (a["width"].clone(), a["height"].clone()),
        (8.into(), 8.into())
    );
    assert_eq!(
        (&a["score"], &a["best"]),
        (&serde_json::json!(8), &serde_json::json!([3, 5])),
        "{a}"
    );
    assert_eq!(a["complete"], true);

    for (query, needle) in [
        ("moves=48", "column 8 is out of range"),
        ("moves=4x", "move 2"),
        ("moves=1111111", "column 1"),
        ("moves=12121212", "already won"),
        ("width=20&height=20", "20"),
        ("width=12&height=10", "at most 128"),
        ("moves=44&ms=abc", "bad query"),
    ] {
        let (s, e) = get(addr, &format!("/api/analyze?{query}"));
        assert_eq!(s, 400, "{query}: {e}");
        assert!(error_of(&e).contains(needle), "{query}: {e}");
    }
}

#[test]
fn review_grades_every_move_of_a_game() {
    let runs = Runs::new("review");
    let addr = start(config(&runs.0));
    // x wins in column 1 with the 7th stone. The book gives the early grades: x's first
    // move (column 1, -2) throws the first player's win (+1) away, o's answer (column 2,
    // +2) keeps o's best score; the last move wins at once, the best there is.
    let (s, r) = get(addr, "/api/review?moves=1212121");
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["complete"], true, "{r}");
    let reviews = r["reviews"].as_array().unwrap();
    assert_eq!(reviews.len(), 7);
    assert_eq!(reviews[0]["grade"], "mistake");
    assert_eq!(reviews[0]["played"], -2);
    assert_eq!(reviews[0]["best"], 1);
    assert_eq!(reviews[0]["best_columns"], serde_json::json!([4]));
    assert_eq!(reviews[0]["player"], "x");
    assert_eq!(reviews[1]["grade"], "best");
    assert_eq!(reviews[1]["played"], 2);
    assert_eq!(reviews[6]["grade"], "best");
    assert_eq!(reviews[6]["column"], 1);
    assert_eq!(reviews[6]["number"], 7);
    let c = &r["counts"];
    let total: i64 = ["best", "inaccuracy", "mistake", "unknown"]
        .iter()
        .map(|k| c[k].as_i64().unwrap())
        .sum();
    assert_eq!(total, 7);
    assert_eq!(c["unknown"], 0);
    // Out of time: ungraded moves are unknown, never guessed (8x7 has no book).
    let (s, r) = get(addr, "/api/review?moves=4444&width=8&height=7&ms=50");
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["complete"], false);
    assert!(
        r["reviews"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["grade"] == "unknown" && m["played"].is_null()),
        "{r}"
    );
    for (query, needle) in [("moves=48", "column 8"), ("moves=12121212", "already won")] {
        let (s, e) = get(addr, &format!("/api/review?{query}"));
        assert_eq!(s, 400, "{query}: {e}");
        assert!(error_of(&e).contains(needle), "{query}: {e}");
    }
}

#[test]
fn move_plays_legal_columns_and_refuses_bad_requests() {
    let runs = Runs::new("move");
    let addr = start(config(&runs.0));
    for agent in [
        "easy",
        "random",
        "gbt:depth=2",
        "model:lms.bin,depth=2",
        "perfect",
    ] {
        let (s, m) = post(
            addr,
            "/api/move",
            &format!(r#"{{"agent": "{agent}", "moves": "4453"}}"#),
        );
        assert_eq!(s, 200, "{agent}: {m}");
        let col = m["column"].as_u64().unwrap();
        assert!((1..=7).contains(&col), "{m}");
        assert_eq!(m["moves"], format!("4453{col}"));
        assert!(m["ms"].as_f64().unwrap() >= 0.0);
    }
    // x has the bottom row's columns 1-3 (o has 5-7): the perfect agent wins with column 4.
    let (_, m) = post(
        addr,
        "/api/move",
        r#"{"agent": "perfect", "moves": "152637"}"#,
    );
    assert_eq!(m["column"], 4);
    // Board size travels with the request.
    let (s, m) = post(
        addr,
        "/api/move",
        r#"{"agent": "easy", "moves": "", "width": 5, "height": 4}"#,
    );
    assert_eq!(s, 200, "{m}");
    assert!(m["column"].as_u64().unwrap() <= 5);
    // Past 9 columns moves are letters, read and written by the one codec: x holds the
    // bottom of columns 10-12 of a 12x4 board and moves: the perfect agent wins in column 9.
    let (s, m) = post(
        addr,
        "/api/move",
        r#"{"agent": "perfect", "moves": "a1b1c1", "width": 12, "height": 4}"#,
    );
    assert_eq!(s, 200, "{m}");
    assert_eq!(m["column"], 9, "{m}");
    assert_eq!(m["moves"], "a1b1c19", "{m}");
    // Column 10 of a 10x5 board is written "a" in the answer's moves.
    let tenth = (1..=60).find(|seed| {
        let body = format!(
            r#"{{"agent": "random", "moves": "aaaa", "width": 10, "height": 5, "seed": {seed}}}"#
        );
        let (s, m) = post(addr, "/api/move", &body);
        assert_eq!(s, 200, "{m}");
        m["column"] == 10 && m["moves"] == "aaaaa"
    });
    assert!(
        tenth.is_some(),
        "a random agent picks column 10 in 60 tries"
    );
    let (s, r) = get(addr, "/api/review?moves=a1b1c19&width=12&height=4&ms=500");
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["reviews"][6]["column"], 9, "{r}");
    assert_eq!(r["reviews"][0]["column"], 10, "{r}");
    let (s, e) = get(addr, "/api/review?moves=1d&width=12&height=4");
    assert_eq!(s, 400, "{e}");
    assert!(error_of(&e).contains("column 13"), "{e}");
    // Boards past 64 bits (128-bit bitboards): x has columns 1-3 of the bottom row and o
    // three in column 5; every searcher takes the win at column 4, the dial and the adaptive
    // agent (with the board's network) play a legal column, and the review grades the game.
    for (agent, wins) in [
        ("hard", true),
        ("mcts:sims=200", true),
        ("ntuple:depth=1,safe=true", true),
        ("level:elo=1500", false),
        ("adaptive", false),
    ] {
        let body = format!(r#"{{"agent": "{agent}", "moves": "152535", "width": 8, "height": 8}}"#);
        let (s, m) = post(addr, "/api/move", &body);
        assert_eq!(s, 200, "{agent}: {m}");
        let col = m["column"].as_u64().unwrap();
        assert!((1..=8).contains(&col), "{agent}: {m}");
        assert_eq!(m["moves"], format!("152535{col}"), "{agent}: {m}");
        if wins {
            assert_eq!(col, 4, "{agent}: {m}");
        }
        if agent == "adaptive" {
            assert!(m["adaptive"]["estimate"].as_f64().is_some(), "{m}");
        }
    }
    let (s, m) = post(
        addr,
        "/api/move",
        r#"{"agent": "perfect", "moves": "", "width": 9, "height": 7}"#,
    );
    assert_eq!(s, 400, "{m}");
    assert!(error_of(&m).contains("9x7"), "{m}");
    let (s, a) = post(
        addr,
        "/api/adaptive",
        r#"{"agent": "adaptive", "moves": "1525354", "side": "o", "width": 8, "height": 8}"#,
    );
    assert_eq!(s, 200, "{a}");
    assert_eq!(
        (&a["finished"], &a["games"]),
        (&serde_json::json!(true), &serde_json::json!(1)),
        "{a}"
    );
    // The review grades the late moves of the CLI test's 8x8 game exactly (the early ones
    // are unknown when the time runs out before the solver reaches them).
    let game = "637122614117422267122177141635748278646744846688";
    let (s, r) = get(
        addr,
        &format!("/api/review?moves={game}&width=8&height=8&ms=2000"),
    );
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["reviews"].as_array().unwrap().len(), 48, "{r}");
    assert_eq!(r["reviews"][47]["column"], 8, "{r}");
    assert_ne!(r["reviews"][47]["grade"], "unknown", "{r}");

    let long = format!(r#"{{"agent": "easy", "moves": "{}"}}"#, "1".repeat(40_000));
    // Long enough to fill the socket's buffers: the answer must still arrive (no broken pipe).
    let huge = format!(r#"{{"agent": "easy", "moves": "{}"}}"#, "1".repeat(900_000));
    for (body, needle) in [
        (
            r#"{"agent": "bogus", "moves": "44"}"#,
            "unknown agent 'bogus'",
        ),
        (
            r#"{"agent": "hard:depth=3"}"#,
            "'hard' takes no option 'depth'",
        ),
        (r#"{"agent": "easy", "moves": "48"}"#, "column 8"),
        (
            r#"{"agent": "easy", "moves": "1212121"}"#,
            "the game is over",
        ),
        (
            r#"{"agent": "model:/etc/passwd"}"#,
            "must be a file name in the models folder",
        ),
        (r#"{"agent": "model:missing.bin"}"#, "missing.bin"),
        (
            r#"{"agent": "perfect:tt=50000"}"#,
            "larger than this server allows",
        ),
        (r#"{"agent": "easy""#, "bad request body"),
        (r#"{"moves": "44"}"#, "agent"),
        (r#"{"agent": "easy", "colour": "red"}"#, "colour"),
        (long.as_str(), "length limit"),
        (huge.as_str(), "length limit"),
    ] {
        let (s, e) = post(addr, "/api/move", body);
        assert_eq!(s, 400, "{}: {e}", &body[..body.len().min(60)]);
        assert!(
            error_of(&e).contains(needle),
            "{}: {e}",
            &body[..body.len().min(60)]
        );
    }
    // Not JSON at all.
    let r = ureq::post(&format!("http://{addr}/api/move")).send_string("agent=easy");
    match r {
        Err(ureq::Error::Status(400, r)) => {
            assert!(r.into_string().unwrap().contains("Content-Type"));
        }
        other => panic!("expected a 400, got {other:?}"),
    }
    let (_, agents) = get(addr, "/api/agents");
    let kinds = agents["kinds"].as_array().unwrap();
    assert!(kinds.iter().any(|k| k["name"] == "hybrid"));
    // The book the server's exact answers read: the built-in one, every position of up to
    // 10 stones.
    assert_eq!(
        agents["book"],
        serde_json::json!({"plies": 10, "positions": 1_208_493})
    );
}

#[test]
fn evaluate_explains_each_model_and_column() {
    let runs = Runs::new("evaluate");
    let addr = start(config(&runs.0));
    let (_, models) = get(addr, "/api/models");
    let names: Vec<&str> = models["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["handtuned", "gbt.bin", "lms.bin", "ntuple.bin"]);

    let (s, e) = get(addr, "/api/evaluate?model=gbt&moves=4453&top=5");
    assert_eq!(s, 200, "{e}");
    assert_eq!(e["kind"], "gbt");
    assert_eq!(e["features"], "cells+oddeven");
    let cols = e["columns"].as_array().unwrap();
    assert_eq!(cols.len(), 7);
    for c in cols {
        let x = &c["explanation"];
        let p: Vec<f64> = x["probabilities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        // The column's value is P(win) - P(loss) for the mover.
        assert!(
            (c["value"].as_f64().unwrap() - (p[2] - p[0])).abs() < 1e-9,
            "{c}"
        );
        let contributions = x["contributions"].as_array().unwrap();
        assert_eq!(contributions.len(), 5);
        // Largest first; bias, listed and the rest add up to log(P(win) / P(loss)).
        let sum: f64 = contributions
            .iter()
            .map(|c| c["contribution"].as_f64().unwrap())
            .sum::<f64>()
            + x["bias"].as_f64().unwrap()
            + x["rest"].as_f64().unwrap();
        assert!((sum - (p[2] / p[0]).ln()).abs() < 1e-6, "{sum} {p:?}");
    }
    // The linear model: the contributions add up to the value.
    let (_, e) = get(addr, "/api/evaluate?model=handtuned&moves=445");
    let x = &e["position"];
    let sum: f64 = x["contributions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["contribution"].as_f64().unwrap())
        .sum();
    assert!((sum - x["value"].as_f64().unwrap()).abs() < 1e-12);
    assert!((x["value"].as_f64().unwrap() + 0.2615).abs() < 1e-12);
    // The n-tuple network: each tuple's share, named by its cells; all of them (listed and
    // the rest) add up to atanh of the value.
    let (s, e) = get(addr, "/api/evaluate?model=ntuple&moves=4453&top=3");
    assert_eq!(s, 200, "{e}");
    assert_eq!(e["kind"], "ntuple");
    let x = &e["position"];
    let listed = x["contributions"].as_array().unwrap();
    assert_eq!(listed.len(), 3);
    assert!(
        listed[0]["feature"].as_str().unwrap().starts_with('t'),
        "{x}"
    );
    let sum: f64 = listed
        .iter()
        .map(|c| c["contribution"].as_f64().unwrap())
        .sum::<f64>()
        + x["rest"].as_f64().unwrap();
    let v = x["value"].as_f64().unwrap();
    assert!((sum - v.atanh()).abs() < 1e-4, "{sum} {v}");
    // A column that wins at once.
    let (_, e) = get(addr, "/api/evaluate?model=lms.bin&moves=121212");
    let first = &e["columns"][0];
    assert_eq!(first["result"], "win");
    assert!(first["value"].is_null());

    let (s, err) = get(addr, "/api/evaluate?model=nope&moves=4");
    assert_eq!(s, 404);
    assert!(error_of(&err).contains("no model \"nope\""), "{err}");
    let (s, err) = get(addr, "/api/evaluate?model=gbt&moves=1212121");
    assert_eq!(s, 400);
    assert!(error_of(&err).contains("game is over"), "{err}");
    let (s, err) = get(addr, "/api/evaluate?model=gbt&width=6&height=5");
    assert_eq!(s, 400);
    assert!(error_of(&err).contains("7x6"), "{err}");
    let (s, err) = get(addr, "/api/evaluate?moves=4");
    assert_eq!(s, 400);
    assert!(error_of(&err).contains("model"), "{err}");
}

#[test]
fn runs_are_listed_shown_and_served_without_escaping_their_folder() {
    let runs = Runs::new("runs");
    let addr = start(config(&runs.0));
    let (_, list) = get(addr, "/api/runs");
    let mut names: Vec<&str> = list["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["first", "second"]);

    let (s, run) = get(addr, "/api/runs/first");
    assert_eq!(s, 200, "{run}");
    assert!(run["report"].as_str().unwrap().starts_with("# A run"));
    // One format per chart, the SVG.
    assert_eq!(run["plots"], serde_json::json!(["plots/curve.svg"]));
    assert_eq!(run["ladder"]["elo"][0]["agent"], "easy");
    assert_eq!(run["files"].as_array().unwrap().len(), 4);
    let (_, empty) = get(addr, "/api/runs/second");
    assert!(empty["report"].is_null());

    let r = ureq::get(&format!("http://{addr}/runs/first/plots/curve.svg"))
        .call()
        .unwrap();
    assert_eq!(r.header("content-type"), Some("image/svg+xml"));
    assert!(r.into_string().unwrap().starts_with("<svg"));

    for path in [
        "/api/runs/nope",
        "/api/runs/..",
        "/runs/first/../secret.txt",
        "/runs/first/%2e%2e/secret.txt",
        "/runs/first/..%2Fsecret.txt",
        "/runs/first/missing.svg",
        "/runs/../first/report.md",
        "/no/such/page",
    ] {
        let (s, body) = get(addr, path);
        assert_eq!(s, 404, "{path}: {body}");
        assert!(!body.to_string().contains("not a run file"), "{path}");
    }
    // The page and its assets.
    let r = ureq::get(&format!("http://{addr}/")).call().unwrap();
    assert!(r.header("content-type").unwrap().starts_with("text/html"));
    let html = r.into_string().unwrap();
    assert!(html.contains("<script type=\"module\" src=\"app.js\"></script>"));
    for (asset, kind) in [
        ("/app.js", "text/javascript"),
        ("/backend.js", "text/javascript"),
        ("/view.js", "text/javascript"),
        ("/runs.js", "text/javascript"),
        ("/state.js", "text/javascript"),
        ("/review.js", "text/javascript"),
        ("/api.js", "text/javascript"),
        ("/board.js", "text/javascript"),
        ("/analysis.js", "text/javascript"),
        ("/url.js", "text/javascript"),
        ("/game.js", "text/javascript"),
        ("/controls.js", "text/javascript"),
        ("/worker.js", "text/javascript"),
        ("/connect4.mjs", "text/javascript"),
        ("/style.css", "text/css"),
        ("/favicon.ico", "image/svg+xml"),
        ("/connect4.wasm", "application/wasm"),
    ] {
        let r = ureq::get(&format!("http://{addr}{asset}")).call().unwrap();
        assert!(
            r.header("content-type").unwrap().starts_with(kind),
            "{asset}"
        );
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut r.into_reader(), &mut bytes).unwrap();
        assert!(bytes.len() > 200, "{asset}");
    }
    let (s, _) = get(addr, "/app.jsx");
    assert_eq!(s, 404);
}

/// Polls `/api/status` until `done` holds (or fails after a minute, naming what it saw).
fn wait_status(addr: SocketAddr, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let (_, s) = get(addr, "/api/status");
        if done(&s) {
            return s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "waiting for {what}: {s}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends a slow analysis (a 4-stone position on 8x7, which no book covers: minutes to
/// solve) on a raw socket.
fn slow_analysis(addr: SocketAddr) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET /api/analyze?moves=4444&width=8&height=7&ms=60000 HTTP/1.1\r\nHost: test\r\n\r\n"
    )
    .unwrap();
    s
}

#[test]
fn a_client_that_leaves_cancels_its_work_and_heavy_work_is_bounded() {
    let runs = Runs::new("cancel");
    let addr = start(ServeConfig {
        heavy: 1,
        queue_wait: Duration::from_millis(300),
        analyze_max: Duration::from_secs(60),
        ..config(&runs.0)
    });
    let client = slow_analysis(addr);
    wait_status(addr, "the slow analysis to start", |s| s["in_flight"] == 1);
    // The only heavy slot is taken: light requests and the quick lane's work (book answers,
    // the last plies, shallow searches) still answer; heavy work gets a 503 that says when
    // to ask again.
    let (s, _) = get(addr, "/api/evaluate?model=gbt&moves=4453");
    assert_eq!(s, 200);
    let (s, e) = get(
        addr,
        "/api/analyze?moves=2252576253462244111563365343671351441",
    );
    assert_eq!(s, 200, "{e}");
    let (s, e) = get(addr, "/api/analyze?moves=4453");
    assert_eq!(s, 200, "{e}");
    let (s, _) = post(addr, "/api/move", r#"{"agent": "easy", "moves": "4"}"#);
    assert_eq!(s, 200);
    let (s, _) = post(addr, "/api/move", r#"{"agent": "perfect", "moves": "4"}"#);
    assert_eq!(s, 200);
    let refused = match ureq::get(&format!(
        "http://{addr}/api/analyze?moves=44445555&width=8&height=7"
    ))
    .call()
    {
        Err(ureq::Error::Status(503, r)) => r,
        other => panic!("a heavy analysis while the heavy slot is taken: {other:?}"),
    };
    assert_eq!(refused.header("retry-after"), Some("1"));
    let e: Value = serde_json::from_str(&refused.into_string().unwrap()).unwrap();
    assert!(error_of(&e).contains("busy"), "{e}");
    let (s, e) = post(
        addr,
        "/api/move",
        r#"{"agent": "mcts:sims=100", "moves": "4"}"#,
    );
    assert_eq!(s, 503, "{e}");
    let (_, status) = get(addr, "/api/status");
    assert_eq!(status["lanes"]["heavy"]["refused"], 2, "{status}");
    assert_eq!(status["lanes"]["quick"]["refused"], 0, "{status}");
    // The client goes away: its solver stops long before the 60 s limit.
    drop(client);
    let status = wait_status(addr, "the cancelled analysis to stop", |s| {
        s["in_flight"] == 0
    });
    assert_eq!(status["cancelled"], 1, "{status}");
    let (s, a) = get(
        addr,
        "/api/analyze?moves=2252576253462244111563365343671351441",
    );
    assert_eq!(s, 200, "{a}");

    // A time limit ends in bounds, marked incomplete, never an error.
    let (s, a) = get(addr, "/api/analyze?moves=4444&width=8&height=7&ms=200");
    assert_eq!(s, 200);
    assert_eq!(a["complete"], false);
    assert!(
        a["words"].as_str().unwrap().starts_with("still solving"),
        "{a}"
    );
    for c in a["columns"].as_array().unwrap() {
        assert!(c["low"].as_i64() <= c["high"].as_i64(), "{c}");
    }
    let status = wait_status(addr, "the limited analysis", |s| s["stopped_at_limit"] == 1);
    assert_eq!(status["in_flight"], 0);
}

/// A mistyped `--models` or `--runs` folder is named on stderr; the server still starts.
#[test]
fn missing_folders_are_reported_and_the_server_still_starts() {
    use std::io::{BufRead, BufReader};
    let args = [
        "--models",
        "no-such-models-folder",
        "--runs",
        "no-such-runs-folder",
    ];
    let (mut server, _url) = common::spawn_serve(&args, std::process::Stdio::piped());
    let mut err = BufReader::new(server.0.stderr.take().unwrap());
    let (mut first, mut second) = (String::new(), String::new());
    err.read_line(&mut first).unwrap();
    err.read_line(&mut second).unwrap();
    drop(server);
    assert_eq!(
        first.trim(),
        "warning: --models no-such-models-folder: no such folder; the models built into c4 are served"
    );
    assert!(second.contains("--runs no-such-runs-folder"), "{second:?}");
}

/// Started where no models folder is, the server plays every preset with the models built
/// into c4 and shows the shipped ladder's Elo.
#[test]
fn built_in_models_stand_in_for_a_missing_folder() {
    let runs = Runs::new("builtin");
    let addr = start(ServeConfig {
        models: runs.0.join("no-models-here"),
        ..config(&runs.0)
    });
    let (status, agents) = get(addr, "/api/agents");
    assert_eq!(status, 200);
    let presets = agents["presets"].as_array().unwrap();
    // Every preset of the ladder has its Elo; the adaptive one plays at the player's.
    assert!(
        presets
            .iter()
            .all(|p| p["elo"].is_number() == (p["agent"] != "adaptive")),
        "{presets:?}"
    );
    let models = agents["models"].as_array().unwrap();
    for name in ["gbt.bin", "lms.bin", "ntuple.bin"] {
        assert!(models.iter().any(|m| m == name), "{name} in {models:?}");
    }
    for p in presets {
        let body = format!(
            r#"{{"agent":"{}","moves":"44"}}"#,
            p["agent"].as_str().unwrap()
        );
        let (status, m) = post(addr, "/api/move", &body);
        assert_eq!(status, 200, "{body}: {m}");
        assert!((1..=7).contains(&m["column"].as_u64().unwrap()));
    }
}

/// No agent spec can hold the server: options that scale work or memory past the documented
/// ceilings get a 400 naming the option and the ceiling; below them, the time limit ends
/// every kind of agent with the best move found so far, and a client that leaves stops its
/// move.
#[test]
fn no_agent_request_can_hold_the_server() {
    let runs = Runs::new("bounded");
    let addr = start(ServeConfig {
        heavy: 1,
        move_limit: Duration::from_millis(500),
        ..config(&runs.0)
    });
    for (agent, option, max) in [
        ("mcts:sims=100000000", "sims=100000000", "1000000"),
        ("rollouts:playouts=1000000", "playouts=1000000", "5000"),
        ("hybrid:rollouts=1000000", "rollouts=1000000", "5000"),
        ("negamax:eval=handtuned,depth=60", "depth=60", "42"),
        ("gbt:schedule=10:50", "depth=50", "42"),
        ("ntuple:ms=100000", "ms=100000", "500"),
        ("lms:tt=26", "tt=26", "22"),
        ("perfect:tt=1024", "tt=1024", "64"),
        ("adaptive:depth=50", "depth=50", "42"),
    ] {
        let (s, e) = post(
            addr,
            "/api/move",
            &format!(r#"{{"agent": "{agent}", "moves": "4453"}}"#),
        );
        assert_eq!(s, 400, "{agent}: {e}");
        let e = error_of(&e);
        assert!(e.contains(option) && e.contains(max), "{agent}: {e}");
    }
    // The ceilings are documented by the server itself.
    let (_, agents) = get(addr, "/api/agents");
    let limits = agents["limits"].as_array().unwrap();
    assert!(
        limits
            .iter()
            .any(|l| l["option"] == "sims" && l["max"] == 1_000_000)
    );

    // At the ceilings every kind is stopped by the 0.5 s limit and still answers a legal
    // column, marked as cut short.
    let mut stopped = 0;
    for agent in [
        "mcts:sims=1000000",
        "rollouts:playouts=5000,depth=42",
        "hybrid:rollouts=5000,depth=42",
        "negamax:eval=handtuned,depth=42,tt=22",
        "ntuple:depth=42",
        "adaptive:depth=42",
    ] {
        let (s, m) = post(
            addr,
            "/api/move",
            &format!(r#"{{"agent": "{agent}", "moves": "4"}}"#),
        );
        assert_eq!(s, 200, "{agent}: {m}");
        let col = m["column"].as_u64().unwrap();
        assert!((1..=7).contains(&col), "{agent}: {m}");
        stopped += usize::from(m["stopped"] == true);
    }
    // Searches that end early (a proven result) are not cut short; most of these are.
    assert!(stopped >= 4, "{stopped} of 6 stopped");
    let status = wait_status(addr, "the moves to end", |s| s["in_flight"] == 0);
    assert!(
        status["stopped_at_limit"].as_u64().unwrap() >= 4,
        "{status}"
    );

    // A client that leaves in the middle of a move frees its slot.
    let mut client = TcpStream::connect(addr).unwrap();
    let body = r#"{"agent": "mcts:sims=1000000", "moves": ""}"#;
    write!(
        client,
        "POST /api/move HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    wait_status(addr, "the move to start", |s| s["in_flight"] == 1);
    drop(client);
    let status = wait_status(addr, "the abandoned move to stop", |s| s["in_flight"] == 0);
    assert!(status["cancelled"].as_u64().unwrap() >= 1, "{status}");
    // And the server still answers heavy work.
    let (s, m) = post(
        addr,
        "/api/move",
        r#"{"agent": "perfect", "moves": "4453"}"#,
    );
    assert_eq!(s, 200, "{m}");
}

/// The adaptive agent through the API: a move answer carries its estimate; `/api/adaptive`
/// reads a finished game and hands back the state to keep; bad input is a 400 naming it.
#[test]
fn the_adaptive_agent_keeps_its_estimate_in_the_pages_hands() {
    let runs = Runs::new("adaptive");
    let addr = start(config(&runs.0));
    let (s, m) = post(addr, "/api/move", r#"{"agent": "adaptive", "moves": "44"}"#);
    assert_eq!(s, 200, "{m}");
    let first = &m["adaptive"];
    assert_eq!(first["games"], 0, "{m}");
    assert_eq!(first["finished"], false);
    let state = first["state"].as_str().unwrap().to_string();
    // The game x won with four in column 1, the agent playing o: read, one game more.
    let body =
        serde_json::json!({"agent": "adaptive", "moves": "1212121", "side": "o", "state": state});
    let (s, end) = post(addr, "/api/adaptive", &body.to_string());
    assert_eq!(s, 200, "{end}");
    assert_eq!(end["finished"], true);
    assert_eq!(end["games"], 1);
    assert!(end["estimate"].as_f64().unwrap().is_finite());
    // The next game starts from that state.
    let body = serde_json::json!({"agent": "adaptive", "moves": "", "state": end["state"]});
    let (s, next) = post(addr, "/api/move", &body.to_string());
    assert_eq!(s, 200, "{next}");
    assert_eq!(next["adaptive"]["games"], 1);
    // The dial plays, and its range is on offer for a slider.
    let (s, m) = post(
        addr,
        "/api/move",
        r#"{"agent": "level:elo=1500", "moves": "44"}"#,
    );
    assert_eq!(s, 200, "{m}");
    assert!(m.get("adaptive").is_none());
    let (_, agents) = get(addr, "/api/agents");
    assert!(agents["dial"]["low"].as_f64().unwrap() < agents["dial"]["high"].as_f64().unwrap());
    for (path, body, needle) in [
        (
            "/api/move",
            r#"{"agent": "level:elo=abc", "moves": "44"}"#,
            "elo=abc: an Elo from",
        ),
        (
            "/api/move",
            r#"{"agent": "adaptive", "moves": "44", "state": "{bad"}"#,
            "state",
        ),
        (
            "/api/adaptive",
            r#"{"agent": "adaptive", "moves": "44", "side": "z"}"#,
            "side \"z\"",
        ),
        (
            "/api/adaptive",
            r#"{"agent": "easy", "moves": "44", "side": "x"}"#,
            "not adaptive",
        ),
    ] {
        let (s, e) = post(addr, path, body);
        assert_eq!(s, 400, "{body}: {e}");
        assert!(error_of(&e).contains(needle), "{body}: {e}");
    }
}

/// Many players at once over real sockets: every request is answered, either with its answer
/// or with a 503 that says when to ask again; none is dropped or fails. While deep analyses
/// fill the heavy lane (and are refused past its queue), the quick lane's work (shallow
/// agents, book answers) is never refused.
#[test]
fn many_players_at_once_get_answers_or_a_503_that_says_when() {
    use connect4_ml::serve::load::{LoadConfig, run};
    let runs = Runs::new("load");
    let addr = start(ServeConfig {
        heavy: 1,
        heavy_queue: 2,
        quick: 2,
        ..config(&runs.0)
    });
    let report = run(
        &LoadConfig {
            url: format!("http://{addr}"),
            players: 40,
            solvers: 4,
            duration: Duration::from_secs(6),
            think: Duration::from_millis(50),
            seed: 5,
            ..LoadConfig::default()
        },
        None,
        &connect4_engine::progress::Quiet,
    );
    let table = report.table();
    assert_eq!(report.failures(), 0, "{table}");
    assert!(report.games > 0, "{table}");
    let route = |name: &str| {
        report
            .routes
            .iter()
            .find(|r| r.route == name)
            .unwrap_or_else(|| panic!("no {name} in\n{table}"))
    };
    for quick in ["move easy", "move hard", "move gbt:depth=3"] {
        let r = route(quick);
        assert!(r.ok > 0, "{table}");
        assert_eq!(r.busy, 0, "{quick} was refused:\n{table}");
    }
    // The heavy lane was full: refused with Retry-After, every time.
    let deep = route("analyze (12 plies, solving)");
    assert!(deep.busy > 0, "{table}");
    assert_eq!(deep.busy_without_retry_after, 0, "{table}");
    let (_, status) = get(addr, "/api/status");
    assert_eq!(status["lanes"]["quick"]["refused"], 0, "{status}");
}

/// `c4 bench serve` as a user runs it: it starts its own server, plays, prints the table,
/// writes the JSON; bad flags exit 2 naming the value.
#[test]
fn bench_serve_starts_a_server_plays_and_reports() {
    let dir = common::temp_dir("bench-serve");
    let out = dir.join("load.json");
    let o = common::c4(&[
        "bench",
        "serve",
        "--players",
        "4",
        "--seconds",
        "2",
        "--agents",
        "easy",
        "perfect",
        "--serve-args",
        "--heavy 1 --quick 1 --tt-mib 8",
        "--strict",
        "--out",
        out.to_str().unwrap(),
    ]);
    let printed = common::ok(&o, "c4 bench serve");
    assert!(printed.contains("4 players (and 0 solving)"), "{printed}");
    assert!(printed.contains("move easy"), "{printed}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["players"], 4);
    assert!(v["server_peak_rss_mib"].as_f64().unwrap() > 1.0, "{v}");
    let routes = v["routes"].as_array().unwrap();
    assert!(routes.iter().any(|r| r["route"] == "move perfect"), "{v}");
    for (args, says) in [
        (&["--analyze-chance", "1.5"][..], "1.5 is not in [0, 1]"),
        (&["--players", "0"][..], "must be at least 1"),
        (&["--agents", "perfect:tt=x"][..], "perfect:tt=x"),
    ] {
        let o = common::c4(&[&["bench", "serve"][..], args].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", common::both(&o));
        assert!(
            common::both(&o).contains(says),
            "{args:?}: {}",
            common::both(&o)
        );
    }
}
