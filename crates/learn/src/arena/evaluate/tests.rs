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

/// Plays the leftmost legal column: an agent a caller supplies.
struct Leftmost;

impl connect4_engine::agents::Agent for Leftmost {
    fn name(&self) -> &str {
        "leftmost"
    }
    fn choose(&mut self, turn: &connect4_engine::agents::Turn) -> usize {
        let p = &turn.position;
        (0..p.width()).find(|&c| p.can_play(c)).unwrap_or(0)
    }
}

impl connect4_engine::agents::BuildAgent for Leftmost {
    fn build(&self, _seed: u64) -> Box<dyn connect4_engine::agents::Agent> {
        Box::new(Leftmost)
    }
}

#[test]
fn an_external_agent_is_evaluated_as_a_spec_is_and_a_stop_ends_the_evaluation() {
    let g = Geometry::STANDARD;
    let external = AgentFactory::external("leftmost", g, std::sync::Arc::new(Leftmost));
    let bench = vec![(Position::from_moves(g, "4453").unwrap(), None)];
    let cfg = EvaluateConfig {
        agents: Vec::new(),
        baseline: "easy".parse().unwrap(),
        games: 4,
        seeds: 1,
        openings: 0,
        seed: 1,
        bench: vec![("one".into(), bench)],
        equal_time: true,
        jobs: 1,
        tt_mib: 8,
        geometry: g,
        side: Side::Both,
        book: Some(connect4_engine::solver::book::embedded()),
    };
    let quiet = connect4_engine::progress::Quiet;
    let r = evaluate_with(
        &cfg,
        std::slice::from_ref(&external),
        &quiet,
        &Interrupt::new(),
    )
    .unwrap();
    let a = &r.agents[0];
    assert_eq!(a.agent, "leftmost");
    assert_eq!(a.vs_baseline.games, 4);
    assert!(
        a.equal_time.is_none(),
        "an external agent has no time budget to set"
    );
    assert_eq!(a.errors[0].positions, 1);
    // Its spec cannot build it again: only its factory can.
    let e = external.spec().factory(g).err().unwrap().to_string();
    assert!(e.contains("supplied by its caller"), "{e}");
    // Stopped before it starts: no report of a part.
    let stop = Interrupt::new();
    stop.cancel();
    assert!(evaluate_with(&cfg, &[external], &quiet, &stop).is_err());
}
