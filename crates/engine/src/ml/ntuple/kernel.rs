//! The network's one value and update kernel, over a weight array and the weights a position
//! indexes (its "active" list, see [`super::NTupleNetwork::active`]). The network uses it,
//! and so do self-play's lanes on their own copies of the weights: one place says how a value
//! is summed and how a step moves the weights, so the two cannot drift apart.
//!
//! ```
//! use connect4_engine::ml::ntuple::kernel;
//! let mut w = vec![0.0f32; 8];
//! kernel::step(&mut w, &[1, 5], 0.25);
//! assert_eq!(kernel::sum(&w, &[1, 5, 6]), 0.5);
//! assert!((kernel::value(&w, &[1, 5]) - 0.5f32.tanh()).abs() < 1e-7);
//! assert_eq!(kernel::value(&w, &[1, 5]), kernel::squash(0.5));
//! ```

/// The sum of the weights at `active`: the value before the squash. Four running sums
/// instead of one: the additions of one sum wait on each other, four chains overlap (a
/// quarter of self-play's time went to that wait). Every caller sums in this order, so a
/// position has one value wherever it is computed from its active list.
#[inline(always)]
pub fn sum(weights: &[f32], active: &[u32]) -> f32 {
    let mut acc = [0.0f32; 4];
    let mut quads = active.chunks_exact(4);
    for q in &mut quads {
        for k in 0..4 {
            acc[k] += weights[q[k] as usize];
        }
    }
    let rest: f32 = quads.remainder().iter().map(|&i| weights[i as usize]).sum();
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + rest
}

/// The value (first player's view, in (-1, 1)) of the position whose weights are `active`.
#[inline(always)]
pub fn value(weights: &[f32], active: &[u32]) -> f32 {
    squash(sum(weights, active))
}

/// The squash from a sum to a value, `tanh`, with the same bits on every machine. `f32::tanh`
/// calls the C library of the system, and C libraries round differently (glibc 2.36's
/// `tanhf` and the pure-Rust `libm` crate's differ on 0.8% of the f32 inputs in [-10, 10],
/// by up to 3 ulp; newer glibc, macOS and Windows have their own): self-play follows its
/// values, so one flipped bit sends a seed's games elsewhere, and the same seed would train
/// another network on another system. The `libm` crate is Rust arithmetic alone, the same
/// everywhere, WebAssembly included.
#[inline(always)]
pub fn squash(sum: f32) -> f32 {
    libm::tanhf(sum)
}

/// `x` to the power `y` with the same bits on every machine (see [`squash`]; glibc's `powf`
/// and the `libm` crate's differ on a tenth of a step schedule's 7M exponents).
pub fn powf(x: f32, y: f32) -> f32 {
    libm::powf(x, y)
}

/// Adds `change` to every weight at `active` (the plain LMS and TD step).
#[inline(always)]
pub fn step(weights: &mut [f32], active: &[u32], change: f32) {
    for &i in active {
        weights[i as usize] += change;
    }
}

/// The temporal-coherence step (TCL; Beal and Smith 1999, for n-tuples Bagheri, Thill, Koch
/// and Konen 2015): each weight keeps the sum of its recommended changes (`sum`) and of their
/// sizes (`size`), and takes `change x exp(beta x (|sum| / size - 1))`, so weights whose
/// changes keep pointing one way move at full rate and those that oscillate slow down.
#[inline(always)]
pub fn step_tcl(
    weights: &mut [f32],
    sum: &mut [f32],
    size: &mut [f32],
    active: &[u32],
    change: f32,
    beta: f32,
) {
    for &i in active {
        let i = i as usize;
        let (n, a) = (sum[i], size[i]);
        let coherence = if a > 0.0 { n.abs() / a } else { 1.0 };
        weights[i] += change * libm::expf(beta * (coherence - 1.0));
        sum[i] = n + change;
        size[i] = a + change.abs();
    }
}

/// One LMS step through the squash toward `target` (first player's view, in [-1, 1]): every
/// weight at `active` moves by `rate x error x (1 - value^2)`. Returns the error before the
/// step.
#[inline]
pub fn learn(weights: &mut [f32], active: &[u32], target: f32, rate: f32) -> f32 {
    let v = value(weights, active);
    let error = target - v;
    step(weights, active, rate * error * (1.0 - v * v));
    error
}
