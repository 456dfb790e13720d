//! The `c4` binary as a user drives it: good input, bad input, exit codes.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn c4(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_c4"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("c4 runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn solve_reads_stdin_and_prints_score_nodes_micros() {
    let out = c4(
        &["solve", "--tt-mib", "8"],
        "2252576253462244111563365343671351441 -1\n\n5554224333234511764415115\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<Vec<&str>> = stdout.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[0][..2],
        ["2252576253462244111563365343671351441", "-1"]
    );
    assert_eq!(lines[1][..2], ["5554224333234511764415115", "4"]);
    for l in &lines {
        assert_eq!(l.len(), 4);
        assert!(l[2].parse::<u64>().unwrap() > 0);
        assert!(l[3].parse::<u64>().is_ok());
    }
}

#[test]
fn solve_weak_gives_signs() {
    let out = c4(
        &["solve", "--weak", "--tt-mib", "8"],
        "5554224333234511764415115\n",
    );
    assert!(out.status.success());
    assert!(text(&out.stdout).starts_with("5554224333234511764415115 1 "));
}

#[test]
fn solve_reports_bad_lines_and_goes_on() {
    let out = c4(
        &["solve", "--tt-mib", "8"],
        "448\n2252576253462244111563365343671351441\n12x4\n1111111\n44 5 6\n",
    );
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("stdin: line 1: move 3: column 8 is out of range 1..=7"),
        "{err}"
    );
    assert!(
        err.contains("line 3: move 3: 'x' is not a column digit"),
        "{err}"
    );
    assert!(err.contains("line 4: move 7: column 1 is full"), "{err}");
    assert!(
        err.contains("line 5: expected \"MOVES\" or \"MOVES SCORE\", found 3 fields"),
        "{err}"
    );
    assert!(
        err.contains("4 line(s) of stdin could not be solved"),
        "{err}"
    );
    // The good line in the middle was still solved.
    assert!(text(&out.stdout).starts_with("2252576253462244111563365343671351441 -1 "));
}

#[test]
fn solve_reads_a_file_and_names_it_in_errors() {
    let dir = std::env::temp_dir().join(format!("c4-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("set.txt");
    std::fs::write(&f, "12121212\n").unwrap();
    let out = c4(&["solve", "--tt-mib", "8", f.to_str().unwrap()], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("set.txt: line 1: move 8: the game was already won"));
    let out = c4(&["solve", dir.join("missing").to_str().unwrap()], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("cannot open"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn analyze_draws_board_and_scores() {
    let out = c4(&["analyze", "4453", "--tt-mib", "16"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains(". . o x x . ."), "{s}");
    assert!(s.contains("1 2 3 4 5 6 7"));
    assert!(s.contains("score   -5  -5  -2  -3  -4  -2  -2"), "{s}");
    assert!(s.contains("best column(s): 3, 6, 7"), "{s}");
}

#[test]
fn analyze_small_board_and_errors() {
    let out = c4(&["analyze", "--width", "4", "--height", "4", "-"], "");
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("position score 0 (draw)"));
    let out = c4(&["analyze", "4459"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("move 4: column 9 is out of range 1..=7"));
    let out = c4(&["analyze", "--width", "9", "--height", "7", "1"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("board 9x7 is too large"));
    let out = c4(&["analyze", "--tt-mib", "0", "4"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("transposition table size 0 MiB"));
    let out = c4(&["analyze", "--tt-mib", "65536", "4"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("cannot allocate a 65536 MiB transposition table"));
    let out = c4(
        &["analyze", "--width", "10", "--height", "2", "--tt-mib", "1"],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("position score 0 (draw)"));
    let out = c4(&["analyze", "--width", "12", "--height", "4", "1"], "");
    assert!(text(&out.stderr).contains("at most 9 columns"));
    let out = c4(&["analyze", "--tt-mib", "lots", "4"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--tt-mib"));
}

#[test]
fn bench_solver_table_and_json() {
    let path = common::shared_data("pons/Test_L3_R1");
    let p = path.to_str().unwrap();
    let out = c4(
        &["bench", "solver", "--tt-mib", "8", "--limit", "50", p],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("Test_L3_R1"), "{s}");
    assert!(s.lines().nth(1).unwrap().contains(" 50 "), "{s}");
    let out = c4(
        &[
            "bench", "solver", "--weak", "--json", "--tt-mib", "8", "--limit", "20", p,
        ],
        "",
    );
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["positions"], 20);
    assert_eq!(v[0]["mismatches"], 0);
    assert_eq!(v[0]["mode"], "weak");
    assert!(v[0]["mean_nodes"].as_f64().unwrap() > 0.0);
}

#[test]
fn bench_solver_counts_mismatches_and_bad_lines() {
    let dir = std::env::temp_dir().join(format!("c4-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("wrong.txt");
    // Right, wrong score, illegal.
    std::fs::write(
        &f,
        "2252576253462244111563365343671351441 -1\n2252576253462244111563365343671351441 3\n99\n",
    )
    .unwrap();
    let out = c4(
        &[
            "bench",
            "solver",
            "--json",
            "--tt-mib",
            "8",
            f.to_str().unwrap(),
        ],
        "",
    );
    assert!(!out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["positions"], 2);
    assert_eq!(v[0]["mismatches"], 1);
    assert_eq!(v[0]["bad_lines"], 1);
    assert!(text(&out.stderr).contains("wrong.txt: line 3: move 1: column 9 is out of range"));
    std::fs::remove_dir_all(&dir).ok();
}
