//! The curve's matches against the perfect player, the n-tuple literature's yardstick:
//! first player against `perfect:ties=random`, second against it with a share of random
//! safe moves.

use super::{CurveError, PerfectMatch};
use crate::arena::{Side, Tournament, TournamentConfig, wilson};
use connect4_engine::agents::{AgentBoard, AgentFactory, AgentSpec, Resources};
use connect4_engine::game::Geometry;
use connect4_engine::progress::Quiet;

/// The literature's opponents: `perfect:ties=random` (eps 0, met as first player), then
/// the same with each share `eps` of random safe moves (met as second player). Their
/// factories keep the positions they solve, so later matches against them are faster.
pub fn perfect_opponents<B: AgentBoard>(
    geom: Geometry<B>,
    eps: &[f64],
    seed: u64,
) -> Result<Vec<(f64, AgentFactory<B>)>, CurveError> {
    let seed =
        connect4_engine::seed::derive_seed(seed, connect4_engine::seed::Stream::NTupleCurve, &[7]);
    std::iter::once(&0.0)
        .chain(eps)
        .map(|&e| {
            let spec: AgentSpec =
                format!("perfect:ties=random,eps={e},seed={seed},tt=32").parse()?;
            Ok((e, spec.factory_on(geom, &Resources::default())?))
        })
        .collect()
}

/// `agent`'s matches of `games` games from the empty board against `opponents` (from
/// [`perfect_opponents`]): as first player against the first, as second against the rest.
pub fn play_perfect<B: AgentBoard>(
    geom: Geometry<B>,
    agent: &AgentFactory<B>,
    opponents: &[(f64, AgentFactory<B>)],
    games: usize,
    seed: u64,
) -> Result<Vec<PerfectMatch>, CurveError> {
    let mut out = Vec::new();
    for (k, (eps, perfect)) in opponents.iter().enumerate() {
        let side = if k == 0 { Side::First } else { Side::Second };
        let t = Tournament::from_factories(
            TournamentConfig {
                agents: Vec::new(),
                games,
                openings: 0,
                seed: connect4_engine::seed::derive_seed(
                    seed,
                    connect4_engine::seed::Stream::NTupleCurve,
                    &[8, k as u64],
                ),
                jobs: rayon::current_num_threads().max(1),
                geometry: geom,
                side,
            },
            vec![agent.clone(), perfect.clone()],
        )?;
        let p = t.run(&Quiet)?.pairings[0].clone();
        let w = wilson(p.wins, p.games);
        out.push(PerfectMatch {
            side: if k == 0 { Side::First } else { Side::Second },
            eps: *eps,
            games: p.games,
            wins: p.wins,
            draws: p.draws,
            win_rate: w.value,
            low: w.low,
            high: w.high,
        });
    }
    Ok(out)
}
