//! The tournament's summary as the CLI prints it: one text, so `c4 tournament` and the
//! Python results object show the same table.

use super::TournamentSummary;
use std::fmt::Write;

impl TournamentSummary {
    /// The heading line, the pairings' table and the Elo table (with ms per move), as
    /// `c4 tournament` prints them.
    pub fn table(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "{} agents, {} games per pairing, {} opening plies, seed {}, board {}",
            self.agents.len(),
            self.games_per_pairing,
            self.openings,
            self.seed,
            self.board
        );
        let w = self
            .agents
            .iter()
            .map(|a| a.len())
            .max()
            .unwrap_or(5)
            .max(5);
        let _ = writeln!(
            t,
            "\n{:<w$}  {:<w$} {:>6} {:>6} {:>6} {:>6} {:>8}",
            "agent", "opponent", "games", "wins", "draws", "losses", "score %"
        );
        for p in &self.pairings {
            let _ = writeln!(
                t,
                "{:<w$}  {:<w$} {:>6} {:>6} {:>6} {:>6} {:>8.2}",
                p.agent, p.opponent, p.games, p.wins, p.draws, p.losses, p.score_pct
            );
        }
        let _ = writeln!(
            t,
            "\n{:<w$} {:>8} {:>18} {:>6} {:>8} {:>10}",
            "agent", "Elo", "95% interval", "games", "score %", "ms/move"
        );
        for e in &self.elo {
            let _ = writeln!(
                t,
                "{:<w$} {:>8.0} {:>18} {:>6} {:>8.2} {:>10.3}",
                e.agent,
                e.elo,
                format!("[{:.0}, {:.0}]", e.low, e.high),
                e.games,
                e.score_pct,
                self.ms_of(&e.agent)
            );
        }
        t
    }

    /// An agent's mean ms per move over all its games (0 when it played none).
    pub fn ms_of(&self, agent: &str) -> f64 {
        self.ms_per_move
            .iter()
            .find(|(a, _)| a == agent)
            .map_or(0.0, |(_, t)| *t)
    }
}
