//! The WebAssembly engine's JSON requests (`connect4_wasm::Engine::call`), as a page or Node
//! sends them: an answer or `{"error": ...}`, never a panic, always JSON.
//!
//! Time limits are cut to 30 ms (a request may ask for two minutes of solving, which is
//! allowed, not a hang), so that every input answers quickly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use std::sync::{LazyLock, Mutex};

/// One engine across inputs, as a page keeps one: its caches and factories carry over.
static ENGINE: LazyLock<Mutex<connect4_wasm::Engine>> = LazyLock::new(|| {
    let mut engine = connect4_wasm::Engine::new(4);
    let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
    for name in ["lms.bin", "ntuple-5x4.bin", "ntuple-6x5.bin"] {
        if let Ok(bytes) = std::fs::read(models.join(name)) {
            engine.add_model(&format!("models/{name}"), bytes);
        }
    }
    Mutex::new(engine)
});

/// Longest a fuzzed request may compute, in milliseconds.
const MS: u64 = 30;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let request = match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(mut fields)) => {
            // A number over the cap (or none) becomes the cap; other types stay, to be refused.
            match fields.get("ms") {
                Some(Value::Number(n)) if n.as_u64().is_some_and(|ms| ms <= MS) => {}
                Some(Value::Number(_)) | None => {
                    fields.insert("ms".into(), Value::from(MS));
                }
                Some(_) => {}
            }
            Value::Object(fields).to_string()
        }
        _ => text.to_string(),
    };
    let answer = ENGINE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .call(&request);
    assert!(
        serde_json::from_str::<Value>(&answer).is_ok(),
        "{request:?} answered {answer:?}, not JSON"
    );
});
