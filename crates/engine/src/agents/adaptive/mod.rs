//! The adaptive-difficulty agent (after Missura and Gaertner's online adaptive agent for
//! Connect Four): it estimates its opponent's Elo from every move it sees and every result
//! (see [`AdaptiveState`]) and plays the strength dial at that estimate, so that whoever sits
//! across the board, from the random player to the perfect one, meets an even game.

mod estimate;

pub use estimate::{AdaptiveState, GRID, Rates, StateError, move_evidence};

use super::level::{Calibration, Judge, play_at};
use super::{Agent, Turn};
use crate::game::{Outcome, Player, Position};
use crate::seed::{Stream, derive_seed};
use crate::solver::PoolBoard;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays the dial at its running estimate of the opponent's Elo. One agent may play many
/// games in a row (the arena keeps it for a whole pairing): what it learned carries over.
/// Generic over the board's integer, as [`Judge`].
pub struct Adaptive<B: PoolBoard = u64> {
    name: String,
    state: AdaptiveState,
    calibration: &'static Calibration,
    rates: Rates,
    judge: Judge<B>,
    rng: ChaCha8Rng,
    /// The game in progress: the opponent's move evidence, the agent's colour, the Elo it
    /// played each move at.
    game: Vec<f64>,
    me: Option<Player>,
    played: Vec<f64>,
}

impl<B: PoolBoard> Adaptive<B> {
    /// An adaptive agent starting from `state`, judging moves with `judge`; `seed` feeds its
    /// draws.
    pub fn new(name: impl Into<String>, state: AdaptiveState, judge: Judge<B>, seed: u64) -> Self {
        Adaptive {
            name: name.into(),
            state,
            calibration: Calibration::builtin(),
            rates: Rates::default(),
            judge,
            rng: ChaCha8Rng::seed_from_u64(derive_seed(seed, Stream::Level, &[1])),
            game: vec![0.0; GRID + 1],
            me: None,
            played: Vec::new(),
        }
    }

    /// The same agent reading `calibration` (its board's) between Elo and skill.
    pub(crate) fn with_calibration(mut self, calibration: &'static Calibration) -> Self {
        self.calibration = calibration;
        self
    }

    /// The same agent moving its estimate at `rates`.
    pub(crate) fn with_rates(mut self, rates: Rates) -> Self {
        self.rates = rates;
        self
    }

    /// What it knows between games (the game in progress not yet folded in).
    pub fn state(&self) -> &AdaptiveState {
        &self.state
    }

    /// The current estimate of the opponent's Elo, the game in progress included.
    pub fn estimate(&self) -> f64 {
        self.state.estimate(self.calibration, Some(&self.game))
    }

    /// The opponent's Elo estimate after each finished game.
    pub fn history(&self) -> &[f64] {
        &self.state.history
    }

    /// Grades one opponent move: `played` (0-based column) chosen in `faced`.
    pub(crate) fn observe(&mut self, faced: &Position<B>, played: usize) {
        let values = self.judge.values(faced).values;
        if let Some(ev) = move_evidence(&values, played, self.rates.slip) {
            for (g, e) in self.game.iter_mut().zip(ev) {
                *g += self.rates.trust * e;
            }
        }
    }

    /// Reads a game played so far from `start` (0-based columns), the agent playing `me`:
    /// every opponent move is graded, and a finished game is closed (see
    /// [`Agent::game_over`]). What a stateless front end (the web page) does with the state
    /// it kept from the game's start.
    pub fn replay(&mut self, start: Position<B>, moves: &[usize], me: Player) {
        self.me = Some(me);
        let mut pos = start;
        for &col in moves {
            let faced = pos;
            if pos.play(col).is_err() {
                return;
            }
            if faced.side_to_move() != me {
                self.observe(&faced, col);
            } else {
                self.played.push(self.estimate());
            }
        }
        if pos.outcome() != Outcome::Ongoing {
            self.close(&pos);
        }
    }

    fn close(&mut self, end: &Position<B>) {
        let opponent_score = self.me.map(|me| match end.outcome() {
            Outcome::Won(p) if p == me => 0.0,
            Outcome::Won(_) => 1.0,
            _ => 0.5,
        });
        let played_elo = if self.played.is_empty() {
            self.estimate()
        } else {
            self.played.iter().sum::<f64>() / self.played.len() as f64
        };
        let game = std::mem::replace(&mut self.game, vec![0.0; GRID + 1]);
        self.state.finish_game(
            self.calibration,
            self.rates,
            &game,
            opponent_score,
            played_elo,
        );
        self.played.clear();
        self.me = None;
    }
}

impl<B: PoolBoard> Agent<B> for Adaptive<B> {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, turn: &Turn<B>) -> usize {
        if let Some((faced, played)) = turn.opponent_move {
            self.observe(&faced, played);
        }
        let pos = &turn.position;
        self.me = Some(pos.side_to_move());
        let elo = self.estimate();
        self.played.push(elo);
        let skill = self.calibration.skill_at(elo);
        let u = self.rng.r#gen::<f64>();
        play_at(&mut self.judge, pos, skill, u)
    }

    fn set_interrupt(&mut self, interrupt: Option<crate::Interrupt>) {
        self.judge.set_interrupt(interrupt);
    }

    fn game_over(&mut self, end: &Turn<B>) {
        if let (Some(me), Some((faced, col))) = (self.me, end.opponent_move)
            && faced.side_to_move() != me
        {
            self.observe(&faced, col);
        }
        self.close(&end.position);
    }

    fn carries_state(&self) -> bool {
        true
    }
}
