//! The playouts' random generator, shared by the evaluator and its tuned kernel.

/// A random generator small enough to live in a register: wyrand (a 64-bit counter passed
/// through a multiply-xor mix). Statistically fine for playouts and far cheaper than the
/// cryptographic generators, which would cost more than the playout itself.
#[derive(Clone, Debug)]
pub struct PlayoutRng(u64);

impl PlayoutRng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        PlayoutRng(seed)
    }

    /// The next 64 random bits.
    #[inline]
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = u128::from(self.0) * u128::from(self.0 ^ 0xe703_7ed1_a0b4_28db);
        (t >> 64) as u64 ^ t as u64
    }
}
