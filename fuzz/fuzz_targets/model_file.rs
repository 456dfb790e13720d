//! Model files of every kind (GBT, linear weights, n-tuple networks): a model or a typed error.
//!
//! Each input is read twice: as a whole file, and as a file's bytes before its checksum,
//! with the body's length and the sha256 set right ("sealed"), so that mutations reach the
//! header's and the body's decoders instead of stopping at the checksum.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sha2::{Digest, Sha256};

/// `data` made a file that passes the integrity checks: the body length field says what
/// follows it, and the checksum is the right one.
fn sealed(data: &[u8]) -> Option<Vec<u8>> {
    let hlen = u32::from_le_bytes(data.get(12..16)?.try_into().ok()?) as usize;
    let body_at = 16usize.checked_add(hlen)?;
    let body = data.len().checked_sub(body_at + 8)?;
    let mut out = data.to_vec();
    out[body_at..body_at + 8].copy_from_slice(&(body as u64).to_le_bytes());
    let sum = Sha256::digest(&out);
    out.extend_from_slice(&sum);
    Some(out)
}

fuzz_target!(|data: &[u8]| {
    let path = std::path::Path::new("fuzzed.bin");
    let _ = connect4_engine::ml::model_file::decode_any(path, data, None);
    if let Some(file) = sealed(data) {
        let _ = connect4_engine::ml::model_file::decode_any(path, &file, None);
    }
});
