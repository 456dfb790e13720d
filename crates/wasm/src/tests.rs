use super::*;

fn call(e: &mut Engine, request: Value) -> Value {
    serde_json::from_str(&e.call(&request.to_string())).unwrap()
}

fn models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models")
}

#[test]
fn analyses_and_reviews_like_the_server() {
    let mut e = Engine::new(8);
    let a = call(&mut e, json!({"op": "analyze", "moves": ""}));
    assert_eq!(a["score"], 1);
    assert_eq!(a["best"], json!([4]));
    assert_eq!(a["complete"], true);
    let end = "2252576253462244111563365343671351441";
    let a = call(&mut e, json!({"op": "analyze", "moves": end}));
    assert_eq!(a["score"], -1);
    let r = call(&mut e, json!({"op": "review", "moves": "4453"}));
    assert_eq!(r["reviews"].as_array().unwrap().len(), 4);
    assert_eq!(r["complete"], true);
    let p = call(
        &mut e,
        json!({"op": "position", "moves": "4444444", "width": 7, "height": 6}),
    );
    assert!(p["error"].as_str().unwrap().contains("moves \"4444444\""));
    let p = call(&mut e, json!({"op": "position", "moves": "1212121"}));
    assert_eq!(p["result"], "x won");
    assert_eq!(p["legal"], json!([]));
}

#[test]
fn wide_boards_read_and_write_moves_as_letters() {
    let mut e = Engine::new(8);
    // x holds the bottom of columns 10-12 of a 12x4 board and moves: column 9 wins.
    let p = call(
        &mut e,
        json!({"op": "position", "moves": "a1B1c1", "width": 12, "height": 4}),
    );
    assert_eq!(p["stones"], 6, "{p}");
    assert_eq!(p["legal"].as_array().unwrap().len(), 12, "{p}");
    let m = call(
        &mut e,
        json!({"op": "move", "agent": "perfect", "moves": "a1b1c1", "width": 12, "height": 4}),
    );
    assert_eq!(
        (&m["column"], &m["moves"]),
        (&json!(9), &json!("a1b1c19")),
        "{m}"
    );
    let p = call(
        &mut e,
        json!({"op": "position", "moves": "1d", "width": 12, "height": 4}),
    );
    assert!(p["error"].as_str().unwrap().contains("column 13"), "{p}");
    let p = call(
        &mut e,
        json!({"op": "position", "moves": "aaaaa", "width": 10, "height": 5}),
    );
    assert_eq!(p["legal"], json!([1, 2, 3, 4, 5, 6, 7, 8, 9]), "{p}");
}

#[test]
fn boards_past_64_bits_are_analysed_and_solved() {
    let mut e = Engine::new(8);
    // The 8x8 position of the CLI's test: columns 3 and 5 win with stone 25.
    let moves = "637122614117422267122177141635748278646744846688";
    let a = call(
        &mut e,
        json!({"op": "analyze", "moves": moves, "width": 8, "height": 8}),
    );
    assert_eq!(
        (&a["score"], &a["best"]),
        (&json!(8), &json!([3, 5])),
        "{a}"
    );
    assert_eq!(a["complete"], true);
    let scores: Vec<Value> = a["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| json!([c["column"], c["score"]]))
        .collect();
    assert_eq!(scores, vec![json!([3, 8]), json!([5, 8]), json!([8, -8])]);
    let s = call(
        &mut e,
        json!({"op": "solve", "moves": moves, "width": 8, "height": 8}),
    );
    assert_eq!(s["score"], 8, "{s}");
    let p = call(
        &mut e,
        json!({"op": "position", "moves": moves, "width": 8, "height": 8}),
    );
    assert_eq!(
        (&p["stones"], &p["legal"]),
        (&json!(48), &json!([3, 5, 8])),
        "{p}"
    );
    // The perfect player needs 64-bit tables: refused by name and board.
    let m = call(
        &mut e,
        json!({"op": "move", "agent": "perfect", "moves": moves, "width": 8, "height": 8}),
    );
    let why = m["error"].as_str().unwrap();
    assert!(why.contains("perfect") && why.contains("8x8"), "{m}");
    // The review grades the late moves exactly: the last move the solver's own best.
    let r = call(
        &mut e,
        json!({"op": "review", "moves": moves, "width": 8, "height": 8, "ms": 3000}),
    );
    let reviews = r["reviews"].as_array().unwrap();
    assert_eq!(reviews.len(), 48, "{r}");
    let last = &reviews[47];
    assert_eq!(last["column"], 8, "{last}");
    assert_ne!(last["grade"], "unknown", "{last}");
}

#[test]
fn agents_move_on_boards_past_64_bits() {
    let mut e = Engine::new(8);
    let (w, h) = (8, 8);
    // x has three in the bottom row (columns 1-3), o three in column 5: x wins at column 4.
    let moves = "152535";
    let net = format!("models/ntuple-{w}x{h}.bin");
    for agent in [
        "hard",
        "mcts:sims=200",
        "ntuple:depth=1,safe=true",
        "level:elo=1600",
        "adaptive",
    ] {
        let needs = call(
            &mut e,
            json!({"op": "needs", "agent": agent, "width": w, "height": h}),
        );
        let wants_net =
            agent.starts_with("ntuple") || agent.starts_with("level") || agent == "adaptive";
        // The network is asked for once: the first agent that reads it fetches it.
        let first = agent.starts_with("ntuple");
        assert_eq!(
            needs["models"],
            if first { json!([net]) } else { json!([]) },
            "{agent}: {needs}"
        );
        if first {
            let bytes = std::fs::read(models().join(format!("ntuple-{w}x{h}.bin"))).unwrap();
            e.add_model(&net, bytes);
        }
        let m = call(
            &mut e,
            json!({"op": "move", "agent": agent, "moves": moves, "width": w, "height": h, "seed": 3}),
        );
        let col = m["column"]
            .as_u64()
            .unwrap_or_else(|| panic!("{agent}: {m}"));
        assert_eq!(m["moves"], json!(format!("{moves}{col}")), "{agent}: {m}");
        // The searchers take the win; the dial and the adaptive agent may play below it.
        if !wants_net || agent.starts_with("ntuple") {
            assert_eq!(col, 4, "{agent}: {m}");
        }
        if agent == "adaptive" {
            assert!(m["adaptive"]["estimate"].as_f64().is_some(), "{m}");
        }
    }
    // The dial on a board whose network it lacks asks for it too.
    let needs = call(
        &mut Engine::new(8),
        json!({"op": "needs", "agent": "adaptive", "width": 9, "height": 7}),
    );
    assert_eq!(needs["models"], json!(["models/ntuple-9x7.bin"]), "{needs}");
    // A whole game against the adaptive agent: its estimate of the player after it.
    let game = "1121314";
    let a = call(
        &mut e,
        json!({"op": "adaptive", "agent": "adaptive", "moves": game, "side": "o", "width": w, "height": h}),
    );
    assert_eq!(
        (&a["finished"], &a["games"]),
        (&json!(true), &json!(1)),
        "{a}"
    );
    // 9x7 plays too; 12x10 (132 bits) is refused.
    let m = call(
        &mut e,
        json!({"op": "move", "agent": "easy", "moves": "", "width": 9, "height": 7}),
    );
    assert!(
        m["column"].as_u64().is_some_and(|c| (1..=9).contains(&c)),
        "{m}"
    );
    let m = call(
        &mut e,
        json!({"op": "move", "agent": "easy", "width": 12, "height": 10}),
    );
    assert!(m["error"].as_str().unwrap().contains("at most 128"), "{m}");
}

/// `"vary": true`: the agent draws among its near-equal moves from the seed; a seed gives one
/// move every time, and without `vary` the seed does not matter to a searching agent.
#[test]
fn varied_moves_follow_the_seed() {
    let mut e = Engine::new(4);
    let column = |e: &mut Engine, moves: &str, seed: u64, vary: bool| {
        let m = call(
            e,
            json!({"op": "move", "agent": "easy", "moves": moves, "seed": seed, "vary": vary}),
        );
        m["column"].as_u64().unwrap_or_else(|| panic!("{m}"))
    };
    let lines = ["", "4", "44", "4453", "445362", "3344"];
    let mut varied = std::collections::BTreeSet::new();
    for moves in lines {
        for seed in 0..20 {
            varied.insert((moves, column(&mut e, moves, seed, true)));
        }
        assert_eq!(
            column(&mut e, moves, 5, true),
            column(&mut e, moves, 5, true)
        );
        let fixed: std::collections::BTreeSet<u64> =
            (0..10).map(|s| column(&mut e, moves, s, false)).collect();
        assert_eq!(fixed.len(), 1, "{moves}: {fixed:?}");
    }
    assert!(
        varied.len() > lines.len(),
        "easy varied over 20 seeds: {varied:?}"
    );
}

#[test]
fn bad_requests_are_named() {
    let mut e = Engine::new(8);
    for (req, want) in [
        ("not json", "bad request"),
        (r#"{"op":"fly"}"#, "unknown op \"fly\""),
        (r#"{"op":"analyze","moves":"48x"}"#, "moves \"48x\""),
        (r#"{"op":"analyze","width":12,"height":10}"#, "at most 128"),
        (r#"{"op":"analyze","width":3}"#, "not supported"),
        (r#"{"op":"move","moves":"4"}"#, "needs \"agent\""),
        (
            r#"{"op":"move","agent":"model:/etc/passwd"}"#,
            "must be a file name",
        ),
        (r#"{"op":"move","agent":"wizard"}"#, "wizard"),
        (r#"{"op":"analyze","colour":"red"}"#, "unknown field"),
    ] {
        let v: Value = serde_json::from_str(&e.call(req)).unwrap();
        let msg = v["error"].as_str().unwrap_or_default();
        assert!(msg.contains(want), "{req}: {msg}");
    }
}

#[test]
fn agents_play_with_models_given_in_memory() {
    let mut e = Engine::new(8);
    let needs = call(
        &mut e,
        json!({"op": "needs", "agent": "ntuple:depth=1,safe=true"}),
    );
    assert_eq!(needs["models"], json!(["models/ntuple.bin"]));
    let before = call(
        &mut e,
        json!({"op": "move", "agent": "ntuple:depth=1", "moves": "4"}),
    );
    assert!(
        before["error"].is_string(),
        "no file system, no model: {before}"
    );
    e.add_model(
        "models/ntuple.bin",
        std::fs::read(models().join("ntuple.bin")).unwrap(),
    );
    let needs = call(&mut e, json!({"op": "needs", "agent": "ntuple:depth=1"}));
    assert_eq!(needs["models"], json!([]));
    // On another board: that board's network only, for the network's spec and the dial's
    // fallback alike; none where no network ships.
    for agent in ["ntuple:depth=1", "level:elo=1500", "adaptive"] {
        let needs = call(
            &mut e,
            json!({"op": "needs", "agent": agent, "width": 8, "height": 7}),
        );
        assert_eq!(needs["models"], json!(["models/ntuple-8x7.bin"]), "{agent}");
    }
    let needs = call(
        &mut e,
        json!({"op": "needs", "agent": "level:elo=1500", "width": 8, "height": 5}),
    );
    assert_eq!(needs["models"], json!([]));
    let m = call(
        &mut e,
        json!({"op": "move", "agent": "ntuple:depth=1,safe=true", "moves": "4"}),
    );
    let col = m["column"].as_u64().unwrap();
    assert!((1..=7).contains(&col));
    assert_eq!(m["moves"], format!("4{col}"));
    // Every kind that needs no model answers a legal move within its time.
    for agent in [
        "random",
        "easy",
        "hard",
        "handtuned",
        "adaptive",
        "mcts:sims=200",
        "perfect:ties=random,seed=3",
        "exploit:eps=0.2,ms=100",
    ] {
        let m = call(
            &mut e,
            json!({"op": "move", "agent": agent, "moves": "4453", "seed": 1, "ms": 2000}),
        );
        let col = m["column"].as_u64().unwrap_or(0);
        assert!((1..=7).contains(&col), "{agent}: {m}");
    }
    let agents = call(&mut e, json!({"op": "agents"}));
    assert_eq!(agents["models"], json!(["ntuple.bin"]));
    assert_eq!(agents["presets"].as_array().unwrap().len(), 6);
    assert!(
        agents["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k["name"] == "perfect")
    );
}

#[test]
fn a_time_limit_stops_a_long_analysis_with_bounds() {
    let mut e = Engine::new(8);
    let a = call(&mut e, json!({"op": "analyze", "moves": "4", "ms": 1}));
    assert!(a["error"].is_null(), "{a}");
    assert_eq!(a["stones"], 1);
    // One stone is in the book: exact at once even with no time.
    assert_eq!(a["complete"], true);
    let a = call(
        &mut e,
        json!({"op": "analyze", "moves": "4444", "width": 8, "height": 7, "ms": 1}),
    );
    assert_eq!(a["complete"], false, "{a}");
}

#[test]
fn the_c_interface_round_trips() {
    /// Passes `bytes` in a buffer of c4_alloc to `f` and reads back its answer.
    fn through(
        e: *mut Engine,
        bytes: &[u8],
        f: unsafe extern "C" fn(*mut Engine, *mut u8, usize) -> *mut u8,
    ) -> String {
        let buf = ffi::c4_alloc(bytes.len());
        // SAFETY: test of the documented contract: a buffer of c4_alloc, filled, passed once;
        // the answer read within its length prefix and freed once.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf, bytes.len());
            let out = f(e, buf, bytes.len());
            let len =
                u32::from_le_bytes(std::slice::from_raw_parts(out, 4).try_into().unwrap()) as usize;
            let text =
                String::from_utf8(std::slice::from_raw_parts(out.add(4), len).to_vec()).unwrap();
            ffi::c4_free(out, 4 + len);
            text
        }
    }
    let e = ffi::c4_engine_new(8);
    let answer = through(e, br#"{"op":"analyze","moves":""}"#, ffi::c4_call);
    assert!(answer.contains("\"score\":1"), "{answer}");
    let answer = through(e, b"no book", ffi::c4_set_book);
    assert!(answer.contains("\"error\":\"the book"), "{answer}");
    let built_in = connect4_engine::solver::book::format::encode(&book::embedded());
    let answer = through(e, &built_in, ffi::c4_set_book);
    assert!(answer.contains("\"plies\":10"), "{answer}");
    // SAFETY: the handle of c4_engine_new above, freed once.
    unsafe { ffi::c4_engine_free(e) };
}

/// `bytes` with the byte at `at` changed.
fn flipped(bytes: &[u8], at: usize) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at] ^= 0x20;
    b
}

#[test]
fn a_deeper_book_replaces_the_built_in_one_and_bad_files_are_refused() {
    use connect4_engine::solver::book::format;
    let mut e = Engine::new(8);
    let built_in = book::embedded();
    let held = e.book_summary();
    assert_eq!(
        (held.plies, held.positions),
        (built_in.plies(), built_in.len())
    );
    assert_eq!(
        call(&mut e, json!({"op": "agents"}))["book"],
        json!({"plies": built_in.plies(), "positions": built_in.len()})
    );
    // Not a book, a truncated one, one shallower than the book held: refused by name, and
    // the book held stays.
    let whole = format::encode(&built_in);
    for (bytes, want) in [
        (b"not a book".to_vec(), "the book"),
        (whole[..whole.len() / 2].to_vec(), "the book"),
        (
            format::encode(&Book::new(Geometry::STANDARD, 8, built_in.entries()).unwrap()),
            "8 plies, shallower than the 10-ply book held",
        ),
        // A byte flipped in the header, in the middle, in the last block's head.
        (flipped(&whole, 12), "header fails its checksum"),
        (flipped(&whole, whole.len() / 2), "fail their checksum"),
        (flipped(&whole, whole.len() - 3), "fail their checksum"),
    ] {
        let err = e.set_book(bytes).unwrap_err();
        assert!(
            matches!(err, EngineError::Book(_) | EngineError::Shallower { .. }),
            "{err:?}"
        );
        let err = err.to_string();
        assert!(err.contains(want), "{err}");
        assert_eq!(e.book_summary(), held);
    }
    // A deeper book is read by every exact answer: one holding an 11-stone position with a
    // score the solver would never find (its true score is 2) answers that score.
    let deep = Position::from_moves(Geometry::STANDARD, "53371361762").unwrap();
    assert_eq!(
        call(&mut e, json!({"op": "solve", "moves": "53371361762"}))["score"],
        2
    );
    let entries = built_in.entries().chain([(deep.canonical_key(), -3)]);
    let book = Book::new(Geometry::STANDARD, 11, entries).unwrap();
    let summary = e.set_book(format::encode(&book)).unwrap();
    assert_eq!((summary.plies, summary.positions), (11, built_in.len() + 1));
    assert_eq!(
        call(&mut e, json!({"op": "solve", "moves": "53371361762"}))["score"],
        -3
    );
    assert_eq!(call(&mut e, json!({"op": "agents"}))["book"]["plies"], 11);
}

#[test]
fn agent_factories_are_kept_across_requests_and_dropped_with_new_models() {
    let mut e = Engine::new(8);
    let bytes = std::fs::read(models().join("ntuple-6x5.bin")).unwrap();
    e.add_model("models/ntuple-6x5.bin", bytes.clone());
    // A game replayed request after request, as the page asks: one adaptive factory, whose
    // judges remember the positions they valued; the same answer as a fresh engine's.
    let ask = |e: &mut Engine, moves: &str| {
        call(
            e,
            json!({"op": "move", "agent": "adaptive", "moves": moves, "width": 6, "height": 5, "seed": 3}),
        )
    };
    let first = ask(&mut e, "34");
    let again = ask(&mut e, "34");
    assert_eq!(first["column"], again["column"], "{first} {again}");
    ask(&mut e, "3443");
    assert_eq!(e.factories.len(), 1);
    let mut fresh = Engine::new(8);
    fresh.add_model("models/ntuple-6x5.bin", bytes.clone());
    assert_eq!(
        ask(&mut fresh, "3443")["column"],
        ask(&mut e, "3443")["column"]
    );
    // Other specs are kept beside it, at most FACTORIES_KEPT; perfect agents never.
    for agent in ["easy", "hard", "level:elo=1200", "perfect"] {
        let r = call(
            &mut e,
            json!({"op": "move", "agent": agent, "moves": "34", "width": 6, "height": 5}),
        );
        assert!(r["column"].is_u64(), "{agent}: {r}");
    }
    assert_eq!(e.factories.len(), FACTORIES_KEPT);
    // A model added (or replaced) or a book set: no kept agent plays the old one.
    e.add_model("models/ntuple-6x5.bin", bytes);
    assert!(e.factories.is_empty());
}
