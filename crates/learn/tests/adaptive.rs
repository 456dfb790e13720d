//! The adaptive agent in the arena: one agent for all the games of a pairing, played in
//! order, the same games on any number of threads; its estimate moves towards the
//! opponent, down against the random player and up against the perfect one.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use connect4_engine::Geometry;
use connect4_engine::agents::level::Calibration;
use connect4_engine::agents::{AgentSpec, Resources};
use connect4_engine::progress::Quiet;
use connect4_learn::arena::{
    AdaptiveBenchConfig, AdaptiveRunSpec, Tournament, TournamentConfig, run_adaptive_bench,
};

fn spec(s: &str) -> AgentSpec {
    s.parse().unwrap()
}

fn bench(
    geometry: Geometry,
    adaptive: &str,
    runs: &[(&str, usize)],
    jobs: usize,
) -> AdaptiveBenchConfig {
    AdaptiveBenchConfig {
        adaptive: spec(adaptive),
        runs: runs
            .iter()
            .map(|&(o, n)| AdaptiveRunSpec {
                stages: vec![(spec(o), n)],
            })
            .collect(),
        openings: 2,
        seed: 5,
        jobs,
        geometry,
    }
}

#[test]
fn the_same_games_and_estimates_on_any_number_of_threads() {
    // 5x4: every position solves at once, so no time limit decides a move.
    let g = Geometry::new(5, 4).unwrap();
    let runs = [("random", 6), ("easy", 6), ("hard", 6)];
    let (one, _) = run_adaptive_bench(
        &bench(g, "adaptive", &runs, 1),
        &Resources::default(),
        &Quiet,
    )
    .unwrap();
    for jobs in [2, 8, 16] {
        let (many, _) = run_adaptive_bench(
            &bench(g, "adaptive", &runs, jobs),
            &Resources::default(),
            &Quiet,
        )
        .unwrap();
        assert_eq!(one, many, "{jobs} threads");
    }
    // A tournament keeps one adaptive agent per pairing too: the same table at 1 and 8 threads.
    let t = |jobs| {
        let s = Tournament::new(TournamentConfig {
            agents: vec![spec("adaptive"), spec("random"), spec("easy")],
            games: 6,
            openings: 2,
            seed: 3,
            jobs,
            geometry: g,
            side: Default::default(),
        })
        .unwrap()
        .run(&Quiet)
        .unwrap();
        // The games, not their timings.
        s.rows
            .into_iter()
            .map(|r| (r.first, r.moves, r.result))
            .collect::<Vec<_>>()
    };
    assert_eq!(t(1), t(8));
}

#[test]
fn the_estimate_falls_against_random_and_rises_against_perfect() {
    let cal = Calibration::builtin();
    let (low, high) = cal.range();
    let start = (low + high) / 2.0;
    let cfg = bench(
        Geometry::STANDARD,
        "adaptive:ms=200",
        &[("random", 10), ("perfect:ties=random", 10)],
        2,
    );
    let (games, stages) = run_adaptive_bench(&cfg, &Resources::default(), &Quiet).unwrap();
    assert_eq!(games.len(), 20);
    let random = &stages[0];
    let perfect = &stages[1];
    assert!(
        random.final_estimate < start - 300.0,
        "against random after 10 games: {:.0} (start {start:.0})",
        random.final_estimate
    );
    assert!(
        perfect.final_estimate > start + 200.0,
        "against perfect after 10 games: {:.0} (start {start:.0})",
        perfect.final_estimate
    );
}
