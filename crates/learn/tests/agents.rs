//! Search, agents and the arena on real games.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{at_repo_root, shared_data};
use connect4_engine::agents::{AgentSpec, Turn};
use connect4_engine::eval::builtin;
use connect4_engine::game::{Geometry, Position, record::parse_test_line};
use connect4_engine::search::{SearchParams, Searcher, WIN};
use connect4_learn::arena::{Tournament, TournamentConfig, play_game};

const G: Geometry = Geometry::STANDARD;

/// Plies from `pos` to the end of the game under perfect play, from its exact score.
fn plies_to_end(pos: &Position, score: i32) -> i32 {
    let m = pos.moves_played() as i32;
    let half = 21;
    let own = m / 2;
    if score > 0 {
        let k = half + 1 - score;
        2 * (k - own) - 1
    } else {
        let k = half + 1 + score;
        2 * (k - (m - own))
    }
}

#[test]
#[ignore = "needs Pons' files in ../shared/data/pons: run with --include-ignored"]
fn search_finds_every_forced_result_inside_its_depth() {
    at_repo_root();
    let text = std::fs::read_to_string(shared_data("pons/Test_L3_R1")).unwrap();
    let depth = 7;
    let mut checked = 0;
    for line in text.lines().take(300) {
        let t = parse_test_line(line).unwrap().unwrap();
        let score = t.expected.unwrap();
        if score == 0 {
            continue;
        }
        let pos = Position::from_moves(G, &t.moves).unwrap();
        let d = plies_to_end(&pos, score);
        if d > depth {
            continue;
        }
        let mut s = Searcher::new(
            builtin("handtuned", G).unwrap(),
            SearchParams::depth(depth as u32),
        );
        let r = s.choose(&pos);
        let want = if score > 0 {
            WIN - d as f64
        } else {
            -(WIN - d as f64)
        };
        // A forced move is played without search, so its value is only static; the
        // analysis of every column gives the searched value then.
        let value = if r.depth == 0 && r.value.abs() < WIN - 2.0 {
            s.analyze(&pos, depth as u32)
                .into_iter()
                .flatten()
                .fold(f64::NEG_INFINITY, f64::max)
        } else {
            r.value
        };
        assert_eq!(value, want, "{}: score {score}, {d} plies", t.moves);
        if score > 0 {
            // The move played keeps the fastest win.
            let child = pos.after(r.column).unwrap();
            if !child.last_move_won() {
                let mut s2 = Searcher::new(
                    builtin("handtuned", G).unwrap(),
                    SearchParams::depth(depth as u32),
                );
                let best = s2
                    .analyze(&child, depth as u32)
                    .into_iter()
                    .flatten()
                    .fold(f64::NEG_INFINITY, f64::max);
                assert_eq!(best, -(WIN - (d - 1) as f64), "{}", t.moves);
            }
        }
        checked += 1;
    }
    assert!(
        checked > 100,
        "only {checked} positions had a result within depth {depth}"
    );
}

pub(crate) fn spec(s: &str) -> AgentSpec {
    s.parse().unwrap()
}

#[test]
fn perfect_never_loses_as_first_player() {
    at_repo_root();
    let perfect = spec("perfect").factory(G).unwrap();
    let opponents = [
        ("random", 1),
        ("random", 2),
        ("easy", 0),
        ("hard", 0),
        ("window:depth=3", 0),
        ("handtuned:depth=3", 0),
        ("threat:depth=3", 0),
        ("adaptive:depth=3", 0),
    ];
    for (name, seed) in opponents {
        let mut p = perfect.build(0).unwrap();
        let mut o = spec(name).factory(G).unwrap().build(seed).unwrap();
        let g = play_game(p.as_mut(), o.as_mut(), Position::new(G), &[]);
        assert_eq!(
            g.result,
            connect4_learn::arena::GameResult::FirstWin,
            "perfect against {name}: {:?}",
            g.moves
        );
    }
}

pub(crate) fn config(agents: &[&str], games: usize, seed: u64) -> TournamentConfig {
    TournamentConfig {
        agents: agents.iter().map(|a| spec(a)).collect(),
        games,
        openings: 2,
        seed,
        jobs: 2,
        geometry: G,
        side: Default::default(),
    }
}

#[test]
fn tournament_counts_every_game_once_with_balanced_colours() {
    at_repo_root();
    let t = Tournament::new(config(&["random", "easy", "window:depth=2"], 6, 5)).unwrap();
    assert_eq!(t.total_games(), 18);
    let s = t.run(&connect4_engine::progress::Quiet).unwrap();
    assert_eq!(s.rows.len(), 18);
    assert_eq!(s.total_games, 18);
    let ids: std::collections::BTreeSet<usize> = s.rows.iter().map(|r| r.game).collect();
    assert_eq!(ids.len(), 18, "each game once");
    for p in &s.pairings {
        assert_eq!(p.games, 6);
        assert_eq!(p.wins + p.draws + p.losses, 6);
        let firsts = s
            .rows
            .iter()
            .filter(|r| r.first == p.agent && r.second == p.opponent)
            .count();
        let seconds = s
            .rows
            .iter()
            .filter(|r| r.first == p.opponent && r.second == p.agent)
            .count();
        assert_eq!((firsts, seconds), (3, 3), "{} v {}", p.agent, p.opponent);
        let score = 100.0 * (p.wins as f64 + 0.5 * p.draws as f64) / 6.0;
        assert!((p.score_pct - score).abs() < 1e-9);
    }
    // Games 2k and 2k+1 share their opening, with the colours swapped.
    for pair in s.rows.chunks(2) {
        assert_eq!(pair[0].opening, pair[1].opening);
        assert_eq!(pair[0].opening.len(), 2);
        assert_eq!(
            (&pair[0].first, &pair[0].second),
            (&pair[1].second, &pair[1].first)
        );
        assert!(pair[0].moves.starts_with(&pair[0].opening));
    }
    // Every agent plays 12 games; points add up to the number of games.
    let total: f64 = s
        .elo
        .iter()
        .map(|e| e.score_pct * e.games as f64 / 100.0)
        .sum();
    assert!((total - 18.0).abs() < 1e-9);
    // Same seed, same games.
    let again = Tournament::new(config(&["random", "easy", "window:depth=2"], 6, 5))
        .unwrap()
        .run(&connect4_engine::progress::Quiet)
        .unwrap();
    let moves = |s: &connect4_learn::arena::TournamentSummary| {
        s.rows.iter().map(|r| r.moves.clone()).collect::<Vec<_>>()
    };
    assert_eq!(moves(&s), moves(&again));
}

#[test]
fn elo_orders_a_lopsided_pairing() {
    at_repo_root();
    let s = Tournament::new(config(&["random", "hard"], 20, 1))
        .unwrap()
        .run(&connect4_engine::progress::Quiet)
        .unwrap();
    let p = &s.pairings[0];
    assert!(p.losses >= 18, "hard should crush random: {p:?}");
    assert_eq!(s.elo[0].agent, "hard");
    assert!(s.elo[0].elo > s.elo[1].elo + 200.0, "{:?}", s.elo);
    assert!(
        s.elo[0].low > s.elo[1].high,
        "intervals separate: {:?}",
        s.elo
    );
}

#[test]
fn bad_tournaments_are_refused() {
    at_repo_root();
    assert!(Tournament::new(config(&["easy"], 2, 0)).is_err());
    assert!(Tournament::new(config(&["easy", "easy"], 2, 0)).is_err());
    assert!(Tournament::new(config(&["easy", "hard"], 0, 0)).is_err());
}

#[test]
fn every_documented_agent_kind_parses_builds_and_plays() {
    at_repo_root();
    // The rows of README's agent table, with the shipped models.
    let specs = [
        "random",
        "easy",
        "hard",
        "window",
        "window:depth=3",
        "handtuned:depth=2",
        "threat:depth=2",
        "openlines:depth=2",
        "negamax:eval=openlines,depth=2",
        "negamax:eval=window,depth=3,ms=50",
        "negamax:eval=handtuned,depth=2,schedule=20:4",
        "negamax:eval=threat,depth=2",
        "perfect",
        "perfect:tt=16",
        "adaptive",
        "adaptive:depth=2,start=0.5",
        "adaptive:start=1200,ms=50",
        "level:elo=1500",
        "level:skill=0.3,seed=4",
        "model:models/gbt.bin",
        "model:models/gbt.bin,depth=2",
        "model:models/lms.bin,depth=2",
        "model:path=models/gbt.bin,depth=2",
        "gbt",
        "gbt:depth=2",
        "lms",
        "lms:models/lms.bin,depth=2",
        "rollouts",
        "rollouts:playouts=20,smart=true,seed=3,depth=2",
        "hybrid",
        "hybrid:model=models/gbt.bin,depth=2,rollouts=10,smart=false,model_until=8,blend_until=14,weight=0.5,seed=1",
    ];
    // A mid-game position, so that even the perfect agent answers at once.
    let pos = Position::from_moves(G, "44444433333355").unwrap();
    for s in specs {
        let spec: AgentSpec = s.parse().unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(spec.to_string(), s);
        let factory = spec.factory(G).unwrap_or_else(|e| panic!("{s}: {e}"));
        let mut agent = factory.build(7).unwrap_or_else(|e| panic!("{s}: {e}"));
        let col = agent.choose(&Turn::new(pos));
        assert!(pos.can_play(col), "{s} chose column {col}");
    }
}

/// One game of the page's kind: a fixed line of play (`hard`, which always plays the same
/// move in a position) moving first against `factory`'s agent asked as the page asks (seed
/// `game_seed` plus the ply, varied play when `vary`); the game's move string.
fn page_game(
    factory: &connect4_engine::agents::AgentFactory,
    game_seed: u64,
    vary: bool,
) -> String {
    use connect4_engine::Interrupt;
    use connect4_engine::answers::play_move;
    use connect4_engine::game::Outcome;
    let mut fixed = spec("hard").factory(G).unwrap().build(0).unwrap();
    let mut pos = Position::new(G);
    let mut moves = String::new();
    while pos.outcome() == Outcome::Ongoing {
        let col = if pos.moves_played().is_multiple_of(2) {
            fixed.choose(&Turn::new(pos))
        } else {
            let stop = Interrupt::after(std::time::Duration::from_secs(20));
            let seed = game_seed + pos.moves_played() as u64;
            let (answer, _) = play_move(factory, pos, &moves, seed, vary, None, &stop).unwrap();
            answer.column - 1
        };
        pos.play_col(col);
        moves.push(char::from_digit(col as u32 + 1, 36).unwrap());
    }
    moves
}

/// Play that varies (the page asks each move with `vary` and a seed per game): against one
/// fixed line of play, 20 games of each preset are not all one game, the same seed replays
/// its game exactly, and without `vary` a searching preset plays one game only.
#[test]
fn presets_asked_to_vary_meet_a_fixed_line_with_different_games() {
    at_repo_root();
    use connect4_engine::answers::PRESETS;
    use std::collections::BTreeSet;
    let mut report = Vec::new();
    for &(name, text, _) in PRESETS {
        let factory = spec(text).factory(G).unwrap();
        let games: BTreeSet<String> = (0..20u64)
            .map(|g| page_game(&factory, 1000 * (g + 1), true))
            .collect();
        assert_eq!(
            page_game(&factory, 7000, true),
            page_game(&factory, 7000, true),
            "{name}: a seed replays its game"
        );
        report.push(format!("{name} {}", games.len()));
        if name == "Easy" {
            let fixed: BTreeSet<String> = (0..5u64)
                .map(|g| page_game(&factory, 1000 * (g + 1), false))
                .collect();
            assert_eq!(fixed.len(), 1, "{name} without vary: {fixed:?}");
        }
        assert!(
            games.len() > 1,
            "{name} ({text}) played one game 20 times: {games:?}"
        );
    }
    eprintln!(
        "distinct games of 20 against one fixed line: {}",
        report.join(", ")
    );
}
