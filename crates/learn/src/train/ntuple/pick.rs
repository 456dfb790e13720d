//! Choosing among runs of one recipe: the best by games against the perfect player, or the
//! average of their weights. Networks with the same tuples sum the same patterns, so the
//! average of their weights is exactly the average of their sums: an ensemble that costs no
//! more per evaluation than one network. The matches need the perfect player: on a board
//! the solver does not reach (6x7, 8x7, 8x8, ...) only the average is made, unmeasured.

use super::curve::{CurveError, PerfectMatch, perfect_opponents, play_perfect};
use connect4_engine::agents::{AgentBoard, AgentFactory};
use connect4_engine::eval::NTupleEvaluator;
use connect4_engine::game::Geometry;
use connect4_engine::ml::ntuple::{NTupleError, NTupleNetwork};
use connect4_engine::search::SearchParams;
use std::sync::Arc;

/// How [`pick`] chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickBy {
    /// The candidate with the most wins against the perfect player (first player, then
    /// second at every eps).
    Games,
    /// The average of every candidate's weights (they must share their tuples).
    Average,
}

/// Why candidates could not be compared or averaged.
#[derive(Debug, thiserror::Error)]
pub enum PickError {
    /// Nothing to choose from.
    #[error("no networks to choose from")]
    Empty,
    /// Choosing by games needs the perfect player, and the solver does not reach the board.
    #[error(
        "choosing by games plays the perfect player, and the solver does not reach {board} boards: average them (--by average) and measure the average with c4 evaluate"
    )]
    Unreached {
        /// The board, "WxH".
        board: String,
    },
    /// Networks of other tuples or another board cannot be averaged.
    #[error(
        "network {index} has other tuples, layout or board than the first: only runs of one recipe (same --tuples, --cells, --sets, --layout-seed) can be averaged"
    )]
    Mismatch {
        /// Its position in the list.
        index: usize,
    },
    /// The matches.
    #[error(transparent)]
    Curve(#[from] CurveError),
    /// A network could not be rebuilt.
    #[error(transparent)]
    Network(#[from] NTupleError),
}

/// One candidate's (or the average's) matches.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Candidate {
    /// Its name (the file, or `average`).
    pub name: String,
    /// Its matches against the perfect player (none on a board the solver does not reach).
    pub matches: Vec<PerfectMatch>,
    /// Wins over all the matches.
    pub wins: usize,
}

/// What [`pick`] found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PickReport {
    /// Every candidate measured, in the order given, then the average when one was made.
    pub candidates: Vec<Candidate>,
    /// Index (into `candidates`) of the chosen network.
    pub chosen: usize,
}

/// The network (depth 1 with the one-move rule, as the literature plays it) as an agent.
fn agent<B: AgentBoard>(net: &NTupleNetwork<B>, name: &str) -> AgentFactory<B> {
    let eval = Arc::new(NTupleEvaluator::new(net.clone(), name));
    AgentFactory::search(
        name,
        net.geometry(),
        eval,
        SearchParams {
            safe: Some(true),
            ..SearchParams::depth(1)
        },
    )
}

/// The element-wise mean of the networks' weights.
pub fn average<B: AgentBoard>(nets: &[NTupleNetwork<B>]) -> Result<NTupleNetwork<B>, PickError> {
    let first = nets.first().ok_or(PickError::Empty)?;
    for (index, n) in nets.iter().enumerate() {
        if n.geometry() != first.geometry()
            || n.layout() != first.layout()
            || n.tuples() != first.tuples()
        {
            return Err(PickError::Mismatch { index });
        }
    }
    let mut out = first.clone();
    let k = nets.len() as f32;
    for (i, w) in out.weights_mut().iter_mut().enumerate() {
        *w = nets.iter().map(|n| n.weights()[i]).sum::<f32>() / k;
    }
    Ok(out)
}

/// Plays every candidate (and, with [`PickBy::Average`], their average) against the perfect
/// player on `games` games per match (first player; second at each of `eps`) and returns
/// the measurements and the chosen network: the one with the most wins, or the average. On
/// a board the solver does not reach ([`connect4_engine::solver::reaches`]) no match is
/// played: the average is made with no measurement, and choosing by games is an error.
pub fn pick<B: AgentBoard>(
    names: &[String],
    nets: &[NTupleNetwork<B>],
    by: PickBy,
    games: usize,
    eps: &[f64],
    seed: u64,
) -> Result<(PickReport, NTupleNetwork<B>), PickError> {
    let first = nets.first().ok_or(PickError::Empty)?;
    let geom = first.geometry();
    let reached = reaches(geom);
    if !reached && by == PickBy::Games {
        return Err(PickError::Unreached {
            board: geom.to_string(),
        });
    }
    let opponents = if reached {
        perfect_opponents(geom, eps, seed)?
    } else {
        Vec::new()
    };
    let measure = |name: &str, net: &NTupleNetwork<B>| -> Result<Candidate, PickError> {
        let matches = if reached {
            play_perfect(geom, &agent(net, name), &opponents, games, seed)?
        } else {
            Vec::new()
        };
        let wins = matches.iter().map(|m| m.wins).sum();
        Ok(Candidate {
            name: name.to_string(),
            matches,
            wins,
        })
    };
    let mut candidates = Vec::new();
    for (name, net) in names.iter().zip(nets) {
        candidates.push(measure(name, net)?);
    }
    let (chosen, net) = match by {
        PickBy::Games => {
            let best = (0..candidates.len())
                .max_by_key(|&i| (candidates[i].wins, std::cmp::Reverse(i)))
                .expect("at least one candidate");
            (best, nets[best].clone())
        }
        PickBy::Average => {
            let avg = average(nets)?;
            candidates.push(measure("average", &avg)?);
            (candidates.len() - 1, avg)
        }
    };
    Ok((PickReport { candidates, chosen }, net))
}

/// Whether the solver answers on boards of `geom` (in any integer): the perfect player's
/// boards all fit 64 bits.
fn reaches<B: AgentBoard>(geom: Geometry<B>) -> bool {
    Geometry::new(geom.width(), geom.height()).is_ok_and(connect4_engine::solver::reaches)
}

#[cfg(test)]
mod tests {
    use super::*;
    use connect4_engine::game::Geometry;
    use connect4_engine::ml::ntuple::NTupleLayout;

    #[test]
    fn averaging_needs_one_recipe_and_averages_the_sums() {
        let g = Geometry::STANDARD;
        let layout = NTupleLayout {
            tuples: 4,
            cells: 4,
            ..NTupleLayout::default()
        };
        let mut a = NTupleNetwork::new(g, layout).unwrap();
        let mut b = a.clone();
        let p = connect4_engine::Position::from_moves(g, "4453").unwrap();
        let act = a.active(&p);
        a.step(&act, 0.1);
        b.step(&act, -0.3);
        let avg = average(&[a.clone(), b.clone()]).unwrap();
        let raw = |n: &NTupleNetwork| n.raw(&n.active(&p));
        assert!((raw(&avg) - (raw(&a) + raw(&b)) / 2.0).abs() < 1e-5);
        let other = NTupleNetwork::new(g, NTupleLayout { seed: 9, ..layout }).unwrap();
        assert!(matches!(
            average(&[a, other]),
            Err(PickError::Mismatch { index: 1 })
        ));
        assert!(matches!(average::<u64>(&[]), Err(PickError::Empty)));
    }
}
