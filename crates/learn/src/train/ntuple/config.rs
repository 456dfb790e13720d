//! A run's settings: the recipe (layout, games, step sizes, exploration, rule) and their
//! checks.

use super::error::NTupleTrainError;
use connect4_engine::game::{BitBoard, Geometry};
use connect4_engine::ml::ntuple::NTupleLayout;
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// What a supervised position teaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// Win 1, draw 0, loss -1.
    Wdl,
    /// Win `0.5 + 0.5 x score / best score`: a sooner win is worth more.
    Score,
}

/// How self-play moves the weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// One step size for every weight.
    Td,
    /// Temporal coherence learning: each weight's step shrinks as its updates disagree.
    Tcl,
}

/// What self-play's step minimizes: it decides whether a step shrinks where the value
/// saturates. (`Mse`, the type's default, is what runs before the option used; the recipe's
/// is `Log`.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Loss {
    /// Squared error through the `tanh`: a step is scaled by the squash's slope
    /// `1 - v^2`, so a value stuck near -1 or 1 barely moves.
    #[default]
    Mse,
    /// Cross-entropy of the win chance `(1 + v) / 2`: the step is the error alone, so a
    /// saturated value that is wrong learns as fast as any other.
    Log,
}

impl Loss {
    /// The factor a step at value `v` is scaled by.
    pub fn slope(self, v: f32) -> f32 {
        match self {
            Loss::Mse => 1.0 - v * v,
            Loss::Log => 1.0,
        }
    }
}

/// Which columns self-play's random (exploring) moves are drawn from. (`Any`, the type's
/// default, is what runs before the option used; the recipe's is `Safe`.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Explore {
    /// Any legal column, including one that hands the opponent a win at once.
    #[default]
    Any,
    /// The columns the one-move rule allows (take a win, never hand one over): exploring
    /// moves then lead into games worth learning from, not into immediate losses.
    Safe,
}

/// Whose exploring moves self-play learns through. Cutting the trace at an exploring move
/// teaches the values of greedy play (what a perfect opponent leaves); learning through it
/// teaches the values of play in which that side sometimes errs. (Files from before the
/// option read as `None`, what they were trained with.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LearnExplored {
    /// Nobody's: every exploring move cuts the trace.
    #[default]
    None,
    /// The first player's only: the second player's afterstates step toward the value after
    /// the first player's random move, so as second player the network learns what a
    /// fallible first player hands it, while the first player's values keep assuming an
    /// opponent that does not err.
    First,
    /// The first player's, through the second player's whole trace: at a first-player
    /// exploring move the second player's afterstates (each with its lambda share) step
    /// toward the value it handed them and go on learning from the game after it, while the
    /// first player's trace is cut. The second player's values become those of play against
    /// a first player that errs (as a lambda-return over the moves after it sees every later
    /// error), the first player's stay greedy.
    FirstTrace,
    /// Everyone's, each side through the other's: at any exploring move the other side's
    /// afterstates learn through it and keep learning, the explorer's trace is cut. Both
    /// sides' values become those of play against an opponent that errs, each side's own
    /// moves greedy.
    Opponent,
    /// Everyone's (on-policy TD of epsilon-greedy play).
    All,
}

/// Which side the solver plays in a guided opening (`guide.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GuidedSide {
    /// The second player: the network's first-player lines against best defence.
    Second,
    /// The first player: perfect attack, which the network defends.
    First,
    /// Each in turn (the second in even-numbered games, the first in odd ones).
    #[default]
    Both,
}

/// The guide of recipes that name none: the solver.
fn perfect_guide() -> String {
    PERFECT_GUIDE.to_string()
}

/// The `guide` that is the solver (not an agent spec).
pub(crate) const PERFECT_GUIDE: &str = "perfect";

/// Whether `guide` is the solver.
fn is_perfect_guide(guide: &str) -> bool {
    guide == PERFECT_GUIDE
}

/// Which source comes first when both are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// The labelled positions, then self-play from the fitted network.
    SupervisedFirst,
    /// Self-play, then the labelled positions.
    SelfPlayFirst,
}

crate::train::setting::settings_record! {
    /// The recipe of a run: everything that decides what it learns (`recipes/ntuple.toml` is
    /// the shipped one, see [`NTupleConfig::from_toml`]).
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct NTupleConfig, checked as ValidNTupleConfig {
        /// Columns of the board the network learns (7 on the standard board).
        width: usize,
        /// Rows of that board (6 on the standard board).
        height: usize,
        /// The network's shape.
        layout: NTupleLayout,
        /// Self-play games (0: none).
        games: usize,
        /// Step size at the first game.
        rate: f32,
        /// Step size at the last game (the step decays geometrically in between).
        rate_final: f32,
        /// Chance of a random move at the first game.
        epsilon: f32,
        /// ... and at the last (geometric decay in between).
        epsilon_final: f32,
        /// Trace decay: 0 is TD(0), higher looks further back.
        lambda: f32,
        /// Random plies that open each self-play game (more variety in what it sees).
        opening: usize,
        /// The share of self-play games that start where a guided opening ends (0: none; see
        /// `guide.rs`).
        guided: f32,
        /// ... at the last game (linear in between when either is 0, geometric otherwise, as the
        /// step and exploration decay): guidance that fades leaves the last games, whose
        /// weights the tail average hands over, to plain self-play.
        guided_final: f32,
        /// The most plies of a guided opening (each has 1 to this many, uniformly).
        guided_plies: usize,
        /// Which side the solver plays in a guided opening.
        guided_side: GuidedSide,
        /// The share of the solver's opening moves that are random columns handing over no
        /// win at once (as `perfect:eps=E` plays): openings with the errors a fallible
        /// opponent makes.
        guided_eps: f32,
        /// Who plays the guide's side of a guided opening: `perfect` (the solver, where it
        /// answers: 64-bit boards it reaches) or any agent spec that plays the board (`hard`,
        /// `mcts:sims=200`, `ntuple:depth=3`), built afresh for each opening from the game's
        /// seed and asked to vary its ties, so that the openings differ from game to game and
        /// are the same on any number of threads. A recipe recorded before the key was
        /// guided by the solver (what it reads as).
        #[serde(default = "perfect_guide")]
        guide: String,
        /// Passes over the labelled positions.
        epochs: usize,
        /// Step size of the supervised passes.
        supervised_rate: f32,
        /// What a labelled position teaches.
        target: Target,
        /// Which source first.
        order: Order,
        /// Seed of everything random in the run.
        seed: u64,
        /// The learning rule of self-play.
        rule: Rule,
        /// Self-play's greedy moves take an immediate win and avoid moves that hand one over
        /// (the one-move rule the evaluated agent applies).
        safe: bool,
        /// Lanes of self-play: each round, every lane plays `lane_games` games on its own copy
        /// of the weights and the lanes' changes are combined (`self_play`'s docs). What a run
        /// learns depends on the lanes, never on the threads that run them; more threads than
        /// lanes add no speed.
        lanes: usize,
        /// Games each lane plays in a round.
        lane_games: usize,
        /// The share of the run's last self-play games over which the weights are averaged
        /// (0: the network is the last weights). A constant step keeps the weights of the
        /// opening moving from game to game, so a depth-1 agent's first moves flip with them;
        /// the average of many snapshots (Polyak-Ruppert averaging) sits still.
        tail: f32,
        /// What self-play's step minimizes.
        loss: Loss,
        /// Which columns exploring moves are drawn from.
        explore: Explore,
        /// Whose exploring moves the values learn through (the others cut the trace).
        learn_explored: LearnExplored,
    }
}

crate::train::setting::checked_settings!(
    /// A recipe whose every setting was checked once (linfa's [`linfa::ParamGuard`]:
    /// `config.check()`, which checks every setting, naming the first out of range, and the
    /// board, which a recipe may change key by key and so is checked whole here): what the
    /// trainer takes, so that no part of a run meets a setting out of range or checks one
    /// again.
    ValidNTupleConfig(NTupleConfig),
    NTupleTrainError,
    |c| {
        c.check_settings()?;
        connect4_engine::game::needs_wide(c.width, c.height)?;
        Ok(())
    }
);

impl ValidNTupleConfig {
    /// The board the recipe trains on (its `width` and `height`, checked to fit 128 bits),
    /// in bitboards of `B`: an error when the board does not fit them (a board past 64 bits
    /// asked for in `u64`; [`connect4_engine::game::needs_wide`] says which to ask for).
    pub fn geometry<B: BitBoard>(&self) -> Result<Geometry<B>, connect4_engine::game::GameError> {
        Geometry::sized(self.0.width, self.0.height)
    }

    /// Whether the solver guides the openings (`guide = "perfect"`), not an agent: it
    /// answers only on the boards it reaches.
    pub fn solver_guides(&self) -> bool {
        is_perfect_guide(&self.0.guide)
    }

    /// The same recipe with another seed (any seed is valid).
    pub fn with_seed(&self, seed: u64) -> ValidNTupleConfig {
        ValidNTupleConfig(NTupleConfig {
            seed,
            ..self.0.clone()
        })
    }
}

impl TryFrom<NTupleConfig> for ValidNTupleConfig {
    type Error = NTupleTrainError;
    fn try_from(config: NTupleConfig) -> Result<Self, NTupleTrainError> {
        linfa::ParamGuard::check(config)
    }
}

impl NTupleConfig {
    /// The board the recipe is for, (width, height), before any check: a caller picks the
    /// bitboard that holds it (and reports a board out of range as its own error) first.
    pub fn board_size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// Checks every setting's range (what linfa's `ParamGuard::check` and the recipe's
    /// readers run; the board's size is checked whole by `check`).
    pub(super) fn check_settings(&self) -> Result<(), NTupleTrainError> {
        const STEP: &str = "a step size in (0, 1]";
        const BELOW_ONE: &str = "a value in [0, 1)";
        const SHARE: &str = "a share of the games in [0, 1]";
        type Rule = fn(f32) -> bool;
        let step: Rule = |v| v > 0.0 && v <= 1.0;
        let below_one: Rule = |v| (0.0..1.0).contains(&v);
        let share: Rule = |v| (0.0..=1.0).contains(&v);
        let tail = "a share of the games in [0, 1)";
        let eps = "a share of the solver's moves in [0, 1]";
        let shares: [(&'static str, f32, Rule, &'static str); 10] = [
            ("rate", self.rate, step, STEP),
            ("rate_final", self.rate_final, step, STEP),
            ("supervised_rate", self.supervised_rate, step, STEP),
            ("epsilon", self.epsilon, below_one, BELOW_ONE),
            ("epsilon_final", self.epsilon_final, below_one, BELOW_ONE),
            ("lambda", self.lambda, below_one, BELOW_ONE),
            ("tail", self.tail, below_one, tail),
            ("guided", self.guided, share, SHARE),
            ("guided_final", self.guided_final, share, SHARE),
            ("guided_eps", self.guided_eps, share, eps),
        ];
        if let Some((name, v, _, expected)) = shares.into_iter().find(|(_, v, ok, _)| !ok(*v)) {
            return Err(setting_error(name, v, expected));
        }
        let plies = "from 1 to 12 plies (the 12-ply book answers those at once)";
        let lane_games = "from 1 to 1,000,000 games a lane a round";
        let counts: [(&'static str, usize, RangeInclusive<usize>, &'static str); 4] = [
            ("lanes", self.lanes, 1..=1024, "from 1 to 1024 lanes"),
            ("lane_games", self.lane_games, 1..=1_000_000, lane_games),
            ("guided_plies", self.guided_plies, 1..=12, plies),
            ("opening", self.opening, 0..=8, "at most 8 random plies"),
        ];
        if let Some((name, v, _, expected)) = counts
            .into_iter()
            .find(|(_, v, range, _)| !range.contains(v))
        {
            return Err(setting_error(name, v, expected));
        }
        self.guide_spec().map(drop)
    }

    /// The agent of the guided openings' guide side: `None` for the solver (`perfect`), else
    /// the recipe's `guide` read as an agent spec (an error naming it when it is not one).
    pub(super) fn guide_spec(
        &self,
    ) -> Result<Option<connect4_engine::agents::AgentSpec>, NTupleTrainError> {
        if is_perfect_guide(&self.guide) {
            return Ok(None);
        }
        self.guide
            .parse()
            .map(Some)
            .map_err(|source| NTupleTrainError::GuideSpec {
                spec: self.guide.clone(),
                source: Box::new(source),
            })
    }

    /// Games in one round of self-play (all lanes together).
    pub(crate) fn round_games(&self) -> usize {
        self.lanes.max(1) * self.lane_games.max(1)
    }

    /// The first self-play game whose weights the tail average takes (`games` when the run
    /// does not average).
    pub(super) fn tail_from(&self) -> usize {
        self.games - ((self.tail as f64 * self.games as f64).round() as usize).min(self.games)
    }

    /// The share of guided games at game `g`, decaying from `guided` to `guided_final`; a
    /// share that does not fade is exactly `guided` at every game (1 to any power is 1), so
    /// the draws of a constant share stay as they were.
    pub(super) fn guided_share(&self, g: usize) -> f32 {
        self.decay(self.guided, self.guided_final, g)
    }

    /// The value at game `g` of a quantity decaying geometrically from `a` to `b` over the
    /// run's games.
    pub(super) fn decay(&self, a: f32, b: f32, g: usize) -> f32 {
        if self.games <= 1 || a <= 0.0 || b <= 0.0 {
            return if self.games <= 1 {
                a
            } else {
                a + (b - a) * g as f32 / self.games as f32
            };
        }
        a * connect4_engine::ml::ntuple::kernel::powf(b / a, g as f32 / (self.games - 1) as f32)
    }
}

/// The error of setting `name` at `value`, which should be `expected`.
fn setting_error(
    name: &'static str,
    value: impl ToString,
    expected: &'static str,
) -> NTupleTrainError {
    NTupleTrainError::Setting(crate::train::setting::SettingError {
        name,
        value: value.to_string(),
        expected,
    })
}
