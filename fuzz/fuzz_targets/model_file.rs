//! Model files of every kind (GBT, linear weights, n-tuple networks): a model or a typed error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = std::path::Path::new("fuzzed.bin");
    let _ = connect4_engine::ml::model_file::decode_any(path, data, None);
});
