use super::*;
use crate::Geometry;

#[test]
fn the_kind_table_drives_parser_errors_and_help() {
    let help = kinds_help();
    for k in AGENT_KINDS {
        assert!(help.contains(k.usage), "{} missing from the help", k.name);
        // The bare kind parses unless it needs an argument.
        match parse(k.name) {
            Ok(spec) => assert_eq!(spec.label(), k.name),
            Err(e) => assert!(
                matches!(e, AgentError::MissingKey { .. }),
                "{}: {e}",
                k.name
            ),
        }
        // A key it does not take is refused, naming exactly the keys of the table.
        let needs = match k.name {
            "negamax" => "eval=window,",
            "model" => "path=models/gbt.bin,",
            "level" => "elo=1500,",
            "exploit" => "eps=0.1,",
            _ => "",
        };
        let err = parse(&format!("{}:{needs}nokey=1", k.name))
            .unwrap_err()
            .to_string();
        let takes = if k.keys.is_empty() {
            "nothing".to_string()
        } else {
            k.keys.join(", ")
        };
        assert!(
            err.contains(&format!("(it takes: {takes})")),
            "{}: {err}",
            k.name
        );
    }
    let unknown = parse("bogus").unwrap_err().to_string();
    assert!(unknown.contains(&kinds::names().join(", ")), "{unknown}");
}

fn parse(s: &str) -> Result<AgentSpec, AgentError> {
    s.parse()
}

#[test]
fn every_documented_spec_parses() {
    for s in [
        "random",
        "easy",
        "hard",
        "window:depth=3",
        "handtuned:depth=5",
        "threat:depth=7",
        "negamax:eval=threat,depth=7,ms=50",
        "negamax:eval=window,depth=3,schedule=20:5/30:9,tt=18",
        "perfect",
        "perfect:tt=16",
        "exploit:eps=0.2",
        "exploit:eps=0.1,ms=50,seed=3,tt=16",
        "adaptive",
        "adaptive:depth=3",
    ] {
        let spec = parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(spec.label(), s);
        spec.factory(Geometry::STANDARD).unwrap().build(1).unwrap();
    }
    match parse("hard").unwrap().kind() {
        AgentKind::Search { eval, params } => {
            assert_eq!(eval, &EvalSpec::Builtin("openlines".into()));
            assert_eq!(params.depth, 5);
        }
        k => panic!("{k:?}"),
    }
    match parse("negamax:eval=window,depth=3,schedule=20:5/30:9")
        .unwrap()
        .kind()
    {
        AgentKind::Search { params, .. } => {
            assert_eq!(params.schedule, vec![(20, 5), (30, 9)]);
        }
        k => panic!("{k:?}"),
    }
}

#[test]
fn bad_specs_say_what_is_wrong() {
    let cases = [
        ("", "empty agent spec"),
        ("bogus", "unknown agent 'bogus'"),
        ("easy:depth=3", "'easy' takes no option 'depth'"),
        ("window:depth=0", "depth=0: a depth from 1 to 64"),
        ("window:depth=x", "depth=x"),
        ("window:deep=3", "takes no option 'deep'"),
        ("negamax:depth=3", "'negamax' needs eval=..."),
        ("negamax:eval=nope", "eval=nope: one of openlines"),
        ("negamax:eval=window,ms=0", "ms=0"),
        (
            "negamax:eval=window,schedule=20",
            "schedule=20: steps PLY:DEPTH",
        ),
        ("adaptive:start=2", "start=2: an Elo from"),
        ("level:elo=abc", "elo=abc: an Elo from"),
        ("window:3", "'3' is not of the form key=value"),
        ("perfect:tt=0", "tt=0"),
    ];
    for (spec, want) in cases {
        let err = parse(spec).err().unwrap_or_else(|| panic!("{spec} parsed"));
        assert!(err.to_string().contains(want), "{spec}: {err}");
    }
}

#[test]
fn agent_lists_split_at_new_specs_only() {
    let got = split_agent_list(&[
        "easy,window:depth=3,ms=20,hard".to_string(),
        "perfect".to_string(),
    ]);
    assert_eq!(got, vec!["easy", "window:depth=3,ms=20", "hard", "perfect"]);
    let got = split_agent_list(&["negamax:eval=threat,depth=7,adaptive:depth=3".to_string()]);
    assert_eq!(got, vec!["negamax:eval=threat,depth=7", "adaptive:depth=3"]);
}

#[test]
fn typed_specs_round_trip_through_their_text_whatever_the_path() {
    let dir = std::env::temp_dir().join(format!("c4-spec a,b=c {}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("gbt,depth=9.bin");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(DEFAULT_GBT_MODEL),
        &model,
    )
    .unwrap();
    let lms = dir.join("lms=1.bin");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(DEFAULT_LMS_MODEL),
        &lms,
    )
    .unwrap();
    let specs = [
        AgentSpec::model(&model, 2).unwrap(),
        AgentSpec::lms(&lms, 3).unwrap(),
        AgentSpec::hybrid(&model, 2).unwrap(),
        AgentSpec::builtin("handtuned", 4).unwrap(),
    ];
    for spec in specs {
        let text = spec.to_string();
        let back: AgentSpec = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back, spec, "{text}");
        // The quoted path is the path: the agent loads its model and plays.
        let mut agent = back.factory(Geometry::STANDARD).unwrap().build(0).unwrap();
        let empty = crate::Position::new(Geometry::STANDARD);
        assert!(agent.choose(&crate::agents::Turn::new(empty)) < 7);
    }
    match AgentSpec::model(&model, 2).unwrap().kind() {
        AgentKind::Search {
            eval: EvalSpec::Model(p),
            params,
        } => {
            assert_eq!(p, &model);
            assert_eq!(params.depth, 2);
        }
        k => panic!("{k:?}"),
    }
    // Plain paths stay unquoted; a quote is refused, an open quote named.
    assert_eq!(
        AgentSpec::model(Path::new("models/gbt.bin"), 3)
            .unwrap()
            .to_string(),
        "model:models/gbt.bin,depth=3"
    );
    assert!(AgentSpec::model(Path::new("a\"b.bin"), 3).is_err());
    let err = parse("model:\"a,b.bin,depth=3").unwrap_err().to_string();
    assert!(err.contains("not closed"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ntuple_without_a_path_plays_the_network_of_its_board() {
    use crate::eval::ModelStore;
    let models = concat!(env!("CARGO_MANIFEST_DIR"), "/../../models/");
    let small = Geometry::new(5, 4).unwrap();
    let mut store = ModelStore::default();
    for name in ["ntuple.bin", "ntuple-5x4.bin"] {
        let bytes = std::fs::read(format!("{models}{name}")).unwrap();
        store.insert(format!("models/{name}"), bytes);
    }
    let resources = Resources {
        book: None,
        models: store,
    };
    let spec: AgentSpec = "ntuple:depth=1".parse().unwrap();
    assert_eq!(
        spec.kind(),
        &AgentKind::Search {
            eval: EvalSpec::OfBoard(ModelKind::NTuple, "models/ntuple.bin".into()),
            params: crate::search::SearchParams::depth(1),
        }
    );
    // On 5x4 it is models/ntuple-5x4.bin, on 7x6 models/ntuple.bin.
    spec.factory_in(small, &resources).unwrap();
    spec.factory_in(Geometry::STANDARD, &resources).unwrap();
    // A board without a network says which file it looked for.
    let e = spec
        .factory_in(Geometry::new(6, 4).unwrap(), &resources)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("ntuple-6x4.bin"), "{e}");
    // A network named explicitly is used as named: for another board it is an error
    // naming both boards.
    let named: AgentSpec = "ntuple:models/ntuple.bin".parse().unwrap();
    let e = named
        .factory_in(small, &resources)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("7x6") && e.contains("5x4"), "{e}");
    // The dial's fallback on 5x4 is the board's network too (its values in [-1, 1]).
    let dial: AgentSpec = "level:elo=1500".parse().unwrap();
    let f = dial.factory_in(small, &resources).unwrap();
    let mut agent = f.build(1).unwrap();
    let col = agent.choose(&crate::agents::Turn::new(crate::game::Position::new(small)));
    assert!(col < 5);
}
