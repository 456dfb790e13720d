//! Agents that search with an evaluator: easy, hard, window, handtuned, threat, negamax.

use super::{Agent, Turn};
use crate::search::{SearchResult, Searcher};

/// Plays the move a [`Searcher`] chooses.
pub struct SearchAgent {
    name: String,
    searcher: Searcher,
    last: Option<SearchResult>,
}

impl SearchAgent {
    /// An agent named `name` that plays `searcher`'s choice.
    pub fn new(name: impl Into<String>, searcher: Searcher) -> Self {
        SearchAgent {
            name: name.into(),
            searcher,
            last: None,
        }
    }

    /// The result of the last search.
    pub fn last_result(&self) -> Option<SearchResult> {
        self.last
    }
}

impl Agent for SearchAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, turn: &Turn) -> usize {
        let r = self.searcher.choose(&turn.position);
        self.last = Some(r);
        r.column
    }

    fn last_nodes(&self) -> Option<u64> {
        self.last.map(|r| r.nodes)
    }
}
