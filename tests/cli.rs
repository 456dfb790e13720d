//! The `c4` binary as a user drives it: good input, bad input, exit codes.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{c4_with_stdin as c4, text};

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
#[ignore = "needs Pons' files in ../shared/data/pons: run with --include-ignored"]
fn analyze_draws_board_and_scores() {
    let out = c4(&["analyze", "4453", "--tt-mib", "16"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains(". . o x x . ."), "{s}");
    assert!(s.contains("1 2 3 4 5 6 7"));
    assert!(s.contains("score   -5  -5  -2  -3  -4  -2  -2"), "{s}");
    assert!(s.contains("best column(s): 3, 6, 7"), "{s}");
    // The numbers themselves, checked against independent data: the first line of the Pons
    // middle-game file is a position Q = P + c with its score, so `c4 analyze P` must print
    // minus that score in column c.
    let pons = std::fs::read_to_string(common::shared_data("pons/Test_L2_R1")).unwrap();
    for line in pons.lines().take(5) {
        let (moves, score) = line.split_once(' ').unwrap();
        let (parent, last) = moves.split_at(moves.len() - 1);
        let col: usize = last.parse().unwrap();
        let out = c4(&["analyze", parent, "--tt-mib", "16"], "");
        let s = text(&out.stdout);
        let row = s.lines().find(|l| l.starts_with("score")).unwrap();
        let cells: Vec<&str> = row.split_whitespace().skip(1).collect();
        let want = (-score.parse::<i32>().unwrap()).to_string();
        assert_eq!(cells[col - 1], want, "analyze {parent}, column {col}:\n{s}");
    }
}

#[test]
fn analyze_answers_the_same_on_any_number_of_threads() {
    // Past the book (every child searched) on 7x6 and on 5x4 (its built-in book ends at 8):
    // one thread, fewer than the columns, and more threads than columns or cores.
    for args in [
        vec!["analyze", "44444412367"],
        vec!["analyze", "3455443127"],
        vec!["analyze", "--width", "5", "--height", "4", "313155242"],
    ] {
        let outs: Vec<String> = ["1", "3", "16"]
            .iter()
            .map(|t| {
                let mut a = args.clone();
                a.extend(["--threads", t]);
                let out = c4(&a, "");
                assert!(out.status.success(), "{a:?}: {}", text(&out.stderr));
                text(&out.stdout)
            })
            .collect();
        assert!(outs[0].contains("position score"), "{}", outs[0]);
        assert!(outs.iter().all(|o| *o == outs[0]), "{args:?}: {outs:?}");
    }
    let out = c4(&["analyze", "4", "--threads", "0"], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("--threads 0"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn analyze_and_solve_boards_past_64_bits() {
    // 8x8 and 9x7 (72 bits) run on u128 bitboards: every column's score, the same on one
    // thread and two, and each equal to minus `c4 solve` of its child.
    for (w, h, moves, scores) in [
        (
            "8",
            "8",
            "637122614117422267122177141635748278646744846688",
            "score    -   -   8   -   8   -   -  -8",
        ),
        (
            "9",
            "7",
            "5691841326847924157538392282311553367283259818",
            "score   -9   -   -   9  -9   9   9   -  -9",
        ),
    ] {
        let mut last = None;
        for threads in ["1", "2"] {
            let args = [
                "analyze",
                "--width",
                w,
                "--height",
                h,
                "--threads",
                threads,
                moves,
            ];
            let out = c4(&args, "");
            assert!(out.status.success(), "{}", text(&out.stderr));
            let stdout = text(&out.stdout);
            assert!(stdout.contains(scores), "{w}x{h}:\n{stdout}");
            if let Some(prev) = last.replace(stdout.clone()) {
                assert_eq!(prev, stdout, "{w}x{h} on 1 and 2 threads");
            }
        }
        let width: usize = w.parse().unwrap();
        let children: String = (0..width).map(|c| format!("{moves}{}\n", c + 1)).collect();
        let out = c4(&["solve", "--width", w, "--height", h], &children);
        // Full columns and finished games are lines the solver refuses or reports: compare
        // only the columns analyze scored.
        let solved: std::collections::HashMap<String, i32> = text(&out.stdout)
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                (f[0].to_string(), f[1].parse().unwrap())
            })
            .collect();
        let cells: Vec<&str> = scores.split_whitespace().skip(1).collect();
        for (c, cell) in cells.iter().enumerate() {
            let child = format!("{moves}{}", c + 1);
            match (cell.parse::<i32>(), solved.get(&child)) {
                (Ok(v), Some(s)) => assert_eq!(v, -s, "{w}x{h} column {}", c + 1),
                (Ok(v), None) => assert!(v > 0, "{w}x{h} column {}: a win ends the game", c + 1),
                (Err(_), _) => assert!(!solved.contains_key(&child), "full column {}", c + 1),
            }
        }
    }
}

#[test]
fn analyze_small_board_and_errors() {
    let out = c4(&["analyze", "--width", "4", "--height", "4", "-"], "");
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("position score 0 (draw)"));
    let out = c4(&["analyze", "4459"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("move 4: column 9 is out of range 1..=7"));
    // Past 128 bits of board: a usage error (exit 2) naming the size.
    let out = c4(&["analyze", "--width", "12", "--height", "10", "1"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .contains("board 12x10 is too large: width*(height+1) = 132 bits, at most 128"),
        "{}",
        text(&out.stderr)
    );
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
    // Past 9 columns the move codec writes columns 10, 11, 12 as a, b, c.
    let late = "ba2abcb91b6892c8a577831272a67989c616c351";
    let out = c4(&["analyze", "--width", "12", "--height", "4", late], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("40 stones"),
        "{}",
        text(&out.stdout)
    );
    let upper = late.to_uppercase();
    let again = c4(&["analyze", "--width", "12", "--height", "4", &upper], "");
    assert_eq!(
        text(&again.stdout),
        text(&out.stdout),
        "letters read in either case"
    );
    let out = c4(&["analyze", "--width", "12", "--height", "4", "1d"], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("move 2: column 13 is out of range 1..=12"),
        "{}",
        text(&out.stderr)
    );
    let out = c4(&["analyze", "--width", "40", "--height", "1", "1"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("at most 35 columns"),
        "{}",
        text(&out.stderr)
    );
    let out = c4(&["analyze", "--tt-mib", "lots", "4"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--tt-mib"));
}

#[test]
#[ignore = "needs Pons' files in ../shared/data/pons: run with --include-ignored"]
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

#[test]
fn play_plain_reads_moves_answers_illegal_input_and_finishes() {
    // A 7x2 board, the person first against easy: bad input of every kind is answered and
    // asked again, a hint is solved on the spot, a full column is refused, and the game
    // ends with a result.
    let mut input = String::from("9\nabc\n0\nu\n?\n1\n1\n1\n");
    for _ in 0..10 {
        input.push_str("2\n3\n4\n5\n6\n7\n");
    }
    let out = c4(
        &[
            "play", "--plain", "--agent", "easy", "--first", "human", "--seed", "3", "--height",
            "2",
        ],
        &input,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.starts_with("You play x (first) against easy."), "{s}");
    assert!(
        s.contains("Column 9 is not on the board (1-7). Try again."),
        "{s}"
    );
    assert!(s.contains("'abc' is not a column number (1-7), u, ? or q. Try again."));
    assert!(s.contains("Column 0 is not on the board"));
    assert!(s.contains("Nothing to undo."));
    // No four fits vertically on two rows, and the empty 7x2 board is a draw.
    assert!(s.contains("Solver scores per column (positive wins, 0 draws, negative loses; larger is faster): 1:+0 2:+0 3:+0 4:+0 5:+0 6:+0 7:+0"), "{s}");
    assert!(s.contains("easy plays "));
    assert!(
        s.contains("Illegal move: move 5: column 1 is full. Try again."),
        "{s}"
    );
    let last = s.lines().last().unwrap();
    assert!(
        last.contains("You win") || last.contains("easy wins") || last.contains("Draw"),
        "{last}"
    );
}

#[test]
fn play_plain_hint_undo_and_end_of_input() {
    // Agent first. Hints after one, three, seven and nine stones come from the built-in
    // 10-ply book (every child in it); after eleven stones, past that book, the board is too
    // open to solve quickly. Then the person takes the move back and the input ends.
    let moves = "?\n4\n?\n3\n5\n?\n4\n?\n3\n?\nu\n";
    let play = [
        "play", "--plain", "--agent", "perfect", "--first", "agent", "--seed", "1",
    ];
    // The repository's 12-ply book, read by default from its root, answers the last one too.
    let deep = c4(&play, moves);
    assert!(deep.status.success(), "{}", text(&deep.stderr));
    let deep = text(&deep.stdout);
    assert!(
        deep.matches("Solver scores per column").count() == 5
            && deep.contains("larger is faster): 1:-12 2:-10 3:-10 4:- 5:-4 6:-8 7:-10"),
        "{deep}"
    );
    let out = c4(
        &[&["--book", "data/book-7x6.bin"][..], &play[..]].concat(),
        moves,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("You play o (second) against perfect."), "{s}");
    assert!(s.contains("perfect plays 4"), "{s}");
    assert!(
        s.contains("Solver scores per column (positive wins, 0 draws, negative loses; larger is faster): 1:-4 2:-2 3:-2 4:-1 5:-2 6:-2 7:-4"),
        "{s}"
    );
    assert!(
        s.contains("Solver scores per column (positive wins, 0 draws, negative loses; larger is faster): 1:-4 2:-4 3:-3 4:-1 5:-3 6:-4 7:-4"),
        "{s}"
    );
    assert!(
        s.matches("Solver scores per column").count() == 4
            && s.contains("No hint: too early to solve quickly (31 empty cells)"),
        "{s}"
    );
    assert!(s.contains("Took back your last move."));
    assert!(s.contains("Input ended; game left unfinished."));
}

#[test]
fn tournament_writes_games_csv_and_summary_json() {
    let dir = std::env::temp_dir().join(format!("c4-tournament-{}", std::process::id()));
    let out = c4(
        &[
            "tournament",
            "--agents",
            "random,window:depth=2,easy",
            "--games",
            "4",
            "--seed",
            "9",
            "--out",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("score %") && s.contains("95% interval"), "{s}");
    let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "game,first,second,opening,moves,result,winner,plies,first_ms_per_move,second_ms_per_move"
    );
    assert_eq!(lines.count(), 12);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(json["total_games"], 12);
    assert_eq!(json["pairings"].as_array().unwrap().len(), 3);
    assert_eq!(json["elo"].as_array().unwrap().len(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_ten_column_tournament_writes_moves_the_codec_reads_back() {
    let dir = std::env::temp_dir().join(format!("c4-tournament-10x5-{}", std::process::id()));
    let out = c4(
        &[
            "tournament",
            "--agents",
            "random,easy",
            "--games",
            "6",
            "--seed",
            "9",
            "--width",
            "10",
            "--height",
            "5",
            "--out",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut r = csv::Reader::from_path(dir.join("games.csv")).unwrap();
    let geom = connect4_engine::Geometry::new(10, 5).unwrap();
    let mut letters = 0;
    for row in r.records() {
        let row = row.unwrap();
        let moves = &row[4];
        let p = connect4_engine::Position::from_moves(geom, moves)
            .unwrap_or_else(|e| panic!("{moves}: {e}"));
        assert_eq!(p.moves_played().to_string(), row[7].to_string(), "{moves}");
        letters += moves.matches('a').count();
    }
    assert!(letters > 0, "column 10 is written as a");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn calibrate_on_another_board_makes_its_ladder_and_reads_the_7x6_scale() {
    let dir = std::env::temp_dir().join(format!("c4-calibrate-5x4-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("level.json");
    let args = [
        "calibrate",
        "--width",
        "5",
        "--height",
        "4",
        "--games",
        "2",
        "--skills",
        "0,0.5,1",
        "--ladder-games",
        "2",
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
    ];
    let run = c4(&args, "");
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(
        text(&run.stdout).contains("no ladder for 5x4 yet"),
        "{}",
        text(&run.stdout)
    );
    let ladder: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("ladder-5x4.json")).unwrap())
            .unwrap();
    assert_eq!(ladder["board"], "5x4");
    let agents: Vec<&str> = ladder["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(
        agents,
        [
            "random",
            "easy",
            "hard",
            "ntuple:depth=1,safe=true",
            "perfect:ties=random"
        ]
    );
    let cal = connect4_engine::agents::level::Calibration::from_json(
        &std::fs::read_to_string(&out).unwrap(),
    )
    .unwrap();
    assert_eq!((cal.board.as_str(), cal.points.len()), ("5x4", 3));
    // random, easy and hard average on 5x4 what they average on the 7x6 ladder.
    let mean = |anchors: &[connect4_engine::agents::level::Anchor]| {
        let xs: Vec<f64> = anchors
            .iter()
            .filter(|a| ["random", "easy", "hard"].contains(&a.agent.as_str()))
            .map(|a| a.elo)
            .collect();
        xs.iter().sum::<f64>() / xs.len() as f64
    };
    let std6 = connect4_engine::agents::level::Calibration::builtin();
    assert!((mean(&cal.anchors) - mean(&std6.anchors)).abs() < 1e-6);
    // A second run reads the ladder it made (no new tournament).
    let again = c4(&args, "");
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(
        !text(&again.stdout).contains("no ladder"),
        "{}",
        text(&again.stdout)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_dial_is_calibrated_and_answers_are_timed_past_64_bits() {
    let dir = std::env::temp_dir().join(format!("c4-calibrate-8x8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("level.json");
    let run = c4(
        &[
            "calibrate",
            "--width",
            "8",
            "--height",
            "8",
            "--games",
            "1",
            "--skills",
            "0,1",
            "--ladder-games",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    let ladder: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("ladder-8x8.json")).unwrap())
            .unwrap();
    assert_eq!(ladder["board"], "8x8");
    // No perfect player on 8x8: MCTS is the ladder's strong end.
    assert!(
        ladder["agents"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("mcts:sims=2000")),
        "{ladder}"
    );
    let cal = connect4_engine::agents::level::Calibration::from_json(
        &std::fs::read_to_string(&out).unwrap(),
    )
    .unwrap();
    assert_eq!((cal.board.as_str(), cal.points.len()), ("8x8", 2));
    // Every agent of the page answers there, timed as the page asks.
    let times = dir.join("answers.json");
    let run = c4(
        &[
            "bench",
            "answers",
            "--width",
            "8",
            "--height",
            "8",
            "--games",
            "1",
            "--agents",
            "easy",
            "adaptive",
            "--out",
            times.to_str().unwrap(),
        ],
        "",
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(
        text(&run.stdout).contains("answer times on 8x8"),
        "{}",
        text(&run.stdout)
    );
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&times).unwrap()).unwrap();
    let agents: Vec<&str> = t
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["agent"].as_str().unwrap())
        .collect();
    assert_eq!(agents, ["easy", "adaptive"]);
    assert!(t[1]["moves"].as_u64().unwrap() > 0, "{t}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_agent_specs_fail_with_a_message() {
    let out = c4(
        &[
            "tournament",
            "--agents",
            "easy,hard:depth=3",
            "--games",
            "2",
        ],
        "",
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("'hard' takes no option 'depth'"),
        "{}",
        text(&out.stderr)
    );
    let out = c4(&["play", "--plain", "--agent", "wizard"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown agent 'wizard'"));
}

#[test]
fn bench_agent_grades_moves_against_the_solver() {
    let dir = std::env::temp_dir().join(format!("c4-bench-agent-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("set");
    // x to move wins at once in column 4; the second line has no score (solved on the fly).
    std::fs::write(&file, "112233 18\n2252576253462244111563365343671351441\n").unwrap();
    let out = c4(
        &[
            "bench",
            "agent",
            "--agent",
            "random",
            "--json",
            file.to_str().unwrap(),
            "--jobs",
            "1",
            "--tt-mib",
            "8",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json[0]["positions"], 2);
    let out = c4(
        &[
            "bench",
            "agent",
            "--agent",
            "hard",
            "--json",
            file.to_str().unwrap(),
            "--tt-mib",
            "8",
        ],
        "",
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // hard takes the immediate win; the other position is lost whatever is played.
    assert_eq!(json[0]["errors"], 0);
    assert!(json[0]["optimal"].as_u64().unwrap() >= 1);
    // A bad line names file and line.
    std::fs::write(&file, "4444444 3\n").unwrap();
    let out = c4(
        &["bench", "agent", "--agent", "easy", file.to_str().unwrap()],
        "",
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("line 1: move 7: column 4 is full"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_say_each_cause_once_and_the_cli_adds_the_flag_that_fixes_them() {
    let dir = std::env::temp_dir().join(format!("c4-cli-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The library says there are no games; the CLI names the flag.
    let out = c4(
        &["tournament", "--agents", "random,easy", "--games", "0"],
        "",
    );
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("no games to play") && err.contains("--games must be at least 1"),
        "{err}"
    );
    // A truncated model file: its path and what is wrong, once each.
    let good =
        std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/lms.bin"))
            .unwrap();
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &good[..good.len() / 2]).unwrap();
    let spec = format!("model:{}", cut.display());
    let out = c4(
        &[
            "tournament",
            "--agents",
            &format!("{spec},easy"),
            "--games",
            "1",
        ],
        "",
    );
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert_eq!(err.matches("truncated").count(), 1, "{err}");
    assert!(err.contains(&cut.display().to_string()), "{err}");
    // A binary file where UCI rows are expected: line and column, no debug dump.
    let bin = dir.join("bin.data");
    std::fs::write(&bin, [0xff, 0xfe, 0x00, b',', 0x80, b'\n']).unwrap();
    let out = c4(&["data", "uci", "--uci", bin.to_str().unwrap()], "");
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("bin.data:1: ") && !err.contains('{'), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn data_positions_writes_distinct_moves_lines_spread_over_the_stones() {
    let dir = std::env::temp_dir().join(format!("c4-cli-positions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 30 positions of 12-14 stones with `seed` and any `extra` flags, written to `to`.
    let sample_with = |seed: &str, extra: &[&str], to: &std::path::Path| {
        let mut args = vec!["data", "positions", "--plies", "12..14", "--count", "30"];
        args.extend(["--seed", seed, "--out", to.to_str().unwrap()]);
        args.extend(extra);
        c4(&args, "")
    };
    let sample = |to: &std::path::Path| sample_with("3", &[], to);
    let out_file = dir.join("p.txt");
    let out = sample(&out_file);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("positions per stone count: 12:10 13:10 14:10"),
        "{stdout}"
    );
    let lines: Vec<String> = std::fs::read_to_string(&out_file)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 30);
    let mut keys = std::collections::HashSet::new();
    for l in &lines {
        let p =
            connect4_engine::Position::from_moves(connect4_engine::Geometry::STANDARD, l).unwrap();
        assert!((12..=14).contains(&p.moves_played()), "{l}");
        assert!(keys.insert(p.canonical_key()), "{l} repeats");
    }
    // The same seed, the same file.
    let again = dir.join("q.txt");
    let out = sample(&again);
    assert!(out.status.success());
    assert_eq!(
        std::fs::read(&out_file).unwrap(),
        std::fs::read(&again).unwrap()
    );
    // A held-out sample with another seed, gzip-compressed, overlaps none of the first
    // (mirror images included), and reads back through the one reader.
    let held = dir.join("held.txt.gz");
    let out = sample_with("4", &["--exclude", out_file.to_str().unwrap()], &held);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&held).unwrap()[..2], [0x1f, 0x8b]);
    let held_lines = connect4_learn::datasets::labelled::read_moves_file(
        &held,
        connect4_engine::Geometry::STANDARD,
        connect4_learn::datasets::labelled::Expect::Any,
    )
    .unwrap();
    assert_eq!(held_lines.len(), 30);
    for m in &held_lines {
        assert!(
            !keys.contains(&m.position.canonical_key()),
            "{} is in both",
            m.moves
        );
    }
    // Without the exclusion, the same seed meets some of the first sample's positions, so
    // the check above is not empty.
    let plain = dir.join("plain4.txt");
    let out = sample_with("4", &[], &plain);
    assert!(out.status.success());
    let shared = std::fs::read_to_string(&plain)
        .unwrap()
        .lines()
        .filter(|l| {
            let p = connect4_engine::Position::from_moves(connect4_engine::Geometry::STANDARD, l)
                .unwrap();
            keys.contains(&p.canonical_key())
        })
        .count();
    assert!(
        shared > 0,
        "seeds 3 and 4 share no position: pick another pair"
    );
    // Bad requests say what is wrong.
    let out = c4(
        &[
            "data",
            "positions",
            "--plies",
            "20..10",
            "--count",
            "5",
            "--out",
            "x",
        ],
        "",
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("LO is above HI"),
        "{}",
        text(&out.stderr)
    );
    let out = c4(
        &[
            "data",
            "positions",
            "--plies",
            "1..1",
            "--count",
            "9",
            "--out",
            "x",
        ],
        "",
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("only 4 distinct positions of 1 stones"),
        "{}",
        text(&out.stderr)
    );
    // Another board: 6x7 positions (the same seed, the same file), legal there; a board past
    // 128 bits is named and nothing is written.
    let tall = dir.join("tall.txt");
    let board = ["--width", "6", "--height", "7"];
    let out = sample_with("5", &board, &tall);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let g = connect4_engine::Geometry::new(6, 7).unwrap();
    let tall_lines = std::fs::read_to_string(&tall).unwrap();
    assert_eq!(tall_lines.lines().count(), 30);
    for l in tall_lines.lines() {
        let p = connect4_engine::Position::from_moves(g, l).unwrap();
        assert!((12..=14).contains(&p.moves_played()), "{l}");
    }
    // Six columns only, where the 7x6 sample above uses the seventh.
    assert!(
        tall_lines
            .lines()
            .all(|l| l.chars().all(|c| ('1'..='6').contains(&c)))
    );
    assert!(lines.iter().any(|l| l.contains('7')));
    let again = dir.join("tall2.txt");
    assert!(sample_with("5", &board, &again).status.success());
    assert_eq!(tall_lines, std::fs::read_to_string(&again).unwrap());
    let wide = dir.join("wide.txt");
    let out = sample_with("5", &["--width", "12", "--height", "10"], &wide);
    assert!(!out.status.success() && !wide.exists());
    assert!(text(&out.stderr).contains("12x10"), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn positions_are_sampled_labelled_merged_and_graded_past_64_bits() {
    use connect4_engine::agents::{AgentSpec, Resources, Turn};
    use connect4_engine::{Geometry, Position, Solver};
    let dir = std::env::temp_dir().join(format!("c4-cli-wide-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let board = ["--width", "8", "--height", "8"];
    let g = Geometry::<u128>::sized(8, 8).unwrap();
    // 8x8 is 72 bits: the default mix there leaves out `handtuned`, which has no weights.
    let mut args = vec!["data", "positions", "--plies", "40..44", "--count", "10"];
    args.extend(["--seed", "3", "--out"]);
    let sampled = path("p.txt");
    args.push(&sampled);
    args.extend(board);
    let out = c4(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<String> = std::fs::read_to_string(&sampled)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 10);
    let positions: Vec<Position<u128>> = lines
        .iter()
        .map(|l| Position::from_moves(g, l).unwrap())
        .collect();
    assert!(
        positions
            .iter()
            .all(|p| (40..=44).contains(&p.moves_played()))
    );
    assert!(
        lines.iter().any(|l| l.contains('8')),
        "the eighth column is played"
    );
    // Labelled as the solver scores them, in two shards that merge into the whole.
    let labelled = path("l.txt");
    let out = c4(
        &[&["data", "label", &sampled, "--out", &labelled][..], &board].concat(),
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut solver = Solver::<u128>::with_table_mib(g, 16).unwrap();
    let text_of = |p: &str| std::fs::read_to_string(p).unwrap();
    let scores: Vec<i32> = text_of(&labelled)
        .lines()
        .zip(&lines)
        .map(|(l, moves)| {
            let (m, s) = l.split_once(' ').unwrap();
            assert_eq!(m, moves);
            s.parse().unwrap()
        })
        .collect();
    for (p, &s) in positions.iter().zip(&scores) {
        assert_eq!(solver.solve(p), s);
    }
    let parts = [path("part0.txt"), path("part1.txt")];
    for (i, part) in parts.iter().enumerate() {
        let shard = format!("{i}/2");
        let args = ["data", "label", &sampled, "--shard", &shard, "--out", part];
        let out = c4(&[&args[..], &board].concat(), "");
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let merged = path("merged.txt");
    let args = ["data", "merge", &parts[0], &parts[1], "--out", &merged];
    let out = c4(&[&args[..], &board].concat(), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text_of(&merged), text_of(&labelled));
    // Graded: hard's errors are the moves that lose value by the solver's own reckoning.
    let args = ["bench", "agent", "--agent", "hard", "--json", &labelled];
    let out = c4(&[&args[..], &board].concat(), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary[0]["positions"], 10);
    let hard = "hard".parse::<AgentSpec>().unwrap();
    let factory = hard.factory_on(g, &Resources::default()).unwrap();
    let errors = positions
        .iter()
        .zip(&scores)
        .enumerate()
        .filter(|&(i, (p, &s))| {
            let col = factory.build(i as u64).unwrap().choose(&Turn::new(*p));
            let value = if p.is_winning_move(col) {
                1
            } else {
                let mut child = *p;
                child.play_col(col);
                -solver.solve(&child).signum()
            };
            value < s.signum()
        })
        .count();
    assert_eq!(summary[0]["errors"], errors);
    // On a board past 64 bits the 64-bit-only agents and models are named, not run.
    let out = c4(
        &[&["bench", "agent", "--agent", "gbt", &labelled][..], &board].concat(),
        "",
    );
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("8x8"), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_dial_refuses_a_bad_elo_with_exit_status_2() {
    for (spec, needle) in [
        ("level:elo=abc", "elo=abc: an Elo from"),
        ("level:elo=5000", "elo=5000: an Elo from"),
        ("adaptive:start=-3", "start=-3: an Elo from"),
    ] {
        let out = c4(
            &["tournament", "--agents", spec, "random", "--games", "2"],
            "",
        );
        assert_eq!(out.status.code(), Some(2), "{spec}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains(needle),
            "{spec}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn play_keeps_the_adaptive_agents_estimate_in_a_state_file() {
    let dir = std::env::temp_dir().join(format!("c4-adaptive-state-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("me.json");
    let st = state.to_str().unwrap();
    // Columns in turn until the game ends (a full column is refused and the next tried).
    let moves: String = (0..120).map(|i| format!("{}\n", i % 7 + 1)).collect();
    let args = [
        "play",
        "--plain",
        "--agent",
        "adaptive:ms=200",
        "--first",
        "human",
        "--seed",
        "3",
        "--state",
        st,
    ];
    let out = c4(&args, &moves);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("now rates you at"),
        "{}",
        text(&out.stdout)
    );
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["games"], 1);
    // The next session starts from it.
    let out = c4(&args, &moves);
    assert!(
        text(&out.stdout).contains("(1 game so far)"),
        "{}",
        text(&out.stdout)
    );
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["games"], 2);
    // A file that is not a state: exit 2, the file named, nothing written over it.
    std::fs::write(&state, "garbage").unwrap();
    let out = c4(&args, &moves);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("me.json"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&state).unwrap(), "garbage");
    // Only the adaptive agent keeps a state.
    let out = c4(&["play", "--plain", "--agent", "easy", "--state", st], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("not adaptive"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_command_finds_the_built_in_models_from_any_folder() {
    // Run where there is no models/ folder (as after `cargo install`): the shipped models
    // stand in, each named once on stderr; an explicit path that does not exist is still an
    // error, and a file of the folder wins over the built-in copy.
    let dir = common::temp_dir("models-anywhere");
    let dir: &std::path::Path = &dir;
    std::fs::write(dir.join("set"), "112233 18\n4453\n").unwrap();
    let run = |args: &[&str]| common::c4_in(dir, args);
    let told = |o: &std::process::Output, name: &str| {
        let e = text(&o.stderr);
        let line = format!("c4: models/{name} is not here: using the {name} built into c4");
        assert_eq!(e.matches(&line).count(), 1, "{e}");
    };
    let t = run(&[
        "tournament",
        "--agents",
        "gbt:depth=1",
        "ntuple:depth=1",
        "random",
        "--games",
        "2",
        "--seed",
        "1",
        "--out",
        "t",
    ]);
    assert!(t.status.success(), "{}", text(&t.stderr));
    told(&t, "gbt.bin");
    told(&t, "ntuple.bin");
    let e = run(&[
        "evaluate",
        "--agent",
        "lms:depth=1",
        "--baseline",
        "random",
        "--games",
        "2",
        "--positions",
        "0",
        "--out",
        "e",
    ]);
    assert!(e.status.success(), "{}", text(&e.stderr));
    told(&e, "lms.bin");
    let b = run(&["bench", "agent", "--agent", "ntuple", "set", "--jobs", "1"]);
    assert!(b.status.success(), "{}", text(&b.stderr));
    told(&b, "ntuple.bin");
    let p = run(&["predict", "models/gbt.bin", "set"]);
    assert!(p.status.success(), "{}", text(&p.stderr));
    told(&p, "gbt.bin");
    assert!(
        text(&p.stdout).starts_with("moves,value"),
        "{}",
        text(&p.stdout)
    );
    // An explicit path elsewhere that does not exist: an error naming it, nothing stands in.
    let missing = run(&[
        "tournament",
        "--agents",
        "model:nope/gbt.bin,depth=1",
        "random",
        "--games",
        "2",
        "--out",
        "m",
    ]);
    assert!(!missing.status.success());
    let e = text(&missing.stderr);
    assert!(
        e.contains("nope/gbt.bin") && !e.contains("built into c4"),
        "{e}"
    );
    // A models/ folder with its own file: that file plays, nothing is said.
    std::fs::create_dir_all(dir.join("models")).unwrap();
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/ntuple.bin");
    std::fs::copy(shipped, dir.join("models/ntuple.bin")).unwrap();
    let own = run(&["bench", "agent", "--agent", "ntuple", "set", "--jobs", "1"]);
    assert!(own.status.success(), "{}", text(&own.stderr));
    assert!(
        !text(&own.stderr).contains("built into c4"),
        "{}",
        text(&own.stderr)
    );
}

#[test]
fn rate_holds_the_ladder_fixed_and_reproduces_at_any_thread_count() {
    let args = |jobs: &str| {
        c4(
            &[
                "rate", "--agent", "easy", "--games", "2", "--seed", "9", "--jobs", jobs,
                "--width", "5", "--height", "4", "--json",
            ],
            "",
        )
    };
    let one = args("1");
    assert!(one.status.success(), "{}", text(&one.stderr));
    let ratings: serde_json::Value = serde_json::from_str(&text(&one.stdout)).unwrap();
    let r = &ratings[0];
    assert_eq!(
        (r["agent"].as_str(), r["board"].as_str()),
        (Some("easy"), Some("5x4"))
    );
    // Every agent of the board's fixed ladder (built into c4), 2 games each, at the
    // ratings the board's dial was calibrated on.
    let ladder =
        connect4_learn::arena::fixed_ladder(connect4_engine::Geometry::new(5, 4).unwrap()).unwrap();
    let opponents = r["opponents"].as_array().unwrap();
    assert_eq!(opponents.len(), ladder.len());
    assert_eq!(r["games"], 2 * ladder.len());
    for o in opponents {
        let a = ladder
            .iter()
            .find(|a| o["opponent"] == a.agent.as_str())
            .unwrap();
        assert_eq!(o["opponent_elo"].as_f64(), Some(a.elo));
        assert_eq!(o["games"], 2);
    }
    let (elo, low, high) = (
        r["elo"].as_f64().unwrap(),
        r["low"].as_f64().unwrap(),
        r["high"].as_f64().unwrap(),
    );
    assert!(low < elo && elo < high);
    // Same seed, more threads than cores: the same games and rating.
    assert_eq!(text(&args("16").stdout), text(&one.stdout));
}

#[test]
fn rate_plays_the_ladder_of_a_board_past_64_bits() {
    let args = |jobs: &str| {
        c4(
            &[
                "rate", "--agent", "easy", "--games", "2", "--seed", "9", "--jobs", jobs,
                "--width", "8", "--height", "8", "--json",
            ],
            "",
        )
    };
    let one = args("1");
    assert!(one.status.success(), "{}", text(&one.stderr));
    let ratings: serde_json::Value = serde_json::from_str(&text(&one.stdout)).unwrap();
    let r = &ratings[0];
    assert_eq!(r["board"], "8x8");
    let ladder = connect4_learn::arena::fixed_ladder(
        connect4_engine::Geometry::<u128>::sized(8, 8).unwrap(),
    )
    .unwrap();
    assert_eq!(r["opponents"].as_array().unwrap().len(), ladder.len());
    assert!(ladder.iter().any(|a| a.agent.starts_with("mcts")));
    assert_eq!(text(&args("8").stdout), text(&one.stdout));
}

#[test]
fn rate_refuses_a_board_without_a_ladder_and_a_bad_spec() {
    let out = c4(
        &["rate", "--agent", "easy", "--width", "8", "--height", "5"],
        "",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("no ladder for 8x5"),
        "{}",
        text(&out.stderr)
    );
    let out = c4(&["rate", "--agent", "nosuch:depth=2"], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("nosuch"),
        "{}",
        text(&out.stderr)
    );
}
