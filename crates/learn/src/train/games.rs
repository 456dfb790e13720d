//! Solver-labelled self-play data: positions sampled from games between two agents,
//! deduplicated by mirror-canonical key, labelled by the solver, with the game's actual result
//! kept as a second label. This reaches plies the UCI file (8 plies only) never shows.

use crate::arena::{GameResult, play_game, random_opening};
use crate::datasets::Label;
use crate::datasets::games_csv::LabelledPosition;
use crate::datasets::label::{self, ScoreMany};
use connect4_engine::agents::{AgentError, AgentSpec};
use connect4_engine::game::{Geometry, Player, Position};
use connect4_engine::seed::{Stream, derive_seed};
use connect4_engine::solver::{Mode, SolverError};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::HashSet;
use std::ops::RangeInclusive;

/// What to generate.
#[derive(Clone, Debug)]
pub struct GamesConfig {
    /// The two agents; they swap colours every game.
    pub agents: [AgentSpec; 2],
    /// Games to play.
    pub games: usize,
    /// Plies (stones on the board) of the positions kept.
    pub plies: RangeInclusive<usize>,
    /// Weak (-1/0/1) or strong (exact score) labels.
    pub label: Mode,
    /// Random opening plies before the agents take over (variety between games).
    pub opening_plies: usize,
    /// Seed of openings and agents.
    pub seed: u64,
    /// Solver table per worker, MiB.
    pub tt_mib: usize,
    /// The opening book of the labelling solvers and of perfect agents (`None`: none).
    pub book: Option<std::sync::Arc<connect4_engine::solver::book::Book>>,
}

/// Errors of the generator.
#[derive(Debug, thiserror::Error)]
pub enum SelfplayError {
    /// An agent could not be built.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// The solver could not be set up.
    #[error(transparent)]
    Solver(#[from] SolverError),
}

/// What a run produced.
pub struct GamesOutput {
    /// Positions seen in the ply range, before deduplication.
    pub sampled: usize,
    /// The labelled, deduplicated positions (first occurrence order).
    pub positions: Vec<LabelledPosition>,
    /// Games won by the first player, drawn, won by the second.
    pub results: [usize; 3],
}

/// Plays the games (in parallel), samples, deduplicates and labels; `progress` hears of two
/// parts, the games and the labelling.
pub fn generate(
    cfg: &GamesConfig,
    geom: Geometry,
    progress: &dyn connect4_engine::progress::Progress,
) -> Result<GamesOutput, SelfplayError> {
    progress.start("self-play games", cfg.games);
    let factories = [
        cfg.agents[0].factory_with_book(geom, cfg.book.clone())?,
        cfg.agents[1].factory_with_book(geom, cfg.book.clone())?,
    ];
    let games: Vec<(Vec<Position>, GameResult)> = (0..cfg.games)
        .into_par_iter()
        .map(|g| -> Result<_, SelfplayError> {
            let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(
                cfg.seed,
                Stream::SelfplayOpening,
                &[g as u64],
            ));
            let opening = random_opening(geom, cfg.opening_plies, &mut rng);
            let (a, b) = if g % 2 == 0 { (0, 1) } else { (1, 0) };
            let mut first =
                factories[a].build(derive_seed(cfg.seed, Stream::SelfplayAgent, &[g as u64, 0]))?;
            let mut second =
                factories[b].build(derive_seed(cfg.seed, Stream::SelfplayAgent, &[g as u64, 1]))?;
            let played = play_game(
                first.as_mut(),
                second.as_mut(),
                Position::new(geom),
                &opening,
            );
            let mut pos = Position::new(geom);
            let mut seen = Vec::new();
            for &c in &played.moves {
                seen.push(pos);
                pos.play_col(c);
            }
            progress.advance(1);
            Ok((seen, played.result))
        })
        .collect::<Result<_, _>>()?;
    let (picked, sampled, results) = distinct_positions(&games, &cfg.plies);
    progress.finish();
    progress.start("solver labels", picked.len());
    let pool = label::for_workers(geom, cfg.tt_mib, cfg.book.clone())?;
    let positions: Vec<Position> = picked.iter().map(|(p, _)| *p).collect();
    let scores = pool.scores(&positions, cfg.label, progress);
    progress.finish();
    let positions = picked
        .iter()
        .zip(scores)
        .map(|(&(position, result), score)| LabelledPosition {
            position,
            label: Label::from_score(score),
            score,
            result,
        })
        .collect();
    Ok(GamesOutput {
        sampled,
        positions,
        results,
    })
}

/// The distinct positions (mirror images once) of the games whose stones lie in `plies`,
/// each with the game's result for its side to move; how many were seen in all, and the
/// games' results (first wins, draws, second wins).
fn distinct_positions(
    games: &[(Vec<Position>, GameResult)],
    plies: &std::ops::RangeInclusive<usize>,
) -> (Vec<(Position, Label)>, usize, [usize; 3]) {
    let mut keys = HashSet::new();
    let mut picked: Vec<(Position, Label)> = Vec::new();
    let mut sampled = 0;
    let mut results = [0usize; 3];
    for (seen, result) in games {
        results[match result {
            GameResult::FirstWin => 0,
            GameResult::Draw => 1,
            GameResult::SecondWin => 2,
        }] += 1;
        for p in seen.iter().filter(|p| plies.contains(&p.moves_played())) {
            sampled += 1;
            if keys.insert(p.canonical_key()) {
                let for_mover = match (result, p.side_to_move()) {
                    (GameResult::Draw, _) => Label::Draw,
                    (GameResult::FirstWin, Player::First)
                    | (GameResult::SecondWin, Player::Second) => Label::Win,
                    _ => Label::Loss,
                };
                picked.push((*p, for_mover));
            }
        }
    }
    (picked, sampled, results)
}
