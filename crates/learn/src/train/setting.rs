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

/// Makes `$valid`, the checked form of a trainer's settings `$params`, as linfa makes its
/// valid params: linfa's `ParamGuard` for `$params` runs `$check` (a function of `&$params`
/// that names the first bad setting) once, and the trainer takes `$valid`, which reads its
/// settings through `Deref` and cannot be changed without checking again (`into_inner`).
/// Every learner's settings go through it, so the guard and its one `unsafe` cast live here.
macro_rules! checked_settings {
    ($(#[$doc:meta])* $valid:ident($params:ty), $error:ty, $check:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        #[serde(transparent)]
        #[repr(transparent)]
        pub struct $valid($params);

        impl std::ops::Deref for $valid {
            type Target = $params;
            fn deref(&self) -> &$params {
                &self.0
            }
        }

        impl $valid {
            /// The settings, to change and check again.
            pub fn into_inner(self) -> $params {
                self.0
            }
        }

        impl linfa::ParamGuard for $params {
            type Checked = $valid;
            type Error = $error;

            fn check_ref(&self) -> Result<&$valid, $error> {
                let check: fn(&$params) -> Result<(), $error> = $check;
                check(self)?;
                // SAFETY: the valid type is `repr(transparent)` over the settings, so the two
                // share one layout; the reference keeps the borrow's lifetime.
                Ok(unsafe { &*(self as *const $params).cast::<$valid>() })
            }

            fn check(self) -> Result<$valid, $error> {
                self.check_ref()?;
                Ok($valid(self))
            }
        }
    };
}
pub(crate) use checked_settings;
