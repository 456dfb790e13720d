//! Agent specs (`hard`, `ntuple:depth=3,ms=50`, `level:elo=1500`, ...): a spec or a typed error.
#![no_main]

use connect4_engine::agents::AgentSpec;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(spec) = text.parse::<AgentSpec>() {
            // What parses prints back to a spec that parses.
            let again = spec.to_string();
            assert!(again.parse::<AgentSpec>().is_ok(), "{text:?} -> {again:?}");
        }
    }
});
