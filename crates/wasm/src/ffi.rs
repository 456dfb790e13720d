//! The C functions the WebAssembly module exports, over [`Engine`]: byte buffers in and out
//! of the module's memory and one engine per handle (no global state: a page may hold
//! several). The JavaScript glue (`npm/connect4.mjs`) is their one caller:
//! 1. `c4_engine_new(tt_mib)` makes an engine and returns its handle;
//! 2. `c4_alloc(len)` reserves `len` bytes, which the caller fills (UTF-8 JSON, a path, a
//!    model file);
//! 3. `c4_call(engine, ptr, len)` answers the request in that buffer (and frees it) with a
//!    new buffer: a little-endian u32 length, then that many bytes of UTF-8 JSON; the caller
//!    frees it with `c4_free(ptr, 4 + length)`;
//! 4. `c4_add_model(engine, path_ptr, path_len, bytes_ptr, bytes_len)` holds a model file
//!    (and frees both buffers);
//! 5. `c4_set_book(engine, ptr, len)` reads an opening book file in place of the one held
//!    (and frees the buffer), answering as `c4_call` does;
//! 6. `c4_engine_free(engine)` drops the engine.
//!
//! The module imports one function, `env.c4_now_ms() -> f64` (see `connect4_engine::clock`).

use crate::Engine;

/// Takes back a buffer made by [`c4_alloc`].
///
/// # Safety
/// `ptr` and `len` must be those of a buffer from [`c4_alloc`] not freed yet.
unsafe fn take(ptr: *mut u8, len: usize) -> Box<[u8]> {
    // SAFETY: per the contract, this is the boxed slice `c4_alloc` leaked, of this length.
    unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) }
}

/// Reserves `len` zeroed bytes for the caller to fill; freed by the function it is passed to
/// or by [`c4_free`].
#[unsafe(no_mangle)]
pub extern "C" fn c4_alloc(len: usize) -> *mut u8 {
    Box::into_raw(vec![0u8; len].into_boxed_slice()).cast()
}

/// Frees a buffer of [`c4_alloc`] or an answer of [`c4_call`] (its length prefix included).
///
/// # Safety
/// `ptr` and `len` must be a buffer from this module not freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn c4_free(ptr: *mut u8, len: usize) {
    // SAFETY: forwarded contract.
    drop(unsafe { take(ptr, len) });
}

/// A new engine whose solver tables take `tt_mib` MiB; its handle for the other calls.
#[unsafe(no_mangle)]
pub extern "C" fn c4_engine_new(tt_mib: usize) -> *mut Engine {
    Box::into_raw(Box::new(Engine::new(tt_mib.clamp(1, 1024))))
}

/// Drops an engine.
///
/// # Safety
/// `engine` must be a handle from [`c4_engine_new`] not freed yet, used by no other call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn c4_engine_free(engine: *mut Engine) {
    // SAFETY: per the contract, the box `c4_engine_new` leaked.
    drop(unsafe { Box::from_raw(engine) });
}

/// Answers the JSON request in `ptr[..len]` (freed here) with a new length-prefixed buffer.
///
/// # Safety
/// `engine` must be a live handle of [`c4_engine_new`] and `ptr`/`len` a buffer of
/// [`c4_alloc`] not freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn c4_call(engine: *mut Engine, ptr: *mut u8, len: usize) -> *mut u8 {
    // SAFETY: forwarded contract.
    let request = unsafe { take(ptr, len) };
    // SAFETY: a live handle, used by this call alone (the module runs one call at a time).
    let engine = unsafe { &mut *engine };
    let answer = match std::str::from_utf8(&request) {
        Ok(text) => engine.call(text),
        Err(_) => serde_json::json!({ "error": "the request is not UTF-8" }).to_string(),
    };
    answer_buffer(&answer)
}

/// An answer as the caller reads it: a little-endian u32 length, then the UTF-8 JSON.
fn answer_buffer(answer: &str) -> *mut u8 {
    let mut out = Vec::with_capacity(4 + answer.len());
    out.extend_from_slice(&(answer.len() as u32).to_le_bytes());
    out.extend_from_slice(answer.as_bytes());
    Box::into_raw(out.into_boxed_slice()).cast()
}

/// Reads the opening book from the book file in `ptr[..len]` (freed here) in place of the
/// one held (see [`Engine::set_book`]); answers as [`c4_call`] does: `{"plies", "positions"}`
/// of the book now held, or `{"error": ...}`.
///
/// # Safety
/// `engine` must be a live handle of [`c4_engine_new`] and `ptr`/`len` a buffer of
/// [`c4_alloc`] not freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn c4_set_book(engine: *mut Engine, ptr: *mut u8, len: usize) -> *mut u8 {
    // SAFETY: forwarded contract.
    let bytes = unsafe { take(ptr, len) };
    // SAFETY: a live handle, used by this call alone.
    let engine = unsafe { &mut *engine };
    let answer = match engine.set_book(bytes.into_vec()) {
        Ok(summary) => serde_json::json!(summary),
        Err(e) => serde_json::json!({ "error": e.to_string() }),
    };
    answer_buffer(&answer.to_string())
}

/// Holds the model file `bytes` under the path `path` (both buffers of [`c4_alloc`], freed
/// here). Returns 0, or 1 when the path is not UTF-8.
///
/// # Safety
/// `engine` must be a live handle and both buffers from [`c4_alloc`], not freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn c4_add_model(
    engine: *mut Engine,
    path_ptr: *mut u8,
    path_len: usize,
    bytes_ptr: *mut u8,
    bytes_len: usize,
) -> u32 {
    // SAFETY: forwarded contract.
    let path = unsafe { take(path_ptr, path_len) };
    // SAFETY: forwarded contract.
    let bytes = unsafe { take(bytes_ptr, bytes_len) };
    // SAFETY: a live handle, used by this call alone.
    let engine = unsafe { &mut *engine };
    match std::str::from_utf8(&path) {
        Ok(p) => {
            engine.add_model(p, bytes.into_vec());
            0
        }
        Err(_) => 1,
    }
}

/// Sets the ladder JSON whose Elo the presets show (the buffer is freed here).
///
/// # Safety
/// `engine` must be a live handle and `ptr`/`len` a buffer of [`c4_alloc`] not freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn c4_set_ladder(engine: *mut Engine, ptr: *mut u8, len: usize) {
    // SAFETY: forwarded contract.
    let text = unsafe { take(ptr, len) };
    // SAFETY: a live handle, used by this call alone.
    let engine = unsafe { &mut *engine };
    engine.set_ladder(String::from_utf8_lossy(&text).into_owned());
}
