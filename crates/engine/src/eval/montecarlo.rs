//! The Monte Carlo evaluator: the mean result of random playouts from the position.
//!
//! A playout plays random legal moves on the raw bitboards until someone completes four or
//! the board fills. Results count +1 for a win of the side to move at the root, 0 for a
//! draw and -1 for a loss, so the value lies in [-1, 1] like the GBT evaluator's.
//!
//! The random numbers come from a small generator seeded by the evaluator's seed mixed with
//! the position's key: the same position always gets the same value (search relies on that),
//! and the evaluator holds no mutable state, so one instance serves every thread.

use super::Evaluator;
use super::playout_kernel::{self, Kernel};
use super::playout_rng::PlayoutRng;
use crate::game::{BitBoard, Geometry, Position};

/// Playouts per evaluation when none is given.
pub const DEFAULT_PLAYOUTS: u32 = 75;

/// How playouts choose their moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutPolicy {
    /// Every legal move equally likely.
    Uniform,
    /// Take an immediate win when there is one, else block the opponent's immediate win,
    /// else a uniformly random move. Slower per playout, but the results look more like
    /// real play (random play misses one-move wins about half the time).
    Smart,
}

/// The playout seed of one evaluation: the evaluator's seed and the position's key.
#[inline]
fn mix(a: u64, b: u64) -> u64 {
    crate::seed::derive_seed(a, crate::seed::Stream::Playouts, &[b])
}

/// Counts from [`MonteCarlo::run`]: results from the side to move's view, and plies played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutStats {
    /// Playouts won by the side to move.
    pub wins: u64,
    /// Drawn playouts.
    pub draws: u64,
    /// Playouts lost by the side to move.
    pub losses: u64,
    /// Plies played over all playouts.
    pub plies: u64,
}

/// Random playouts from a position; see the module docs.
///
/// Generic over the board's integer (`MonteCarlo` alone: 64-bit boards).
#[derive(Clone, Debug)]
pub struct MonteCarlo<B: BitBoard = u64> {
    geom: Geometry<B>,
    playouts: u32,
    policy: PlayoutPolicy,
    seed: u64,
    /// `column_masks[c]`: the playable cells of column `c`; indexed by a random column.
    column_masks: Vec<B>,
    /// The tuned uniform loop of the standard board (`playout_kernel`), when that is the
    /// board; other shapes use the generic loop below.
    kernel: Option<Kernel>,
}

impl<B: BitBoard> MonteCarlo<B> {
    /// `playouts` (at least 1) playouts per evaluation with `policy`, seeded by `seed`.
    ///
    /// ```
    /// use connect4_engine::eval::{Evaluator, MonteCarlo};
    /// use connect4_engine::{Geometry, Position};
    /// use connect4_engine::eval::PlayoutPolicy;
    /// let e = MonteCarlo::new(Geometry::STANDARD, 200, PlayoutPolicy::Smart, 7);
    /// let p = Position::from_moves(Geometry::STANDARD, "4455").unwrap();
    /// let v = e.evaluate(&p);
    /// assert!((-1.0..=1.0).contains(&v));
    /// assert_eq!(v, e.evaluate(&p)); // seeded by the position: the same value again
    /// ```
    pub fn new(geom: Geometry<B>, playouts: u32, policy: PlayoutPolicy, seed: u64) -> Self {
        MonteCarlo {
            geom,
            playouts: playouts.max(1),
            policy,
            seed,
            column_masks: (0..geom.width()).map(|c| geom.column_mask(c)).collect(),
            kernel: (B::BITS == 64 && geom.narrow() == Some(Geometry::STANDARD))
                .then(playout_kernel::best),
        }
    }

    /// Playouts per evaluation.
    pub fn playouts(&self) -> u32 {
        self.playouts
    }

    /// The playout policy.
    pub fn policy(&self) -> PlayoutPolicy {
        self.policy
    }

    /// One playout from `pos` (whose game must not be over): +1 if the side to move at `pos`
    /// wins it, -1 if they lose, 0 for a draw.
    #[inline]
    pub fn playout(&self, pos: &Position<B>, rng: &mut PlayoutRng) -> i32 {
        let mut end = B::ZERO;
        match self.policy {
            PlayoutPolicy::Uniform => self.uniform_core(pos, rng, &mut end),
            PlayoutPolicy::Smart => self.smart_core(pos, rng, &mut end),
        }
    }

    /// A uniformly random playable cell of `possible` (non-zero): a random column, drawn
    /// again while it is full. Two columns come out of every 64 random bits.
    #[inline]
    fn random_move(&self, possible: B, rng: &mut PlayoutRng) -> B {
        let w = self.column_masks.len() as u64;
        loop {
            let r = rng.next_u64();
            let bit = possible & self.column_masks[(((r & 0xffff_ffff) * w) >> 32) as usize];
            if bit != B::ZERO {
                return bit;
            }
            let bit = possible & self.column_masks[(((r >> 32) * w) >> 32) as usize];
            if bit != B::ZERO {
                return bit;
            }
        }
    }

    /// A uniform playout; `end` receives the final occupancy.
    #[inline]
    fn uniform_core(&self, pos: &Position<B>, rng: &mut PlayoutRng, end: &mut B) -> i32 {
        match self.kernel {
            Some(kernel) => {
                // Only a 64-bit 7x6 board has the kernel: the conversions are no-ops.
                let mut end64 = 0;
                let r = kernel(
                    pos.current_stones().low_u64(),
                    pos.mask().low_u64(),
                    rng,
                    &mut end64,
                );
                *end = B::from_u64(end64);
                r
            }
            None => self.uniform_generic(pos, rng, end),
        }
    }

    /// The uniform loop for any board shape.
    #[inline]
    fn uniform_generic(&self, pos: &Position<B>, rng: &mut PlayoutRng, end: &mut B) -> i32 {
        let g = &self.geom;
        let bottom = g.bottom_mask();
        let board = g.board_mask();
        // `cur`: the stones of the player about to move; `sign`: +1 while that player is
        // the root's side to move.
        let mut cur = pos.current_stones();
        let mut mask = pos.mask();
        let mut sign = 1;
        loop {
            let possible = (mask + bottom) & board;
            if possible == B::ZERO {
                *end = mask;
                return 0;
            }
            let bit = self.random_move(possible, rng);
            let mine = cur | bit;
            if g.has_four(mine) {
                *end = mask | bit;
                return sign;
            }
            mask |= bit;
            cur = mine ^ mask;
            sign = -sign;
        }
    }

    /// A smart playout; `end` receives the final occupancy.
    #[inline]
    fn smart_core(&self, pos: &Position<B>, rng: &mut PlayoutRng, end: &mut B) -> i32 {
        let g = &self.geom;
        let bottom = g.bottom_mask();
        let board = g.board_mask();
        let mut cur = pos.current_stones();
        let mut mask = pos.mask();
        let mut sign = 1;
        loop {
            let possible = (mask + bottom) & board;
            if possible == B::ZERO {
                *end = mask;
                return 0;
            }
            let wins = g.winning_cells(cur, mask) & possible;
            if wins != B::ZERO {
                *end = mask | (wins & wins.wrapping_neg());
                return sign;
            }
            let threats = g.winning_cells(cur ^ mask, mask) & possible;
            let bit = if threats != B::ZERO {
                threats & threats.wrapping_neg()
            } else {
                self.random_move(possible, rng)
            };
            mask |= bit;
            cur ^= mask ^ bit;
            // `cur` is now the opponent's stones: (old cur | bit) ^ mask.
            sign = -sign;
        }
    }

    /// Runs `n` playouts from `pos` with a generator seeded by `seed` and counts the results
    /// and the plies played (what `c4 bench playouts` times).
    pub fn run(&self, pos: &Position<B>, n: u64, seed: u64) -> PlayoutStats {
        let mut rng = PlayoutRng::new(mix(seed, pos.key().fold_u64()));
        let mut stats = PlayoutStats::default();
        for _ in 0..n {
            let (result, plies) = self.playout_with_length(pos, &mut rng);
            stats.plies += u64::from(plies);
            match result {
                1 => stats.wins += 1,
                0 => stats.draws += 1,
                _ => stats.losses += 1,
            }
        }
        stats
    }

    /// [`MonteCarlo::run`] with the generic uniform loop, whatever the board: lets tests
    /// compare the tuned kernel's statistics with it.
    #[cfg(test)]
    pub(super) fn run_generic(&self, pos: &Position<B>, n: u64, seed: u64) -> PlayoutStats {
        let mut plain = self.clone();
        plain.kernel = None;
        plain.run(pos, n, seed)
    }

    fn playout_with_length(&self, pos: &Position<B>, rng: &mut PlayoutRng) -> (i32, u32) {
        // The length is not tracked inside the loops (that would slow every evaluation);
        // a playout's length is recovered from how many stones its final board gained, so
        // the timed loop is the real one plus this bookkeeping.
        let mut end = B::ZERO;
        let r = match self.policy {
            PlayoutPolicy::Uniform => self.uniform_core(pos, rng, &mut end),
            PlayoutPolicy::Smart => self.smart_core(pos, rng, &mut end),
        };
        (
            r,
            (end.count_ones()).saturating_sub(pos.mask().count_ones()),
        )
    }

    /// The sum of [`MonteCarlo::playouts`] playout results from `pos`, with the generator
    /// seeded from the evaluator's seed and the position's key.
    pub fn total(&self, pos: &Position<B>) -> i32 {
        let mut rng = PlayoutRng::new(mix(self.seed, pos.key().fold_u64()));
        (0..self.playouts)
            .map(|_| self.playout(pos, &mut rng))
            .sum()
    }
}

impl<B: BitBoard> Evaluator<B> for MonteCarlo<B> {
    fn name(&self) -> String {
        match self.policy {
            PlayoutPolicy::Uniform => format!("rollouts({})", self.playouts),
            PlayoutPolicy::Smart => format!("rollouts({},smart)", self.playouts),
        }
    }

    fn evaluate(&self, pos: &Position<B>) -> f64 {
        f64::from(self.total(pos)) / f64::from(self.playouts)
    }
}

/// What `c4 bench playouts` measures: playouts from one position on several threads.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PlayoutBench {
    /// The start position's move string (`empty` for the empty board).
    pub from: String,
    /// `uniform` or `smart`.
    pub policy: String,
    /// Threads, each running its own playouts.
    pub threads: usize,
    /// Playouts in all.
    pub playouts: u64,
    /// Wall time.
    pub seconds: f64,
    /// Playouts per second, all threads.
    pub playouts_per_second: f64,
    /// Playouts per second per thread.
    pub playouts_per_second_per_core: f64,
    /// Mean plies per playout.
    pub mean_plies: f64,
    /// Playouts won by the side to move.
    pub first_mover_wins: u64,
    /// Drawn playouts.
    pub draws: u64,
    /// Playouts lost by the side to move.
    pub first_mover_losses: u64,
}

/// Runs `playouts` playouts from `pos` (reached by `moves`) on each of `threads` threads,
/// each with its own seed derived from `seed`, and times them.
pub fn bench_playouts(
    pos: &Position,
    moves: &str,
    policy: PlayoutPolicy,
    playouts: u64,
    threads: usize,
    seed: u64,
) -> Result<PlayoutBench, rayon::ThreadPoolBuildError> {
    use rayon::prelude::*;
    let mc = MonteCarlo::new(pos.geometry(), 1, policy, seed);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let start = crate::clock::Instant::now();
    let stats: Vec<PlayoutStats> = pool.install(|| {
        (0..threads)
            .into_par_iter()
            .map(|t| {
                let s =
                    crate::seed::derive_seed(seed, crate::seed::Stream::BenchPlayouts, &[t as u64]);
                mc.run(pos, playouts, s)
            })
            .collect()
    });
    let seconds = start.elapsed().as_secs_f64();
    let total = playouts * threads as u64;
    let sum = |f: fn(&PlayoutStats) -> u64| stats.iter().map(f).sum::<u64>();
    let rate = total as f64 / seconds;
    Ok(PlayoutBench {
        from: if moves.is_empty() {
            "empty".into()
        } else {
            moves.into()
        },
        policy: match policy {
            PlayoutPolicy::Smart => "smart",
            PlayoutPolicy::Uniform => "uniform",
        }
        .into(),
        threads,
        playouts: total,
        seconds,
        playouts_per_second: rate,
        playouts_per_second_per_core: rate / threads as f64,
        mean_plies: sum(|s| s.plies) as f64 / total as f64,
        first_mover_wins: sum(|s| s.wins),
        draws: sum(|s| s.draws),
        first_mover_losses: sum(|s| s.losses),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(moves: &str) -> Position {
        Position::from_moves(Geometry::STANDARD, moves).unwrap()
    }

    #[test]
    fn values_are_seeded_and_deterministic() {
        let g = Geometry::STANDARD;
        let mc = MonteCarlo::new(g, 200, PlayoutPolicy::Uniform, 7);
        let p = pos("4453");
        assert_eq!(mc.evaluate(&p), mc.evaluate(&p));
        let other = MonteCarlo::new(g, 200, PlayoutPolicy::Uniform, 8);
        assert_ne!(
            mc.total(&p),
            other.total(&p),
            "another seed, other playouts"
        );
        let v = mc.evaluate(&p);
        assert!((-1.0..=1.0).contains(&v));
    }

    #[test]
    fn forced_endings_have_exact_values() {
        // 4x2 board after "112233": x holds the bottom row's first three cells and column 4
        // is the only one left, so every playout wins at once for x.
        let g = Geometry::new(4, 2).unwrap();
        let p = Position::from_moves(g, "112233").unwrap();
        // 4x1 board after "12": nobody can hold four cells of one row: always a draw; and
        // the same for a single column of height 7, where the colours alternate.
        let draw_row = Position::from_moves(Geometry::new(4, 1).unwrap(), "12").unwrap();
        let draw_col = Position::from_moves(Geometry::new(1, 7).unwrap(), "1").unwrap();
        for policy in [PlayoutPolicy::Uniform, PlayoutPolicy::Smart] {
            let mc = |g| MonteCarlo::new(g, 20, policy, 1);
            assert_eq!(mc(g).evaluate(&p), 1.0, "{policy:?}");
            assert_eq!(mc(draw_row.geometry()).evaluate(&draw_row), 0.0);
            assert_eq!(mc(draw_col.geometry()).evaluate(&draw_col), 0.0);
        }
    }

    #[test]
    fn smart_playouts_take_an_immediate_win() {
        // x has three in column 1 and is to move: smart playouts always win at once.
        let p = pos("121212");
        let smart = MonteCarlo::new(Geometry::STANDARD, 100, PlayoutPolicy::Smart, 3);
        assert_eq!(smart.evaluate(&p), 1.0);
        // Uniform playouts miss the win six times in seven, and o has the same threat in
        // column 2, so they score far below 1 but x, moving first, stays ahead.
        let uniform = MonteCarlo::new(Geometry::STANDARD, 400, PlayoutPolicy::Uniform, 3);
        let v = uniform.evaluate(&p);
        assert!(v < 0.5 && v > 0.0, "{v}");
    }

    #[test]
    fn smart_playouts_block_an_immediate_loss() {
        // o (to move) faces x's three in column 1: the block is forced; after it, uniform
        // continuation. Every playout starts by blocking, so x never wins in column 1 at once.
        let p = pos("12121");
        let smart = MonteCarlo::new(Geometry::STANDARD, 200, PlayoutPolicy::Smart, 5);
        let uniform = MonteCarlo::new(Geometry::STANDARD, 200, PlayoutPolicy::Uniform, 5);
        assert!(
            smart.evaluate(&p) > uniform.evaluate(&p),
            "blocking beats ignoring the threat"
        );
    }
}
