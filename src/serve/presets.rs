//! Strength presets for the page (see [`connect4_engine::answers::presets`]), with the Elo of the
//! shipped ladder (`models/ladder.json`).

use std::path::Path;

pub use connect4_engine::answers::Preset;

/// The presets with the Elo of `models_dir`'s ladder (none when the file is missing or does
/// not hold an agent).
pub fn load(models_dir: &Path) -> Vec<Preset> {
    connect4_engine::answers::presets(Some(&crate::builtin::ladder_in(models_dir)))
}
