//! The n-tuple network as a user meets it: `c4 train ntuple` (supervised and self-play, with
//! its curve, checkpoint and resume), the `ntuple` and `mcts` agent specs in tournaments and
//! evaluations, `c4 bench agent`'s six-set table, and `c4 plot` of the curve.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{both, c4, ok, s, temp_dir};

#[test]
fn train_ntuple_writes_a_network_that_plays_and_plots() {
    let d = temp_dir("ntuple");
    let out = d.join("n.bin");
    let cache = d.join("columns.json");
    let args = [
        "train",
        "ntuple",
        "--games",
        "400",
        "--supervised",
        "data/bench/end-easy",
        "--epochs",
        "2",
        "--tuples",
        "20",
        "--cells",
        "6",
        "--curve-every",
        "200",
        "--lanes",
        "4",
        "--lane-games",
        "50",
        "--curve-games",
        "4",
        "--curve-perfect",
        "2",
        "--curve-eps",
        "0.3",
        "--curve-positions",
        "5",
        "--curve-cache",
        s(&cache),
        "--checkpoint-every",
        "100",
        "--seed",
        "4",
        "--out",
        s(&out),
    ];
    let text = ok(&c4(&args), "train ntuple");
    assert!(text.contains("400 self-play games"), "{text}");
    assert!(text.contains("self-play after 400 games"), "{text}");
    for f in [
        "n.bin",
        "n.curve.csv",
        "n.perfect.csv",
        "n.report.json",
        "columns.json",
    ] {
        assert!(d.join(f).is_file(), "{f} missing");
    }
    assert!(
        !d.join("n.checkpoint").exists(),
        "a finished run removes its checkpoint"
    );
    // What the lanes cost: 400 games in rounds of 4 lanes x 50 games.
    assert!(text.contains("lanes: 2 rounds; combining "), "{text}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("n.report.json")).unwrap()).unwrap();
    assert_eq!(report["sync"]["rounds"], 2, "{report}");
    assert!(report["sync"]["combine_seconds"].as_f64().unwrap() > 0.0);
    // Curve: start, supervised, two self-play points, six sets each.
    let curve = std::fs::read_to_string(d.join("n.curve.csv")).unwrap();
    assert_eq!(curve.lines().count(), 1 + 4 * 6, "{curve}");
    // The matches against the perfect player: first, then second at eps 0.3, per point.
    let perfect = std::fs::read_to_string(d.join("n.perfect.csv")).unwrap();
    assert_eq!(perfect.lines().count(), 1 + 4 * 2, "{perfect}");
    assert!(
        perfect.lines().nth(1).unwrap().contains(",first,0.0,2,"),
        "{perfect}"
    );
    // The same seed gives the same network (the cache now answers the curve's columns).
    let again = d.join("again.bin");
    let mut args2 = args.to_vec();
    let i = args2.iter().position(|a| *a == s(&out)).unwrap();
    args2[i] = s(&again);
    ok(&c4(&args2), "second run");
    let load = |p: &std::path::Path| {
        connect4_engine::ml::model_file::load_ntuple(p, None)
            .unwrap()
            .network
            .data()
    };
    assert_eq!(load(&out), load(&again));
    // It plays: as a tournament agent against the reference MCTS agent.
    let spec = format!("ntuple:{},depth=2", s(&out));
    let t = d.join("t");
    let text = ok(
        &c4(&[
            "tournament",
            "--agents",
            &spec,
            "mcts:sims=50",
            "--games",
            "2",
            "--out",
            s(&t),
        ]),
        "tournament",
    );
    assert!(text.contains("mcts:sims=50"), "{text}");
    // Graded in AlphaZero.jl's layout.
    let text = ok(
        &c4(&[
            "bench",
            "agent",
            "--agent",
            &spec,
            "--sets",
            "end-easy,begin-easy",
            "--limit",
            "10",
        ]),
        "bench agent",
    );
    assert!(text.contains("AlphaZero.jl's layout"), "{text}");
    assert!(
        text.contains("Begin") && text.contains("Middle") && text.contains("End"),
        "{text}"
    );
    // The curve plots, with the field's reference lines.
    let plots = d.join("plots");
    let text = ok(
        &c4(&["plot", s(&d.join("n.curve.csv")), "--out", s(&plots)]),
        "plot",
    );
    assert!(
        text.contains("n_begin-hard.png") && text.contains("n_score.png"),
        "{text}"
    );
    let text = ok(
        &c4(&["plot", s(&d.join("n.perfect.csv")), "--out", s(&plots)]),
        "plot perfect",
    );
    assert!(
        text.contains("n_first_seconds.png") && text.contains("n_second.png"),
        "{text}"
    );
}

#[test]
fn train_ntuple_refuses_bad_settings_and_a_foreign_checkpoint() {
    let d = temp_dir("ntuple-bad");
    let out = d.join("n.bin");
    let bad = d.join("bad.toml");
    std::fs::write(&bad, "games = 10\nlamda = 0.5\n").unwrap();
    for (extra, want) in [
        (vec!["--recipe", s(&bad)], "lamda"),
        (
            vec!["--recipe", "no/such/recipe.toml"],
            "no/such/recipe.toml",
        ),
        (vec!["--recipe", "models/gbt.bin"], "records no recipe"),
        (vec!["--set", "gamez=3"], "no such setting"),
        (vec!["--set", "rate"], "KEY=VALUE"),
        (vec!["--loss", "hinge"], "hinge"),
        (vec!["--set", "lanes=0"], "lanes"),
        // 7x6 has 131 pairs of neighbouring cells: refused, never a walk for ever.
        (
            vec!["--cells", "2", "--tuples", "200", "--games", "10"],
            "found only 131",
        ),
        (vec!["--cells", "1"], "cells per tuple"),
        (vec!["--sets", "3"], "sets of tables"),
        (vec!["--lambda", "1.5"], "lambda = 1.5"),
        (vec!["--rate", "0"], "rate = 0"),
        (vec!["--games", "0"], "nothing to train on"),
    ] {
        let mut args = vec![
            "train",
            "ntuple",
            "--curve-positions",
            "0",
            "--out",
            s(&out),
        ];
        args.extend(extra);
        let o = c4(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(both(&o).contains(want), "{args:?}: {}", both(&o));
    }
    // A checkpoint of other settings is refused on --resume.
    std::fs::write(d.join("n.checkpoint"), b"not a checkpoint").unwrap();
    let o = c4(&[
        "train",
        "ntuple",
        "--games",
        "10",
        "--curve-positions",
        "0",
        "--resume",
        "--out",
        s(&out),
    ]);
    assert!(!o.status.success());
    assert!(both(&o).contains("not a checkpoint"), "{}", both(&o));
    // A model file of another kind is refused by the ntuple spec, with the file named.
    let o = c4(&[
        "tournament",
        "--agents",
        "ntuple:models/gbt.bin,depth=1",
        "random",
        "--games",
        "2",
    ]);
    assert!(!o.status.success());
    assert!(both(&o).contains("gbt.bin"), "{}", both(&o));
}

/// The weights of a network file.
fn weights_of(path: &std::path::Path) -> Vec<f32> {
    connect4_engine::ml::model_file::load_ntuple(path, None)
        .unwrap()
        .network
        .weights()
        .to_vec()
}

#[test]
fn a_recipe_file_trains_and_a_model_file_retrains_itself_on_any_number_of_threads() {
    let d = temp_dir("ntuple-recipe");
    let recipe = d.join("small.toml");
    std::fs::write(
        &recipe,
        "games = 600\nlanes = 4\nlane_games = 50\nseed = 9\n[layout]\ntuples = 12\ncells = 4\n",
    )
    .unwrap();
    let train = |extra: &[&str], out: &std::path::Path| {
        let mut args = vec![
            "train",
            "ntuple",
            "--curve-positions",
            "0",
            "--checkpoint-every",
            "0",
            "--out",
            s(out),
        ];
        args.extend(extra);
        ok(&c4(&args), "train ntuple")
    };
    let a = d.join("a.bin");
    train(&["--recipe", s(&recipe), "--threads", "1"], &a);
    // The model records its recipe: trained again from the file, on 3 threads (and with the
    // recipe given as flags and --set on 4), it is the same network.
    let b = d.join("b.bin");
    train(&["--recipe", s(&a), "--threads", "3"], &b);
    assert_eq!(weights_of(&a), weights_of(&b));
    let c = d.join("c.bin");
    train(
        &[
            "--games",
            "600",
            "--tuples",
            "12",
            "--cells",
            "4",
            "--seed",
            "9",
            "--set",
            "lanes=4",
            "--set",
            "lane_games=50",
            "--threads",
            "4",
        ],
        &c,
    );
    assert_eq!(weights_of(&a), weights_of(&c));
    // More threads than lanes: the same network, and a note that the extra threads idle.
    let f = d.join("f.bin");
    let text = train(&["--recipe", s(&a), "--threads", "6"], &f);
    assert!(
        text.contains("the recipe plays 4 lanes, so 2 of the 6 threads add no speed"),
        "{text}"
    );
    assert_eq!(weights_of(&a), weights_of(&f));
    // Another seed learns other weights.
    let e = d.join("e.bin");
    train(&["--recipe", s(&a), "--set", "seed=10"], &e);
    assert_ne!(weights_of(&a), weights_of(&e));
}

#[test]
fn the_shipped_network_is_an_average_of_runs_and_the_recipe_of_its_runs_is_printed() {
    // models/ntuple.bin is the average of two runs (`c4 train ntuple-pick --by average`,
    // models/README.md): it records the command that made it, not a recipe, and says so.
    let shipped = c4(&[
        "train",
        "ntuple",
        "--recipe",
        "models/ntuple.bin",
        "--print-recipe",
    ]);
    assert!(!shipped.status.success());
    let err = String::from_utf8_lossy(&shipped.stderr);
    assert!(
        err.contains("records no recipe") && err.contains("--by average"),
        "{err}"
    );
    // Its runs: the default recipe for 7M games with the guided share fading to none.
    let runs = ok(
        &c4(&[
            "train",
            "ntuple",
            "--set",
            "games=7000000",
            "--set",
            "guided_final=0",
            "--print-recipe",
        ]),
        "print the recipe of the shipped file's runs",
    );
    assert!(runs.contains("guided = 0.5\n"), "{runs}");
    assert!(runs.contains("guided_final = 0.0\n"), "{runs}");
    let default = ok(
        &c4(&["train", "ntuple", "--print-recipe"]),
        "print the default recipe",
    );
    assert!(default.contains("guided = 0.5\n"), "{default}");
    assert!(default.contains("guided_final = 0.5\n"), "{default}");
    assert!(default.contains("games = 3500000\n"), "{default}");
    // The pure self-play recipe stays beside it, guiding nothing.
    let self_play = ok(
        &c4(&[
            "train",
            "ntuple",
            "--recipe",
            "recipes/ntuple-selfplay.toml",
            "--print-recipe",
        ]),
        "print the pure self-play recipe",
    );
    assert!(self_play.contains("guided = 0.0\n"), "{self_play}");
    assert!(self_play.contains("guided_final = 0.0\n"), "{self_play}");
}

#[test]
fn a_network_trains_on_any_board_and_the_spec_finds_the_board_s_network() {
    let d = temp_dir("ntuple-board");
    let out = d.join("models").join("ntuple-5x4.bin");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let args = [
        "train",
        "ntuple",
        "--width",
        "5",
        "--height",
        "4",
        "--games",
        "400",
        "--tuples",
        "10",
        "--cells",
        "5",
        "--lanes",
        "2",
        "--lane-games",
        "100",
        "--curve-every",
        "400",
        "--curve-games",
        "4",
        "--curve-perfect",
        "2",
        "--curve-eps",
        "0.3",
        "--checkpoint-every",
        "0",
        "--out",
        s(&out),
    ];
    let text = ok(&c4(&args), "train ntuple on 5x4");
    // No guided openings off 7x6 unless asked for; no benchmark sets (7x6 positions).
    assert!(text.contains("no guided openings on 5x4"), "{text}");
    assert!(text.contains("400 self-play games"), "{text}");
    // The board is in the recipe the file records and in its header.
    let recipe = ok(
        &c4(&["train", "ntuple", "--recipe", s(&out), "--print-recipe"]),
        "print recipe",
    );
    assert!(recipe.contains("width = 5\nheight = 4\n"), "{recipe}");
    assert!(recipe.contains("guided = 0.0"), "{recipe}");
    // A recipe file that asks for guided openings keeps them off 7x6 (the 6x5 network's).
    let six = ok(
        &c4(&[
            "train",
            "ntuple",
            "--recipe",
            "recipes/ntuple-6x5.toml",
            "--print-recipe",
        ]),
        "print the 6x5 recipe",
    );
    assert!(
        six.contains("guided = 0.7\n") && !six.contains("no guided openings"),
        "{six}"
    );
    // The perfect player's matches ran on 5x4 (first, then second at eps 0.3).
    let perfect = std::fs::read_to_string(d.join("models/ntuple-5x4.perfect.csv")).unwrap();
    assert_eq!(perfect.lines().count(), 1 + 2 * 2, "{perfect}");
    // The pick reads the candidates' board: a 5x4 network averaged with itself is a 5x4
    // network, and a 7x6 one beside it is refused naming both boards.
    let avg = d.join("avg.bin");
    let args = ["train", "ntuple-pick", s(&out), s(&out), "--by", "average"];
    let picked = c4(&[
        &args[..],
        &["--games", "2", "--eps", "0.1", "--out", s(&avg)],
    ]
    .concat());
    ok(&picked, "pick among 5x4 networks");
    let five = connect4_engine::Geometry::new(5, 4).unwrap();
    connect4_engine::ml::model_file::load_ntuple(&avg, Some(five)).unwrap();
    let mixed = c4(&[
        "train",
        "ntuple-pick",
        s(&out),
        "models/ntuple.bin",
        "--out",
        s(&d.join("mixed.bin")),
    ]);
    let e = String::from_utf8_lossy(&mixed.stderr);
    assert!(
        !mixed.status.success() && e.contains("7x6") && e.contains("5x4"),
        "{e}"
    );
    // `ntuple` without a path plays the board's network, found beside models/ntuple.bin;
    // from a folder holding it, the 5x4 games run with it.
    let games = common::c4_in(
        &d,
        &[
            "tournament",
            "--width",
            "5",
            "--height",
            "4",
            "--agents",
            "ntuple:depth=1",
            "random",
            "--games",
            "2",
            "--out",
            "t",
        ],
    );
    ok(&games, "tournament with the board's network");
    // A network named explicitly for another board is an error naming both boards.
    let o = c4(&[
        "tournament",
        "--width",
        "5",
        "--height",
        "4",
        "--agents",
        "ntuple:models/ntuple.bin",
        "random",
        "--games",
        "2",
    ]);
    assert!(!o.status.success());
    assert!(
        both(&o).contains("7x6") && both(&o).contains("5x4"),
        "{}",
        both(&o)
    );
    // A board past 128 bits, or without a column, is refused before anything is written.
    for (w, h, want) in [("12", "10", "at most 128"), ("0", "6", "at least 1")] {
        let bad = d.join("bad.bin");
        let o = c4(&[
            "train",
            "ntuple",
            "--width",
            w,
            "--height",
            h,
            "--games",
            "10",
            "--out",
            s(&bad),
        ]);
        assert_eq!(o.status.code(), Some(2), "{w}x{h}: {}", both(&o));
        assert!(both(&o).contains(want), "{w}x{h}: {}", both(&o));
        assert!(!bad.exists());
    }
}

#[test]
fn an_agent_guides_the_openings_where_the_solver_does_not_reach() {
    let d = temp_dir("ntuple-guide");
    let out = d.join("n.bin");
    // A small network, 400 games, half of them guided.
    let base = "train ntuple --width 6 --height 7 --games 400 --tuples 10 --cells 5 --lanes 2 \
                --lane-games 100 --curve-every 0 --checkpoint-every 0 --guided 0.5";
    let run = |extra: &[&str]| {
        let args: Vec<&str> = base
            .split_whitespace()
            .chain(["--out", s(&out)])
            .chain(extra.iter().copied())
            .collect();
        c4(&args)
    };
    // 6x7 is past the solver's reach: guided openings need an agent to guide them.
    let refused = run(&[]);
    let e = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && e.contains("6x7") && e.contains("--guide hard"),
        "{e}"
    );
    assert!(!out.exists());
    // `hard` guides them; the file records the guide in its recipe.
    let text = ok(
        &run(&["--guide", "hard"]),
        "train ntuple guided by hard on 6x7",
    );
    assert!(text.contains("400 self-play games"), "{text}");
    let recipe = ok(
        &c4(&["train", "ntuple", "--recipe", s(&out), "--print-recipe"]),
        "print recipe",
    );
    assert!(
        recipe.contains("guided = 0.5\n") && recipe.contains("guide = \"hard\"\n"),
        "{recipe}"
    );
    // Not an agent: the recipe's error, naming the value.
    let bad = run(&["--guide", "hardest"]);
    let e = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success() && e.contains("hardest"), "{e}");
}

#[test]
fn a_network_trains_on_boards_past_64_bits_and_plays_there() {
    let d = temp_dir("ntuple-wide");
    let out = d.join("models").join("ntuple-8x8.bin");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let train = |threads: &str| {
        let args = [
            "train",
            "ntuple",
            "--width",
            "8",
            "--height",
            "8",
            "--games",
            "400",
            "--tuples",
            "10",
            "--cells",
            "5",
            "--lanes",
            "2",
            "--lane-games",
            "100",
            "--curve-every",
            "400",
            "--curve-games",
            "4",
            "--threads",
            threads,
            "--out",
            s(&out),
        ];
        let text = ok(&c4(&args), "train ntuple on 8x8");
        assert!(text.contains("400 self-play games"), "{text}");
        // The curve's match there is against hard (no perfect player, no 64-bit weights).
        assert!(text.contains("only hard"), "{text}");
        let g = connect4_engine::Geometry::<u128>::sized(8, 8).unwrap();
        let net = connect4_engine::ml::model_file::load_ntuple_on(&out, g).unwrap();
        net.weights().to_vec()
    };
    // The file records its command line: the weights are what must agree.
    assert_eq!(
        train("1"),
        train("8"),
        "the same network on 1 and 8 threads"
    );
    let recipe = ok(
        &c4(&["train", "ntuple", "--recipe", s(&out), "--print-recipe"]),
        "print recipe",
    );
    assert!(recipe.contains("width = 8\nheight = 8\n"), "{recipe}");
    // The pick on a board the solver does not reach: the average, with no match played
    // (the network averaged with itself is itself); choosing by games is refused, naming
    // the average, and writes nothing.
    let avg = d.join("avg.bin");
    let picked = ok(
        &c4(&[
            "train",
            "ntuple-pick",
            s(&out),
            s(&out),
            "--by",
            "average",
            "--out",
            s(&avg),
        ]),
        "average 8x8 networks",
    );
    assert!(picked.contains("no matches"), "{picked}");
    let g = connect4_engine::Geometry::<u128>::sized(8, 8).unwrap();
    let load = |p: &std::path::Path| {
        connect4_engine::ml::model_file::load_ntuple_on(p, g)
            .unwrap()
            .weights()
            .to_vec()
    };
    assert_eq!(load(&avg), load(&out));
    let by_games = d.join("by-games.bin");
    let o = c4(&["train", "ntuple-pick", s(&out), "--out", s(&by_games)]);
    assert!(!o.status.success());
    assert!(
        both(&o).contains("8x8") && both(&o).contains("--by average"),
        "{}",
        both(&o)
    );
    assert!(!by_games.exists());
    // `ntuple` finds models/ntuple-8x8.bin from the folder that holds it and plays 8x8.
    let games = common::c4_in(
        &d,
        &[
            "tournament",
            "--width",
            "8",
            "--height",
            "8",
            "--agents",
            "ntuple:depth=1,safe=true",
            "random",
            "--games",
            "2",
            "--out",
            "t",
        ],
    );
    ok(&games, "tournament with the 8x8 network");
    // The 8x8 network named on 9x7: an error naming both boards.
    let o = c4(&[
        "tournament",
        "--width",
        "9",
        "--height",
        "7",
        "--agents",
        &format!("ntuple:{},depth=1", s(&out)),
        "random",
        "--games",
        "2",
    ]);
    assert!(!o.status.success());
    assert!(
        both(&o).contains("8x8") && both(&o).contains("9x7"),
        "{}",
        both(&o)
    );
    // Labelled data are 64-bit positions: refused on 8x8, nothing written.
    let bad = d.join("bad.bin");
    let o = c4(&[
        "train",
        "ntuple",
        "--width",
        "8",
        "--height",
        "8",
        "--uci",
        "data/uci/connect-4.data",
        "--out",
        s(&bad),
    ]);
    assert!(!o.status.success());
    assert!(both(&o).contains("64 bits"), "{}", both(&o));
    assert!(!bad.exists());
}

#[test]
fn every_board_the_presets_name_ships_its_network_and_c4_carries_it() {
    // answers::NETWORK_BOARDS (what the page offers the Expert preset on) against the models
    // folder and the Python package's links.
    for [w, h] in connect4_engine::answers::NETWORK_BOARDS {
        let name = format!("ntuple-{w}x{h}.bin");
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("models")
            .join(&name);
        // Every board in 128-bit form (8x8 and 9x7 need it; the others read the same).
        let network = connect4_engine::ml::model_file::load_ntuple_on(
            &path,
            connect4_engine::Geometry::<u128>::sized(*w, *h).unwrap(),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(network.geometry().width(), *w);
        let link = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("python/connect4_ml/models")
            .join(&name);
        assert!(link.is_file(), "{} missing", link.display());
        // Built into c4: from a folder without models/, `ntuple` still plays that board.
        let empty = temp_dir(&format!("ntuple-carried-{w}x{h}"));
        let o = common::c4_in(
            &empty,
            &[
                "tournament",
                "--width",
                &w.to_string(),
                "--height",
                &h.to_string(),
                "--agents",
                "ntuple:depth=1",
                "random",
                "--games",
                "2",
                "--out",
                "t",
            ],
        );
        ok(&o, &name);
    }
}

/// Every shipped model records the command that made it without a machine's own paths: the
/// files travel with the repository, the binary and the wheel.
#[test]
fn shipped_models_record_their_commands_without_a_machine_path() {
    use connect4_engine::io::model_format::ModelParts;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "bin") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let parts = ModelParts::open(&path, &bytes).unwrap();
        let command = &parts.header.meta.command;
        assert!(command.starts_with("c4 "), "{}: {command}", path.display());
        assert!(
            command
                .split_whitespace()
                .all(|w| !w.starts_with('/') && !w.contains("=/") && !w.contains("/tmp/")),
            "{} records an absolute path: {command}",
            path.display()
        );
        seen += 1;
    }
    assert!(seen >= 11, "{seen} models in {}", dir.display());
}
