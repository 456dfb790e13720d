//! The strength dial (`level:elo=E`): one agent whose strength is a number on the project's
//! Elo ladder. It values every move (exact scores from the book and a time-limited solve,
//! a learned evaluator where those run out, see [`Judge`]) and draws its move with a chance
//! that falls with the move's loss against the best one (see [`policy`]); the skill that
//! sets how fast comes from the Elo asked for through the shipped [`Calibration`].

mod calibration;
mod judge;
mod policy;

pub use calibration::{Anchor, Calibration, CalibrationError, CalibrationPoint, monotone_curve};
pub use judge::{Fallback, Judge, JudgeShared, MoveValues, exact_value};
pub use policy::{policy, temperature};

use super::{Agent, Turn};
use crate::seed::{Stream, derive_seed};
use crate::solver::PoolBoard;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The dial's default time to solve one position on 7x6 before the evaluator answers, ms:
/// the book answers the opening and the solver most of the rest within it.
pub(crate) const DEFAULT_SOLVE_MS: u64 = 1000;

/// ... on other boards, ms. There the board's network answers what the solver does not reach
/// (boards past 36 cells for most of the game), and a move judges two positions (the
/// adaptive agent grades the opponent's move, then chooses): two solves of 150 ms keep a
/// move within half a second.
pub(crate) const OTHER_BOARDS_SOLVE_MS: u64 = 150;

/// The dial's and the adaptive agent's time to solve one position on boards of `geom`
/// when their spec gives no `ms`.
///
/// ```
/// use connect4_engine::{Geometry, agents::level::solve_time};
/// assert_eq!(solve_time(Geometry::STANDARD).as_millis(), 1000);
/// assert_eq!(solve_time(Geometry::new(8, 7).unwrap()).as_millis(), 150);
/// ```
pub fn solve_time<B: crate::game::BitBoard>(geom: crate::game::Geometry<B>) -> std::time::Duration {
    std::time::Duration::from_millis(if geom.narrow() == Some(crate::game::Geometry::STANDARD) {
        DEFAULT_SOLVE_MS
    } else {
        OTHER_BOARDS_SOLVE_MS
    })
}

/// Plays at a fixed skill: a move drawn from [`policy`] over the [`Judge`]'s values (on
/// boards of the integer `B`).
pub struct Level<B: PoolBoard = u64> {
    name: String,
    skill: f64,
    judge: Judge<B>,
    rng: ChaCha8Rng,
}

impl<B: PoolBoard> Level<B> {
    /// A dial agent at `skill` (0 to 1) judging moves with `judge`; `seed` feeds its draws.
    pub fn new(name: impl Into<String>, skill: f64, judge: Judge<B>, seed: u64) -> Self {
        Level {
            name: name.into(),
            skill: skill.clamp(0.0, 1.0),
            judge,
            rng: ChaCha8Rng::seed_from_u64(derive_seed(seed, Stream::Level, &[])),
        }
    }

    /// The skill it plays at.
    pub fn skill(&self) -> f64 {
        self.skill
    }
}

/// Draws a move of `skill` in `pos` with `u` uniform in [0, 1): uniformly among the legal
/// columns at skill 0 (no judging needed), else from [`policy`] over `judge`'s values.
pub(crate) fn play_at<B: PoolBoard>(
    judge: &mut Judge<B>,
    pos: &crate::game::Position<B>,
    skill: f64,
    u: f64,
) -> usize {
    let values = if skill <= 0.0 {
        (0..pos.width())
            .map(|c| pos.can_play(c).then_some(0.0))
            .collect()
    } else {
        judge.values(pos).values
    };
    policy::draw(&policy(&values, skill), u)
        .or_else(|| pos.legal_columns().next())
        .expect("agents are only asked to move in open games")
}

impl<B: PoolBoard> Agent<B> for Level<B> {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, turn: &Turn<B>) -> usize {
        let u = self.rng.r#gen::<f64>();
        play_at(&mut self.judge, &turn.position, self.skill, u)
    }

    fn set_interrupt(&mut self, interrupt: Option<crate::Interrupt>) {
        self.judge.set_interrupt(interrupt);
    }
}
