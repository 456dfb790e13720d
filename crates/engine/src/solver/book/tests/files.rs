//! The book file's versions and their damage: refused when read, or found by the lookup
//! that reads it, never a wrong score or a panic.

use super::*;

#[test]
fn books_are_stored_as_key_gaps_and_the_older_versions_still_read() {
    let g = small();
    // Version 5: a byte a score and the keys as gaps, a few bytes a key where version 1
    // takes eight, and 16 bytes for every 64 keys; whole books and any other set of entries
    // alike. Version 4 is the same with 12-byte heads and a sha256, version 3 without heads.
    let book = made(g, 5);
    let partial = Book::new(g, 5, book.entries().skip(1)).unwrap();
    for b in [&book, &partial, &made(g, 9)] {
        let bytes = format::encode(b);
        assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 5);
        let gaps = u64::from_le_bytes(bytes[24..32].try_into().unwrap()) as usize;
        let heads = b.len().div_ceil(64);
        assert_eq!(bytes.len(), 40 + b.len() + gaps + 16 * heads);
        assert!(bytes.len() < 40 + 3 * b.len(), "{} bytes", bytes.len());
        let read = format::decode(&bytes, None).unwrap();
        assert_eq!(read, *b);
        for (k, s) in b.entries() {
            assert_eq!(read.get(k), Some(s));
        }
        assert!(read.check().is_ok() && read.damage().is_none());
        let v4 = format::encode_as(b, 4);
        assert_eq!(u16::from_le_bytes([v4[8], v4[9]]), 4);
        assert_eq!(v4.len(), 24 + 8 + b.len() + gaps + 12 * heads + 32);
        assert_eq!(format::decode(&v4, None).unwrap(), *b);
        // Read as version 4, written as version 5: the same bytes as written directly.
        assert_eq!(format::encode(&format::decode(&v4, None).unwrap()), bytes);
        let v3 = format::encode_as(b, 3);
        assert_eq!(u16::from_le_bytes([v3[8], v3[9]]), 3);
        assert_eq!(v3.len(), v4.len() - 12 * heads);
        assert_eq!(format::decode(&v3, None).unwrap(), *b);
    }
    // Version 1: keys and scores, eight bytes an entry.
    let v1 = format::encode_as(&partial, 1);
    assert_eq!(u16::from_le_bytes([v1[8], v1[9]]), 1);
    assert_eq!(v1.len(), 24 + 8 * partial.len() + 32);
    assert_eq!(format::decode(&v1, Some(g)).unwrap(), partial);
    // Version 2: a byte a position, the keys of a whole book enumerated again on load.
    let bytes = format::encode_as(&book, 2);
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 2);
    assert_eq!(bytes.len(), 24 + book.len() + 32);
    assert_eq!(format::decode(&bytes, Some(g)).unwrap(), book);
    assert_eq!(canonical_keys(g, 5).unwrap().len(), book.len());
    // A count that is not the depth's is refused (sha256 made to fit).
    let mut fewer = bytes[..bytes.len() - 33].to_vec();
    fewer[16..24].copy_from_slice(&(book.len() as u64 - 1).to_le_bytes());
    use sha2::Digest;
    let digest = sha2::Sha256::digest(&fewer);
    fewer.extend_from_slice(&digest);
    let e = format::decode(&fewer, Some(g)).unwrap_err().to_string();
    assert!(e.contains("where a book of 5 plies has"), "{e}");
}

/// `bytes` (a version-3 file) with its gaps replaced by `gaps` and the length and sha256
/// made to fit, so that only the gaps are wrong (a version-3 load checks every gap).
fn with_gaps(bytes: &[u8], gaps: &[u8]) -> Vec<u8> {
    let n = u64::from_le_bytes(bytes[16..24].try_into().unwrap()) as usize;
    let mut out = bytes[..24].to_vec();
    out.extend_from_slice(&(gaps.len() as u64).to_le_bytes());
    out.extend_from_slice(&bytes[32..32 + n]);
    out.extend_from_slice(gaps);
    use sha2::Digest;
    let digest = sha2::Sha256::digest(&out);
    out.extend_from_slice(&digest);
    out
}

#[test]
fn key_gaps_that_do_not_hold_are_refused() {
    let g = small();
    let book = made(g, 4);
    let partial = Book::new(g, 4, book.entries().skip(1)).unwrap();
    let bytes = format::encode_as(&partial, 3);
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 3);
    let n = partial.len();
    let gaps = bytes[32 + n..bytes.len() - 32].to_vec();
    assert_eq!(
        format::decode(&with_gaps(&bytes, &gaps), Some(g)).unwrap(),
        partial
    );
    let corrupt = |gaps: &[u8]| format::decode(&with_gaps(&bytes, gaps), Some(g)).unwrap_err();
    let e = corrupt(&gaps[..gaps.len() - 1]).to_string();
    assert!(e.contains("end after"), "{e}");
    let mut more = gaps.clone();
    more.push(1);
    let e = corrupt(&more).to_string();
    assert!(e.contains("1 bytes of key gaps left over"), "{e}");
    // A gap of 0 repeats a key; a number whose every byte says "more" never ends; a key
    // past 56 bits is no key.
    let mut repeat = gaps.clone();
    let last = repeat.len() - 1;
    repeat[last] = 0;
    let e = corrupt(&repeat).to_string();
    assert!(e.contains("out of order"), "{e}");
    let mut endless = gaps[..gaps.len() - 1].to_vec();
    endless.extend([0xff; 12]);
    let e = corrupt(&endless).to_string();
    assert!(e.contains("does not end"), "{e}");
    let mut far = gaps[..gaps.len() - 1].to_vec();
    far.extend([0xff; 8]);
    far.push(0x7f);
    let e = corrupt(&far).to_string();
    assert!(e.contains("past the key range"), "{e}");
    // Fewer bytes than keys cannot be gaps at all.
    let e = corrupt(&gaps[..n - 1]).to_string();
    assert!(e.contains("cannot hold"), "{e}");
    // A file cut inside the gaps is truncated, not corrupt.
    let e = format::decode(&bytes[..bytes.len() - 40], Some(g)).unwrap_err();
    assert!(matches!(e, BookError::Truncated(_)), "{e}");
    let e = format::decode(&bytes[..28], Some(g)).unwrap_err();
    assert!(matches!(e, BookError::Truncated(_)), "{e}");
}

/// `bytes` (a version-4 file) with the bytes from `at` on changed by `edit` and the sha256
/// made to fit.
fn edited(bytes: &[u8], edit: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut out = bytes[..bytes.len() - 32].to_vec();
    edit(&mut out);
    use sha2::Digest;
    let digest = sha2::Sha256::digest(&out);
    out.extend_from_slice(&digest);
    out
}

#[test]
fn version_4_checks_its_heads_at_load_and_each_block_as_it_is_read() {
    let g = small();
    let book = made(g, 6);
    assert!(
        book.len() > 3 * 64,
        "{} entries: several blocks",
        book.len()
    );
    let bytes = format::encode_as(&book, 4);
    let n = book.len();
    let heads = n.div_ceil(64);
    let heads_at = bytes.len() - 32 - 12 * heads;
    let gaps_at = 32 + n;
    // Heads out of order, or pointing past the gaps: refused at load.
    let swapped = edited(&bytes, |b| {
        let (one, two) = (heads_at, heads_at + 12);
        for i in 0..12 {
            b.swap(one + i, two + i);
        }
    });
    let e = format::decode(&swapped, Some(g)).unwrap_err().to_string();
    assert!(e.contains("block heads out of order"), "{e}");
    let far = edited(&bytes, |b| {
        let at = heads_at + 12 * (heads - 1) + 8;
        b[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    });
    let e = format::decode(&far, Some(g)).unwrap_err().to_string();
    assert!(e.contains("past the gaps"), "{e}");
    // A gap changed inside the second block: the file loads (only the heads are read), the
    // block answers nothing, the others still answer, the listing stays in order, and
    // verifying names the block.
    let second: Vec<(u64, i32)> = book.entries().skip(64).take(64).collect();
    let broken = edited(&bytes, |b| {
        // The gap of entry 70 one more or one less.
        let mut at = book.store.heads().nth(1).unwrap().next;
        for _ in 65..70 {
            while b[gaps_at + at] >= 0x80 {
                at += 1;
            }
            at += 1;
        }
        b[gaps_at + at] ^= 1;
    });
    let read = format::decode(&broken, Some(g)).unwrap();
    assert_eq!(read.get(second[0].0), None);
    assert_eq!(read.get(second[10].0), None);
    let (k, s) = book.entries().nth(200).unwrap();
    assert_eq!(read.get(k), Some(s));
    let keys: Vec<u64> = read.entries().map(|(k, _)| k).collect();
    assert_eq!(keys.len(), n - 64);
    assert!(keys.windows(2).all(|w| w[0] < w[1]));
    let quiet = crate::progress::Quiet;
    let e = verify(&read, 0, 1, 8, Some(1), &quiet)
        .unwrap_err()
        .to_string();
    assert!(e.contains("entries 64 to 127 do not hold together"), "{e}");
}

#[test]
fn verify_passes_a_sound_book_and_names_a_wrong_entry() {
    let g = small();
    let book = made(g, 4);
    let quiet = crate::progress::Quiet;
    let leaves = enumerate_leaves(g, 4).unwrap().len();
    let r = verify(&book, 10_000, 1, 8, Some(3), &quiet).unwrap();
    assert_eq!(
        (r.positions, r.leaves, r.sampled),
        (book.len(), leaves, leaves)
    );
    assert_eq!(verify(&book, 5, 1, 8, Some(1), &quiet).unwrap().sampled, 5);
    // A leaf scored wrongly, its ancestors made from it: the structure holds, the solver
    // disagrees.
    let mut scored = scored_leaves(g, 4);
    scored[7].2 = if scored[7].2 == 0 { 1 } else { 0 };
    let moves = scored[7].0.clone();
    let wrong = book_from_leaves(g, 4, scored).unwrap();
    assert_eq!(check_negamax(&wrong).unwrap(), wrong.len());
    match verify(&wrong, 10_000, 1, 8, Some(2), &quiet).unwrap_err() {
        VerifyError::Leaf { moves: m, .. } => assert_eq!(m, moves),
        e => panic!("{e}"),
    }
    // A shallower entry changed: its children say otherwise.
    let empty = Position::new(g).canonical_key();
    let changed = Book::new(
        g,
        4,
        book.entries()
            .map(|(k, s)| if k == empty { (k, s + 1) } else { (k, s) }),
    )
    .unwrap();
    let e = verify(&changed, 0, 1, 8, None, &quiet).unwrap_err();
    assert!(
        matches!(
            e,
            VerifyError::Structure(BuildError::Inconsistent { ref moves, .. }) if moves.is_empty()
        ),
        "{e}"
    );
    // A missing entry.
    let missing = Book::new(g, 4, book.entries().skip(3)).unwrap();
    let e = verify(&missing, 0, 1, 8, None, &quiet).unwrap_err();
    assert!(
        matches!(e, VerifyError::Structure(BuildError::Missing { .. })),
        "{e}"
    );
}

#[test]
fn no_damage_to_a_version_3_or_4_file_makes_decoding_or_reading_panic() {
    let g = small();
    let book = made(g, 5);
    for (version, seed) in [(3, 3), (4, 4)] {
        damage_never_panics(g, &format::encode_as(&book, version), seed);
    }
}

fn damage_never_panics(g: Geometry, bytes: &[u8], seed: u64) {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (mut refused, mut read) = (0, 0);
    for _ in 0..2_000 {
        // One to four bytes changed anywhere before the digest, the digest made to fit so
        // that the checks after it are what answer; sometimes the file cut as well.
        let mut b = bytes[..bytes.len() - 32].to_vec();
        for _ in 0..rng.gen_range(1..=4) {
            let i = rng.gen_range(8..b.len());
            b[i] = rng.r#gen();
        }
        if rng.gen_bool(0.2) {
            b.truncate(rng.gen_range(0..b.len()));
        }
        use sha2::Digest;
        let digest = sha2::Sha256::digest(&b);
        b.extend_from_slice(&digest);
        match format::decode(&b, Some(g)) {
            Ok(book) => {
                // What reads is a book: keys in order, every score in range, every key
                // listed found again (or nothing, a block beside it found damaged).
                let keys: Vec<u64> = book.entries().map(|(k, _)| k).collect();
                assert!(keys.windows(2).all(|w| w[0] < w[1]));
                assert!(book.entries().all(|(_, s)| s.abs() <= g.win_score(0)));
                assert!(book.entries().all(|(k, s)| match book.get(k) {
                    Some(got) => got == s,
                    None => book.damage().is_some(),
                }));
                read += 1;
            }
            Err(_) => refused += 1,
        }
    }
    assert!(
        refused > 1_000 && read > 0,
        "{refused} refused, {read} read"
    );
}

#[test]
fn damage_to_a_version_5_file_is_refused_or_found_never_a_wrong_score() {
    // One to four bytes changed anywhere (the header, the scores, the gaps, the heads), and
    // sometimes the file cut: the file is refused at load, or every lookup answers the
    // book's score or nothing, and nothing only once the damage is recorded. The flips that
    // open are not missed: each is found by a lookup or by a check.
    use rand::{Rng, SeedableRng};
    let g = small();
    let book = made(g, 6);
    let bytes = format::encode(&book);
    let entries: Vec<(u64, i32)> = book.entries().collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let (mut refused, mut found) = (0, 0);
    for _ in 0..400 {
        let mut b = bytes.clone();
        for _ in 0..rng.gen_range(1..=4) {
            let i = rng.gen_range(8..b.len());
            b[i] ^= rng.gen_range(1..=255u8);
        }
        if rng.gen_bool(0.2) {
            b.truncate(rng.gen_range(0..b.len()));
        }
        let Ok(read) = format::decode(&b, Some(g)) else {
            refused += 1;
            continue;
        };
        let mut missing = 0;
        for &(k, s) in &entries {
            match read.get(k) {
                Some(got) => assert_eq!(got, s, "key {k}"),
                None => missing += 1,
            }
        }
        assert_eq!(missing > 0, read.damage().is_some());
        assert!(read.check().is_err(), "a change went unnoticed");
        found += 1;
    }
    assert!(
        refused > 50 && found > 200,
        "{refused} refused, {found} found"
    );
}
