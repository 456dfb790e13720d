//! What `c4 evaluate` reports: each agent's match against the baseline (by side, with the
//! score's interval and Elo), its grading on benchmark sets, and the whole report with its
//! tables.

use super::Optimum;
use crate::arena::Side;
use crate::arena::estimate::{Estimate, wilson};
use serde::{Deserialize, Serialize};

/// One agent's match against the baseline, all seeds pooled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchReport {
    /// The agent (as labelled in the games).
    pub agent: String,
    /// The baseline.
    pub baseline: String,
    /// Games played.
    pub games: usize,
    /// The agent's wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// The agent's losses.
    pub losses: usize,
    /// Score (wins + draws / 2) / games, with a 95% interval (normal approximation on the
    /// per-game scores, which counts draws as the half points they are).
    pub score: Estimate,
    /// Elo difference to the baseline implied by the score, with the interval's image.
    pub elo: Estimate,
    /// The agent's mean time per move, ms.
    pub ms_per_move: f64,
    /// The baseline's mean time per move in these games, ms.
    pub baseline_ms_per_move: f64,
    /// The score of each seed's match, in seed order.
    pub score_per_seed: Vec<f64>,
    /// The agent's games as first player.
    #[serde(default)]
    pub as_first: SideRecord,
    /// The agent's games as second player.
    #[serde(default)]
    pub as_second: SideRecord,
}

/// An agent's games with one colour: the record and its win rate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideRecord {
    /// Games played with this colour.
    pub games: usize,
    /// Wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Losses.
    pub losses: usize,
    /// wins / games with a 95% Wilson interval (the n-tuple literature's yardstick as first
    /// player against a perfect opponent).
    pub win_rate: Estimate,
}

impl SideRecord {
    pub(super) fn add(&mut self, score: f64) {
        self.games += 1;
        if score == 1.0 {
            self.wins += 1;
        } else if score == 0.5 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
        self.win_rate = wilson(self.wins, self.games);
    }

    /// "W/D/L  win% [low, high]", or "-" with no games.
    pub fn cell(&self) -> String {
        if self.games == 0 {
            return "-".into();
        }
        format!(
            "{}/{}/{} {:.1}% [{:.1}, {:.1}]",
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.win_rate.value,
            100.0 * self.win_rate.low,
            100.0 * self.win_rate.high
        )
    }
}

/// Moves graded against the solver on one benchmark set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetErrors {
    /// The set.
    pub set: String,
    /// Positions graded.
    pub positions: usize,
    /// Moves that lost game-theoretic value.
    pub errors: usize,
    /// errors / positions with a 95% Wilson interval.
    pub error_rate: Estimate,
    /// Mean time per move, ms.
    pub mean_ms: f64,
}

/// Everything measured about one agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentReport {
    /// The agent's spec.
    pub agent: String,
    /// Its match against the baseline.
    pub vs_baseline: MatchReport,
    /// The same on the baseline's time per move (`--equal-time`), when the agent searches.
    pub equal_time: Option<MatchReport>,
    /// Error rates per benchmark set.
    pub errors: Vec<SetErrors>,
}

/// The whole evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvaluateReport {
    /// The baseline's spec.
    pub baseline: String,
    /// Games per agent and seed.
    pub games: usize,
    /// Seeds.
    pub seeds: usize,
    /// Random opening plies.
    pub openings: usize,
    /// First seed.
    pub seed: u64,
    /// Which colour the agents played.
    #[serde(default)]
    pub side: Side,
    /// The baseline's own error rates, for comparison.
    pub baseline_errors: Vec<SetErrors>,
    /// One entry per evaluated agent.
    pub agents: Vec<AgentReport>,
    /// The best any agent can do against the baseline, where it is computed (an erring
    /// perfect baseline on a small board, see [`Optimum`]).
    #[serde(default)]
    pub optimum: Option<Optimum>,
}

impl MatchReport {
    /// One row of the match table (see [`EvaluateReport::text`]).
    pub fn line(&self) -> String {
        format!(
            "{:<40} {:>5} {:>4}/{:>3}/{:>4} {:>6.1}% [{:>5.1}, {:>5.1}] {:>+6.0} [{:>+5.0}, {:>+5.0}] {:>9.3} {:>9.3}",
            self.agent,
            self.games,
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.score.value,
            100.0 * self.score.low,
            100.0 * self.score.high,
            self.elo.value,
            self.elo.low,
            self.elo.high,
            self.ms_per_move,
            self.baseline_ms_per_move
        )
    }
}

impl EvaluateReport {
    /// The tables `c4 evaluate` prints (and the pipeline's report quotes): one row per match
    /// (the equal-time match under its agent), then error rates per set with their
    /// intervals.
    pub fn text(&self) -> String {
        use std::fmt::Write;
        let mut t = String::new();
        let _ = writeln!(
            t,
            "against {} ({} games x {} seed(s) per agent, {} random opening plies, seed {}):",
            self.baseline, self.games, self.seeds, self.openings, self.seed
        );
        let _ = writeln!(
            t,
            "{:<40} {:>5} {:>14} {:>23} {:>21} {:>9} {:>9}",
            "agent", "games", "W/D/L", "score [95% CI]", "Elo diff [95% CI]", "ms/move", "base ms"
        );
        for a in &self.agents {
            let _ = writeln!(t, "{}", a.vs_baseline.line());
            if let Some(m) = &a.equal_time {
                let _ = writeln!(t, "{}", m.line());
            }
        }
        let _ = writeln!(
            t,
            "\nby side: W/D/L and win rate [95% Wilson interval]:\n{:<40} {:>32} {:>32}",
            "agent", "as first player", "as second player"
        );
        for m in self
            .agents
            .iter()
            .flat_map(|a| std::iter::once(&a.vs_baseline).chain(&a.equal_time))
        {
            let _ = writeln!(
                t,
                "{:<40} {:>32} {:>32}",
                m.agent,
                m.as_first.cell(),
                m.as_second.cell()
            );
        }
        if let Some(o) = &self.optimum {
            t.push_str(&o.text(&self.baseline));
        }
        if self.baseline_errors.is_empty() {
            return t;
        }
        let _ = writeln!(
            t,
            "\nerror rate against the solver (moves that lose value), % [95% CI]:"
        );
        let _ = write!(t, "{:<40}", "agent");
        for s in &self.baseline_errors {
            let _ = write!(t, " {:>22}", s.set);
        }
        t.push('\n');
        let mut row = |name: &str, errs: &[SetErrors]| {
            let _ = write!(t, "{name:<40}");
            for e in errs {
                let cell = format!(
                    "{:.1} [{:.1}, {:.1}] n={}",
                    100.0 * e.error_rate.value,
                    100.0 * e.error_rate.low,
                    100.0 * e.error_rate.high,
                    e.positions
                );
                let _ = write!(t, " {cell:>22}");
            }
            t.push('\n');
        };
        row(
            &format!("{} (baseline)", self.baseline),
            &self.baseline_errors,
        );
        for a in &self.agents {
            row(&a.agent, &a.errors);
        }
        t
    }
}
