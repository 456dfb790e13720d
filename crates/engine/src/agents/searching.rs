//! Agents that search with an evaluator: easy, hard, window, handtuned, threat, negamax.

use super::{Agent, Turn};
use crate::search::Searcher;

/// Plays the move a [`Searcher`] chooses.
pub struct SearchAgent {
    name: String,
    searcher: Searcher,
}

impl SearchAgent {
    /// An agent named `name` that plays `searcher`'s choice.
    pub fn new(name: impl Into<String>, searcher: Searcher) -> Self {
        SearchAgent {
            name: name.into(),
            searcher,
        }
    }
}

impl Agent for SearchAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, turn: &Turn) -> usize {
        self.searcher.choose(&turn.position).column
    }

    fn set_interrupt(&mut self, interrupt: Option<crate::Interrupt>) {
        self.searcher.set_interrupt(interrupt);
    }
}
