//! One trainer per learner, and the jobs that play games to make training data: the functions
//! the CLI and the pipeline both call.
//!
//! - [`gbt`]: the gradient-boosted trees (sources, presets, holdout/CV, saving).
//! - [`lms`]: the linear evaluator's weights by the LMS rule (self-play and supervised).
//! - [`ntuple`]: n-tuple networks by TD self-play and supervised LMS.
//! - [`run_loop`]: the loop every self-play trainer runs on (play, measure, keep, save).
//! - [`games`]: solver-labelled positions from games between agents (`c4 data selfplay`).
//! - [`sample_positions`]: distinct open positions for the labelling engine.
//! - [`make_benchmark_sets`]: benchmark sets by phase and difficulty (`c4 data bench-sets`).
//!
//! Not here: the learners themselves and their model files (`ml`), the pipeline that
//! orders these jobs (`pipeline`).

pub mod checkpoint;
pub mod games;
pub mod gbt;
pub mod lms;
pub mod make_benchmark_sets;
pub mod ntuple;
pub mod outputs;
pub mod run_loop;
pub mod sample_positions;
pub mod setting;
