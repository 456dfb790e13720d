//! Varied play ([`super::Searcher::set_ties`]): the draws among root moves of equal (or, for
//! an evaluator with a tie margin, near-equal) value, from the game's seed and the ply, so
//! that a seed replays its game and another seed plays another.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The stream of one root search's draws.
fn rng(seed: u64, parts: &[u64]) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(crate::seed::derive_seed(
        seed,
        crate::seed::Stream::SearchTies,
        parts,
    ))
}

/// `cols` in an order drawn from `seed` and `ply`: alpha-beta plays the first of the tied
/// moves in its order, so a drawn order draws among exact ties.
pub(super) fn shuffle_root(seed: u64, ply: usize, cols: &mut [usize]) {
    cols.shuffle(&mut rng(seed, &[ply as u64]));
}

/// One of the root moves (column, value) searched exactly within `margin` of `best` (the
/// best value), drawn from `seed`, `ply` and `depth`; `best_col` is always among them. Values
/// at or below the lowered bound are bounds only and are left out, as are moves that fell
/// behind a better one found later.
pub(super) fn draw_near(
    seed: u64,
    ply: usize,
    depth: u32,
    mut near: Vec<(usize, f64)>,
    best_col: usize,
    best: f64,
    margin: f64,
) -> (usize, f64) {
    near.retain(|&(c, v)| c == best_col || v > best - margin);
    if near.is_empty() {
        return (best_col, best);
    }
    near[rng(seed, &[ply as u64, u64::from(depth)]).gen_range(0..near.len())]
}
