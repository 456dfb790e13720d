//! Agents that search with an evaluator: easy, hard, window, handtuned, threat, negamax.

use super::{Agent, Turn};
use crate::game::BitBoard;
use crate::search::Searcher;

/// Plays the move a [`Searcher`] chooses.
pub struct SearchAgent<B: BitBoard = u64> {
    name: String,
    searcher: Searcher<B>,
}

impl<B: BitBoard> SearchAgent<B> {
    /// An agent named `name` that plays `searcher`'s choice.
    pub fn new(name: impl Into<String>, searcher: Searcher<B>) -> Self {
        SearchAgent {
            name: name.into(),
            searcher,
        }
    }
}

impl<B: BitBoard> Agent<B> for SearchAgent<B> {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, turn: &Turn<B>) -> usize {
        self.searcher.choose(&turn.position).column
    }

    fn set_interrupt(&mut self, interrupt: Option<crate::Interrupt>) {
        self.searcher.set_interrupt(interrupt);
    }

    fn vary(&mut self, seed: u64) {
        self.searcher.set_ties(Some(seed));
    }
}
