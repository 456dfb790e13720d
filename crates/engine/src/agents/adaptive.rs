//! The adaptive-difficulty agent: it plays about as well as its opponent.

use super::{Agent, Turn};
use crate::eval::Evaluator;
use crate::game::Position;
use crate::search::{SearchParams, Searcher};
use std::sync::Arc;

/// Ranks the legal moves of `pos` from worst to best by their `values` (as given by
/// [`Searcher::analyze`]): returns the columns in that order. Equal values are ordered by
/// centrality, the most central last, so a "best" pick among equals is the central one.
pub fn rank_moves(pos: &Position, values: &[Option<f64>]) -> Vec<usize> {
    let centre = (pos.width() as f64 - 1.0) / 2.0;
    let mut cols: Vec<(usize, f64)> = (0..values.len())
        .filter_map(|c| values[c].map(|v| (c, v)))
        .collect();
    cols.sort_by(|&(a, va), &(b, vb)| {
        va.total_cmp(&vb).then_with(|| {
            let (da, db) = ((a as f64 - centre).abs(), (b as f64 - centre).abs());
            db.total_cmp(&da).then(b.cmp(&a))
        })
    });
    cols.into_iter().map(|(c, _)| c).collect()
}

/// Matches the opponent's strength. Before each move it analyses, at its depth, the position
/// the opponent just faced, ranks the opponent's moves from worst to best and records the
/// rank of the move played as index / (moves - 1). It keeps the running mean of these ranks
/// over the game, ranks its own moves the same way and plays the one at index
/// round(mean x (moves - 1)); the starting rank `start` counts as one observation. Wins and
/// losses are distance-adjusted by the search (a sooner win ranks higher: the study's "win in
/// d plies = 100 - d", on the search's scale).
///
/// Like every searcher in this crate it takes an immediate win and never hands the opponent
/// one when it can avoid it: the moves ranked (its own and the opponent's) are the moves
/// that do not lose at once. A move tied with others gets the mean index of its tie group; a
/// forced move (one candidate) tells nothing and is not recorded; an opponent's move that
/// handed over a win ranks 0.
pub struct Adaptive {
    name: String,
    searcher: Searcher,
    depth: u32,
    start: f64,
    ranks: Vec<f64>,
}

impl Adaptive {
    /// An adaptive agent that analyses with `eval` at `depth` plies.
    pub fn new(name: impl Into<String>, eval: Arc<dyn Evaluator>, depth: u32, start: f64) -> Self {
        Adaptive {
            name: name.into(),
            searcher: Searcher::new(eval, SearchParams::depth(depth)),
            depth,
            start,
            ranks: Vec::new(),
        }
    }

    /// The ranks recorded so far, in game order.
    pub fn ranks(&self) -> &[f64] {
        &self.ranks
    }

    /// The running mean rank, with the starting rank counted as one observation:
    /// (start + sum of ranks) / (1 + observations), so one odd early move does not swing
    /// the agent's play to an extreme.
    pub fn mean_rank(&self) -> f64 {
        (self.start + self.ranks.iter().sum::<f64>()) / (1 + self.ranks.len()) as f64
    }

    /// Records the rank of `played` among the moves of `faced`.
    pub fn observe(&mut self, faced: &Position, played: usize) {
        let values = self.candidate_values(faced);
        let order = rank_moves(faced, &values);
        let n = order.len();
        if n < 2 {
            return;
        }
        let index = match values.get(played).copied().flatten() {
            // Mean index of the moves tied with the one played.
            Some(v) => {
                let tied: Vec<usize> = (0..n).filter(|&i| values[order[i]] == Some(v)).collect();
                tied.iter().sum::<usize>() as f64 / tied.len() as f64
            }
            // A move that handed over an immediate win ranks below every candidate.
            None => 0.0,
        };
        self.ranks.push(index / (n - 1) as f64);
    }

    /// Analysis values of the candidate moves of `pos`: the moves that do not let the
    /// opponent win at once (all legal moves when every one of them does); `None` elsewhere.
    fn candidate_values(&mut self, pos: &Position) -> Vec<Option<f64>> {
        let mut values = self.searcher.analyze(pos, self.depth);
        let safe = pos.possible_non_losing_moves();
        if safe != 0 && !pos.can_win_next() {
            let g = pos.geometry();
            for (c, v) in values.iter_mut().enumerate() {
                if safe & g.column_mask(c) == 0 {
                    *v = None;
                }
            }
        }
        values
    }
}

impl Agent for Adaptive {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, turn: &Turn) -> usize {
        if let Some((faced, played)) = turn.opponent_move {
            self.observe(&faced, played);
        }
        let pos = &turn.position;
        let g = pos.geometry();
        // The rules every searcher here follows: an immediate win is taken.
        if let Some(c) = g
            .centre_order()
            .find(|&c| pos.can_play(c) && pos.is_winning_move(c))
        {
            return c;
        }
        let values = self.candidate_values(pos);
        let order = rank_moves(pos, &values);
        let n = order.len();
        let index = (self.mean_rank() * (n - 1) as f64).round() as usize;
        order[index.min(n - 1)]
    }

    fn set_interrupt(&mut self, interrupt: Option<crate::Interrupt>) {
        self.searcher.set_interrupt(interrupt);
    }
}
