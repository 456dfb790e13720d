//! Speed benchmarks of the solver (`c4 bench solver`, `c4 solve`'s timed lines, `c4 bench
//! analyze`): the command line's alone, so they live in the application, not the engine.

pub mod analyze;
pub mod solver;
