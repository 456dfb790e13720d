//! `c4 serve`'s API, request by request through the real router (no socket): query strings,
//! JSON bodies and path segments, as any client may send them. Every answer is a success, a
//! 4xx naming the fault or a 503 (full); never a 500, never a panic.
//!
//! The server runs with time limits of 30-50 ms, so that every request answers quickly.
#![no_main]

use axum::body::Body;
use axum::http::{Method, Request};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;
use std::time::Duration;
use tower::ServiceExt;

/// The routes a fuzzed request goes to: method, path before the fuzzed part, and whether
/// the fuzzed part is the body (else it ends the URI).
const ROUTES: [(&str, &str, bool); 12] = [
    ("GET", "/api/analyze?", false),
    ("GET", "/api/review?", false),
    ("POST", "/api/move", true),
    ("POST", "/api/adaptive", true),
    ("GET", "/api/agents?", false),
    ("GET", "/api/models?", false),
    ("GET", "/api/evaluate?", false),
    ("GET", "/api/runs/", false),
    ("GET", "/runs/", false),
    ("GET", "/api/status?", false),
    ("GET", "/", false),
    ("POST", "/api/analyze?", false),
];

/// The server and the runtime it answers on, kept across inputs as a server keeps its state.
static SERVER: LazyLock<(tokio::runtime::Runtime, axum::Router)> = LazyLock::new(|| {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let config = connect4_ml::serve::ServeConfig {
        runs: root.join("fuzz/corpus/runs"),
        models: root.join("models"),
        heavy: 1,
        heavy_queue: 4,
        quick: 1,
        quick_queue: 4,
        queue_wait: Duration::from_secs(5),
        analyze_limit: Duration::from_millis(30),
        analyze_max: Duration::from_millis(50),
        move_limit: Duration::from_millis(30),
        tt_mib: 4,
        ..Default::default()
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let router = {
        let _inside = runtime.enter();
        connect4_ml::serve::router(config)
    };
    (runtime, router)
});

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let (method, path, in_body) = ROUTES[pick as usize % ROUTES.len()];
    let request = if in_body {
        Request::builder()
            .method(Method::from_bytes(method.as_bytes()).expect("a method"))
            .uri(path)
            .header("content-type", "application/json")
            .body(Body::from(rest.to_vec()))
    } else {
        let Ok(tail) = std::str::from_utf8(rest) else {
            return;
        };
        Request::builder()
            .method(method)
            .uri(format!("{path}{tail}"))
            .body(Body::empty())
    };
    // Not a request at all (an invalid URI): no server sees it.
    let Ok(request) = request else {
        return;
    };
    let (runtime, router) = &*SERVER;
    let response = runtime
        .block_on(router.clone().oneshot(request))
        .expect("the router answers every request");
    let status = response.status();
    assert!(
        !status.is_server_error() || status.as_u16() == 503,
        "{method} {path}: {status} for {rest:?}"
    );
});
