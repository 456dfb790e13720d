//! Strength presets for the page (see [`crate::answers::presets`]), with the Elo of the
//! shipped ladder (`models/ladder.json`).

use std::path::Path;

pub use crate::answers::Preset;

/// The presets with the Elo of `models_dir`'s ladder (none when the file is missing or does
/// not hold an agent).
pub fn load(models_dir: &Path) -> Vec<Preset> {
    crate::answers::presets(Some(&crate::builtin::ladder_in(models_dir)))
}
