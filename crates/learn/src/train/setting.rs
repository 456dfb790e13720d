//! A trainer's setting out of its range: the one error every trainer's checks give, so that
//! `c4 train ...` names the setting, its value and what it must be alike for all of them.

/// A setting out of its range: which, its value, and what it must be.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name} = {value}: {expected}")]
pub struct SettingError {
    /// The setting, as the recipe or flag names it.
    pub name: &'static str,
    /// Its value as given.
    pub value: String,
    /// What it must be.
    pub expected: &'static str,
}
