use super::*;

#[test]
fn a_strong_agent_scores_high_and_errs_less() {
    let bench: Vec<(Position, Option<i32>)> =
        ["4453", "44536", "2252576253462244111563365343671351441"]
            .iter()
            .map(|m| (Position::from_moves(Geometry::STANDARD, m).unwrap(), None))
            .collect();
    let cfg = EvaluateConfig {
        agents: vec!["hard".parse().unwrap()],
        baseline: "random".parse().unwrap(),
        games: 6,
        seeds: 2,
        openings: 2,
        seed: 5,
        bench: vec![("three".into(), bench)],
        equal_time: true,
        jobs: 2,
        tt_mib: 8,
        geometry: Geometry::STANDARD,
        side: Side::Both,
        book: Some(connect4_engine::solver::book::embedded()),
    };
    let r = evaluate(&cfg, &connect4_engine::progress::Quiet).unwrap();
    let m = &r.agents[0].vs_baseline;
    assert_eq!(m.games, 12);
    assert_eq!(m.wins + m.draws + m.losses, 12);
    assert_eq!(m.score_per_seed.len(), 2);
    assert_eq!((m.as_first.games, m.as_second.games), (6, 6));
    assert_eq!(m.as_first.wins + m.as_second.wins, m.wins);
    assert!(r.text().contains("as first player"));
    assert!(m.score.value > 0.8, "{m:?}");
    assert!(m.elo.value > 200.0 && m.elo.low <= m.elo.value && m.elo.value <= m.elo.high);
    // hard searches, so it also played on random's time per move, under its own label.
    let timed = r.agents[0]
        .equal_time
        .as_ref()
        .expect("an equal-time match");
    assert_eq!(timed.games, 12);
    assert!(
        timed.agent.starts_with("hard@") && timed.agent.ends_with("ms"),
        "{timed:?}"
    );
    // Agents that do not search take no time budget.
    assert!(
        "random"
            .parse::<AgentSpec>()
            .unwrap()
            .with_time_budget(5.0)
            .is_none()
    );
    assert_eq!(r.baseline_errors[0].positions, 3);
    assert_eq!(r.agents[0].errors[0].positions, 3);
}
