//! Decoder for Unix `compress` (.Z) files: LZW with 9- to 16-bit codes, least significant
//! bit first, and the format's quirk that codes come in groups of eight (a group of `n`-bit
//! codes is `n` bytes): when the code width grows or the table is cleared, the rest of the
//! current group is skipped. No maintained crate decodes this format (the LZW crates do the
//! GIF and TIFF variants), hence this small decoder.

use thiserror::Error;

/// Why a .Z stream could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LzwError {
    /// Missing the 0x1f 0x9d magic.
    #[error("not a Unix compress (.Z) stream: bad magic bytes")]
    Magic,
    /// Maximum code width outside 9..=16.
    #[error("unsupported maximum code width {0} (9 to 16 are valid)")]
    MaxBits(u8),
    /// A code that cannot occur at this point.
    #[error("corrupt stream: code {code} at bit {bit} (next free code {free})")]
    BadCode {
        /// The code read.
        code: u32,
        /// Its bit offset in the compressed data.
        bit: usize,
        /// The next table entry at that point.
        free: u32,
    },
}

const CLEAR: u32 = 256;

/// Decompresses a whole .Z stream.
pub fn decompress(data: &[u8]) -> Result<Vec<u8>, LzwError> {
    let (max_bits, block_mode) = header(data)?;
    let bad = |code, bit, free| LzwError::BadCode { code, bit, free };
    let body = &data[3..];
    let total_bits = body.len() * 8;
    let table_size = 1usize << max_bits;
    let mut prefix = vec![0u32; table_size];
    let mut suffix = vec![0u8; table_size];
    for (i, s) in suffix.iter_mut().enumerate().take(256) {
        *s = i as u8;
    }
    let first_free = if block_mode { 257 } else { 256 };
    let mut free = first_free;
    let mut n_bits = 9u32;
    let mut pos = 0usize;
    let mut group_start = 0usize;
    let mut old: Option<u32> = None;
    let mut first_char = 0u8;
    let mut out = Vec::with_capacity(body.len() * 3);
    let mut stack: Vec<u8> = Vec::with_capacity(table_size);
    // Skips to the end of the current group of eight codes.
    let align = |pos: usize, group_start: usize, n_bits: u32| {
        let group = n_bits as usize * 8;
        group_start + (pos - group_start).div_ceil(group) * group
    };
    while pos + n_bits as usize <= total_bits {
        // The next entry no longer fits the code width: widen (unless at the maximum).
        if free > (1u32 << n_bits) - 1 && n_bits < u32::from(max_bits) {
            pos = align(pos, group_start, n_bits);
            group_start = pos;
            n_bits += 1;
            continue;
        }
        let code = read_bits(body, pos, n_bits);
        let at = pos;
        pos += n_bits as usize;
        let Some(prev) = old else {
            if code >= 256 {
                return Err(bad(code, at, free));
            }
            first_char = code as u8;
            out.push(first_char);
            old = Some(code);
            continue;
        };
        if block_mode && code == CLEAR {
            free = first_free - 1;
            pos = align(pos, group_start, n_bits);
            group_start = pos;
            n_bits = 9;
            old = None;
            // The next code is a literal again, as at the start; the CLEAR itself took the
            // entry 256, so the first new entry is 257.
            free += 1;
            continue;
        }
        stack.clear();
        let c = if code >= free {
            // The KwKwK case: the code being defined right now.
            if code > free {
                return Err(bad(code, at, free));
            }
            stack.push(first_char);
            prev
        } else {
            code
        };
        first_char = spell(c, &prefix, &suffix, &mut stack);
        out.extend(stack.iter().rev());
        if (free as usize) < table_size {
            prefix[free as usize] = prev;
            suffix[free as usize] = first_char;
            free += 1;
        }
        old = Some(code);
    }
    Ok(out)
}

/// The header's code width limit and block mode, checked (the magic `1f 9d`, then 9 to 16
/// bits).
fn header(data: &[u8]) -> Result<(u8, bool), LzwError> {
    if data.len() < 3 || data[0] != 0x1f || data[1] != 0x9d {
        return Err(LzwError::Magic);
    }
    let max_bits = data[2] & 0x1f;
    if !(9..=16).contains(&max_bits) {
        return Err(LzwError::MaxBits(max_bits));
    }
    Ok((max_bits, data[2] & 0x80 != 0))
}

/// Pushes the string of `code` onto `stack`, last byte first, and returns its first byte.
fn spell(mut code: u32, prefix: &[u32], suffix: &[u8], stack: &mut Vec<u8>) -> u8 {
    while code >= 256 {
        stack.push(suffix[code as usize]);
        code = prefix[code as usize];
    }
    stack.push(code as u8);
    code as u8
}

/// `n` bits at bit offset `pos`, least significant bit first.
fn read_bits(data: &[u8], pos: usize, n: u32) -> u32 {
    let byte = pos / 8;
    let mut word = 0u32;
    for i in 0..3 {
        if let Some(&b) = data.get(byte + i) {
            word |= u32::from(b) << (8 * i);
        }
    }
    (word >> (pos % 8)) & ((1 << n) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal LZW encoder in the same format (9-bit codes only, no clears), to test the
    /// decoder on inputs whose output is known.
    fn encode9(input: &[u8]) -> Vec<u8> {
        use std::collections::HashMap;
        let mut dict: HashMap<Vec<u8>, u32> = (0..256u32).map(|i| (vec![i as u8], i)).collect();
        let mut next = 257u32;
        let mut codes = Vec::new();
        let mut w: Vec<u8> = Vec::new();
        for &c in input {
            let mut wc = w.clone();
            wc.push(c);
            if dict.contains_key(&wc) {
                w = wc;
            } else {
                codes.push(dict[&w]);
                if next < 511 {
                    dict.insert(wc, next);
                    next += 1;
                }
                w = vec![c];
            }
        }
        if !w.is_empty() {
            codes.push(dict[&w]);
        }
        let mut out = vec![0x1f, 0x9d, 0x80 | 9];
        let (mut acc, mut nacc) = (0u64, 0);
        for code in codes {
            acc |= u64::from(code) << nacc;
            nacc += 9;
            while nacc >= 8 {
                out.push(acc as u8);
                acc >>= 8;
                nacc -= 8;
            }
        }
        if nacc > 0 {
            out.push(acc as u8);
        }
        out
    }

    #[test]
    fn decodes_known_inputs_including_kwkwk() {
        for input in [
            &b"TOBEORNOTTOBEORTOBEORNOT"[..],
            b"aaaaaaaaaaaaaaaa",
            b"x",
            b"abababababab",
        ] {
            assert_eq!(decompress(&encode9(input)).unwrap(), input);
        }
    }

    #[test]
    fn rejects_bad_streams() {
        assert_eq!(decompress(b"PK\x03\x04"), Err(LzwError::Magic));
        assert_eq!(decompress(&[0x1f, 0x9d, 0x88]), Err(LzwError::MaxBits(8)));
        // First code must be a literal: 300 as a 9-bit code.
        let bad = [0x1f, 0x9d, 0x90, 0x2c, 0x01];
        assert!(matches!(
            decompress(&bad),
            Err(LzwError::BadCode { code: 300, .. })
        ));
    }
}

#[cfg(test)]
mod shipped_file {
    /// The real archive member (the repository ships it in data/uci): decompressing it must
    /// give the published file exactly.
    #[test]
    fn decompresses_the_published_file() {
        let z = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join("data/uci/connect-4.data.Z");
        let bytes = std::fs::read(&z).unwrap_or_else(|e| {
            panic!("{} is missing ({e}): the repository ships it", z.display())
        });
        let out = super::decompress(&bytes).unwrap();
        assert_eq!(
            connect4_engine::io::sha256_hex(&out),
            crate::datasets::uci::UCI_SHA256
        );
    }
}
