//! connect4-ml: a Connect Four machine-learning pipeline measured against a perfect solver.
//!
//! The application crate of the workspace, on top of the two library crates, which it uses
//! by their own names (no re-export: `connect4_engine::game::Position` is the engine's,
//! `connect4_learn::train` the learning crate's, wherever they are used). The crates, bottom
//! to top; cargo enforces that each imports only those below:
//! - `connect4-engine` (crates/engine): `io`, `seed`, `progress`, `interrupt`, `game`,
//!   `solver` (and its book), `features`, `ml` (models and learning rules), `eval`, `search`,
//!   `agents`, `answers`. Builds for WebAssembly; no server, chart, terminal, command-line or
//!   network crate;
//! - `connect4-learn` (crates/learn): `datasets`, `arena`, `train`. The Python wheel
//!   (python/) takes these two crates only;
//! - this crate: [`plot`] (charts from plain series), [`pipeline`] (the main job's stages,
//!   records, resume and report), [`deploy`] (the cluster jobs from one description),
//!   [`serve`] (the web UI's server), [`site`] (the static site), [`builtin`] (the models
//!   built into `c4`), the UCI download ([`datasets::fetch`]), and the `c4` binary, a thin
//!   command-line layer.

pub mod builtin;
pub mod datasets;
pub mod deploy;
pub mod pipeline;
pub mod plot;
pub mod serve;
pub mod site;
pub mod speed;
