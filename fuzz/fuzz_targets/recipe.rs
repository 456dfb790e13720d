//! Recipes: the n-tuple trainer's (`c4 train ntuple --recipe`) and the pipeline's sizes
//! (`recipes/pipeline*.toml`): settings or a typed error; what reads writes back to itself.
#![no_main]

use connect4_learn::train::ntuple::NTupleConfig;
use connect4_ml::pipeline::Sizes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(config) = NTupleConfig::from_toml(text, "fuzzed") {
        let written = config.to_toml();
        let again = NTupleConfig::from_toml(&written, "written")
            .unwrap_or_else(|e| panic!("{text:?} wrote {written:?}, which reads as: {e}"));
        assert_eq!(again.to_toml(), written, "{text:?}");
    }
    if let Ok(sizes) = Sizes::from_toml(text) {
        let _ = sizes.ntuple_recipe();
    }
});
