//! Agents on boards past 64 bits (wide bitboards): the same games on any thread count and in
//! either integer, refusals by name, the dial and the adaptive agent.

use crate::agents::{config, spec};
use crate::common::at_repo_root;
use connect4_engine::agents::Turn;
use connect4_engine::game::{Geometry, Position};
use connect4_learn::arena::{Tournament, TournamentConfig};

/// The agents that play boards past 64 bits.
const WIDE_AGENTS: [&str; 8] = [
    "random",
    "easy",
    "hard",
    "window:depth=2",
    "threat:depth=2",
    "negamax:eval=openlines,depth=3,ms=50",
    "rollouts:playouts=8,depth=1",
    "mcts:sims=60,safe=true",
];

fn wide_config(agents: &[&str], geometry: Geometry<u128>, jobs: usize) -> TournamentConfig<u128> {
    TournamentConfig {
        agents: agents.iter().map(|a| spec(a)).collect(),
        games: 2,
        openings: 2,
        seed: 17,
        jobs,
        geometry,
        side: Default::default(),
    }
}

/// Replays every game of `rows` move by move on `g`: each is legal and ends.
fn every_game_ends(g: Geometry<u128>, rows: &[connect4_learn::arena::GameRow]) {
    for r in rows {
        let p = Position::from_moves(g, &r.moves).unwrap_or_else(|e| panic!("{r:?}: {e}"));
        assert_ne!(
            p.outcome(),
            connect4_engine::game::Outcome::Ongoing,
            "{r:?}"
        );
    }
}

#[test]
fn agents_play_boards_past_64_bits_alike_on_any_thread_count() {
    at_repo_root();
    use connect4_engine::agents::Resources;
    let moves = |s: &connect4_learn::arena::TournamentSummary| {
        s.rows.iter().map(|r| r.moves.clone()).collect::<Vec<_>>()
    };
    for (w, h) in [(8, 8), (9, 7)] {
        let g = Geometry::<u128>::sized(w, h).unwrap();
        let run = |jobs| {
            Tournament::on_board(wide_config(&WIDE_AGENTS, g, jobs), &Resources::default())
                .unwrap()
                .run(&connect4_engine::progress::Quiet)
                .unwrap()
        };
        let one = run(1);
        assert_eq!(one.board, format!("{w}x{h}"));
        assert_eq!(one.rows.len(), 56);
        // Every game is a legal game that ends as recorded (replayed move by move).
        every_game_ends(g, &one.rows);
        // Searching agents crush the random one there too.
        let random = one.elo.iter().find(|e| e.agent == "random").unwrap();
        assert_eq!(random.score_pct, 0.0, "{:?}", one.elo);
        assert_eq!(moves(&one), moves(&run(8)), "{w}x{h}: 1 and 8 threads");
    }
}

#[test]
fn a_narrow_board_in_wide_bitboards_plays_the_same_games() {
    at_repo_root();
    // 8x7 (every bit of a u64) played in u128 bitboards: the code path a wide board takes,
    // checked against the 64-bit games move for move (search tables hash wide keys
    // differently, so this also shows the hash does not change what the searches find
    // here). Not 7x6: its playouts run a tuned 64-bit loop that draws differently.
    use connect4_engine::agents::Resources;
    let agents = [
        "easy",
        "hard",
        "threat:depth=3",
        "mcts:sims=100",
        "rollouts:playouts=8,depth=1",
    ];
    let g = Geometry::new(8, 7).unwrap();
    let mut narrow = config(&agents, 2, 23);
    narrow.geometry = g;
    let narrow = Tournament::new(narrow)
        .unwrap()
        .run(&connect4_engine::progress::Quiet)
        .unwrap();
    let mut wide = wide_config(&agents, g.widen(), 2);
    wide.seed = 23;
    let wide = Tournament::on_board(wide, &Resources::default())
        .unwrap()
        .run(&connect4_engine::progress::Quiet)
        .unwrap();
    assert_eq!(narrow.rows.len(), wide.rows.len());
    for (a, b) in narrow.rows.iter().zip(&wide.rows) {
        assert_eq!(
            (&a.first, &a.second, &a.moves),
            (&b.first, &b.second, &b.moves)
        );
    }
}

#[test]
fn agents_that_need_64_bit_books_or_models_are_refused_past_64_bits() {
    at_repo_root();
    use connect4_engine::agents::Resources;
    let g = Geometry::<u128>::sized(8, 8).unwrap();
    for s in [
        "perfect",
        "gbt",
        "handtuned",
        "ntuple:models/ntuple.bin",
        "hybrid",
    ] {
        let err = spec(s)
            .factory_on(g, &Resources::default())
            .err()
            .unwrap_or_else(|| panic!("{s} built on 8x8"))
            .to_string();
        assert!(
            err.contains("8x8")
                && (err.contains(s.split(':').next().unwrap()) || err.contains("7x6")),
            "{s}: {err}"
        );
    }
    // The bare `ntuple` spec plays the board's own network (models/ntuple-8x8.bin ships).
    let ntuple = spec("ntuple:depth=1,safe=true")
        .factory_on(g, &Resources::default())
        .unwrap();
    let col = ntuple
        .build(0)
        .unwrap()
        .choose(&Turn::new(Position::new(g)));
    assert!(col < 8);
}

#[test]
fn the_dial_and_the_adaptive_agent_play_past_64_bits() {
    at_repo_root();
    // On 8x8 they judge moves with a wide solver late in the game and the board's network
    // before it. `ms=0` leaves the network alone (every judgement the same on any machine).
    use connect4_engine::agents::Resources;
    let g = Geometry::<u128>::sized(8, 8).unwrap();
    let agents = [
        "random",
        "level:skill=1,ms=0",
        "level:skill=0.3,ms=0",
        "adaptive:ms=0",
    ];
    let run = || {
        Tournament::on_board(
            TournamentConfig {
                games: 4,
                ..wide_config(&agents, g, 1)
            },
            &Resources::default(),
        )
        .unwrap()
        .run(&connect4_engine::progress::Quiet)
        .unwrap()
    };
    let one = run();
    assert_eq!(one.rows.len(), 24);
    every_game_ends(g, &one.rows);
    let score = |a: &str| one.elo.iter().find(|e| e.agent == a).unwrap().score_pct;
    // The dial at skill 1 (the network's best move) beats random every game.
    let top = one
        .pairings
        .iter()
        .find(|p| p.agent == "random" && p.opponent == "level:skill=1,ms=0")
        .unwrap();
    assert_eq!(top.losses, 4, "{top:?}");
    assert!(
        score("level:skill=1,ms=0") > score("random"),
        "{:?}",
        one.elo
    );
    assert_eq!(
        one.rows.iter().map(|r| &r.moves).collect::<Vec<_>>(),
        run().rows.iter().map(|r| &r.moves).collect::<Vec<_>>(),
        "the same games again"
    );
    // The adaptive agent's estimate moves with what it sees: after losing games to a
    // player it rates that player above where it started.
    let factory = spec("adaptive:ms=0")
        .factory_on(g, &Resources::default())
        .unwrap();
    let mut adaptive = factory
        .build_adaptive(0, connect4_engine::agents::AdaptiveState::new(1400.0))
        .unwrap();
    let start = adaptive.estimate();
    // The opponent (x) opens a three in the middle of the bottom row while the agent (o)
    // plays column 8, then completes it: x wins.
    let cols = [3, 7, 4, 7, 5, 7, 2];
    adaptive.replay(
        Position::new(g),
        &cols,
        connect4_engine::game::Player::Second,
    );
    assert_eq!(adaptive.history().len(), 1);
    assert!(
        adaptive.estimate() > start,
        "{} after {start}",
        adaptive.estimate()
    );
}
