//! Random draws from what a caller passes as `rng`: None (Python's `random` module), an int
//! seed (the library's seeded stream), a `random.Random` or a numpy `Generator`.

use crate::args::{Nat, short_repr};
use crate::errors::err;
use pyo3::prelude::*;

/// A uniform index below `n` drawn from `rng`: None (Python's `random` module), an int seed,
/// an object with `randrange` (`random.Random`) or with `integers` (numpy's `Generator`).
pub fn draw_index(py: Python<'_>, rng: Option<&Bound<'_, PyAny>>, n: usize) -> PyResult<usize> {
    // A wrong rng is refused even when there is nothing to draw.
    let bad_rng = |r: &Bound<'_, PyAny>| {
        err(format!(
            "rng: expected None, an int seed, a random.Random or a numpy Generator, got {}",
            short_repr(r)
        ))
    };
    if let Some(r) = rng
        && !r.hasattr("randrange")?
        && !r.hasattr("integers")?
        && r.extract::<Nat>().is_err()
    {
        return Err(bad_rng(r));
    }
    if n <= 1 {
        return Ok(0);
    }
    let drawn: Bound<'_, PyAny> = match rng {
        None => py.import("random")?.call_method1("randrange", (n,))?,
        Some(r) if r.hasattr("randrange")? => r.call_method1("randrange", (n,))?,
        Some(r) if r.hasattr("integers")? => r.call_method1("integers", (n,))?,
        Some(r) => {
            let Nat(seed) = r.extract().map_err(|_| bad_rng(r))?;
            // One draw per call from the seed: the same seed picks the same column.
            return Ok((connect4_engine::seed::splitmix64(seed) % n as u64) as usize);
        }
    };
    let i: i64 = drawn.extract()?;
    usize::try_from(i)
        .ok()
        .filter(|&i| i < n)
        .ok_or_else(|| err(format!("rng drew {i}, outside 0..{n}")))
}
