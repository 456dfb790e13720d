//! The random agent: a uniformly random legal column.

use super::{Agent, Turn};
use crate::game::BitBoard;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays a uniformly random legal column; seeded, so its games are reproducible.
pub struct RandomAgent {
    name: String,
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// A random agent drawing from `seed`.
    pub fn new(name: impl Into<String>, seed: u64) -> Self {
        RandomAgent {
            name: name.into(),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl<B: BitBoard> Agent<B> for RandomAgent {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, turn: &Turn<B>) -> usize {
        let legal: Vec<usize> = turn.position.legal_columns().collect();
        legal[self.rng.gen_range(0..legal.len())]
    }
}
