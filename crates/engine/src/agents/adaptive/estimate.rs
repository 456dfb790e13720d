//! The adaptive agent's estimate of its opponent's Elo, kept between games (and saved
//! between sessions): evidence from the opponent's moves, each graded as a draw from the
//! dial's own policy at every skill of a grid, and a correction from results.
//!
//! Moves say quickly roughly how strong a player is (a random player's moves look like skill
//! 0 within a few moves); results say exactly whether the agent played too strong or too
//! weak, but slowly. So the estimate is the moves' posterior mean Elo plus an offset that
//! every result moves by `RESULT_STEP` x (opponent's score - expected score). The moves'
//! evidence fades by `FADE` a game, so an opponent who changes is followed.

use super::super::level::{Calibration, policy};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// How fast the estimate moves: the weight a game's move evidence keeps a game later, the
/// Elo a result's surprise moves it, and the chance of a slip unrelated to skill.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rates {
    /// The weight a game's move evidence keeps one game later (0.85).
    pub fade: f64,
    /// Elo the offset moves per point of surprise in a result (40).
    pub step: f64,
    /// The chance that a move is a slip unrelated to skill (0.02).
    pub slip: f64,
    /// The weight of each move's evidence (0.5).
    pub trust: f64,
}

impl Default for Rates {
    fn default() -> Self {
        Rates {
            fade: FADE,
            step: RESULT_STEP,
            slip: SLIP,
            trust: TRUST,
        }
    }
}

/// Grid steps over the skill range [0, 1].
pub const GRID: usize = 40;
/// The weight a game's move evidence keeps one game later.
pub const FADE: f64 = 0.85;
/// Elo the offset moves per point of surprise in a result.
pub const RESULT_STEP: f64 = 40.0;
/// The chance that a move is a slip unrelated to skill (keeps one odd move from ruling out
/// a skill, and absorbs the evaluator's errors where values are estimates).
pub(crate) const SLIP: f64 = 0.02;
/// The weight of each move's evidence: real players are not the dial's policy (a
/// deterministic searcher's moves depend on the position more than on a temperature), so
/// the moves' likelihood is tempered to keep one game's moves from swinging the estimate.
pub(crate) const TRUST: f64 = 0.5;
/// Results move the offset faster in the first games: the step is multiplied by
/// 1 + EARLY / (1 + games / 2), four times the step in the first game, 1.5 times by the
/// tenth.
pub const EARLY: f64 = 3.0;
/// How far past the ends of the dial's range results may push the estimate (Elo). At the
/// bottom the dial cannot play below the random player, so against a random opponent the
/// estimate must sit below the floor most of the time, or the moves' noise lifts it above
/// and the agent wins more than half its games (61% in 200 games with no margin).
pub(crate) const WINDUP: f64 = 200.0;
/// Width (one standard deviation, Elo) of the prior around the start.
pub(crate) const PRIOR_SD: f64 = 500.0;
/// The offset stays within this many Elo of the moves' estimate.
pub(crate) const OFFSET_LIMIT: f64 = 700.0;
/// Estimates kept in the history.
const HISTORY: usize = 1000;
/// The saved state's format.
pub(crate) const STATE_VERSION: u32 = 1;

/// What the adaptive agent knows of its opponent between games; serialised as JSON to keep
/// a player's estimate across sessions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdaptiveState {
    /// Format version (1).
    pub version: u32,
    /// The prior's centre, Elo (the agent's `start`).
    pub prior: f64,
    /// Faded log-likelihood of the opponent's moves at each grid skill (`GRID + 1` values).
    pub evidence: Vec<f64>,
    /// Elo added to the moves' estimate from the results.
    pub offset: f64,
    /// Games observed.
    pub games: u64,
    /// The estimate after each game (the last 1000).
    pub history: Vec<f64>,
}

/// Why a saved state is refused.
#[derive(Debug, Error)]
pub enum StateError {
    /// Not the JSON of a state.
    #[error("not an adaptive agent's state: {0}")]
    Parse(#[from] serde_json::Error),
    /// A state of another format version.
    #[error("adaptive state version {found}; this build reads version {STATE_VERSION}")]
    Version {
        /// The file's version.
        found: u32,
    },
    /// Numbers that no state holds.
    #[error("adaptive state: {0}")]
    Invalid(String),
}

impl AdaptiveState {
    /// A fresh state centred on `prior` Elo.
    pub fn new(prior: f64) -> Self {
        AdaptiveState {
            version: STATE_VERSION,
            prior,
            evidence: vec![0.0; GRID + 1],
            offset: 0.0,
            games: 0,
            history: Vec::new(),
        }
    }

    /// Reads a saved state, refusing another version or numbers no state holds.
    ///
    /// ```
    /// use connect4_engine::agents::AdaptiveState;
    /// let s = AdaptiveState::new(1400.0);
    /// let back = AdaptiveState::from_json(&s.to_json()).unwrap();
    /// assert_eq!(back, s);
    /// assert!(AdaptiveState::from_json("{").is_err());
    /// assert!(AdaptiveState::from_json(&s.to_json().replace("\"version\":1", "\"version\":9")).is_err());
    /// ```
    pub fn from_json(text: &str) -> Result<Self, StateError> {
        let s: AdaptiveState = serde_json::from_str(text)?;
        if s.version != STATE_VERSION {
            return Err(StateError::Version { found: s.version });
        }
        if s.evidence.len() != GRID + 1 {
            return Err(StateError::Invalid(format!(
                "{} evidence values, expected {}",
                s.evidence.len(),
                GRID + 1
            )));
        }
        let finite = s.evidence.iter().chain(&s.history).all(|x| x.is_finite())
            && s.prior.is_finite()
            && s.offset.is_finite();
        if !finite || s.offset.abs() > OFFSET_LIMIT {
            return Err(StateError::Invalid("numbers out of range".into()));
        }
        Ok(s)
    }

    /// The state as JSON (one line).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a state serialises")
    }

    /// The opponent's Elo by the moves alone: the posterior mean over the grid, with the
    /// evidence of a game in progress (`extra`) added.
    pub fn moves_estimate(&self, cal: &Calibration, extra: Option<&[f64]>) -> f64 {
        let logs: Vec<f64> = (0..=GRID)
            .map(|k| {
                let elo = cal.elo_of(skill_at(k));
                let z = (elo - self.prior) / PRIOR_SD;
                -0.5 * z * z + self.evidence[k] + extra.map_or(0.0, |e| e[k])
            })
            .collect();
        let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (mut num, mut den) = (0.0, 0.0);
        for (k, l) in logs.iter().enumerate() {
            let w = (l - top).exp();
            num += w * cal.elo_of(skill_at(k));
            den += w;
        }
        num / den
    }

    /// The opponent's Elo: the moves' estimate plus the results' offset, within the dial's
    /// range.
    pub fn estimate(&self, cal: &Calibration, extra: Option<&[f64]>) -> f64 {
        let (low, high) = cal.range();
        (self.moves_estimate(cal, extra) + self.offset).clamp(low, high)
    }

    /// Closes a game: its move evidence joins the faded evidence, and the opponent's points
    /// (`opponent_score`: 1, 0.5 or 0) against the agent's played Elo move the offset.
    pub fn finish_game(
        &mut self,
        cal: &Calibration,
        rates: Rates,
        game: &[f64],
        opponent_score: Option<f64>,
        played_elo: f64,
    ) {
        let (low, high) = cal.range();
        let estimate = self.estimate(cal, Some(game));
        for (e, g) in self.evidence.iter_mut().zip(game) {
            *e = rates.fade * *e + g;
        }
        if let Some(score) = opponent_score {
            let expected = 1.0 / (1.0 + 10f64.powf((played_elo - estimate) / 400.0));
            let early = 1.0 + EARLY / (1.0 + self.games as f64 / 2.0);
            let step = rates.step * early * (score - expected);
            // Little wind-up past the ends of the range: at the bottom a weaker result, at
            // the top a stronger one, moves the estimate at most WINDUP past the end.
            let moves = self.moves_estimate(cal, None);
            let next = moves + self.offset + step;
            let pinned =
                (step < 0.0 && next < low - WINDUP) || (step > 0.0 && next > high + WINDUP);
            if !pinned {
                self.offset = (self.offset + step).clamp(-OFFSET_LIMIT, OFFSET_LIMIT);
            }
        }
        self.games += 1;
        let after = self.estimate(cal, None);
        self.history.push(after);
        if self.history.len() > HISTORY {
            self.history.remove(0);
        }
    }
}

/// The skill of grid point `k`.
pub(crate) fn skill_at(k: usize) -> f64 {
    k as f64 / GRID as f64
}

/// The log-likelihood at each grid skill that a dial player chose `played` among `values`
/// (see [`policy`]), a share `slip` of moves being slips of any kind; `None` when the move
/// tells nothing (one legal move, or all equal).
///
/// ```
/// use connect4_engine::agents::adaptive_move_evidence;
/// let values = [Some(1.0), Some(-1.0), Some(-1.0)];
/// let best = adaptive_move_evidence(&values, 0, 0.02).unwrap();
/// let worst = adaptive_move_evidence(&values, 1, 0.02).unwrap();
/// assert!(best[40] > best[0]); // a best move favours high skill
/// assert!(worst[0] > worst[40]); // a blunder favours low skill
/// assert!(adaptive_move_evidence(&[Some(0.5), None], 0, 0.02).is_none());
/// ```
pub fn move_evidence(values: &[Option<f64>], played: usize, slip: f64) -> Option<Vec<f64>> {
    let legal: Vec<f64> = values.iter().flatten().copied().collect();
    let n = legal.len();
    let spread = legal.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        - legal.iter().copied().fold(f64::INFINITY, f64::min);
    if n < 2 || spread < 1e-9 || values.get(played).copied().flatten().is_none() {
        return None;
    }
    Some(
        (0..=GRID)
            .map(|k| {
                let p = policy(values, skill_at(k))[played];
                ((1.0 - slip) * p + slip / n as f64).ln()
            })
            .collect(),
    )
}
