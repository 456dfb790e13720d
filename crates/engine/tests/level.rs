//! The strength dial and the adaptive agent's estimate: specs and their errors, the dial's
//! ends (uniform at skill 0, only optimal moves at skill 1), the estimate on simulated
//! players, and the saved state.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use connect4_engine::agents::level::{Calibration, exact_value, policy};
use connect4_engine::agents::{AdaptiveState, AgentKind, AgentSpec, Turn, adaptive_move_evidence};
use connect4_engine::{Geometry, Mode, Position, Solver};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const G: Geometry = Geometry::STANDARD;

fn error(spec: &str) -> String {
    spec.parse::<AgentSpec>().unwrap_err().to_string()
}

#[test]
fn level_specs_take_an_elo_in_range_or_a_skill() {
    let cal = Calibration::builtin();
    let (low, high) = cal.range();
    let range = format!("an Elo from {:.0} to {:.0}", low.ceil(), high.floor());
    for bad in ["abc", "NaN", "inf", "1e9", "-5"] {
        let e = error(&format!("level:elo={bad}"));
        assert!(
            e.contains(&format!("elo={bad}")) && e.contains(&range),
            "{e}"
        );
    }
    let e = error(&format!("level:elo={}", (high + 1.0).ceil()));
    assert!(e.contains(&range), "{e}");
    assert!(error("level").contains("elo"), "{}", error("level"));
    assert!(error("level:elo=1500,skill=0.5").contains("either elo=E or skill=S"));
    assert!(error("level:skill=1.5").contains("a skill from 0"));
    let e = error("adaptive:start=abc");
    assert!(e.contains("start=abc") && e.contains(&range), "{e}");
    // An Elo in range is the skill the curve gives it.
    let spec: AgentSpec = "level:elo=1500".parse().unwrap();
    let AgentKind::Level { skill, elo, .. } = spec.kind() else {
        panic!("{:?}", spec.kind())
    };
    assert_eq!(*elo, Some(1500.0));
    assert!((cal.elo_of(*skill) - 1500.0).abs() < 1e-6);
    // adaptive's start: an Elo, or a share of the range; by default the middle.
    let start = |s: &str| match s.parse::<AgentSpec>().unwrap().kind() {
        AgentKind::Adaptive { start, .. } => *start,
        k => panic!("{k:?}"),
    };
    assert_eq!(start("adaptive"), (low + high) / 2.0);
    assert_eq!(start("adaptive:start=0"), low);
    assert_eq!(start("adaptive:start=1200"), 1200.0);
}

#[test]
fn at_skill_one_the_dial_plays_only_optimal_moves() {
    let mut solver = Solver::with_table_mib(G, 16).unwrap();
    let factory = "level:skill=1"
        .parse::<AgentSpec>()
        .unwrap()
        .factory(G)
        .unwrap();
    for (moves, seeds) in [("", 3), ("44", 20), ("4453", 20), ("132", 20), ("7777", 20)] {
        let pos = Position::from_moves(G, moves).unwrap();
        let scores = solver.analyze(&pos, Mode::Strong);
        let best = scores.iter().flatten().max().copied().unwrap();
        for seed in 0..seeds {
            let c = factory.build(seed).unwrap().choose(&Turn::new(pos));
            assert_eq!(
                scores[c],
                Some(best),
                "{moves}: column {} ({scores:?})",
                c + 1
            );
        }
    }
}

#[test]
fn at_skill_zero_the_dial_plays_every_column_alike() {
    let factory = "level:skill=0"
        .parse::<AgentSpec>()
        .unwrap()
        .factory(G)
        .unwrap();
    let pos = Position::from_moves(G, "4455").unwrap();
    let mut counts = [0usize; 7];
    for seed in 0..1400 {
        counts[factory.build(seed).unwrap().choose(&Turn::new(pos))] += 1;
    }
    // 200 expected each; 4 standard deviations is about 55.
    assert!(
        counts.iter().all(|&n| (145..=255).contains(&n)),
        "{counts:?}"
    );
}

#[test]
fn mistakes_are_chosen_by_how_much_they_lose() {
    // Win at once (column 1), draw (2), slow loss (3), fast loss (4).
    let values = [
        Some(exact_value(18, G)),
        Some(0.0),
        Some(exact_value(-1, G)),
        Some(exact_value(-18, G)),
    ];
    for skill in [0.2, 0.4, 0.6, 0.8] {
        let p = policy(&values, skill);
        assert!(p[0] > p[1] && p[1] > p[2] && p[2] > p[3], "{skill}: {p:?}");
    }
}

/// A simulated dial player at `skill` on random value vectors: the moves' estimate lands
/// near the Elo the calibration gives that skill.
fn estimate_of_simulated(skill: f64, moves: usize, seed: u64) -> f64 {
    let cal = Calibration::builtin();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let state = AdaptiveState::new(cal.elo_of(0.5));
    let mut game = vec![0.0; state.evidence.len()];
    for _ in 0..moves {
        let values: Vec<Option<f64>> = (0..7)
            .map(|_| {
                let s: i32 = rng.gen_range(-18..=18);
                Some(exact_value(s, G))
            })
            .collect();
        let p = policy(&values, skill);
        let u: f64 = rng.r#gen();
        let mut acc = 0.0;
        let played = (0..7)
            .find(|&c| {
                acc += p[c];
                u < acc
            })
            .unwrap_or(6);
        if let Some(ev) = adaptive_move_evidence(&values, played, 0.02) {
            for (g, e) in game.iter_mut().zip(ev) {
                *g += e;
            }
        }
    }
    state.moves_estimate(cal, Some(&game))
}

#[test]
fn the_moves_estimate_finds_a_simulated_players_skill() {
    let cal = Calibration::builtin();
    for skill in [0.0, 0.3, 0.5, 0.7, 1.0] {
        let want = cal.elo_of(skill);
        let got = estimate_of_simulated(skill, 300, 7 + (skill * 10.0) as u64);
        // 300 moves pin the skill within a grid step or two; Elo per grid step varies.
        let tolerance = (cal.elo_of((skill + 0.06).min(1.0)) - cal.elo_of((skill - 0.06).max(0.0)))
            .abs()
            .max(60.0);
        assert!(
            (got - want).abs() <= tolerance,
            "skill {skill}: {got:.0} vs {want:.0} (±{tolerance:.0})"
        );
    }
}

#[test]
fn a_state_is_saved_and_read_back_and_bad_ones_are_refused() {
    let cal = Calibration::builtin();
    let mut s = AdaptiveState::new(1400.0);
    let ev = vec![-0.5; s.evidence.len()];
    s.finish_game(cal, Default::default(), &ev, Some(1.0), 1400.0);
    assert_eq!(s.games, 1);
    assert!(s.offset > 0.0, "the opponent won: the estimate rises");
    let back = AdaptiveState::from_json(&s.to_json()).unwrap();
    assert_eq!(back, s);
    for (bad, says) in [
        ("", "not an adaptive agent's state"),
        ("{\"version\":1}", "not an adaptive agent's state"),
        (
            &s.to_json().replace("\"version\":1", "\"version\":7"),
            "version 7",
        ),
        (
            &s.to_json().replace("\"evidence\":[", "\"evidence\":[1.0,"),
            "evidence values",
        ),
    ] {
        let e = AdaptiveState::from_json(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

#[test]
fn every_board_the_page_offers_has_a_calibration_of_its_own() {
    let boards = Calibration::calibrated_boards();
    for &[w, h] in connect4_engine::answers::NETWORK_BOARDS
        .iter()
        .chain([&[7, 6]])
    {
        assert!(boards.contains(&[w, h]), "{w}x{h}: no calibration");
        // In 128-bit form: 8x8 and 9x7 take more than 64 bits.
        let g = Geometry::<u128>::sized(w, h).unwrap();
        let cal = Calibration::for_board(g);
        assert_eq!(cal.board, g.to_string());
        // Measured against random, easy and hard, held on the 7x6 ladder's scale.
        for agent in ["random", "easy", "hard"] {
            assert!(
                cal.anchors.iter().any(|a| a.agent == agent),
                "{g}: no {agent}"
            );
        }
        let (low, high) = cal.range();
        assert!(low < high, "{g}");
    }
    // The dial plays its board's skill for an Elo: on 5x4 (where draws come easily) Elo
    // 1100 takes less skill than on 7x6.
    let e = 1100.0;
    let small = Calibration::for_board(Geometry::new(5, 4).unwrap())
        .skill_of(e)
        .unwrap();
    let standard = Calibration::builtin().skill_of(e).unwrap();
    assert!(small + 0.02 < standard, "{small} vs {standard}");
}
