//! The uniform playout loop for the standard 7x6 board, tuned for throughput.
//!
//! Every Monte Carlo evaluation runs dozens of playouts, so this loop is the hottest code of
//! the hybrid evaluator. Compared with the generic loop in `montecarlo.rs` it gains about
//! half again as many playouts per second (docs/results.md, "Speed of evaluation"), from:
//! - constant shifts and column masks: the board's shape is known at compile time;
//! - four plies per 64 random bits, 16 bits a ply, so the generator runs once per four plies
//!   and no counter tracks how many bits are left;
//! - no separate "is the board full" test per ply: a ply ANDs the next free cells with the
//!   drawn column's mask, and only an empty result (a full column) looks further;
//! - the four-in-a-row test as four 64-bit lanes of one AVX2 vector (one shift and AND per
//!   step for all four directions) when the CPU has AVX2, chosen once at run time; the scalar
//!   test otherwise.
//!
//! A 16-bit draw maps to a column by multiply-shift: columns get 9,362 or 9,363 of the
//! 65,536 values, a bias of 0.01% that no playout statistic can see.

use super::playout_rng::PlayoutRng;

const HEIGHT: u32 = 6;
const STRIDE: u32 = HEIGHT + 1;
const COLUMN: u64 = (1 << HEIGHT) - 1;
/// The bottom cell of every column.
const BOTTOM: u64 = {
    let mut b = 0;
    let mut c = 0;
    while c < 7 {
        b |= 1 << (c * STRIDE);
        c += 1;
    }
    b
};
/// Every playable cell.
const BOARD: u64 = BOTTOM * COLUMN;
/// The cells of each column; the eighth entry lets an index be masked with `& 7` instead of
/// bounds-checked (a multiply-shift draw never produces 7).
const COLUMNS: [u64; 8] = {
    let mut m = [0; 8];
    let mut c = 0;
    while c < 7 {
        m[c] = COLUMN << (c as u32 * STRIDE);
        c += 1;
    }
    m
};

/// A uniform playout on the standard board: +1 if the side to move at the start wins, -1 if
/// they lose, 0 for a draw; `end` receives the final occupancy. `cur` holds the stones of the
/// side to move, `mask` all stones; the position must not be finished.
pub(super) type Kernel = fn(u64, u64, &mut PlayoutRng, &mut u64) -> i32;

/// The fastest kernel this CPU runs.
pub(super) fn best() -> Kernel {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        return avx2::playout;
    }
    scalar
}

/// The kernel without vector instructions (every CPU).
pub(super) fn scalar(cur: u64, mask: u64, rng: &mut PlayoutRng, end: &mut u64) -> i32 {
    run(cur, mask, rng, end, has_four)
}

/// Whether `s` holds four in a row in any direction.
#[inline(always)]
fn has_four(s: u64) -> bool {
    let v = s & (s >> 1);
    if v & (v >> 2) != 0 {
        return true;
    }
    let h = s & (s >> STRIDE);
    if h & (h >> (2 * STRIDE)) != 0 {
        return true;
    }
    let d = s & (s >> HEIGHT);
    if d & (d >> (2 * HEIGHT)) != 0 {
        return true;
    }
    let a = s & (s >> (STRIDE + 1));
    a & (a >> (2 * STRIDE + 2)) != 0
}

/// The next free cell of a column drawn from `draw16` (16 random bits), or of a column
/// drawn afresh while the drawn one is full; `None` when the board is full.
#[inline(always)]
fn pick(mask: u64, draw16: u64, rng: &mut PlayoutRng) -> Option<u64> {
    let next = mask + BOTTOM;
    let bit = next & COLUMNS[((draw16 * 7) >> 16) as usize & 7];
    if bit != 0 {
        return Some(bit);
    }
    if next & BOARD == 0 {
        return None;
    }
    loop {
        let r = rng.next_u64();
        let bit = next & COLUMNS[(((r & 0xffff_ffff) * 7) >> 32) as usize & 7];
        if bit != 0 {
            return Some(bit);
        }
    }
}

/// The loop, four plies a round (two for each side, so no sign is tracked), generic over the
/// four-in-a-row test so that each kernel inlines its own.
#[inline(always)]
fn run(
    mut cur: u64,
    mut mask: u64,
    rng: &mut PlayoutRng,
    end: &mut u64,
    four: impl Fn(u64) -> bool,
) -> i32 {
    // One ply of the side to move (`$sign` +1) or of the opponent (-1): returns from the
    // playout when it fills the board or wins; else leaves the next mover's stones in `cur`.
    macro_rules! ply {
        ($draw:expr, $sign:expr) => {{
            let Some(bit) = pick(mask, $draw, rng) else {
                *end = mask;
                return 0;
            };
            let mine = cur | bit;
            mask |= bit;
            if four(mine) {
                *end = mask;
                return $sign;
            }
            cur = mine ^ mask;
        }};
    }
    loop {
        let r = rng.next_u64();
        ply!(r & 0xffff, 1);
        ply!((r >> 16) & 0xffff, -1);
        ply!((r >> 32) & 0xffff, 1);
        ply!(r >> 48, -1);
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{PlayoutRng, run};
    use std::arch::x86_64::{
        _mm256_and_si256, _mm256_set_epi64x, _mm256_set1_epi64x, _mm256_srlv_epi64,
        _mm256_testz_si256,
    };

    /// The four directions' tests at once: lane shifts 1 (vertical), 7 (horizontal), 6 and 8
    /// (the diagonals), then twice those.
    #[inline(always)]
    pub(super) fn has_four(s: u64) -> bool {
        // SAFETY: callers run in AVX2 code (`playout_avx2`, or the test after detecting
        // AVX2); the intrinsics touch registers only.
        unsafe {
            let v = _mm256_set1_epi64x(s as i64);
            let m = _mm256_and_si256(v, _mm256_srlv_epi64(v, _mm256_set_epi64x(1, 7, 6, 8)));
            let m = _mm256_and_si256(m, _mm256_srlv_epi64(m, _mm256_set_epi64x(2, 14, 12, 16)));
            _mm256_testz_si256(m, m) == 0
        }
    }

    #[target_feature(enable = "avx2")]
    fn playout_avx2(cur: u64, mask: u64, rng: &mut PlayoutRng, end: &mut u64) -> i32 {
        run(cur, mask, rng, end, has_four)
    }

    /// The AVX2 kernel behind a plain `fn` so it fits [`super::Kernel`].
    pub(super) fn playout(cur: u64, mask: u64, rng: &mut PlayoutRng, end: &mut u64) -> i32 {
        // SAFETY: `best` hands this out only after detecting AVX2.
        unsafe { playout_avx2(cur, mask, rng, end) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Geometry, Position};

    #[test]
    fn constants_match_the_geometry() {
        let g = Geometry::STANDARD;
        assert_eq!(BOTTOM, g.bottom_mask());
        assert_eq!(BOARD, g.board_mask());
        for (c, &m) in COLUMNS.iter().take(7).enumerate() {
            assert_eq!(m, g.column_mask(c));
        }
    }

    #[test]
    fn four_tests_agree_with_the_geometry() {
        // Random stone sets of every density, checked against the generic test, and for
        // every kernel the CPU has.
        let g = Geometry::STANDARD;
        let mut rng = PlayoutRng::new(9);
        for i in 0..200_000u32 {
            let density = i % 4;
            let mut s = rng.next_u64();
            for _ in 0..density {
                s &= rng.next_u64();
            }
            let s = s & BOARD;
            assert_eq!(has_four(s), g.has_four(s), "{s:#x}");
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                assert_eq!(avx2_four(s), g.has_four(s), "{s:#x}");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    fn avx2_four(s: u64) -> bool {
        #[target_feature(enable = "avx2")]
        fn f(s: u64) -> bool {
            avx2::has_four(s)
        }
        // SAFETY: called only after detecting AVX2.
        unsafe { f(s) }
    }

    #[test]
    fn playouts_are_legal_games_that_end_as_reported() {
        // Each playout's end board holds the start's stones, fills every column from the
        // bottom, and its parity says who moved last: the winner, when there is one.
        let g = Geometry::STANDARD;
        let start = Position::from_moves(g, "4453").unwrap();
        let mut kernels: Vec<Kernel> = vec![scalar];
        kernels.push(best());
        for kernel in kernels {
            let mut rng = PlayoutRng::new(3);
            let mut counts = [0u32; 3];
            for _ in 0..20_000 {
                let mut end = 0;
                let r = kernel(start.current_stones(), start.mask(), &mut rng, &mut end);
                assert_eq!(end & start.mask(), start.mask());
                assert_eq!(end & !BOARD, 0);
                for c in 0..7 {
                    let col = (end >> (c * STRIDE)) & 0x7f;
                    assert_eq!(col & (col + 1), 0, "column {c} of {end:#x} has a gap");
                }
                let plies = end.count_ones() - start.mask().count_ones();
                match r {
                    1 => assert_eq!(plies % 2, 1, "the side to move won, so moved last"),
                    -1 => assert_eq!(plies % 2, 0),
                    0 => assert_eq!(end, BOARD, "a draw fills the board"),
                    _ => unreachable!(),
                }
                counts[(r + 1) as usize] += 1;
            }
            // Against the generic loop's statistics on the same position: 20,000 playouts
            // each, so the win shares agree within a few points.
            let generic =
                super::super::MonteCarlo::new(g, 1, super::super::PlayoutPolicy::Uniform, 0)
                    .run_generic(&start, 20_000, 11);
            let share = f64::from(counts[2]) / 20_000.0;
            let generic_share = generic.wins as f64 / 20_000.0;
            assert!(
                (share - generic_share).abs() < 0.03,
                "{share} vs {generic_share}"
            );
            assert!(counts[1] < 200, "draws are rare: {counts:?}");
        }
    }
}
