//! Tests of the recipe module: the shipped file, keys and flags, recorded recipes, bad input.

use super::*;
use linfa::ParamGuard;

#[test]
fn the_shipped_recipe_file_is_the_default_and_round_trips() {
    let shipped = NTupleConfig::from_toml(SHIPPED_RECIPE, "recipes/ntuple.toml").unwrap();
    assert_eq!(shipped, NTupleConfig::default());
    let again = NTupleConfig::from_toml(&shipped.to_toml(), "written").unwrap();
    assert_eq!(again, shipped);
    // A partial recipe keeps the shipped values elsewhere.
    let short = NTupleConfig::from_toml("games = 1000\n[layout]\ncells = 6\n", "x").unwrap();
    assert_eq!((short.games, short.layout.cells), (1000, 6));
    assert_eq!(short.rate, shipped.rate);
    assert_eq!(short.layout.tuples, shipped.layout.tuples);
    assert_eq!(
        (short.tail, short.loss, short.explore),
        (shipped.tail, shipped.loss, shipped.explore)
    );
}

#[test]
fn every_key_of_a_recipe_has_a_flag_and_help_from_the_shipped_file() {
    let keys = recipe_keys();
    let table = toml::Table::try_from(NTupleConfig::default()).unwrap();
    let mut all: Vec<String> = Vec::new();
    for (k, v) in &table {
        match v {
            toml::Value::Table(t) => all.extend(t.keys().map(|s| format!("{k}.{s}"))),
            _ => all.push(k.clone()),
        }
    }
    let mut listed: Vec<String> = keys.iter().map(|k| k.key.clone()).collect();
    listed.sort();
    all.sort();
    assert_eq!(listed, all);
    let flag = |key: &str| keys.iter().find(|k| k.key == key).unwrap();
    assert_eq!(flag("layout.seed").flag, "layout-seed");
    assert_eq!(flag("layout.cells").flag, "cells");
    assert_eq!(flag("rate_final").flag, "rate-final");
    assert!(
        flag("rate_final").help.contains("TD step size"),
        "{:?}",
        flag("rate_final")
    );
    assert!(keys.iter().all(|k| !k.help.is_empty()), "{keys:?}");
    // A partial table laid over a recipe changes only its keys.
    let t: toml::Table = "games = 9\n[layout]\ncells = 6\n".parse().unwrap();
    let c = NTupleConfig::default().overridden(t, "x").unwrap();
    assert_eq!((c.games, c.layout.cells, c.layout.tuples), (9, 6, 70));
    let t: toml::Table = "gamez = 9\n".parse().unwrap();
    let e = NTupleConfig::default()
        .overridden(t, "[ntuple]")
        .unwrap_err()
        .to_string();
    assert!(e.contains("[ntuple]") && e.contains("gamez"), "{e}");
}

#[test]
fn the_pure_self_play_recipe_is_whole_and_guides_nothing() {
    let text = include_str!("../../../../../../recipes/ntuple-selfplay.toml");
    // Every key written out: the file says the same whatever the shipped recipe says.
    assert_whole("recipes/ntuple-selfplay.toml", text);
    let c = NTupleConfig::from_toml(text, "recipes/ntuple-selfplay.toml").unwrap();
    assert_eq!(c.guided, 0.0);
    assert_eq!(c.games, 7_000_000);
}

#[test]
fn the_small_board_recipes_are_whole_and_guide_as_documented() {
    use crate::train::ntuple::GuidedSide;
    let files = [
        (
            "recipes/ntuple-6x5.toml",
            include_str!("../../../../../../recipes/ntuple-6x5.toml"),
            (6, 5, 0.7, GuidedSide::First, 320),
        ),
        (
            "recipes/ntuple-7x5.toml",
            include_str!("../../../../../../recipes/ntuple-7x5.toml"),
            (7, 5, 0.0, GuidedSide::Both, 321),
        ),
        (
            "recipes/ntuple-6x6.toml",
            include_str!("../../../../../../recipes/ntuple-6x6.toml"),
            (6, 6, 0.0, GuidedSide::Both, 320),
        ),
    ];
    let shipped = NTupleConfig::default();
    for (name, text, (width, height, guided_final, side, seed)) in files {
        assert_whole(name, text);
        let c = NTupleConfig::from_toml(text, name).unwrap();
        assert_eq!(
            (c.width, c.height, c.games),
            (width, height, 10_000_000),
            "{name}"
        );
        assert_eq!(
            (c.guided, c.guided_final, c.guided_plies),
            (0.7, guided_final, 12)
        );
        assert_eq!(c.guided_side, side, "{name}");
        // The seed of the run shipped (7x5's second of three seeds measured best).
        assert_eq!(c.seed, seed, "{name}");
        // Otherwise the shipped recipe.
        assert_eq!(
            (c.rate, c.epsilon, c.lambda),
            (shipped.rate, shipped.epsilon, shipped.lambda)
        );
        assert_eq!(c.layout, shipped.layout, "{name}");
    }
}

#[test]
fn a_recorded_recipe_without_a_later_key_reads_it_as_off() {
    let guided = NTupleConfig {
        guided: 0.7,
        guided_final: 0.7,
        ..NTupleConfig::default()
    };
    let text = guided.to_toml();
    assert_eq!(NTupleConfig::from_recorded(&text, "m").unwrap(), guided);
    let old: String = text
        .lines()
        .filter(|l| !l.starts_with("guided ="))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(NTupleConfig::from_recorded(&old, "m").unwrap().guided, 0.0);
    // Without `guided_final` (older than the fading share) the share was constant: the
    // record's own `guided`, 0.7 here, 0 when that is missing too.
    let no_final = |text: &str| -> String {
        text.lines()
            .filter(|l| !l.starts_with("guided_final ="))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let read = NTupleConfig::from_recorded(&no_final(&text), "m").unwrap();
    assert_eq!((read.guided, read.guided_final), (0.7, 0.7));
    assert_eq!(read, guided);
    let read = NTupleConfig::from_recorded(&no_final(&old), "m").unwrap();
    assert_eq!((read.guided, read.guided_final), (0.0, 0.0));
    // A recipe file leaves keys out on purpose: they keep the shipped values.
    assert_eq!(
        NTupleConfig::from_toml(&old, "r").unwrap().guided,
        NTupleConfig::default().guided
    );
}

#[test]
fn bad_recipes_and_settings_are_refused_with_what_and_where() {
    let e = |t: &str| {
        NTupleConfig::from_toml(t, "r.toml")
            .unwrap_err()
            .to_string()
    };
    assert!(e("gamez = 5").contains("r.toml"), "{}", e("gamez = 5"));
    assert!(e("gamez = 5").contains("gamez"));
    assert!(e("rate = \"fast\"").contains("rate"));
    assert!(e("loss = \"hinge\"").contains("hinge"));
    assert!(e("rate = 2.0").contains("rate = 2"));
    assert!(e("lanes = 0").contains("lanes"));
    let mut c = NTupleConfig::default();
    c.set("rate", "0.003").unwrap();
    c.set("loss", "mse").unwrap();
    c.set("layout.cells", "6").unwrap();
    c.set("safe", "false").unwrap();
    assert_eq!(
        (c.rate, c.loss, c.layout.cells, c.safe),
        (0.003, super::super::Loss::Mse, 6, false)
    );
    let s = |k: &str, v: &str| NTupleConfig::default().set(k, v).unwrap_err().to_string();
    assert!(
        s("rat", "1").contains("no such setting"),
        "{}",
        s("rat", "1")
    );
    assert!(s("rule", "sgd").contains("sgd"), "{}", s("rule", "sgd"));
    assert!(s("layout.cols", "3").contains("no such setting"));
    assert!(
        s("games", "-4").contains("--set games=-4"),
        "{}",
        s("games", "-4")
    );
    assert!(s("epsilon", "1.5").contains("epsilon"));
    // The cause is kept: a value out of range is the check's own error, a value of the
    // wrong type the TOML reader's, each under the --set that gave it.
    let e = NTupleConfig::default().set("lanes", "0").unwrap_err();
    assert_eq!(
        e.to_string(),
        "--set lanes=0: lanes = 0: from 1 to 1024 lanes"
    );
    let RecipeError::SetValue { source, .. } = &e else {
        panic!("{e:?}")
    };
    assert!(
        matches!(**source, RecipeError::Invalid { .. }),
        "{source:?}"
    );
    let e = NTupleConfig::default().set("rate", "\"fast\"").unwrap_err();
    let cause = std::error::Error::source(&e).expect("a cause");
    assert!(std::error::Error::source(cause).is_some(), "{e}");
}

#[test]
fn a_recipe_names_its_board_and_a_board_out_of_range_is_refused() {
    let config = NTupleConfig::from_toml("width = 6\nheight = 5\n", "test").unwrap();
    let valid = config.clone().check().unwrap();
    assert_eq!(
        valid.geometry::<u64>().unwrap(),
        connect4_engine::Geometry::new(6, 5).unwrap()
    );
    // The shipped recipe is the standard board; a recipe without the keys too.
    assert_eq!(
        NTupleConfig::default()
            .check()
            .unwrap()
            .geometry::<u64>()
            .unwrap(),
        connect4_engine::Geometry::STANDARD
    );
    assert!(config.to_toml().contains("width = 6\nheight = 5\n"));
    for (w, h, want) in [
        (12, 10, "132 bits"),
        (0, 6, "at least 1"),
        (7, 0, "at least 1"),
    ] {
        let bad = NTupleConfig {
            width: w,
            height: h,
            ..NTupleConfig::default()
        };
        let e = bad.check().unwrap_err().to_string();
        assert!(e.contains(want) && e.contains("board"), "{w}x{h}: {e}");
    }
}

#[test]
fn the_6x7_recipe_is_what_the_shipped_6x7_network_was_trained_with() {
    let name = "recipes/ntuple-6x7.toml";
    let text = include_str!("../../../../../../recipes/ntuple-6x7.toml");
    assert_whole(name, text);
    let recipe = NTupleConfig::from_toml(text, name).unwrap();
    // An agent guides its openings: the solver does not reach 6x7.
    assert_eq!(
        (recipe.width, recipe.height, recipe.guide.as_str()),
        (6, 7, "mcts:sims=200")
    );
    let model =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/ntuple-6x7.bin");
    assert_eq!(NTupleConfig::from_file(&model).unwrap(), recipe);
}

/// Asserts that the recipe file `name` (its `text`) writes out every key of a recipe, so that
/// it says the same whatever the shipped recipe says.
fn assert_whole(name: &str, text: &str) {
    let table: toml::Table = text.parse().unwrap();
    for key in toml::Table::try_from(NTupleConfig::default())
        .unwrap()
        .keys()
    {
        assert!(table.contains_key(key), "{name} lacks {key}");
    }
}
