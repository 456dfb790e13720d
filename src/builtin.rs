//! The shipped models and ladder built into `c4`, so that `c4 serve` and `c4 site` work from
//! any folder (like the opening book, which the engine carries): a file of the models folder
//! wins over the built-in copy of the same name.

use connect4_engine::eval::ModelStore;
use std::path::Path;

/// The shipped model files by name (`models/NAME` in the repository at build time).
pub(crate) const MODELS: &[(&str, &[u8])] = &[
    ("gbt.bin", include_bytes!("../models/gbt.bin")),
    ("lms.bin", include_bytes!("../models/lms.bin")),
    ("ntuple.bin", include_bytes!("../models/ntuple.bin")),
    // The networks of the other boards (answers::NETWORK_BOARDS; a test holds the two lists
    // together).
    ("ntuple-5x4.bin", include_bytes!("../models/ntuple-5x4.bin")),
    ("ntuple-6x5.bin", include_bytes!("../models/ntuple-6x5.bin")),
    ("ntuple-7x5.bin", include_bytes!("../models/ntuple-7x5.bin")),
    ("ntuple-6x6.bin", include_bytes!("../models/ntuple-6x6.bin")),
    ("ntuple-6x7.bin", include_bytes!("../models/ntuple-6x7.bin")),
    ("ntuple-8x7.bin", include_bytes!("../models/ntuple-8x7.bin")),
    ("ntuple-9x6.bin", include_bytes!("../models/ntuple-9x6.bin")),
    // Past 64 bits: played in 128-bit bitboards.
    ("ntuple-8x8.bin", include_bytes!("../models/ntuple-8x8.bin")),
    ("ntuple-9x7.bin", include_bytes!("../models/ntuple-9x7.bin")),
];

/// The shipped ladder (`models/ladder.json`): the Elo of the page's presets.
pub(crate) const LADDER: &str = include_str!("../models/ladder.json");

/// The built-in models missing from `dir`, held under `dir/NAME` (the paths agent specs are
/// pointed at), with their names.
pub(crate) fn missing_from(dir: &Path) -> (ModelStore, Vec<&'static str>) {
    let mut store = ModelStore::default();
    let mut names = Vec::new();
    for &(name, bytes) in MODELS {
        let path = dir.join(name);
        if !path.is_file() {
            store.insert(path, bytes);
            names.push(name);
        }
    }
    (store, names)
}

/// Makes every command read the built-in models where `models/NAME` is missing (run from
/// any folder, as after `cargo install`), saying so once per model on stderr. A file on
/// disk always wins; a path other than `models/NAME` that does not exist is still an error.
pub fn carry_models() {
    let files = MODELS
        .iter()
        .map(|&(name, bytes)| (Path::new("models").join(name), bytes));
    connect4_engine::io::carried::carry(files, |path| {
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        eprintln!(
            "c4: {} is not here: using the {name} built into c4",
            path.display()
        );
    });
}

/// The ladder of `dir`, else the built-in one.
pub fn ladder_in(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("ladder.json")).unwrap_or_else(|_| LADDER.to_string())
}
