//! Training checkpoints (`--resume`) of the LMS and n-tuple trainers: a state a run can go
//! on from, or a typed error.
//!
//! Each input is read as a whole file, and as the state's bytes behind the header a run of
//! the default settings writes (magic, version, trainer, recipe), so that mutations reach
//! the state's decoder and the checks after it instead of stopping at the recipe.
#![no_main]

use connect4_engine::game::Geometry;
use connect4_learn::train::{lms, ntuple};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

/// The settings whose checkpoints the inputs pose as, with their headers.
struct Runs {
    lms: lms::ValidLmsConfig,
    ntuple: ntuple::ValidNTupleConfig,
    lms_header: Vec<u8>,
    ntuple_header: Vec<u8>,
}

/// The bytes a checkpoint of `trainer` with settings `recipe` starts with.
fn header(trainer: &str, recipe: &str) -> Vec<u8> {
    let mut out = b"C4-CKPT\n".to_vec();
    out.extend_from_slice(&1u16.to_le_bytes());
    out.push(trainer.len() as u8);
    out.extend_from_slice(trainer.as_bytes());
    out.extend_from_slice(&(recipe.len() as u32).to_le_bytes());
    out.extend_from_slice(recipe.as_bytes());
    out
}

static RUNS: LazyLock<Runs> = LazyLock::new(|| {
    let lms = lms::ValidLmsConfig::default();
    let ntuple = ntuple::ValidNTupleConfig::default();
    // The LMS trainer's recipe names the board, then its settings as JSON.
    let lms_recipe = format!(
        "{}x{} {}",
        lms.geometry().width(),
        lms.geometry().height(),
        serde_json::to_string(&lms).expect("settings are JSON")
    );
    let runs = Runs {
        lms_header: header("lms", &lms_recipe),
        ntuple_header: header("ntuple", &ntuple.to_toml()),
        lms,
        ntuple,
    };
    // The headers must be the trainers' own, or every input stops at the recipe check.
    let path = std::path::Path::new("probe");
    let lms_err = lms::decode_checkpoint(path, &runs.lms_header, &runs.lms)
        .err()
        .map(|e| e.to_string());
    let ntuple_err =
        ntuple::decode_checkpoint(path, &runs.ntuple_header, &runs.ntuple, Geometry::STANDARD)
            .err()
            .map(|e| e.to_string());
    for err in [lms_err, ntuple_err].into_iter().flatten() {
        assert!(
            err.contains("cannot decode the state"),
            "the fuzz target's checkpoint header is not the trainer's: {err}"
        );
    }
    runs
});

fuzz_target!(|data: &[u8]| {
    let runs = &*RUNS;
    let path = std::path::Path::new("fuzzed.checkpoint");
    let _ = lms::decode_checkpoint(path, data, &runs.lms);
    let _ = ntuple::decode_checkpoint(path, data, &runs.ntuple, Geometry::STANDARD);
    let mut file = runs.lms_header.clone();
    file.extend_from_slice(data);
    let _ = lms::decode_checkpoint(path, &file, &runs.lms);
    let mut file = runs.ntuple_header.clone();
    file.extend_from_slice(data);
    let _ = ntuple::decode_checkpoint(path, &file, &runs.ntuple, Geometry::STANDARD);
});
