//! Recipes as files: an [`NTupleConfig`] written as TOML (`recipes/ntuple.toml` is the
//! shipped one), read back with every key checked, changed one key at a time (`--set
//! key=value`), and recorded in the model files a run writes so that a model can be
//! trained again from itself. A recipe says what is learned; how the machine runs it
//! (threads, checkpoints, the curve's schedule) is not part of it.

use super::config::NTupleConfig;
use std::path::{Path, PathBuf};

/// The shipped recipe's text (`recipes/ntuple.toml`): the one source of every setting's
/// default ([`NTupleConfig::default`] is its parse), of the keys a recipe may hold, and of
/// the help of `c4 train ntuple`'s per-key flags ([`recipe_keys`]).
pub const SHIPPED_RECIPE: &str = include_str!("../../../../../../recipes/ntuple.toml");

/// The shipped recipe as a table, every key with its value.
fn shipped_table() -> toml::Table {
    SHIPPED_RECIPE
        .parse()
        .expect("recipes/ntuple.toml is TOML (a test reads it)")
}

/// The shipped recipe, parsed once.
fn shipped() -> NTupleConfig {
    static SHIPPED: std::sync::OnceLock<NTupleConfig> = std::sync::OnceLock::new();
    SHIPPED
        .get_or_init(|| {
            shipped_table()
                .try_into()
                .expect("recipes/ntuple.toml is a whole recipe (a test reads it)")
        })
        .clone()
}

impl Default for NTupleConfig {
    /// The shipped recipe, `recipes/ntuple.toml` (its comments and models/README.md say why
    /// each value): the file is the one source of the defaults.
    fn default() -> Self {
        shipped()
    }
}

/// Keys added to the recipe after model files began recording theirs, each with the value
/// that turns it off: what a recorded recipe without the key was trained with (the shipped
/// recipe's value may differ).
const ADDED_LATER: &[(&str, f64)] = &[("guided", 0.0)];

/// `over` laid over `base`: tables merged key by key, any other value replaced.
fn lay_over(base: &mut toml::Table, over: toml::Table) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => lay_over(b, o),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

/// One key of a recipe: its name as the file writes it (`rate`, `layout.cells`), the flag of
/// `c4 train ntuple` that sets it (`rate`, `cells`, `layout-seed`), and what it means (the
/// shipped file's comment above it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecipeKey {
    /// The key (`layout.cells` inside the `[layout]` table).
    pub key: String,
    /// The flag without its dashes: the key's last part with `-` for `_`, prefixed by its
    /// table where a top-level key has the same name (`layout-seed`).
    pub flag: String,
    /// The comment above it in `recipes/ntuple.toml` (one comment may cover the keys right
    /// below it).
    pub help: String,
}

/// Every key of a recipe, in the shipped file's order, with its flag and help.
pub fn recipe_keys() -> Vec<RecipeKey> {
    let mut keys: Vec<RecipeKey> = Vec::new();
    let (mut table, mut comment) = (String::new(), Vec::<String>::new());
    let mut last_was_key = false;
    for line in SHIPPED_RECIPE.lines().map(str::trim) {
        if let Some(text) = line.strip_prefix('#') {
            if last_was_key {
                comment.clear();
            }
            comment.push(text.trim().to_string());
            last_was_key = false;
        } else if line.starts_with('[') {
            table = line
                .trim_matches(|c| c == '[' || c == ']')
                .trim()
                .to_string();
            comment.clear();
            last_was_key = false;
        } else if let Some((key, _)) = line.split_once('=') {
            let key = key.trim();
            let full = if table.is_empty() {
                key.to_string()
            } else {
                format!("{table}.{key}")
            };
            keys.push(RecipeKey {
                key: full,
                flag: key.replace('_', "-"),
                help: comment.join(" "),
            });
            last_was_key = true;
        } else {
            comment.clear();
            last_was_key = false;
        }
    }
    // A table's key named like a top-level one takes its table's name first.
    let top: Vec<String> = keys
        .iter()
        .filter(|k| !k.key.contains('.'))
        .map(|k| k.flag.clone())
        .collect();
    for k in keys.iter_mut() {
        if let Some((table, _)) = k.key.split_once('.')
            && top.contains(&k.flag)
        {
            k.flag = format!("{table}-{}", k.flag);
        }
    }
    keys
}

/// Why a recipe cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum RecipeError {
    /// The file could not be read.
    #[error("{path}: {source}", path = path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A model file that cannot be opened to read its recipe.
    #[error("{source}")]
    Model {
        /// The file.
        path: PathBuf,
        /// What is wrong with it (naming the file).
        #[source]
        source: connect4_engine::io::model_format::ModelFileError,
    },
    /// A model file that records no recipe: trained before recipes were recorded, or made
    /// by averaging runs (`c4 train ntuple-pick --by average`, the command it records).
    #[error("{path}: a model file that records no recipe (trained before recipes were recorded, or an average of runs made by `c4 train ntuple-pick --by average`: train its runs' recipes)", path = path.display())]
    NoRecipe {
        /// The file.
        path: PathBuf,
    },
    /// Neither a model file nor text.
    #[error("{path}: not UTF-8 text", path = path.display())]
    NotText {
        /// The file.
        path: PathBuf,
    },
    /// Not a recipe: bad TOML, an unknown key, a value of the wrong type.
    #[error("{origin}: {}", one_line(source))]
    Parse {
        /// Where the text came from (a file, a model file, the pipeline's table, `--set`).
        origin: String,
        /// What the TOML reader found.
        #[source]
        source: toml::de::Error,
    },
    /// A recipe that cannot be written as TOML (a value TOML cannot hold).
    #[error("{origin}: {source}")]
    Encode {
        /// Where the recipe came from.
        origin: String,
        /// What the TOML writer found.
        #[source]
        source: toml::ser::Error,
    },
    /// A `--set key=value` that names no setting.
    #[error("--set {key}={value}: {problem}")]
    Set {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// What is wrong, with the keys a recipe has.
        problem: String,
    },
    /// A `--set key=value` whose value does not fit its setting (the cause names it).
    #[error("{source}")]
    SetValue {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// Why it does not fit: the recipe's reader or its checks.
        #[source]
        source: Box<RecipeError>,
    },
    /// A recipe whose settings are out of range.
    #[error("{origin}: {source}")]
    Invalid {
        /// Where the recipe came from.
        origin: String,
        /// The failed check.
        #[source]
        source: Box<super::NTupleTrainError>,
    },
}

/// A TOML error on one line (the reader's message spans several, with a caret under the
/// place).
fn one_line(e: &toml::de::Error) -> String {
    e.to_string().trim_end().replace('\n', " ")
}

impl NTupleConfig {
    /// Reads a recipe from TOML text; keys it leaves out keep the shipped recipe's values.
    /// `origin` names the text in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<NTupleConfig, RecipeError> {
        let table: toml::Table = text.parse().map_err(|source| RecipeError::Parse {
            origin: origin.to_string(),
            source,
        })?;
        shipped().overridden(table, origin)
    }

    /// This recipe with the keys of `table` (a partial recipe, as the pipeline's `[ntuple]`
    /// table) laid over it, checked; `origin` names the table in errors.
    pub fn overridden(
        &self,
        table: toml::Table,
        origin: &str,
    ) -> Result<NTupleConfig, RecipeError> {
        let mut full = toml::Table::try_from(self).map_err(|source| RecipeError::Encode {
            origin: origin.to_string(),
            source,
        })?;
        lay_over(&mut full, table);
        let config: NTupleConfig = full.try_into().map_err(|source| RecipeError::Parse {
            origin: origin.to_string(),
            source,
        })?;
        config
            .check_settings()
            .map_err(|source| RecipeError::Invalid {
                origin: origin.to_string(),
                source: Box::new(source),
            })?;
        Ok(config)
    }

    /// The recipe as TOML, every key written.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a recipe has only plain values")
    }

    /// Reads a recipe a model file recorded: as [`NTupleConfig::from_toml`], except that a key
    /// the recipe gained after the file was trained reads as off (what it was trained with),
    /// not as the shipped recipe's value.
    fn from_recorded(text: &str, origin: &str) -> Result<NTupleConfig, RecipeError> {
        let mut table: toml::Table = text.parse().map_err(|source| RecipeError::Parse {
            origin: origin.to_string(),
            source,
        })?;
        for &(key, off) in ADDED_LATER {
            table.entry(key).or_insert(toml::Value::Float(off));
        }
        // Added after guided openings: a record without it guided the same share throughout.
        if !table.contains_key("guided_final") {
            let guided = table["guided"].clone();
            table.insert("guided_final".to_string(), guided);
        }
        shipped().overridden(table, origin)
    }

    /// Reads the recipe of `path`: a TOML file, or a model file that recorded the recipe
    /// it was trained with (`c4 train ntuple` records it).
    pub fn from_file(path: &Path) -> Result<NTupleConfig, RecipeError> {
        let bytes = std::fs::read(path).map_err(|source| RecipeError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        if bytes.starts_with(connect4_engine::io::model_format::MAGIC) {
            let parts = connect4_engine::io::model_format::ModelParts::open(path, &bytes).map_err(
                |source| RecipeError::Model {
                    path: path.to_path_buf(),
                    source,
                },
            )?;
            let text = parts
                .header
                .meta
                .recipe
                .ok_or_else(|| RecipeError::NoRecipe {
                    path: path.to_path_buf(),
                })?;
            return NTupleConfig::from_recorded(&text, &format!("{} (its recipe)", path.display()));
        }
        let text = String::from_utf8(bytes).map_err(|_| RecipeError::NotText {
            path: path.to_path_buf(),
        })?;
        NTupleConfig::from_toml(&text, &path.display().to_string())
    }

    /// Changes one setting: `key` as the recipe file names it (`rate`, `layout.cells`),
    /// `value` as TOML would write it (a bare word is read as a string: `loss=log`). The
    /// result is checked like a recipe file.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RecipeError> {
        let err = |problem: String| RecipeError::Set {
            key: key.to_string(),
            value: value.to_string(),
            problem,
        };
        let misfit = |source: RecipeError| RecipeError::SetValue {
            key: key.to_string(),
            value: value.to_string(),
            source: Box::new(source),
        };
        let origin = || format!("--set {key}={value}");
        let mut table = toml::Table::try_from(&*self).map_err(|source| RecipeError::Encode {
            origin: origin(),
            source,
        })?;
        let parsed = format!("v = {value}")
            .parse::<toml::Table>()
            .ok()
            .and_then(|mut t| t.remove("v"))
            .unwrap_or_else(|| toml::Value::String(value.to_string()));
        let mut at = &mut table;
        let parts: Vec<&str> = key.split('.').collect();
        let (last, path) = parts.split_last().expect("split yields one part");
        for p in path {
            at = match at.get_mut(*p) {
                Some(toml::Value::Table(t)) => t,
                _ => return Err(err(format!("no table `{p}` in a recipe"))),
            };
        }
        if !at.contains_key(*last) || matches!(at.get(*last), Some(toml::Value::Table(_))) {
            let keys: Vec<String> = at
                .iter()
                .map(|(k, v)| match v {
                    toml::Value::Table(t) => t
                        .keys()
                        .map(|s| format!("{k}.{s}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    _ => k.clone(),
                })
                .collect();
            return Err(err(format!(
                "no such setting; a recipe has {}",
                keys.join(", ")
            )));
        }
        at.insert(last.to_string(), parsed);
        let config: NTupleConfig = table.try_into().map_err(|source| {
            misfit(RecipeError::Parse {
                origin: origin(),
                source,
            })
        })?;
        config.check_settings().map_err(|source| {
            misfit(RecipeError::Invalid {
                origin: origin(),
                source: Box::new(source),
            })
        })?;
        *self = config;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
