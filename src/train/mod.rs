//! Drivers that play games to make training data: solver-labelled self-play positions.

pub mod bench_sets;
pub mod lms;
pub mod pipeline;
pub mod positions;
pub mod selfplay;
