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

        /// The default settings, which are valid (each learner's tests check them).
        impl Default for $valid {
            fn default() -> Self {
                $valid(<$params>::default())
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

/// Defines a trainer's settings record `$params` (fields private to the crate) with a
/// builder per field on it (`LmsConfig::default().depth(4)`, as linfa's params build) and a
/// getter per field on its checked form `$valid` (`valid.depth()`, as linfa's valid params
/// read): outside this crate a setting is written only before the check and read only after
/// it. Each field's doc comment is written once and documents its builder and getter;
/// getters return a copy (a clone for the one record field that is not `Copy`, the n-tuple
/// layout).
macro_rules! settings_record {
    (
        $(#[$($attr:tt)*])*
        pub struct $params:ident, checked as $valid:ident {
            $(
                $(#[$($field_attr:tt)*])*
                $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[$($attr)*])*
        pub struct $params {
            $( $(#[$($field_attr)*])* pub(crate) $field: $ty, )*
        }

        impl $params {
            $( $crate::train::setting::settings_record!(
                @builder $field: $ty; []; $(#[$($field_attr)*])*
            ); )*
        }

        impl $valid {
            $( $crate::train::setting::settings_record!(
                @getter $field: $ty; []; $(#[$($field_attr)*])*
            ); )*
        }
    };
    // The field's doc lines go to its builder and getter; its other attributes (serde's)
    // stay on the field.
    (@$kind:ident $field:ident : $ty:ty; [$($doc:tt)*]; #[doc = $line:literal] $($rest:tt)*) => {
        $crate::train::setting::settings_record!(
            @$kind $field: $ty; [$($doc)* #[doc = $line]]; $($rest)*
        );
    };
    (@$kind:ident $field:ident : $ty:ty; [$($doc:tt)*]; #[$($other:tt)*] $($rest:tt)*) => {
        $crate::train::setting::settings_record!(@$kind $field: $ty; [$($doc)*]; $($rest)*);
    };
    (@builder $field:ident : $ty:ty; [$($doc:tt)*];) => {
        #[doc = concat!("Sets `", stringify!($field), "` (then [`linfa::ParamGuard::check`]):")]
        $($doc)*
        #[must_use]
        pub fn $field(mut self, value: $ty) -> Self {
            self.$field = value;
            self
        }
    };
    (@getter $field:ident : $ty:ty; [$($doc:tt)*];) => {
        $($doc)*
        #[allow(clippy::clone_on_copy)]
        pub fn $field(&self) -> $ty {
            self.0.$field.clone()
        }
    };
}
pub(crate) use settings_record;

#[cfg(test)]
mod tests {
    use linfa::ParamGuard;

    /// Each checked type's `Default` skips the check: the defaults must pass it.
    #[test]
    fn every_learners_defaults_pass_their_check() {
        use crate::train::lms::{
            LmsConfig, SupervisedConfig, ValidLmsConfig, ValidSupervisedConfig,
        };
        use crate::train::ntuple::{NTupleConfig, ValidNTupleConfig};
        assert_eq!(
            NTupleConfig::default().check().unwrap(),
            ValidNTupleConfig::default()
        );
        assert_eq!(
            LmsConfig::default().check().unwrap(),
            ValidLmsConfig::default()
        );
        assert_eq!(
            SupervisedConfig::default().check().unwrap(),
            ValidSupervisedConfig::default()
        );
        // Builders write before the check, getters read after it.
        let valid = LmsConfig::default().depth(4).seed(9).check().unwrap();
        assert_eq!((valid.depth(), valid.seed()), (4, 9));
        assert!(NTupleConfig::default().lanes(0).check().is_err());
    }
}
