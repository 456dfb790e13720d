//! The adaptive agent's saved state, which the page keeps and sends back: a state or a typed
//! error.
#![no_main]

use connect4_engine::agents::AdaptiveState;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = AdaptiveState::from_json(text);
    }
});
