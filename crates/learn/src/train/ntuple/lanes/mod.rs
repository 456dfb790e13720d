//! Lanes: the copies of the weights self-play's lanes play on ([`lane`]), and how their
//! changes combine into the shared weights ([`combine()`]; see the self-play module's docs
//! for why).

mod combine;
mod lane;

pub use combine::SUMMED_LANES;
pub(super) use combine::{Combiner, Fanout, combine};
pub use lane::TailAverage;
pub(super) use lane::{Lane, LaneChange, TclState, Weights};
